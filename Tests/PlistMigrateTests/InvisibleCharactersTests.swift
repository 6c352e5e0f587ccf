import Foundation
import Testing
@testable import PlistMigrate
@testable import FileAccess

/// One definition of a character a reader cannot see, used alike by paths, the
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
        #expect(OneLine.escaped("moc.\u{202E}elpmaxe") == "moc.⟦U+202E⟧elpmaxe", "the mark every output a person reads uses")
        #expect(OneLine.escaped("a\u{1B}[2Jb") == "a\\x1B[2Jb", "a control as its escape")
    }
}

extension InvisibleCharactersTests {
    /// A plist whose domain key hides a right-to-left override (it reads as `paypal.com` in a
    /// terminal) beside a key ATS004 lowercases, and whose legacy TLS value ends in a zero-width
    /// space, so that ATS001's conflict quotes it.
    static let hiding = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<key>evil\u{202E}moc.lapyap</key>
        \t\t\t<dict/>
        \t\t\t<key>Payments.example.com</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSThirdPartyExceptionMinimumTLSVersion</key>
        \t\t\t\t<string>TLSv1.0\u{200B}</string>
        \t\t\t\t<key>NSExceptionMinimumTLSVersion</key>
        \t\t\t\t<string>TLSv1.2</string>
        \t\t\t</dict>
        \t\t</dict>
        \t</dict>
        </dict>
        </plist>

        """

    /// Every output a person reads shows those characters as marks: a dry run's diffs on a
    /// terminal, its conflict on standard error, `report --format text`; a patch and the JSON
    /// report keep the bytes exactly, for `git apply` and for scripts.
    @Test func whatAPersonReadsIsMarkedAndWhatAToolReadsIsExact() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.hiding.utf8).write(to: directory.appendingPathComponent("App/Info.plist").creatingParent())
        let hidden: [Unicode.Scalar] = ["\u{202E}", "\u{200B}"]
        func raw(_ text: String) -> Bool { text.unicodeScalars.contains { hidden.contains($0) } }

        let dry = try tool(["--no-config", "App"], in: directory)
        #expect(dry.text.contains("<key>evil⟦U+202E⟧moc.lapyap</key>"), "the diff's context line: \(dry.text)")
        #expect(dry.stderr.contains("TLSv1.0⟦U+200B⟧"), "the conflict quotes the value: \(dry.stderr)")
        #expect(!raw(dry.text) && !raw(dry.stderr), "no raw character reaches the terminal")

        let patch = try tool(["--no-config", "--format", "patch", "App"], in: directory)
        #expect(patch.text.contains("<key>evil\u{202E}moc.lapyap</key>"), "a patch keeps the bytes: \(patch.text)")

        #expect(try tool(["--no-config", "--format", "json", "--output", "run.json", "App"], in: directory).status == 2)
        let json = try String(contentsOf: directory.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(json.contains("\u{202E}") || json.contains("\\u202E") || json.contains("\\u202e"), "JSON keeps the character")
        #expect(!json.contains("⟦U+"), "JSON carries no marks")

        let text = try tool(["report", "--format", "text", "run.json"], in: directory)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.text.contains("TLSv1.0⟦U+200B⟧"), "\(text.text)")
        #expect(!raw(text.text), "no raw character in the text report: \(text.text)")
    }
}

extension InvisibleCharactersTests {
    /// A repository whose folder name holds U+202E: the page's apply command shows the mark, and
    /// the command its Copy button copies (`data-copy`) writes the character as bytes in `$'…'`
    /// and runs, with the decision where the browser saves it.
    @Test func thePagesCopiedCommandRunsWhereTheShownOneMarks() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = root.appendingPathComponent("Shop\u{202E}ppA")
        _ = try copyFixture("demo/ShopApp/Info.plist", to: repository, as: "App/Info.plist")
        #expect(try git(["init", "-q"], in: repository).status == 0)
        _ = try git(["add", "-A"], in: repository)
        _ = try git(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init"], in: repository)
        #expect(try tool(["--no-config", "--format", "html", "--output", "page.html", "Shop\u{202E}ppA"], in: root).status == 0)
        let page = try String(contentsOf: root.appendingPathComponent("page.html"), encoding: .utf8)
        // The command's text, its words' spans left out.
        let shown = try #require(page.firstMatch(of: /<code class="command"[^>]*>(.*?)<\/code>/)).1.replacing(/<[^>]*>/, with: "")
        #expect(shown.contains("Shop⟦U+202E⟧ppA"), "\(shown)")
        let attribute = try #require(page.firstMatch(of: /<code class="command" data-copy="([^"]*)"/), "no runnable copy in the page").1
        let copied = String(attribute).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        #expect(copied.hasPrefix("cd $'/") && copied.contains("/Shop\\xe2\\x80\\xaeppA' && "), "\(copied)")
        let decision = try ReviewPlanTests.review(["Shop\u{202E}ppA"], in: root, options: ["--no-config"]) { _ in "accept" }
        let downloads = try root.appendingPathComponent("home/Downloads").creatingDirectory()
        try ReviewPlanTests.write(decision, to: downloads.appendingPathComponent("plist-migrate-decision.json"))
        let shell = "export HOME='\(root.appendingPathComponent("home").path)' PATH='\(Paths.executable.deletingLastPathComponent().path)':\"$PATH\"; " + copied
        let result = try run(URL(fileURLWithPath: "/bin/bash"), ["-c", shell], in: root)
        #expect(result.status == 0, "the copied command runs: exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("1 file scanned"), "\(result.stderr)")
    }
}

extension InvisibleCharactersTests {
    /// The byte-level marking against the plain reading of its rule, scalar by scalar, on random
    /// text made of the samples, CR/LF/TAB, ASCII and characters with the same lead bytes (`→`,
    /// `…`, `’`, U+FFFD, U+E0100).
    @Test func theMarkingOfBytesIsTheMarkingOfCharacters() {
        func reference(_ text: String) -> String {
            var out = ""
            let scalars = Array(text.unicodeScalars)
            for (index, scalar) in scalars.enumerated() {
                let lineEnd = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
                if InvisibleCharacters.isMarked(scalar) && !lineEnd {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "⟦U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "⟧"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        let pool: [Unicode.Scalar] = Self.samples.compactMap(Unicode.Scalar.init)
            + ["\r", "\n", "\t", "a", "<", " ", "\u{2192}", "\u{2026}", "\u{2019}", "\u{FFFD}", "\u{E0100}", "\u{0600}", "\u{1800}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) { text.unicodeScalars.append(pool.randomElement(using: &generator)!) }
            #expect(InvisibleCharacters.marked(text) == reference(text), "\(Array(text.unicodeScalars.map(\.value)))")
        }
    }
}
