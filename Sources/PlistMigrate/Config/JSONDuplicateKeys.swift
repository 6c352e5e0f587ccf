/// The first key that an object of a JSON text holds twice, with its line: a
/// decoder keeps one of them silently, so a config that says a thing twice is refused instead.
/// Reads only what it needs (strings, nesting); the text is valid JSON (decoded first).
enum JSONDuplicateKeys {
    static func first(in bytes: [UInt8]) -> (key: String, line: Int)? {
        var index = 0, line = 1
        // One set of keys per open object; nil for an open array.
        var stack: [Set<String>?] = []
        var expectingKey = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "{"):
                stack.append([])
                expectingKey = true
            case UInt8(ascii: "["):
                stack.append(nil)
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = stack.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                let (text, end) = string(bytes, from: index + 1)
                if expectingKey, var keys = stack.last ?? nil {
                    if keys.contains(text) { return (text, line) }
                    keys.insert(text)
                    stack[stack.count - 1] = keys
                }
                expectingKey = false
                index = end
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The string that starts after an opening quote, unescaped, and the index of its closing quote.
    private static func string(_ bytes: [UInt8], from start: Int) -> (String, Int) {
        var out: [UInt8] = []
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                index += 1
                switch bytes[index] {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u") where index + 4 < bytes.count:
                    let hex = String(decoding: bytes[(index + 1)...(index + 4)], as: UTF8.self)
                    if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) { out += Array(String(scalar).utf8) }
                    index += 4
                default: out.append(bytes[index])
                }
            } else {
                out.append(bytes[index])
            }
            index += 1
        }
        return (String(decoding: out, as: UTF8.self), index)
    }
}
