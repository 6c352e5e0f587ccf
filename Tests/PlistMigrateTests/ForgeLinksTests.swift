import Foundation
import Testing
@testable import PlistMigrate

/// Links from the review page to each file at its commit and line, per forge.
@Suite struct ForgeLinksTests {
    @Test func eachForgesFormFromEachRemoteSpelling() {
        let commit = "0123456789abcdef0123456789abcdef01234567"
        for remote in ["https://github.com/acme/shop.git", "git@github.com:acme/shop.git", "ssh://git@github.com/acme/shop", "https://token@github.com/acme/shop/"] {
            #expect(ForgeLinks.link(remote: remote, commit: commit, path: "App/Info.plist", line: 12)
                    == "https://github.com/acme/shop/blob/\(commit)/App/Info.plist#L12", "\(remote)")
        }
        #expect(ForgeLinks.link(remote: "git@gitlab.com:group/sub/shop.git", commit: commit, path: "App/Info.plist", line: 3)
                == "https://gitlab.com/group/sub/shop/-/blob/\(commit)/App/Info.plist#L3")
        #expect(ForgeLinks.link(remote: "https://bitbucket.org/acme/shop.git", commit: commit, path: "My App/Info.plist", line: 7)
                == "https://bitbucket.org/acme/shop/src/\(commit)/My%20App/Info.plist#lines-7")
        #expect(ForgeLinks.link(remote: "https://example.com/shop.git", commit: commit, path: "Info.plist", line: 1) == nil, "an unknown forge: the plain path")
        #expect(ForgeLinks.link(remote: "https://github.com/acme/shop.git", commit: nil, path: "Info.plist", line: 1) == nil, "no commit, no link")
        #expect(ForgeLinks.link(remote: "https://github.com/acme/shop.git", commit: commit, path: "a#b?.plist", line: nil)
                == "https://github.com/acme/shop/blob/\(commit)/a%23b%3F.plist")
    }

    @Test func theFirstChangedLineOfADiff() {
        let diff = "--- a/x\n+++ b/x\n@@ -8,7 +8,7 @@\n ctx\n ctx\n ctx\n-old\n+new\n ctx\n"
        #expect(ForgeLinks.firstChangedLine(diff) == 11)
    }

    /// The page's table of repositories, with the command that applies the decision in each.
    @Test func thePageListsEachRepositoryWithItsCommand() throws {
        let root = try ReviewTests.fleet()
        defer { try? FileManager.default.removeItem(at: root) }
        let page = try tool(["--format", "html", "alpha", "beta"], in: root).text
        #expect(page.contains("<h2 id=\"repositories-title\">Repositories</h2>"))
        // The decision carries its plan: in the repository's root, nothing else is typed.
        #expect(page.replacing(/<span class="word">|<\/span>/, with: "").contains("/beta &amp;&amp; plist-migrate apply ~/Downloads/plist-migrate-decision.json</code>"),
                "run in the repository's root")
        let table = page.components(separatedBy: "<table class=\"repos\">").last?.components(separatedBy: "</table>").first ?? ""
        #expect(table.components(separatedBy: "<tr><th scope=\"row\">").count - 1 == 2, "one row per repository")
    }

    /// A report's line numbers are input; the largest one ends the count
    /// instead of the process.
    @Test func aHunkAtTheLargestLineNumberIsNoCrash() {
        #expect(ForgeLinks.firstChangedLine("@@ -1 +9223372036854775807 @@\n x\n+y\n") == nil)
        #expect(ForgeLinks.firstChangedLine("@@ -1 +9223372036854775806 @@\n+y\n") == 9223372036854775806)
        #expect(ForgeLinks.firstChangedLine("@@ -1 +-5 @@\n+y\n") == nil)
    }

    /// Reports made one per repository, each in its own directory (as multi-gitter
    /// runs them), merged: every file keeps its repository (names that need quoting too), its
    /// forge link, and the apply commands name no file.
    @Test func mergedReportsFromEachRepositoryKeepLinksAndCommands() throws {
        let root = try ReviewTests.fleet()
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["alpha", "beta"] {
            _ = try git(["remote", "set-url", "origin", "https://github.com/acme/\(name).git"], in: root.appendingPathComponent(name))
        }
        _ = try copyFixture("ATS001/tabs.before.plist", to: root, as: "beta/Dev\u{202E}gpj.exe/Info.plist")
        _ = try copyFixture("ATS001/tabs.before.plist", to: root, as: "beta/Q\"uote\\back/Info.plist")
        for name in ["alpha", "beta"] {
            _ = try tool(["--format", "json", "--output", "../\(name).json", "."], in: root.appendingPathComponent(name))
        }
        let merged = try ReviewTests.json(try tool(["report", "--format", "json", "alpha.json", "beta.json"], in: root).stdout)
        let files = try #require(merged["files"] as? [[String: Any]])
        let changed = files.filter { !(($0["passes"] as? [Any]) ?? []).isEmpty }
        #expect(changed.count == 5 && changed.allSatisfy { $0["repository"] as? Int != nil }, "\(changed.map { $0["path"] ?? "" })")
        #expect(changed.allSatisfy { ($0["path"] as? String)?.contains("alpha/") == true || ($0["path"] as? String)?.contains("beta/") == true },
                "paths are relative to the directory above both runs")
        // The page without its script (which knows the words "(no repository)" too).
        let page = try tool(["report", "--format", "html", "alpha.json", "beta.json"], in: root).text
            .components(separatedBy: "<script>\n(function").first ?? ""
        #expect(!page.contains("(no repository)") && !page.contains("nothing to apply"))
        let links = page.components(separatedBy: "<a href=\"https://github.com/acme/").count - 1
        #expect(links >= changed.count, "every changed file links to its forge: \(links)")
        // The shown command (a name holding U+202E gives the element a runnable `data-copy` too).
        let commands = page.components(separatedBy: "<code class=\"command\"").dropFirst()
            .map { $0.drop { $0 != ">" }.dropFirst().components(separatedBy: "</code>")[0].replacing(/<[^>]*>/, with: "") }
        // One per repository, and one that applies every reviewed file.
        #expect(commands.count == 3)
        #expect(commands.allSatisfy { $0.hasSuffix("plist-migrate apply ~/Downloads/plist-migrate-decision.json") && !$0.contains("Info.plist") }, "\(commands)")
        // One run from above both: a quoted name still finds its repository.
        let above = try ReviewTests.json(try tool(["--format", "json", "alpha", "beta"], in: root).stdout)
        let quoted = ((above["files"] as? [[String: Any]]) ?? []).filter { ($0["path"] as? String)?.hasPrefix("\"") == true }
        #expect(quoted.count == 2 && quoted.allSatisfy { $0["repository"] as? Int == 1 }, "\(quoted)")
        // The decision names that file by its path under its repository, quotes and all.
        let decision = try ReviewPlanTests.review(["alpha", "beta"], in: root, options: []) { _ in "accept" }
        #expect((decision["files"] as? [[String: Any]] ?? []).contains { $0["path"] as? String == "Q\"uote\\back/Info.plist" }, "\(decision["files"] ?? "")")
    }
}
