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

    /// The mark a person reads in place of `scalar`: `⟦U+202E⟧`, four hex digits at least.
    public static func mark(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "⟦U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "⟧"
    }

    /// The bytes a marked character can start with: controls but TAB and LF, DEL, and the lead
    /// bytes of U+0080–U+00BF, U+0600–U+063F, U+1000–U+1FFF, U+2000–U+2FFF, U+F000–U+FFFF and
    /// U+C0000–U+FFFFF (which hold every character of the list above U+007F).
    private static let startsMarkable: [Bool] = (0...255).map { byte in
        (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F || [0xC2, 0xD8, 0xE1, 0xE2, 0xEF, 0xF3].contains(byte)
    }

    /// `text` as a person should read it: each marked character as `⟦U+202E⟧` (four hex digits
    /// at least), so `<key>EVIL\u{202E}moc.LAPYAP</key>` cannot pass for another domain.
    ///
    /// Works on the UTF-8 bytes: a character of the list starts with a control byte or one of
    /// six lead bytes, so most text (diffs with `→` in their policy lines) is scanned once and
    /// returned as it is, and a marked text is copied in runs between the marks.
    public static func marked(_ text: String) -> String {
        var text = text
        return startsMarkable.withUnsafeBufferPointer { startsMarkable in text.withUTF8 { bytes -> String? in
            var out: [UInt8] = []
            var copied = 0, index = 0
            while index < bytes.count {
                // Past the bytes no marked character starts with (nearly all of them), a few
                // instructions each.
                while index < bytes.count, !startsMarkable[Int(bytes[index])] { index += 1 }
                guard index < bytes.count else { break }
                // Here only at a control, DEL or one of the six lead bytes (`startsMarkable`).
                let lead = bytes[index]
                let length: Int, value: UInt32
                switch lead {
                case 0xC2, 0xD8:
                    length = 2
                    value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                case 0xE1, 0xE2, 0xEF:
                    length = 3
                    value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                case 0xF3:
                    length = 4
                    value = UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                        | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                default:
                    length = 1
                    value = UInt32(lead)
                }
                // A CR before an LF is a CRLF line end, kept.
                let lineEnd = lead == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A
                if !lineEnd, let scalar = Unicode.Scalar(value), isMarked(scalar) {
                    if out.isEmpty { out.reserveCapacity(bytes.count + 16) }
                    out.append(contentsOf: bytes[copied..<index])
                    out.append(contentsOf: mark(scalar).utf8)
                    copied = index + length
                }
                index += length
            }
            guard copied > 0 else { return nil }
            out.append(contentsOf: bytes[copied...])
            return String(decoding: out, as: UTF8.self)
        } } ?? text
    }
}
