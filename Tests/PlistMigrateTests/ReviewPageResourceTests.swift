import Foundation
import Testing
@testable import PlistMigrate

/// The review page's style and script live in files of their own (`Report/Resources/`),
/// compiled into the binary: the page carries them exactly, and the script is checked alone.
@Suite struct ReviewPageResourceTests {
    static let resources = Paths.repository.appendingPathComponent("Sources/PlistMigrate/Report/Resources")

    @Test func thePageCarriesTheFilesAsTheyAre() throws {
        let css = try String(contentsOf: Self.resources.appendingPathComponent("review-page.css"), encoding: .utf8)
        let script = try String(contentsOf: Self.resources.appendingPathComponent("review-page.js"), encoding: .utf8)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try tool(["--no-config", "--format", "html", Paths.fixtures.appendingPathComponent("demo").path], in: directory).text
        // Each file as it is, but for its last line break.
        #expect(page.contains("<style>\n" + css.dropLast() + "</style>"), "the style, byte for byte")
        #expect(page.contains("<script>\n" + script.dropLast() + "</script>"), "the script, byte for byte")
        let swift = try String(contentsOf: Paths.repository.appendingPathComponent("Sources/PlistMigrate/Report/ReviewPage.swift"), encoding: .utf8)
        #expect(!swift.contains("addEventListener") && !swift.contains("@media"), "no style or script left in Swift string literals")
    }

    /// `node --check` parses the script without running it.
    @Test func theScriptParses() throws {
        guard let node = ["/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: Node.js is not installed (.ci/run installs it), so the review page's script is not syntax-checked alone")
            return
        }
        let file = Self.resources.appendingPathComponent("review-page.js")
        let result = try run(URL(fileURLWithPath: node), ["--check", file.path], in: Self.resources)
        #expect(result.status == 0, "\(result.stderr)")
        // The check can fail: a script with a syntax error does not parse.
        let broken = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: broken) }
        try Data("(function () { var x = ; })();\n".utf8).write(to: broken.appendingPathComponent("broken.js"))
        #expect(try run(URL(fileURLWithPath: node), ["--check", broken.appendingPathComponent("broken.js").path], in: broken).status != 0)
    }
}
