/// The characters an XML 1.0 document (and so a plist) can hold: tab, line feed, carriage
/// return, and every other scalar from U+0020 except U+FFFE and U+FFFF (surrogates are no
/// scalars). Text meant for a plist is checked with this before any edit is made.
public enum XMLCharacters {
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x20...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `U+0001`: how a character is named in an error.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The first scalar of `text` a plist cannot hold, with its position (0-based, in scalars).
    public static func firstDisallowed(in text: String) -> (scalar: Unicode.Scalar, offset: Int)? {
        for (offset, scalar) in text.unicodeScalars.enumerated() where !isAllowed(scalar) { return (scalar, offset) }
        return nil
    }
}

extension PlistDocument {
    /// The deepest element libxml2 reads back (measured: `<plist>` is level 1, so a value
    /// nested in 255 containers below the root dict is the deepest there can be). Edits that
    /// would go deeper are refused before they are made.
    public static let maximumElementDepth = 257

    /// The depth of a value at `pathLength` keys or positions below the root container.
    public static func elementDepth(pathLength: Int) -> Int { pathLength + 2 }
}
