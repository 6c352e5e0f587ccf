/// ANSI colours for the text report, used only when asked for (`--color`) or on a terminal.
public enum Colour {
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

    /// Lint lines: the severity word in red, yellow or cyan.
    static func lint(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            for (word, code) in [(": error: ", "\u{1B}[1;31m"), (": warning: ", "\u{1B}[33m"), (": note: ", "\u{1B}[36m")] {
                if let range = line.firstRange(of: word) {
                    let wordStart = line.index(range.lowerBound, offsetBy: 2), wordEnd = line.index(range.upperBound, offsetBy: -2)
                    // Spelled as one interpolation: a chain of `+` over substrings took the type checker a second.
                    return "\(line[..<wordStart])\(code)\(line[wordStart..<wordEnd])\u{1B}[0m\(line[wordEnd...])"
                }
            }
            return String(line)
        }.joined(separator: "\n")
    }

    public enum Mode: String, Sendable, CaseIterable { case auto, always, never }

    /// Whether to colour: `always`/`never` as asked; `auto` on a terminal, unless `NO_COLOR` is
    /// set or `TERM` is `dumb`. A non-empty `FORCE_COLOR` turns `auto` on even off a terminal.
    public static func enabled(_ mode: Mode, isTerminal: Bool, environment: [String: String]) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto:
            if !(environment["NO_COLOR"] ?? "").isEmpty { return false }
            if !(environment["FORCE_COLOR"] ?? "").isEmpty && environment["FORCE_COLOR"] != "0" { return true }
            return isTerminal && environment["TERM"] != "dumb"
        }
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
