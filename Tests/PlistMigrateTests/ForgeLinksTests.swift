import Foundation
import Testing
@testable import PlistMigrate

/// Links from the review page to each file at its commit and line, per forge (issue #41 §2).
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
        #expect(page.contains("plist-migrate --write --accept plist-migrate-decision.json App/Info.plist"), "run in the repository's root")
        let table = page.components(separatedBy: "<table class=\"repos\">").last?.components(separatedBy: "</table>").first ?? ""
        #expect(table.components(separatedBy: "<tr><th scope=\"row\">").count - 1 == 2, "one row per repository")
    }

    /// Issue #55 row 6: a report's line numbers are input; the largest one ends the count
    /// instead of the process.
    @Test func aHunkAtTheLargestLineNumberIsNoCrash() {
        #expect(ForgeLinks.firstChangedLine("@@ -1 +9223372036854775807 @@\n x\n+y\n") == nil)
        #expect(ForgeLinks.firstChangedLine("@@ -1 +9223372036854775806 @@\n+y\n") == 9223372036854775806)
        #expect(ForgeLinks.firstChangedLine("@@ -1 +-5 @@\n+y\n") == nil)
    }
}
