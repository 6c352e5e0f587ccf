/// The one definition of a character a reader cannot see, or that changes how the text around
/// it reads: used for paths (`PathBytes.display` quotes a name holding one), for everything a
/// person reads (`marked`: a terminal's diffs and policy lines, the text and Markdown reports,
/// the review page, all shown with `⟦U+202E⟧` marks), and for one-line diagnostics
/// (`OneLine.escaped`). Patches and JSON keep the bytes exactly.
///
/// - C0 controls, DEL and C1 controls;
/// - U+00AD soft hyphen, U+061C Arabic letter mark, U+180E Mongolian vowel separator;
/// - U+200B–U+200F zero-width characters and left-to-right/right-to-left marks;
/// - U+2028/U+2029 line and paragraph separators (a line break no terminal shows as one);
/// - U+202A–U+202E and U+2066–U+2069 bidirectional embeddings, overrides and isolates, which
///   make `moc.elpmaxe` read as `example.com`;
/// - U+2060–U+2065 word joiner and invisible operators;
/// - U+FEFF zero-width no-break space, U+FFF9–U+FFFB interlinear annotations;
/// - U+E0000–U+E007F tags.
public enum InvisibleCharacters {
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0xAD, 0x061C, 0x180E, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069,
            0xFEFF, 0xFFF9...0xFFFB, 0xE0000...0xE007F:
            return true
        default:
            return false
        }
    }

    /// Whether text a person reads shows `scalar` as a mark: every character above but TAB and
    /// LF, which text output keeps (a CR is kept only as the first half of a CRLF line end).
    public static func isMarked(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && scalar != "\n" && contains(scalar)
    }

    /// `text` as a person should read it: each marked character as `⟦U+202E⟧` (four hex digits
    /// at least), so `<key>EVIL\u{202E}moc.LAPYAP</key>` cannot pass for another domain.
    public static func marked(_ text: String) -> String {
        // Nearly all text (diffs of plists) is printable ASCII: one look at its bytes.
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            let lineEnd = scalar == "\r" && next != scalars.endIndex && scalars[next] == "\n"
            if isMarked(scalar) && !lineEnd {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "⟦U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "⟧"
            } else {
                out.unicodeScalars.append(scalar)
            }
            index = next
        }
        return out
    }
}
