// Reading files whole, with their identity (a later write compares it), and paths made absolute
// without the file system: what the run, the project readers and the generators' readers share.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a file looked like when it was read; a write goes ahead only if it still does.
public struct FileFingerprint: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int
    public var changedSeconds: Int
    public var changedNanoseconds: Int
    public var mode: mode_t
    public var links: Int
    public var owner: uid_t
    public var group: gid_t
}

/// Reading and atomically replacing files with POSIX calls, so that FIFOs and devices are never
/// opened for a blocking read, and a write is temp file + fsync + rename with the mode kept.
public enum FileIO {
    /// Larger files are refused unread: real Info.plists are kilobytes, and the tree of a huge
    /// file would cost memory out of proportion.
    public static let maximumSize = 32 << 20

    /// The path with every symbolic link and `.`/`..` resolved, or the `errno` that stopped it.
    public static func canonicalPath(_ path: String) -> Result<String, SystemError> {
        guard let resolved = realpath(path, nil) else { return .failure(SystemError(code: errno)) }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// The file's bytes and its fingerprint. `stated` is what a `stat` of the path said before
    /// (a path named on the command line is looked at to tell a folder from a file): given,
    /// the open file is not asked again, and that is its fingerprint (a change between the two
    /// would then make a write refuse the file, so writes do not pass it).
    public static func load(_ path: String, limit maximumSize: Int = maximumSize, stated: FileFingerprint? = nil) throws(FileError) -> (bytes: [UInt8], fingerprint: FileFingerprint) {
        let fd = PathBytes.withC(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw FileError("cannot open: \(openFailureText(path))") }
        defer { close(fd) }
        let fingerprint: FileFingerprint
        if let stated {
            fingerprint = stated
        } else {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw FileError("cannot stat: \(errnoText())") }
            fingerprint = Self.fingerprint(info)
        }
        guard fingerprint.mode & S_IFMT == S_IFREG else {
            throw FileError(fingerprint.mode & S_IFMT == S_IFDIR ? "is a directory" : "not a regular file")
        }
        guard fingerprint.size <= maximumSize else {
            throw FileError("file too large (\(fingerprint.size) bytes; the limit is \(maximumSize) bytes, \(maximumSize >> 20) MiB)")
        }
        // Reads the size the fingerprint gave: a file that grows meanwhile has another
        // fingerprint, and `replace` refuses to overwrite it.
        let size = fingerprint.size
        var failure: FileError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var total = 0
            while total < size {
                let count = read(fd, buffer.baseAddress! + total, size - total)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { failure = FileError("cannot read: \(errnoText())") }
                if count <= 0 { break }
                total += count
            }
            initialized = total
        }
        if let failure { throw failure }
        return (bytes, fingerprint)
    }

    public static func fingerprint(_ info: stat) -> FileFingerprint {
        #if canImport(Darwin)
        let (mtime, ctime) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (mtime, ctime) = (info.st_mtim, info.st_ctim)
        #endif
        return FileFingerprint(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
            modifiedSeconds: Int(mtime.tv_sec), modifiedNanoseconds: Int(mtime.tv_nsec),
            changedSeconds: Int(ctime.tv_sec), changedNanoseconds: Int(ctime.tv_nsec),
            mode: info.st_mode, links: Int(info.st_nlink), owner: info.st_uid, group: info.st_gid)
    }

    /// Why `open`/`realpath` failed on `path`, naming symbolic-link loops and dangling links.
    public static func openFailureText(_ path: String) -> String {
        let code = errno
        var info = stat()
        if code == ELOOP { return "symbolic link loop" }
        if code == ENOENT, lstat(PathBytes.c(path), &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            return "dangling symbolic link (its target does not exist)"
        }
        errno = code
        return errnoText()
    }

    /// `strerror(errno)` as the middle of a sentence: `permission denied`.
    public static func errnoText() -> String {
        let text = String(cString: strerror(errno))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

extension FileIO {
    /// What `stat` says of `path` (links followed), or `nil` where it says nothing (`errno` tells why).
    public static func stated(_ path: String) -> FileFingerprint? {
        var info = stat()
        return stat(PathBytes.c(path), &info) == 0 ? fingerprint(info) : nil
    }

    public static func exists(_ path: String) -> Bool { stated(path) != nil }

    /// The working directory, read once: the tool never changes it, and a run resolves every
    /// relative path against the same one.
    public static let workingDirectory: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "" }
        return PathBytes.string(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }()

    /// Whether `path` has no `.` or `..` step, no empty step (`//`) and no trailing `/` (a
    /// leading `/` is fine): `absolute` has nothing to resolve in it.
    public static func isPlain(_ path: String) -> Bool {
        if path == "/" { return true }
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        // One pass: the length of the current step, and whether it is only dots so far.
        var stepLength = 0, onlyDots = true, first = true
        // Over the bytes in place: walking `utf8` costs several instructions a byte.
        var text = path
        let badStep = text.withUTF8 { bytes in
            // An empty path or a trailing `/` is not plain.
            guard let last = bytes.last, last != slash else { return true }
            for byte in bytes {
                if byte == slash {
                    if stepLength == 0 && !first { return true }
                    if stepLength > 0, onlyDots, stepLength <= 2 { return true }
                    stepLength = 0
                    onlyDots = true
                    first = false
                } else {
                    stepLength += 1
                    onlyDots = onlyDots && byte == dot
                }
            }
            return false
        }
        if badStep { return false }
        return !(onlyDots && stepLength <= 2)
    }

    /// Whether the working directory is plain, worked out once.
    private static let workingDirectoryIsPlain = isPlain(workingDirectory)
    /// What a relative path is joined to, with a `/` between: the working directory (empty
    /// for `/`).
    private static let workingDirectoryHead = workingDirectory == "/" ? "" : workingDirectory

    /// An absolute path's C bytes (no terminating zero) turned, in place, into the same file's
    /// path from the working directory when it lies inside it (`.` for the working directory
    /// itself): the same file for every system call (the tool never changes its working
    /// directory), with fewer steps for the kernel to walk.
    public static func trimWorkingDirectory(_ path: inout [CChar]) {
        let base = workingDirectoryBytes
        guard !base.isEmpty, path.count >= base.count,
            path.withUnsafeBufferPointer({ bytes in base.withUnsafeBufferPointer { memcmp(bytes.baseAddress!, $0.baseAddress!, base.count) == 0 } })
        else { return }
        if path.count == base.count {
            path = [CChar(UInt8(ascii: "."))]
        } else if base == [CChar(UInt8(ascii: "/"))] {
            path.removeFirst()
        } else if path[base.count] == CChar(UInt8(ascii: "/")) {
            path.removeFirst(base.count + 1)
        }
    }

    private static let workingDirectoryBytes: [CChar] = workingDirectory.isEmpty ? [] : Array(PathBytes.c(workingDirectory).dropLast())

    /// `absolute(_:)` for the command line's own checks.
    public static func absolutePath(_ path: String) -> String { absolute(path) }

    /// `path` made absolute against the working directory, with `.` and `..` steps resolved
    /// textually (symlinks are not resolved).
    public static func absolute(_ path: String) -> String {
        let base = path.hasPrefix("/") ? "" : workingDirectory
        // Already plain (no `.`, `..` or empty steps, no trailing `/`): nothing to resolve.
        if isPlain(path), base.isEmpty || workingDirectoryIsPlain {
            if base.isEmpty { return path }
            return PathBytes.joined(workingDirectoryHead, path)
        }
        return PathText.standardized(base + "/" + path)
    }
}

/// An `errno` value.
public struct SystemError: Error, Sendable {
    public var code: Int32
}
