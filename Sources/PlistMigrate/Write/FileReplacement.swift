#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileAccess

/// How a replacement ended when it did not throw.
public enum ReplaceOutcome: Sendable, Equatable {
    /// The new bytes are in place.
    case replaced
    /// The file already held exactly the new bytes (another run wrote them): nothing to do.
    case alreadyCurrent
}

extension FileIO {
    /// Replaces `path` (or, for a symlink, its target) with `bytes`, atomically, provided the
    /// file still is what was read (`expected`, `original`), and keeps its identity.
    ///
    /// 1. Refuses what cannot be replaced without loss: a file this user may not write (by the
    ///    real permission, `faccessat`: a read-only mount, an immutable file, another user's
    ///    file; root may write a 0444 file, as `sed -i` would, and it keeps its mode), a file with other hard
    ///    links (replacing it would split them), a file already open for writing elsewhere.
    /// 2. Writes a temp file beside it with the same owner, group, mode and extended attributes
    ///    (ACLs included), and syncs it.
    /// 3. At the last moment before `rename`, compares the file's identity (device, inode, size,
    ///    modification and change times, links, owner) and its bytes with what was read.
    /// 4. On Linux a read lease on the file, taken before the temp file is written, catches any
    ///    process that opens it for writing meanwhile. The new file is swapped in atomically
    ///    (`RENAME_EXCHANGE`), so that if a writer opens the original during the swap, the
    ///    original is swapped back and that writer's bytes land in the file. What the swap took
    ///    out must be the very file that was read (the inode of the watched descriptor): a program
    ///    that renamed its own version over the path meanwhile (editors, `sed -i`, Xcode) breaks
    ///    no lease, so its file is swapped back in place and ours dropped.
    @discardableResult
    public static func replace(
        _ path: String, with bytes: [UInt8], expected: FileFingerprint, original: [UInt8]
    ) throws(FileError) -> ReplaceOutcome {
        try replace(path, with: bytes, expected: expected, original: original, beforeSwap: {})
    }

    /// `beforeSwap` runs between the last-moment check and the swap: tests use it to be another
    /// program acting in that window, deterministically.
    @discardableResult
    static func replace(
        _ path: String, with bytes: [UInt8], expected: FileFingerprint, original: [UInt8], beforeSwap: () -> Void
    ) throws(FileError) -> ReplaceOutcome {
        guard let resolved = realpath(PathBytes.c(path), nil) else {
            throw FileError("cannot resolve path: \(openFailureText(path))")
        }
        let target = PathBytes.string(UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
        free(resolved)
        let watch = try WatchedFile(target)
        defer { watch.release() }
        let (current, now) = try loadAtPath(target)
        if current == bytes, now != expected || current != original { return .alreadyCurrent }
        guard now == expected, current == original else {
            // Another run may have swapped exactly our result in while this read the file it
            // replaced (whose change time its rename moved): the path, read again, tells.
            if (try? loadAtPath(target))?.bytes == bytes { return .alreadyCurrent }
            throw FileError("changed on disk since it was read; not overwritten")
        }
        guard faccessat(AT_FDCWD, PathBytes.c(target), W_OK, AT_EACCESS) == 0 else {
            throw FileError("not writable by this user (\(errnoText())); not overwritten")
        }
        guard now.links == 1 else {
            throw FileError("has \(now.links) hard links; replacing it would leave the other names with the old content; not overwritten")
        }
        let directory = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
        let name = target.split(separator: "/").last.map(String.init) ?? target
        let temp = temporaryName(in: directory, for: name)
        let fd = open(PathBytes.c(temp), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError("cannot create a temporary file beside it: \(errnoText())") }
        var renamed = false
        defer {
            if !renamed { unlink(PathBytes.c(temp)) }
        }
        do {
            defer { close(fd) }
            try writeAll(bytes, to: fd)
            try keepIdentity(of: watch.descriptor, expected, on: fd)
            guard fsync(fd) == 0 else { throw FileError("cannot flush: \(errnoText())") }
        }

        // The last moment: nothing but the rename comes after this check.
        let (last, lastPrint) = try loadAtPath(target)
        if last == bytes, lastPrint != expected { return .alreadyCurrent }
        guard lastPrint == expected, last == original, !watch.writerArrived else {
            if !watch.writerArrived, (try? loadAtPath(target))?.bytes == bytes { return .alreadyCurrent }
            throw FileError("changed on disk while it was being rewritten; not overwritten")
        }
        beforeSwap()
        if let exchanged = exchange(temp, target) {
            guard exchanged == 0 else { throw FileError("cannot replace: \(errnoText())") }
            // The original now sits under the temp name, where the deferred unlink removes it
            // unless a writer opened it during the swap, or it is not the file read at all
            // (another program renamed its version over the path): then it goes back in place,
            // that program's bytes stay in the file, and our version is dropped.
            let swappedOutWasRead = isSameFile(temp, as: watch.descriptor)
            if watch.writerArrived || !swappedOutWasRead {
                guard exchange(temp, target) == 0 else {
                    renamed = true  // the other version is under the temp name: keep it
                    throw FileError("changed on disk while being replaced, and cannot be swapped back (\(errnoText())); "
                        + "the other version is kept as \(PathBytes.display(temp))")
                }
                syncDirectory(directory)
                // Another run that swapped in exactly our result is no conflict.
                if !swappedOutWasRead, !watch.writerArrived, (try? load(target))?.bytes == bytes { return .alreadyCurrent }
                throw FileError(swappedOutWasRead
                    ? "opened for writing by another process while being replaced; not overwritten"
                    : "replaced on disk by another program while being rewritten; not overwritten")
            }
        } else {
            guard rename(PathBytes.c(temp), PathBytes.c(target)) == 0 else { throw FileError("cannot replace: \(errnoText())") }
            renamed = true
        }
        syncDirectory(directory)
        return .replaced
    }

    #if os(Linux)
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let renameAt2: RenameAt2? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()
    #endif

    /// Swaps two paths atomically (`renameat2` with `RENAME_EXCHANGE`): 0, -1 with `errno`, or
    /// `nil` where the system or the file system cannot.
    private static func exchange(_ first: String, _ second: String) -> Int32? {
        #if os(Linux)
        guard let renameAt2 else { return nil }
        let result = renameAt2(AT_FDCWD, PathBytes.c(first), AT_FDCWD, PathBytes.c(second), 2)
        if result != 0 && (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP) { return nil }
        return result
        #else
        return nil
        #endif
    }

    /// Whether `path` names the file open as `descriptor` (same device and inode).
    private static func isSameFile(_ path: String, as descriptor: Int32) -> Bool {
        var named = stat(), open = stat()
        guard lstat(PathBytes.c(path), &named) == 0, fstat(descriptor, &open) == 0 else { return false }
        return named.st_dev == open.st_dev && named.st_ino == open.st_ino
    }

    /// The file now at `path`. A file renamed away between its `open` and `fstat` (another run
    /// swapping in its result) shows its old bytes with a new change time: read again until the
    /// path still names the inode read.
    static func loadAtPath(_ path: String) throws(FileError) -> (bytes: [UInt8], fingerprint: FileFingerprint) {
        var loaded = try load(path)
        for _ in 0..<8 {
            var info = stat()
            guard stat(PathBytes.c(path), &info) == 0 else { break }
            if UInt64(info.st_ino) == loaded.fingerprint.inode && UInt64(info.st_dev) == loaded.fingerprint.device { break }
            loaded = try load(path)
        }
        return loaded
    }

    /// `.NAME.PID.RANDOM.plist-migrate-tmp`: `removeStaleTemporaryFile` relies on this shape.
    static func temporaryName(in directory: String, for name: String) -> String {
        "\(directory.isEmpty ? "" : directory)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max))\(tempMarker)"
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(FileError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError("cannot write: \(errnoText()); not overwritten")
            }
            written += count
        }
    }

    /// Owner and group first (changing them may clear set-user-ID bits), then the mode, then
    /// every extended attribute (ACLs are `system.posix_acl_*` attributes on Linux).
    private static func keepIdentity(of source: Int32, _ original: FileFingerprint, on fd: Int32) throws(FileError) {
        if original.owner != geteuid() || original.group != getegid() {
            guard fchown(fd, original.owner, original.group) == 0 else {
                throw FileError("cannot keep its owner and group (uid \(original.owner), gid \(original.group)) "
                    + "as this user: \(errnoText()); not overwritten")
            }
        }
        guard fchmod(fd, original.mode & 0o7777) == 0 else {
            throw FileError("cannot keep its mode: \(errnoText()); not overwritten")
        }
        try ExtendedAttributes.copy(from: source, to: fd)
    }

    private static func syncDirectory(_ directory: String) {
        let dirFD = open(PathBytes.c(directory.isEmpty ? "/" : directory), O_RDONLY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }
}

/// The file being replaced, open for reading: the source of its extended attributes and, on
/// Linux, the holder of a read lease that any open for writing breaks.
private final class WatchedFile {
    let descriptor: Int32
    private(set) var isLeased = false

    init(_ path: String) throws(FileError) {
        descriptor = open(PathBytes.c(path), O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError("cannot open: \(FileIO.openFailureText(path))") }
        #if os(Linux)
        Self.ignoreLeaseSignals
        if fcntl(descriptor, Self.setLease, Int32(F_RDLCK)) == 0 {
            isLeased = true
        } else if errno == EAGAIN {
            close(descriptor)
            throw FileError("open for writing by another process; not overwritten")
        }
        // Other failures (a file system without leases, another user's file without CAP_LEASE):
        // the last-moment comparison alone guards the write.
        #endif
    }

    /// Whether some process has opened the file for writing since the lease was taken.
    var writerArrived: Bool {
        #if os(Linux)
        return isLeased && fcntl(descriptor, Self.getLease) != Int32(F_RDLCK)
        #else
        return false
        #endif
    }

    func release() {
        #if os(Linux)
        if isLeased { _ = fcntl(descriptor, Self.setLease, Int32(F_UNLCK)) }
        #endif
        close(descriptor)
    }

    #if os(Linux)
    /// `F_SETLEASE` and `F_GETLEASE` (Linux, `F_LINUX_SPECIFIC_BASE + 0/1`); not in Swift's Glibc.
    private static let setLease: Int32 = 1024
    private static let getLease: Int32 = 1025
    /// A broken lease is signalled with SIGIO, whose default action ends the process; the
    /// lease is polled instead.
    private static let ignoreLeaseSignals: Void = { signal(SIGIO, SIG_IGN) }()
    #endif
}
