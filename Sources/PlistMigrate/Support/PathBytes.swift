// Room: Support. Small helpers every room may use: paths as bytes, hashing, the tool's
// version. Calls no other room.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlistDOM

/// File names are bytes; Swift strings are Unicode. A path read from the system (a directory
/// entry, `git ls-files -z`, an argument) keeps every byte: valid UTF-8 decodes as usual, and
/// each byte that is not part of valid UTF-8 becomes one private-use scalar, U+10FF80 + (byte −
/// 0x80). `c(_:)` turns such a string back into exactly the bytes it came from, for every system
/// call, and `display(_:)` shows those bytes as `\xNN` in reports. (A real U+10FF80…U+10FFFF in
/// a name is kept as its raw bytes the same way, so the mapping stays reversible.)
public enum PathBytes {
    /// The name of a directory entry, as a path string. Read through the pointer up to its NUL:
    /// the kernel packs entries, so the last one in `readdir`'s buffer may be shorter than
    /// `dirent`, and copying the whole `d_name` array would read past the buffer.
    public static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let start = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        return string(UnsafeRawBufferPointer(start: start, count: strlen(start)))
    }

    private static let base: UInt32 = 0x10FF00

    public static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        // ASCII (nearly every name) is valid UTF-8 with nothing to escape.
        if bytes.isASCII { return String(decoding: bytes, as: UTF8.self) }
        let array = Array(bytes)
        if let plain = String(validating: array, as: UTF8.self), !plain.unicodeScalars.contains(where: isEscaped) {
            return plain
        }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < array.count {
            let length = sequenceLength(array[index])
            if length > 1, index + length <= array.count,
                let decoded = String(validating: array[index..<(index + length)], as: UTF8.self),
                let scalar = decoded.unicodeScalars.first, !isEscaped(scalar)
            {
                scalars.append(scalar)
                index += length
            } else if array[index] < 0x80 {
                scalars.append(Unicode.Scalar(array[index]))
                index += 1
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(array[index]))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The escapes are U+10FF80…U+10FFFF, whose UTF-8 starts with 0xF4: without that byte, a
    /// path holds none (one scan of its UTF-8 in place, not a walk of its scalars).
    private static func mayHoldEscapes(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { $0.contains(0xF4) }
    }

    /// The path's bytes, NUL-terminated, for a system call.
    public static func c(_ path: String) -> [CChar] {
        var bytes: [CChar] = []
        bytes.reserveCapacity(path.utf8.count + 1)
        // Without an escape, the path's UTF-8 is its bytes.
        if !mayHoldEscapes(path) {
            var path = path
            path.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) { bytes.append(contentsOf: $0) }
            }
        } else {
            for scalar in path.unicodeScalars {
                if isEscaped(scalar) {
                    bytes.append(CChar(bitPattern: UInt8(scalar.value - base)))
                } else {
                    UTF8.encode(scalar) { bytes.append(CChar(bitPattern: $0)) }
                }
            }
        }
        bytes.append(0)
        return bytes
    }

    /// The path for people: bytes that are not UTF-8 as `\xNN`.
    public static func display(_ path: String) -> String {
        guard mayHoldEscapes(path), path.unicodeScalars.contains(where: isEscaped) else { return path }
        var text = ""
        for scalar in path.unicodeScalars {
            if isEscaped(scalar) {
                let byte = scalar.value - base
                text += "\\x" + String(byte, radix: 16, uppercase: true)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// The first byte of `text` (as read by `string(_:)`) that was not part of valid UTF-8, and
    /// its offset in the original bytes.
    public static func firstUndecodableByte(in text: String) -> (byte: UInt8, offset: Int)? {
        guard mayHoldEscapes(text) else { return nil }
        var offset = 0
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) { return (UInt8(scalar.value - base), offset) }
            offset += UTF8.width(scalar)
        }
        return nil
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= base + 0x80 && scalar.value <= base + 0xFF
    }

    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
    }
}
