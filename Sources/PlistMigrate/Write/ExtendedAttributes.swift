#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileAccess

/// Copies every extended attribute of one open file to another (on Linux the ACLs are among
/// them, as `system.posix_acl_access`), so that a replaced file keeps them. A copy that fails is
/// an error: an attribute is never dropped silently.
enum ExtendedAttributes {
    static func copy(from source: Int32, to destination: Int32) throws(FileError) {
        for name in try names(source) {
            guard let value = value(name, of: source) else {
                throw FileError("cannot read extended attribute \(name): \(FileIO.errnoText()); not overwritten")
            }
            if set(name, value, on: destination) != 0 {
                let failure = FileIO.errnoText()
                // A label the system gives every new file (e.g. SELinux's) may be set already.
                if Self.value(name, of: destination) == value { continue }
                throw FileError("cannot keep extended attribute \(name): \(failure); not overwritten")
            }
        }
    }

    /// The attribute names of `fd`; none where the file system has no extended attributes.
    static func names(_ fd: Int32) throws(FileError) -> [String] {
        var size = list(fd, nil, 0)
        while true {
            if size < 0 {
                if errno == ENOTSUP || errno == ENOSYS { return [] }
                throw FileError("cannot list extended attributes: \(FileIO.errnoText()); not overwritten")
            }
            if size == 0 { return [] }
            var buffer = [CChar](repeating: 0, count: size)
            let got = list(fd, &buffer, size)
            if got < 0 && errno == ERANGE {
                size = list(fd, nil, 0)
                continue
            }
            if got < 0 { size = got; continue }
            return buffer[..<got].split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
    }

    static func value(_ name: String, of fd: Int32) -> [UInt8]? {
        while true {
            let size = get(fd, name, nil, 0)
            guard size >= 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: size)
            let got = buffer.withUnsafeMutableBytes { get(fd, name, $0.baseAddress, size) }
            if got < 0 && errno == ERANGE { continue }
            return got < 0 ? nil : Array(buffer[..<got])
        }
    }

    static func set(_ name: String, _ value: [UInt8], on fd: Int32) -> Int32 {
        value.withUnsafeBytes { put(fd, name, $0.baseAddress, value.count) }
    }

    #if os(Linux)
    // Swift's Glibc module does not export <sys/xattr.h>; the C library's functions are looked
    // up once by name.
    private typealias ListFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int
    private typealias GetFunction = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    private typealias SetFunction = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32

    private static func function<F>(_ name: String, as type: F.Type) -> F? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(symbol, to: F.self)
    }

    private static let listFunction = function("flistxattr", as: ListFunction.self)
    private static let getFunction = function("fgetxattr", as: GetFunction.self)
    private static let setFunction = function("fsetxattr", as: SetFunction.self)

    private static func list(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int {
        guard let listFunction else { errno = ENOTSUP; return -1 }
        return listFunction(fd, buffer, size)
    }

    private static func get(_ fd: Int32, _ name: String, _ buffer: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        guard let getFunction else { errno = ENOTSUP; return -1 }
        return getFunction(fd, name, buffer, size)
    }

    private static func put(_ fd: Int32, _ name: String, _ value: UnsafeRawPointer?, _ size: Int) -> Int32 {
        guard let setFunction else { errno = ENOTSUP; return -1 }
        return setFunction(fd, name, value, size, 0)
    }
    #else
    private static func list(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int {
        flistxattr(fd, buffer, size, 0)
    }

    private static func get(_ fd: Int32, _ name: String, _ buffer: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        fgetxattr(fd, name, buffer, size, 0, 0)
    }

    private static func put(_ fd: Int32, _ name: String, _ value: UnsafeRawPointer?, _ size: Int) -> Int32 {
        fsetxattr(fd, name, value, size, 0, 0)
    }
    #endif
}
