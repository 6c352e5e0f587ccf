/// Messages quote values, and a value can hold a line break or a terminal escape: one message
/// is one line on stderr, so those are written escaped (`\n`, `\r`, `\x1B`), in migrate's
/// diagnostics as in lint's findings (issue #42 §5).
public enum OneLine {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default:
                if needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\x" + (hex.count < 2 ? "0" : "") + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Control characters other than TAB (C0, DEL, C1).
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}
