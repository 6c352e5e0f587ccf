import Foundation
import Testing
@testable import PlistMigrate

/// `--format markdown`: a pull request's body, checked against the JSON report
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

    static func plist(domain key: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<key>\(key)</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key>
        \t\t\t\t<true/>
        \t\t\t</dict>
        \t\t</dict>
        \t</dict>
        </dict>
        </plist>

        """
    }

    /// Long hosts made a body of 100,672 characters (the policy deltas were not
    /// counted): every section counts now, and a 100 KB host's line is cut.
    @Test func longHostsAndManyKindsStayUnderGitHubsLimit() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let long = String(repeating: "a", count: 100_000) + ".example.com"
        try Data(Self.plist(domain: long).utf8).write(to: root.appendingPathComponent("Long.plist"))
        for index in 0..<120 {
            let host = String(repeating: "h\(index)-", count: 60) + "example.com"
            try FileManager.default.createDirectory(at: root.appendingPathComponent("App\(index)"), withIntermediateDirectories: true)
            try Data(Self.plist(domain: host).utf8).write(to: root.appendingPathComponent("App\(index)/Info.plist"))
        }
        let result = try tool(["--no-config", "--format", "markdown", "Long.plist"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.count < 65_536, "\(result.stdout.count) bytes")
        #expect(result.text.contains("more characters)"), "the long line is cut")
        let many = try tool(["--no-config", "--format", "markdown", "."], in: root)
        #expect(many.stdout.count < 65_536, "\(many.stdout.count) bytes")
        #expect(many.text.contains("- … and the deltas of "), "the deltas stop in time too")
    }

    /// Characters nobody can see are marks in the diffs too, and one edit with two effects on
    /// the policy (two deployment targets) is two kinds, each listed once.
    @Test func invisibleCharactersAreMarkedAndAKindIsListedOnce() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(Self.plist(domain: "moc.\u{202E}elpmaxe\u{200B}.org").utf8).write(to: root.appendingPathComponent("Bidi.plist"))
        let bidi = try tool(["--no-config", "--format", "markdown", "Bidi.plist"], in: root).text
        #expect(!bidi.contains("\u{202E}") && !bidi.contains("\u{200B}"), "no raw invisible character")
        #expect(bidi.contains("⟦U+202E⟧") && bidi.contains("⟦U+200B⟧"))

        // One edit, two deployment targets: two deltas, so two kinds (a kind covers its effect).
        for (name, os) in [("Old", "ios9"), ("New", "ios17")] {
            _ = try copyFixture("ATS002/tabs.before.plist", to: root, as: "\(name)/Info.plist")
            try Data("{ \"minimumOS\": \"\(os)\" }".utf8).write(to: root.appendingPathComponent("\(name)/.plist-migrate.json"))
        }
        let json = try ReviewTests.json(try tool(["--format", "json", "Old", "New"], in: root).stdout)
        let files = try #require(json["files"] as? [[String: Any]])
        let groups = files.compactMap { (($0["passes"] as? [[String: Any]])?.first?["group"]) as? String }
        let deltas = files.compactMap { (($0["passes"] as? [[String: Any]])?.first?["policyDelta"]) as? [String] }
        try #require(groups.count == 2 && groups[0] != groups[1] && deltas[0] != deltas[1], "the set-up: two kinds, two deltas: \(groups) \(deltas)")
        let body = try tool(["--format", "markdown", "Old", "New"], in: root).text
        for group in groups { #expect(body.components(separatedBy: "- `\(group)`").count - 1 == 1, "\(body)") }
    }
}
