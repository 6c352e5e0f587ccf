/// Messages quote values, and a value can hold a line break or a terminal escape: one message
/// is one line on stderr, so those are written escaped (`\n`, `\r`, `\x1B`), in migrate's
/// diagnostics as in lint's findings; so are the other characters a reader cannot
/// see (`InvisibleCharacters`: `⟦U+202E⟧`, the mark every output a person reads uses), so that a
/// value reads as what it is.
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
                    // Controls as the escapes a terminal user knows (`\x1B`); the characters
                    // that hide or reorder text as every output a person reads marks them.
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += scalar.value <= 0x9F ? "\\x" + (hex.count < 2 ? "0" : "") + hex : InvisibleCharacters.mark(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Every invisible character but TAB.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && InvisibleCharacters.contains(scalar)
    }
}
