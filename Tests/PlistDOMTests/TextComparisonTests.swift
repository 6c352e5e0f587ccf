import Testing
@testable import PlistDOM

/// `hasText` and `hasSameText` compare decoded texts, whatever way each is spelled.
@Suite struct TextComparisonTests {
    /// `contains(ascii:)` answers as `contains(Character)` does: bytes for ASCII text,
    /// characters otherwise (a combining mark joins the `*` it follows).
    @Test func containsAnASCIICharacterAsCharactersDo() {
        for text in ["a*b", "*.example.com", "example.com", "", "é*", "a*\u{301}b", "ÉCOLE.fr", "*"] {
            #expect(text.contains(ascii: "*") == text.contains("*" as Character), "\(text)")
        }
        #expect(!"a*\u{301}b".contains(ascii: "*"), "a * with a combining mark is another character")
    }

    /// The byte search finds the first occurrence, as a search at every offset would.
    @Test func byteSearchFindsTheFirstOccurrence() {
        var generator = PropertyTests.SplitMix64(state: 7)
        let alphabet = Array("NSAp&#[".utf8)
        for _ in 0..<20_000 {
            let haystack = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let needle = (0..<Int.random(in: 1...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let expected = haystack.indices.first { haystack[$0...].starts(with: needle) }
            #expect(haystack.withUnsafeBufferPointer { $0.firstOffset(of: needle) } == expected, "\(haystack) \(needle)")
        }
    }

    @Test func comparesDecodedTextsWhateverTheirSpelling() throws {
        let document = try PlistDocument(parsing: Array("""
            <plist><dict>\
            <key>a&amp;b</key><true/>\
            <key>a&#38;b</key><true/>\
            <key>a&amp;b</key><true/>\
            <key><![CDATA[a&b]]></key><true/>\
            <key>ab</key><true/>\
            <key>a<!-- c -->b</key><true/>\
            <key>a&amp;bc</key><true/>\
            <key></key><true/>\
            <key/><true/>\
            </dict></plist>
            """.utf8))
        let keys = document.rootValue.entries.map(\.key)
        #expect(keys.count == 9)
        for a in keys {
            #expect(a.hasText(a.text))
            #expect(!a.hasText(a.text + "x"))
            for b in keys {
                #expect(a.hasSameText(as: b) == (a.text == b.text), "\(a.text) / \(b.text)")
            }
        }
        #expect(keys[0].hasSameText(as: keys[1]) && keys[0].hasSameText(as: keys[3]) && keys[4].hasSameText(as: keys[5]))
        #expect(!keys[0].hasSameText(as: keys[6]) && keys[7].hasSameText(as: keys[8]))
    }

    @Test func entriesNamedAgreesWithFilteringEveryEntry() throws {
        let document = try PlistDocument(parsing: Array("""
            <plist><dict>\
            <key>abc</key><true/><key>a&amp;b</key><string>x</string><key>xyz</key><false/>\
            <key>abd</key><dict/><key><![CDATA[abc]]></key><integer>1</integer><key>ab</key><true/>\
            <key>a&#38;b</key><true/><key/><true/>\
            </dict></plist>
            """.utf8))
        let root = document.rootValue
        for names in [["abc"], ["a&b", "ab"], ["zzz"], ["abc", "abd", "", "xyz"], []] {
            let expected = root.entries.compactMap { entry in names.firstIndex(of: entry.name).map { ($0, entry.key) } }
            let found = root.entries(named: names)
            #expect(found.map(\.name) == expected.map(\.0), "\(names)")
            #expect(found.map(\.entry.key) == expected.map(\.1), "\(names)")
        }
    }
}
