/// The decoded meaning of a plist value, independent of how it was written.
///
/// Dicts compare by their key set and values, not by entry order, as a plist reader sees them;
/// with duplicate keys the last value counts.
public indirect enum PlistValue: Hashable, Sendable {
    case string(String)
    case integer(Int128)
    case real(Double)
    case bool(Bool)
    /// ISO 8601 text as written, without surrounding whitespace.
    case date(String)
    case data([UInt8])
    case array([PlistValue])
    case dict([String: PlistValue])

    /// Decodes an element the validator accepted.
    public init(_ element: PlistElement) {
        switch element.kind {
        case .string?, .key?: self = .string(element.text)
        case .integer?: self = .integer(PlistValue.parseInteger(element.text.trimmingWhitespace) ?? 0)
        case .real?: self = .real(PlistValue.parseReal(element.text.trimmingWhitespace) ?? .nan)
        case .true?: self = .bool(true)
        case .false?: self = .bool(false)
        case .date?: self = .date(String(element.text.trimmingWhitespace))
        case .data?: self = .data(Base64.decode(element.text) ?? [])
        case .array?: self = .array(element.children.map(PlistValue.init))
        case .dict?, nil:
            // A later duplicate key replaces an earlier one, as in Apple's reader.
            let entries = element.entries
            var dict = [String: PlistValue](minimumCapacity: entries.count)
            for entry in entries {
                dict[entry.name] = PlistValue(entry.value)
            }
            self = .dict(dict)
        }
    }

    static func parseInteger(_ text: Substring) -> Int128? {
        var digits = text
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        let radix: Int
        if digits.lowercased().hasPrefix("0x") {
            digits = digits.dropFirst(2)
            radix = 16
        } else {
            radix = 10
        }
        guard !digits.isEmpty, let magnitude = Int128(digits, radix: radix) else { return nil }
        let value = negative ? -magnitude : magnitude
        guard value >= Int128(Int64.min), value <= Int128(UInt64.max) else { return nil }
        return value
    }

    static func parseReal(_ text: Substring) -> Double? {
        switch text.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            guard !text.isEmpty,
                text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) })
            else { return nil }
            return Double(text)
        }
    }

    public static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
        switch (lhs, rhs) {
        case (.real(let a), .real(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.dict(let a), .dict(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .real(let value): hasher.combine(value.isNaN ? 0 : value)
        case .string(let s): hasher.combine(s)
        case .integer(let i): hasher.combine(i)
        case .bool(let b): hasher.combine(b)
        case .date(let d): hasher.combine(d)
        case .data(let d): hasher.combine(d)
        case .array(let a): hasher.combine(a)
        case .dict(let d): hasher.combine(d)
        }
    }
}

extension StringProtocol {
    var trimmingWhitespace: Substring {
        let s = self[...]
        guard let first = s.firstIndex(where: { !$0.isWhitespace }),
            let last = s.lastIndex(where: { !$0.isWhitespace })
        else { return Substring() }
        return Substring(s[first...last])
    }
}

enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 with `=` padding, on one line.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var buffer: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { buffer |= UInt32(byte) << UInt32(16 - 8 * offset) }
            for slot in 0..<4 {
                out.append(slot <= chunk.count ? alphabet[Int((buffer >> UInt32(18 - 6 * slot)) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Each byte's six bits, or 0xFF for a byte outside the alphabet: an array, indexed at once
    /// (a dictionary hashed every byte, most of the time of parsing a large `<data>`).
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { values[Int(byte)] = UInt8(index) }
        return values
    }()

    /// Decodes base64, ignoring whitespace as plist readers do; `nil` if it is not base64.
    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 4 * 3)
        return scan(text, { out.append($0) }) ? out : nil
    }

    /// Whether `text` decodes (what `decode` accepts), without keeping the bytes.
    static func isValid(_ text: String) -> Bool { scan(text, { _ in }) }

    /// One pass over the text's UTF-8 in place (a `<data>` value may be megabytes).
    private static func scan(_ text: String, _ emit: (UInt8) -> Void) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            values.withUnsafeBufferPointer { values in
                var buffer: UInt32 = 0
                var bits = 0
                var padding = 0
                for byte in bytes where !ASCII.isWhitespace(byte) {
                    if byte == UInt8(ascii: "=") {
                        padding += 1
                        continue
                    }
                    let value = values[Int(byte)]
                    guard padding == 0, value != 0xFF else { return false }
                    buffer = (buffer << 6) | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        emit(UInt8((buffer >> UInt32(bits)) & 0xFF))
                    }
                }
                return padding <= 2
            }
        }
    }
}
