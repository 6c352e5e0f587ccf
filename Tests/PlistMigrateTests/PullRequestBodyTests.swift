import Foundation
import Testing
@testable import PlistMigrate

/// `--format markdown`: a pull request's body (issue #41 §2), checked against the JSON report
/// of the same run.
@Suite struct PullRequestBodyTests {
    @Test func theBodyHoldsTheSummaryThePassesTheDeltasAndEveryDiff() throws {
        let root = try ReviewTests.fleet()
        defer { try? FileManager.default.removeItem(at: root) }
        let json = try ReviewTests.json(try tool(["--format", "json", "alpha"], in: root).stdout)
        let markdown = try tool(["--format", "markdown", "alpha"], in: root)
        #expect(markdown.status == 0, "\(markdown.stderr)")
        let body = markdown.text
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(body.hasPrefix("## plist-migrate: App Transport Security\n\n**\(summary["changed"] as! Int) of \(summary["scanned"] as! Int) files would change**"), "\(body.prefix(200))")
        let files = try #require(json["files"] as? [[String: Any]])
        let changed = files.filter { !(($0["passes"] as? [Any]) ?? []).isEmpty }
        #expect(body.components(separatedBy: "<details>").count - 1 == changed.count, "one folded block per changed file")
        for file in changed {
            for pass in (file["passes"] as? [[String: Any]]) ?? [] {
                #expect(body.contains(pass["diff"] as! String), "every diff of the JSON report, verbatim")
                #expect(body.contains("| `\(pass["id"] as! String)` |"), "a table row per pass")
            }
        }
        #expect(body.contains("### Policy deltas") && body.contains("| Pass | What it does | Impact | Files | Edits |"))
        #expect(body.contains("Rename NSThirdPartyException"), "the pass's title says what it does")
        // `report --format markdown` makes the same from merged reports.
        _ = try tool(["--format", "json", "--output", "a.json", "alpha"], in: root)
        _ = try tool(["--format", "json", "--output", "b.json", "beta"], in: root)
        let merged = try tool(["report", "--format", "markdown", "a.json", "b.json"], in: root)
        #expect(merged.status == 0 && merged.text.hasPrefix("## plist-migrate"), "\(merged.stderr)")
    }

    @Test func textCannotBreakTheMarkdown() {
        // The line break is written `\n`, whose backslash Markdown must show: `\\n`.
        #expect(PullRequestBody.text("a|b`c*d\nrow") == "a\\|b\\`c\\*d\\\\nrow")
        #expect(PullRequestBody.code("x`y") == "``x`y``")
        #expect(PullRequestBody.code("`edge`") == "`` `edge` ``")
        #expect(PullRequestBody.text("moc.\u{202E}elpmaxe") == "moc.⟦U+202E⟧elpmaxe")
    }

    /// GitHub refuses a body above 65,536 characters: the diffs stop in time, saying so.
    @Test func aLargeRunStopsBeforeGitHubsLimit() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for index in 0..<150 {
            _ = try copyFixture("demo/ShopApp/Info.plist", to: root, as: "App\(index)/Info.plist")
        }
        let body = try tool(["--no-config", "--format", "markdown", "."], in: root).text
        #expect(body.count < 65_536, "\(body.count) characters")
        #expect(body.contains("more files (the body stops before GitHub's limit)"))
    }
}
