#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a file looked like when it was read; a write goes ahead only if it still does.
public struct FileFingerprint: Sendable, Equatable {
    var size: Int
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var inode: UInt64
    var mode: mode_t
}

/// Reading and atomically replacing files with POSIX calls, so that FIFOs and devices are never
/// opened for a blocking read, and a write is temp file + fsync + rename with the mode kept.
public enum FileIO {
    /// Temp files this tool creates carry this marker; `--write` removes stale ones.
    public static let tempMarker = ".plist-migrate-tmp"
    /// Larger files are refused unread: real Info.plists are kilobytes, and the tree of a huge
    /// file would cost memory out of proportion.
    public static let maximumSize = 32 << 20

    public static func load(_ path: String) throws(FileError) -> (bytes: [UInt8], fingerprint: FileFingerprint) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileError("cannot open: \(errnoText())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError("cannot stat: \(errnoText())") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileError(info.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "not a regular file")
        }
        guard Int(info.st_size) <= maximumSize else {
            throw FileError("file too large (\(Int(info.st_size) >> 20) MiB; the limit is \(maximumSize >> 20) MiB)")
        }
        // Reads the size fstat gave: a file that grows meanwhile has another fingerprint, and
        // `replace` refuses to overwrite it.
        let size = Int(info.st_size)
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
        return (bytes, fingerprint(info))
    }

    /// Replaces `path` (or, for a symlink, its target) with `bytes`, atomically, provided the
    /// file still matches `expected` and `original`.
    public static func replace(
        _ path: String, with bytes: [UInt8], expected: FileFingerprint, original: [UInt8]
    ) throws(FileError) {
        guard let resolved = realpath(path, nil) else { throw FileError("cannot resolve path: \(errnoText())") }
        let target = String(cString: resolved)
        free(resolved)
        let (current, now) = try load(target)
        guard now == expected, current == original else {
            throw FileError("changed on disk since it was read; not overwritten")
        }
        guard now.mode & 0o222 != 0 else { throw FileError("file is read-only; not overwritten") }
        let directory = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
        let name = target.split(separator: "/").last.map(String.init) ?? target
        let temp = "\(directory.isEmpty ? "" : directory)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max))\(tempMarker)"
        // `.NAME.PID.RANDOM.plist-migrate-tmp`: removeStaleTemporaryFile relies on this shape.
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, now.mode & 0o7777)
        guard fd >= 0 else { throw FileError("cannot create a temporary file beside it: \(errnoText())") }
        var ok = false
        defer {
            if !ok { unlink(temp) }
        }
        do {
            defer { close(fd) }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw FileError("cannot write: \(errnoText())")
                }
                written += count
            }
            guard fchmod(fd, now.mode & 0o7777) == 0, fsync(fd) == 0 else {
                throw FileError("cannot flush: \(errnoText())")
            }
        }
        guard rename(temp, target) == 0 else { throw FileError("cannot replace: \(errnoText())") }
        ok = true
        let dirFD = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    private static func fingerprint(_ info: stat) -> FileFingerprint {
        #if canImport(Darwin)
        let mtime = info.st_mtimespec
        #else
        let mtime = info.st_mtim
        #endif
        return FileFingerprint(
            size: Int(info.st_size), modifiedSeconds: Int(mtime.tv_sec), modifiedNanoseconds: Int(mtime.tv_nsec),
            inode: UInt64(info.st_ino), mode: info.st_mode)
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}

extension FileIO {
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// `path` made absolute against the working directory, with `.` and `..` steps resolved
    /// textually (symlinks are not resolved).
    static func absolute(_ path: String) -> String {
        var base = ""
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil { base = String(cString: buffer) }
        }
        var parts: [Substring] = []
        for part in (base + "/" + path).split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }
}

extension FileIO {
    /// Removes a temp file left by a `--write` that was killed: one with this tool's name
    /// shape whose process no longer runs. Returns whether it was removed.
    @discardableResult
    public static func removeStaleTemporaryFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasPrefix("."), name.hasSuffix(tempMarker) else { return false }
        let fields = name.dropLast(tempMarker.count).split(separator: ".")
        guard fields.count >= 3, let pid = Int32(fields[fields.count - 2]) else { return false }
        if pid == getpid() || kill(pid, 0) == 0 { return false }
        return unlink(path) == 0
    }
}
