#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlistDOM
import FileAccess

/// Standard input and `--files-from` lists read with their size bounded: `yes |
/// plist-migrate -` used to grow to 14.7 GB before saying the input was too large.
public enum BoundedInput {
    /// Standard input, read up to `limit` bytes; `nil` when there is more (nothing more is read).
    public static func standardInput(limit: Int = FileIO.maximumSize) -> [UInt8]? {
        readAll(STDIN_FILENO, limit: limit)
    }

    /// At most `limit` bytes of `fd`; `nil` when it holds more.
    static func readAll(_ fd: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return bytes }
            guard bytes.count + count <= limit else { return nil }
            bytes += chunk[0..<count]
        }
    }

    /// Lines of a path list longer than this are refused (PATH_MAX).
    public static let maximumLineLength = 4096
    /// A list longer than this is refused.
    public static let maximumLines = 1_000_000

    /// The paths of a `--files-from` list (`-`: standard input), one a line (`\r\n` too, blank
    /// lines skipped), streamed: a line longer than `maximumLineLength` bytes, a NUL byte or more
    /// than `maximumLines` lines is an error naming the line, never echoed back; a list that
    /// cannot be read (missing, a directory) is an error too. FIFOs and process substitution work.
    public static func pathList(_ path: String) throws(FileError) -> [String] {
        let fd: Int32
        if path == "-" {
            fd = STDIN_FILENO
        } else {
            fd = open(PathBytes.c(path), O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileError("cannot read the list: \(String(cString: strerror(errno)))") }
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                close(fd)
                throw FileError("cannot read the list: it is a directory")
            }
        }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var paths: [String] = []
        var line: [UInt8] = []
        var lineNumber = 1
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        func finish() throws(FileError) {
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) {
                guard paths.count < maximumLines else { throw FileError("the list has more than \(maximumLines) paths", at: SourceLocation(line: lineNumber, column: 1)) }
                paths.append(String(decoding: line, as: UTF8.self))
            }
            line.removeAll(keepingCapacity: true)
            lineNumber += 1
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw FileError("cannot read the list: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            for byte in chunk[0..<count] {
                if byte == UInt8(ascii: "\n") {
                    try finish()
                    continue
                }
                guard byte != 0 else { throw FileError("a NUL byte in a path", at: SourceLocation(line: lineNumber, column: line.count + 1)) }
                guard line.count < maximumLineLength else {
                    throw FileError("a line longer than \(maximumLineLength) bytes is no path", at: SourceLocation(line: lineNumber, column: 1))
                }
                line.append(byte)
            }
        }
        if !line.isEmpty { try finish() }
        return paths
    }
}
