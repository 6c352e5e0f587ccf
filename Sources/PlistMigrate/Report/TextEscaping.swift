/// Text written into a format that gives some characters a meaning: one loop, each format its
/// own table of what to replace.
enum TextEscaping {
    /// `text` with every scalar for which `replacement` gives a string written as that string
    /// (`""` leaves it out), the others as they are.
    static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}

enum XMLText {
    /// Text for an XML attribute or element: markup characters and line breaks as references.
    static func escape(_ text: String) -> String {
        TextEscaping.replacing(text) { scalar in
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "\n": return "&#10;"
            case "\r": return "&#13;"
            case "\t": return "&#9;"
            // Characters XML 1.0 cannot hold are left out rather than written broken.
            default: return scalar.value < 0x20 ? "" : nil
            }
        }
    }
}
