#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entries of an open directory, read with the fewest system calls the system allows.
///
/// On Linux a bare descriptor is read with `getdents64` into a 32 KiB buffer: a directory costs
/// `openat`, `getdents64` until it returns 0, and `close`, where `opendir` (or `fdopendir`) and
/// `readdir` add an `fstat` (and two `fcntl`) per directory and read 32 KiB at most anyway.
/// Elsewhere, and where the C library has no `getdents64`, `fdopendir` and `readdir` on a
/// duplicate of the descriptor.
public enum DirectoryEntries {
    /// Calls `body` with each entry's name (its bytes, without the NUL) and type (`DT_DIR`,
    /// `DT_REG`, `DT_LNK`, `DT_UNKNOWN`…), `.` and `..` included. The descriptor stays open.
    /// Inlined where it is called: the closure, called for every entry, is then no call at all.
    @inlinable
    public static func forEach(in descriptor: Int32, _ body: (UnsafeRawBufferPointer, Int32) -> Void) {
        #if os(Linux)
        if let getdents = getdents64 {
            withUnsafeTemporaryAllocation(byteCount: 32_768, alignment: 8) { buffer in
                while true {
                    let count = getdents(descriptor, buffer.baseAddress, buffer.count)
                    guard count > 0 else { return }
                    var offset = 0
                    while offset < count {
                        // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
                        let record = buffer.baseAddress! + offset
                        let length = Int(record.loadUnaligned(fromByteOffset: 16, as: UInt16.self))
                        let type = Int32(record.load(fromByteOffset: 18, as: UInt8.self))
                        let name = (record + 19).assumingMemoryBound(to: CChar.self)
                        body(UnsafeRawBufferPointer(start: name, count: strlen(name)), type)
                        guard length > 0 else { return }
                        offset += length
                    }
                }
            }
            return
        }
        #endif
        // readdir owns and closes what it is given: a duplicate.
        let copy = dup(descriptor)
        guard copy >= 0, let handle = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return
        }
        defer { closedir(handle) }
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(handle) {
            // Read through the pointer up to its NUL: the last entry of readdir's buffer may be
            // shorter than `dirent`.
            let start = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
            body(UnsafeRawBufferPointer(start: start, count: strlen(start)), Int32(entry.pointee.d_type))
        }
    }

    /// `forEach` on the directory at `path` (C bytes, NUL-terminated), opened for the listing
    /// alone; `false` when it cannot be opened.
    @inlinable @discardableResult
    public static func forEach(at path: UnsafePointer<CChar>, _ body: (UnsafeRawBufferPointer, Int32) -> Void) -> Bool {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        forEach(in: descriptor, body)
        return true
    }

    #if os(Linux)
    /// glibc's `getdents64` (2.30 and later), which Swift's Glibc module does not declare.
    @usableFromInline
    static let getdents64: (@convention(c) (Int32, UnsafeMutableRawPointer?, Int) -> Int)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getdents64") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafeMutableRawPointer?, Int) -> Int).self)
    }()
    #endif
}
