import Testing
@testable import PlistMigrate

/// Issue #53: one definition of a character a reader cannot see, used alike by paths, the
/// review page (and the PR body, which shows text as the page does) and one-line diagnostics.
@Suite struct InvisibleCharactersTests {
    /// Each range's ends and a character just outside, from every table the three kept before.
    static let samples: [UInt32] = [0x01, 0x1B, 0x7F, 0x85, 0x9F, 0xA0, 0xAD, 0x061C, 0x180E, 0x200A, 0x200B, 0x200F,
                                    0x2010, 0x2028, 0x2029, 0x202A, 0x202E, 0x202F, 0x2060, 0x2065, 0x2069, 0x206A,
                                    0xFEFF, 0xFFF9, 0xFFFB, 0xFFFC, 0xE0001, 0xE007F, 0xE0080, 0x00E9]

    @Test(arguments: samples)
    func pathsThePageAndDiagnosticsAgree(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let text = "a" + String(Character(scalar)) + "b"
        let invisible = InvisibleCharacters.contains(scalar)
        #expect(PathBytes.isQuoted(PathBytes.display(text)) == invisible, "path")
        #expect((ReviewPage.visible(text) != text) == invisible, "page")
        #expect((PullRequestBody.text(text).contains("⟦U+")) == invisible, "PR body")
        #expect((OneLine.escaped(text) != text) == invisible, "one line")
    }

    @Test func tabAndLineFeedAreEachCallersChoice() {
        #expect(InvisibleCharacters.contains("\t") && InvisibleCharacters.contains("\n"))
        #expect(ReviewPage.visible("a\tb\nc") == "a\tb\nc", "the page shows diffs with their tabs and lines")
        #expect(OneLine.escaped("a\tb\nc") == "a\tb\\nc", "one line keeps a tab, never a line break")
        #expect(PathBytes.display("a\tb") == "\"a\\tb\"", "a path quotes both")
        #expect(OneLine.escaped("moc.\u{202E}elpmaxe") == "moc.\\u{202E}elpmaxe")
    }
}
