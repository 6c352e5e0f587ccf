// Module FileAccess. Paths as bytes, files read whole, one-line errors: what the run and the
// project readers share. Imports PlistDOM (for source locations) and nothing else of the tool.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PlistDOM

/// File names are bytes; Swift strings are Unicode. A path read from the system (a directory
/// entry, `git ls-files -z`, an argument) keeps every byte: valid UTF-8 decodes as usual, and
/// each byte that is not part of valid UTF-8 becomes one private-use scalar, U+10FF80 + (byte −
/// 0x80). `c(_:)` turns such a string back into exactly the bytes it came from, for every system
/// call, and `display(_:)` shows those bytes as `\xNN` in reports. (A real U+10FF80…U+10FFFF in
/// a name is kept as its raw bytes the same way, so the mapping stays reversible.)
public enum PathBytes {
    private static let base: UInt32 = 0x10FF00

    /// `head + "/" + tail` without `tail`'s last `dropping` bytes, copied once into a string of
    /// that length: two appends after reserving cost several times as much, and this runs for
    /// every file and folder of a tree. The cut must fall on a character boundary (an ASCII byte
    /// such as a trailing `/`).
    public static func joined(_ head: String, _ tail: String, dropping: Int = 0) -> String {
        var head = head, tail = tail
        return head.withUTF8 { head in
            tail.withUTF8 { tail in
                let kept = tail.count - dropping
                return String(unsafeUninitializedCapacity: head.count + 1 + kept) { out in
                    let start = out.baseAddress!
                    if let bytes = head.baseAddress { start.initialize(from: bytes, count: head.count) }
                    start[head.count] = UInt8(ascii: "/")
                    if kept > 0, let bytes = tail.baseAddress { (start + head.count + 1).initialize(from: bytes, count: kept) }
                    return head.count + 1 + kept
                }
            }
        }
    }

    /// Inlined where it is called, so that each kind of bytes gets its own specialization (a
    /// directory entry's name, an array, a slice) rather than a generic call per name.
    @inlinable
    public static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        // ASCII (nearly every name) is valid UTF-8 with nothing to escape.
        if bytes.isASCII { return String(decoding: bytes, as: UTF8.self) }
        return decodedKeepingBytes(Array(bytes))
    }

    /// `string` of bytes that are not all ASCII.
    public static func decodedKeepingBytes(_ array: [UInt8]) -> String {
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
    @usableFromInline
    static func mayHoldEscapes(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { $0.contains(0xF4) }
    }

    /// Calls `body` with the path's bytes, NUL-terminated, for a system call: a path without
    /// escaped bytes is its own UTF-8 (no copy is made for a native string).
    @inlinable
    public static func withC<R>(_ path: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
        if !mayHoldEscapes(path) { return path.withCString(body) }
        return c(path).withUnsafeBufferPointer { body($0.baseAddress!) }
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

    /// Text (not a path) for people: bytes that are not UTF-8 as `\xNN`, everything else as is.
    public static func hexEscaped(_ text: String) -> String {
        guard mayHoldEscapes(text), text.unicodeScalars.contains(where: isEscaped) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                shown += "\\x" + String(scalar.value - base, radix: 16, uppercase: true)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// The path for people, in text, JSON and diff headers alike: one escaping that no two
    /// names share. A name that is printable UTF-8 without `"` or `\` is shown
    /// as it is; any other is quoted the way `git diff` quotes it (`"dir\377/a\tb"`): in
    /// double quotes, `\"` `\\` `\a` `\b` `\t` `\n` `\v` `\f` `\r` for those characters,
    /// and three octal digits for every other control byte, every byte that is not UTF-8 and
    /// every byte of an invisible or bidirectional control character (which could make one
    /// name read as another, or drive a terminal). `git apply` reads the quoted form back, and
    /// `unquoted(_:)` gives the exact bytes again.
    public static func display(_ path: String) -> String {
        quoted(path, octalForNonASCII: false)
    }

    /// `display(_:)` with every byte above 0x7F in octal too: what `git diff` writes under its
    /// default `core.quotePath` (patch headers use it, so a patch is plain ASCII).
    public static func gitQuoted(_ path: String) -> String {
        quoted(path, octalForNonASCII: true)
    }

    public static func quoted(_ path: String, octalForNonASCII: Bool) -> String {
        // Printable ASCII but `"` and `\` (nearly every path) needs no quoting: read as bytes.
        if path.utf8AllSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return path }
        guard path.unicodeScalars.contains(where: { needsQuoting($0, octalForNonASCII) }) else { return path }
        var text = "\""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\u{07}": text += "\\a"
            case "\u{08}": text += "\\b"
            case "\t": text += "\\t"
            case "\n": text += "\\n"
            case "\u{0B}": text += "\\v"
            case "\u{0C}": text += "\\f"
            case "\r": text += "\\r"
            default:
                if isEscaped(scalar) {
                    text += octal(UInt8(scalar.value - base))
                } else if needsQuoting(scalar, octalForNonASCII) {
                    UTF8.encode(scalar) { text += octal($0) }
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }

    private static func octal(_ byte: UInt8) -> String {
        "\\" + String(byte >> 6) + String((byte >> 3) & 7) + String(byte & 7)
    }

    private static func needsQuoting(_ scalar: Unicode.Scalar, _ octalForNonASCII: Bool) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x22, 0x5C, 0x7F: return true
        case 0x20..<0x7F: return false
        default: break
        }
        return octalForNonASCII || isEscaped(scalar) || InvisibleCharacters.contains(scalar)
    }

    /// Whether `display(_:)` quoted the name it shows.
    public static func isQuoted(_ shown: String) -> Bool { shown.utf8.first == 0x22 }

    /// The path `display(_:)` or `gitQuoted(_:)` showed (`nil` when `text` is not a quoted form
    /// they write); a text that is not quoted is itself.
    public static func unquoted(_ text: String) -> String? {
        guard text.utf8.first == 0x22 else { return text }
        guard text.utf8.count >= 2, text.utf8.last == 0x22 else { return nil }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8.dropFirst().dropLast())[...]
        while let byte = utf8.popFirst() {
            guard byte == 0x5C else {
                guard byte != 0x22 else { return nil }
                bytes.append(byte)
                continue
            }
            guard let next = utf8.popFirst() else { return nil }
            switch next {
            case 0x22, 0x5C: bytes.append(next)
            case UInt8(ascii: "a"): bytes.append(0x07)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "v"): bytes.append(0x0B)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "0")...UInt8(ascii: "3"):
                guard let second = utf8.popFirst(), let third = utf8.popFirst(),
                    (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(second),
                    (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(third)
                else { return nil }
                bytes.append((next - 48) << 6 | (second - 48) << 3 | (third - 48))
            default: return nil
            }
        }
        return string(bytes)
    }

    /// Every byte of the path (its raw bytes, also those that are not UTF-8) that a URI path
    /// may not hold as it is, as `%XX`.
    /// SARIF artifact URIs and forge links both use it.
    public static func percentEncoded(_ text: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/!$&'()*+,;=:@".utf8)
        var encoded = ""
        for byte in c(text).dropLast().map({ UInt8(bitPattern: $0) }) {
            if allowed.contains(byte) { encoded.unicodeScalars.append(Unicode.Scalar(byte)) }
            else { encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
        }
        return encoded
    }

    /// The exact bytes of a path, base64-encoded: the JSON report's `pathBytes`, beside a path
    /// that `display(_:)` had to quote.
    public static func base64(_ path: String) -> String {
        Data(c(path).dropLast().map { UInt8(bitPattern: $0) }).base64EncodedString()
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
