/// ANSI colours for the text report, used only when asked for (`--color`) or on a terminal.
enum Colour {
    static let reset = Array("\u{1B}[0m".utf8)

    /// Works on bytes: Swift treats `\r\n` as one Character, and CRLF lines must keep their `\r`.
    static func diff(_ text: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var line = bytes[start..<end]
            let hadCR = line.last == 0x0D
            if hadCR { line = line.dropLast() }
            if let code = code(for: line) {
                out += code + line + reset
            } else {
                out += line
            }
            if hadCR { out.append(0x0D) }
            if end < bytes.count { out.append(0x0A) }
            start = end + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func code(for line: ArraySlice<UInt8>) -> [UInt8]? {
        let code: String? = switch line.first {
        case UInt8(ascii: "#"): "\u{1B}[1;35m"
        case UInt8(ascii: "@"): "\u{1B}[36m"
        case UInt8(ascii: "+") where line.starts(with: Array("+++".utf8)): "\u{1B}[1m"
        case UInt8(ascii: "-") where line.starts(with: Array("---".utf8)): "\u{1B}[1m"
        case UInt8(ascii: "+"): "\u{1B}[32m"
        case UInt8(ascii: "-"): "\u{1B}[31m"
        default: nil
        }
        return code.map { Array($0.utf8) }
    }
}
