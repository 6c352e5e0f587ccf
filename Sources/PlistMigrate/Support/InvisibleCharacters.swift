/// The one definition of a character a reader cannot see, or that changes how the text around
/// it reads (issue #53): used for paths (`PathBytes.display` quotes a name holding one), the
/// review page and the PR body (shown as `⟦U+202E⟧` marks), and one-line diagnostics
/// (`OneLine.escaped`). Each caller decides what it does with TAB and LF, which are in here.
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
}
