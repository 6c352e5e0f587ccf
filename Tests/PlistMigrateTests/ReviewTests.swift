import Foundation
import Testing
@testable import PlistMigrate
import Migrations

/// A fleet's dry run reviewed once per kind of change, reports merged, and exactly
/// what was accepted applied.
@Suite struct ReviewTests {
    /// Two repositories with a remote and a commit: the same ShopApp plist in each (so the same
    /// edits), another plist in `beta`, and a file that cannot be parsed.
    static func fleet() throws -> URL {
        let root = try temporaryDirectory()
        for name in ["alpha", "beta"] { _ = try ReviewPlanTests.repository(in: root, named: name) }
        _ = try copyFixture("ATS001/tabs.before.plist", to: root, as: "beta/Widget/Info.plist")
        try Data("<plist><dict><key>NSAppTransportSecurity</key><dict>".utf8).write(to: root.appendingPathComponent("beta/Broken/Info.plist").creatingParent())
        return root
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func identicalEditsAreOneKindWhateverTheFileAndIndentation() throws {
        let root = try Self.fleet()
        defer { try? FileManager.default.removeItem(at: root) }
        let report = try Self.json(try tool(["--format", "json", "alpha", "beta"], in: root).stdout)
        let files = try #require(report["files"] as? [[String: Any]])
        let passes = files.flatMap { ($0["passes"] as? [[String: Any]]) ?? [] }
        let ats001 = Set(passes.filter { $0["id"] as? String == "ATS001" }.compactMap { $0["group"] as? String })
        // The ShopApp file (spaces) twice and the tab-indented fixture: the same three renames,
        // one kind wherever they also have the same effect on the policy. The fixture's hosts
        // are others, so its renames are a kind of their own.
        let renames = passes.filter { $0["id"] as? String == "ATS001" }
        #expect(renames.count == 3 && ats001.count == 2, "\(ats001)")
        for a in renames {
            for b in renames {
                let same = EditGroup.lines(of: a["diff"] as? String ?? "") == EditGroup.lines(of: b["diff"] as? String ?? "")
                    && (a["policyDelta"] as? [String]) == (b["policyDelta"] as? [String])
                #expect(same == ((a["group"] as? String) == (b["group"] as? String)))
            }
        }
        let repositories = try #require(report["repositories"] as? [[String: Any]])
        #expect(Set(repositories.compactMap { $0["remote"] as? String }) == ["https://example.com/alpha.git", "https://example.com/beta.git"])
        #expect(repositories.allSatisfy { ($0["commit"] as? String)?.count == 40 })
        #expect((report["tool"] as? [String: Any])?["version"] as? String == ToolVersion.current)
        #expect((report["passes"] as? [[String: Any]])?.count == MigrationRegistry.all.count)
        // The same edit content gives the same id; any other content another.
        let diff = try #require(passes.first { $0["id"] as? String == "ATS001" }?["diff"] as? String)
        #expect(EditGroup.id(pass: "ATS001", version: 1, diff: diff, policyDelta: []) != EditGroup.id(pass: "ATS001", version: 2, diff: diff, policyDelta: []))
        #expect(EditGroup.id(pass: "ATS001", version: 1, diff: diff, policyDelta: [])
                != EditGroup.id(pass: "ATS001", version: 1, diff: diff.replacingOccurrences(of: "MinimumTLSVersion", with: "MinimumTLSversion"), policyDelta: []))
        // Context lines are not the edit: the same renames next to another domain are the same kind.
        #expect(EditGroup.id(pass: "ATS001", version: 1, diff: diff, policyDelta: [])
                == EditGroup.id(pass: "ATS001", version: 1, diff: diff.replacingOccurrences(of: " Payments", with: " Billing"), policyDelta: []))
        // The same edit in a CRLF file is the same kind; two different CRLF edits are two kinds
        // (Swift's `split` on "\n" does not split "\r\n", so every CRLF edit of a pass was one
        // kind, hashed from no line at all).
        let crlf = diff.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(EditGroup.id(pass: "ATS001", version: 1, diff: crlf, policyDelta: []) == EditGroup.id(pass: "ATS001", version: 1, diff: diff, policyDelta: []))
        #expect(EditGroup.id(pass: "ATS001", version: 1, diff: crlf, policyDelta: [])
                != EditGroup.id(pass: "ATS001", version: 1, diff: crlf.replacingOccurrences(of: "MinimumTLSVersion", with: "MinimumTLSversion"), policyDelta: []))
        #expect(EditGroup.lines(of: crlf).removed == EditGroup.lines(of: diff).removed && !EditGroup.lines(of: diff).removed.isEmpty)
        // The policy delta the page shows is part of the kind: the same lines with another effect
        // are another kind.
        #expect(EditGroup.id(pass: "ATS001", version: 1, diff: diff, policyDelta: ["no policy change"])
                != EditGroup.id(pass: "ATS001", version: 1, diff: diff, policyDelta: ["iOS 9+: HTTP to example.com (all loads): blocked → allowed"]))
        #expect(EditGroup.id(pass: "ATS001", version: 1, diff: diff, policyDelta: ["a"])
                == EditGroup.id(pass: "ATS001", version: 1, diff: diff, policyDelta: ["a"]))
    }

    @Test func thePageIsSelfContainedAndPutsWhatNeedsAPersonFirst() throws {
        let root = try Self.fleet()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try tool(["--format", "html", "alpha", "beta"], in: root)
        let page = result.text
        #expect(result.status == 2, "a file failed to parse")
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
        #expect(!page.contains("<link") && !page.contains("src=\"http") && !page.contains("@import") && !page.contains("url(http"),
                "no external assets")
        let attention = try #require(page.range(of: "id=\"attention\""))
        let changes = try #require(page.range(of: "id=\"changes\""))
        #expect(attention.lowerBound < changes.lowerBound)
        #expect(page.contains("beta/Broken/Info.plist:1:") && page.contains(">Error</strong>"))
        #expect(page.contains(">Held back</strong>") && page.contains("ATS003"))
        // One article per kind, ordered by pass; the ShopApp renames' kind lists its two files.
        let ids = page.components(separatedBy: "<article class=\"group\" id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(ids.map { String($0.prefix(6)) } == ["ATS001", "ATS001", "ATS002", "ATS004"], "\(ids)")
        #expect(page.contains("in <span class=\"n\">2</span> files"))
        #expect(page.contains("<dl class=\"delta\">") || page.contains("class=\"delta-none\""))
        #expect(page.contains("<main>") && page.contains("<header>") && page.contains("aria-label=\"Filters\""))
        // Without the script the page says how to write the decision by hand.
        #expect(page.contains("class=\"nojs\"") && page.contains("&quot;accepted&quot;: [&quot;ATS001-"))
    }

    @Test func policyDeltasBecomeTableRows() {
        let row = ReviewModel.deltaRow("iOS 10+/macOS 10.12+: HTTP to any other host (all loads): allowed → blocked; minimum TLS: not enforced → TLSv1.2")
        #expect(row?.os == "iOS 10+/macOS 10.12+" && row?.host == "any other host" && row?.loads == "all loads")
        #expect(row?.changes.map(\.setting) == ["HTTP", "minimum TLS"] && row?.changes.last?.after == "TLSv1.2")
        let secrecy = ReviewModel.deltaRow("iOS 9+/macOS 10.11+: cdn.example.com (urlSession, media): forward secrecy: required → not required")
        #expect(secrecy?.host == "cdn.example.com" && secrecy?.changes.first?.before == "required")
        #expect(ReviewModel.deltaRow("no policy change") == nil)
    }

    @Test func reportsMergeIntoOnePageAndOnlyLikeWithLike() throws {
        let root = try Self.fleet()
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["alpha", "beta"] {
            let result = try tool(["--format", "json", "--output", "\(name).json", name], in: root)
            #expect(result.status == 0 || result.status == 2)
        }
        let merged = try tool(["report", "--format", "json", "alpha.json", "beta.json"], in: root)
        #expect(merged.status == 0, "\(merged.stderr)")
        let document = try Self.json(merged.stdout)
        #expect((document["mergedFrom"] as? [String]) == ["alpha.json", "beta.json"])
        #expect((document["files"] as? [[String: Any]])?.count == 6)
        #expect((document["repositories"] as? [[String: Any]])?.count == 2)
        #expect(((document["summary"] as? [String: Any])?["scanned"] as? Int) == 6)
        let text = try tool(["report", "--format", "text", "alpha.json", "beta.json"], in: root).text
        // The ShopApp file's renames, the same edit with the same effect in both repositories:
        // one kind of two files.
        #expect(text.contains("ATS001-") && text.contains("2 files"), "\(text)")
        let page = try tool(["report", "alpha.json", "beta.json"], in: root).text
        #expect(page.contains("Merged from") && page.contains("https://example.com/beta.git"))

        // Another tool version, another pass set, another mode, an overlap: each refused.
        var other = try Self.json(try Data(contentsOf: root.appendingPathComponent("beta.json")))
        other["tool"] = ["name": "plist-migrate", "version": "9.9.9"]
        try JSONSerialization.data(withJSONObject: other).write(to: root.appendingPathComponent("newer.json"))
        let newer = try tool(["report", "alpha.json", "newer.json"], in: root)
        #expect(newer.status == 2 && newer.stderr.contains("different tool versions") && newer.stderr.contains("9.9.9") && newer.stdout.isEmpty)
        _ = try copyFixture("demo/ShopApp/Info.plist", to: root, as: "gamma/Info.plist")
        _ = try tool(["--format", "json", "--output", "recipe.json", "--recipe", Paths.repository.appendingPathComponent("Recipes/drop-armv7.yml").path, "gamma"], in: root)
        let recipe = try tool(["report", "alpha.json", "recipe.json"], in: root)
        #expect(recipe.status == 2 && recipe.stderr.contains("different pass sets") && recipe.stderr.contains("CAP001"), "\(recipe.stderr)")
        // A run of some passes only: merged with a full run, the other
        // repository's other edits would vanish from the page.
        _ = try copyFixture("demo/ShopApp/Info.plist", to: root, as: "delta/Info.plist")
        _ = try tool(["--format", "json", "--output", "only.json", "--only", "ATS009", "delta"], in: root)
        let only = try tool(["report", "alpha.json", "only.json"], in: root)
        #expect(only.status == 2 && only.stderr.contains("different passes") && only.stderr.contains("--only (not given / ATS009)"),
                "\(only.stderr)")
        _ = try tool(["--format", "json", "--output", "policy.json", "--allow-policy-change", "delta"], in: root)
        let policy = try tool(["report", "alpha.json", "policy.json"], in: root)
        #expect(policy.status == 2 && policy.stderr.contains("--allow-policy-change (not given / given)"), "\(policy.stderr)")
        let overlap = try tool(["report", "alpha.json", "alpha.json"], in: root)
        #expect(overlap.status == 2 && overlap.stderr.contains("the reports overlap"))
        try Data("{}".utf8).write(to: root.appendingPathComponent("bogus.json"))
        let bogus = try tool(["report", "bogus.json"], in: root)
        #expect(bogus.status == 2 && bogus.stderr == "bogus.json: error: not a plist-migrate JSON report (made by --format json)\n")
    }

    @Test(.enabled(if: pythonHas("jsonschema"), "needs Python's jsonschema (.ci/run installs it)"))
    func mergedReportsAndDecisionsMatchTheirSchemas() throws {
        let root = try Self.fleet()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try tool(["--format", "json", "--output", "alpha.json", "alpha"], in: root)
        _ = try tool(["--format", "json", "--output", "beta.json", "beta"], in: root)
        try tool(["report", "--format", "json", "alpha.json", "beta.json"], in: root).stdout.write(to: root.appendingPathComponent("merged.json"))
        let decision = ReviewDecision(accepted: ["ATS001-0123456789ab"], rejected: [])
        try JSONEncoder().encode(decision).write(to: root.appendingPathComponent("decision.json"))
        for (schema, file) in [("merged-report", "merged.json"), ("migrate-report", "alpha.json"), ("review-decision", "decision.json")] {
            let check = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
                import json, sys, jsonschema
                jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
                """, Paths.repository.appendingPathComponent("schemas/\(schema).schema.json").path, file], in: root)
            #expect(check.status == 0, "\(schema): \(check.stderr)")
        }
    }

    @Test func writeAcceptAppliesExactlyTheAcceptedKinds() throws {
        let root = try Self.fleet()
        defer { try? FileManager.default.removeItem(at: root) }
        let report = try Self.json(try tool(["--format", "json", "alpha", "beta"], in: root).stdout)
        let passes = ((report["files"] as? [[String: Any]]) ?? []).flatMap { ($0["passes"] as? [[String: Any]]) ?? [] }
        let ats001 = try #require(passes.first { $0["id"] as? String == "ATS001" }?["group"] as? String)
        let ats002 = try #require(passes.first { $0["id"] as? String == "ATS002" }?["group"] as? String)
        try JSONEncoder().encode(ReviewDecision(accepted: [ats001, ats002], rejected: [])).write(to: root.appendingPathComponent("decision.json"))
        let before = try Data(contentsOf: root.appendingPathComponent("alpha/App/Info.plist"))
        #expect(try tool(["--check", "--accept", "decision.json", "alpha"], in: root).status == 1, "accepted edits are pending")
        let written = try tool(["--write", "--accept", "decision.json", "alpha", "beta/Widget"], in: root)
        #expect(written.stderr.contains("ATS004 held back: its edit here (ATS004-") && written.stderr.contains("was not accepted in review"))
        let after = try String(contentsOf: root.appendingPathComponent("alpha/App/Info.plist"), encoding: .utf8)
        #expect(!after.contains("NSThirdParty") && after.contains("NSAllowsArbitraryLoadsForMedia"), "ATS001 and ATS002 applied")
        #expect(after.contains("*.images.Example-CDN.com"), "ATS004, not accepted, is not")
        #expect(try Data(contentsOf: root.appendingPathComponent("alpha/App/Info.plist")) != before)
        #expect(try tool(["--check", "--accept", "decision.json", "alpha", "beta/Widget"], in: root).status == 0, "nothing accepted is left")
        #expect(try tool(["--check", "--strict", "--accept", "decision.json", "alpha"], in: root).status == 1, "held back counts with --strict")
        // The file changed since the review (one key renamed by hand): its ATS001 edit renames two
        // keys, not the three reviewed, so it is another kind and is not written.
        let changed = root.appendingPathComponent("beta/App/Info.plist")
        let text = try String(contentsOf: changed, encoding: .utf8)
        try text.replacingOccurrences(of: "NSThirdPartyExceptionRequiresForwardSecrecy", with: "NSExceptionRequiresForwardSecrecy")
            .write(to: changed, atomically: true, encoding: .utf8)
        let edited = try Data(contentsOf: changed)
        let stale = try tool(["--write", "--accept", "decision.json", "--decision-spans-runs", "--only", "ATS001", "beta/App"], in: root)
        #expect(stale.stderr.contains("ATS001 held back: its edit here"), "\(stale.stderr)")
        #expect(try Data(contentsOf: changed) == edited)
        // Decisions from another version, or malformed, are refused on one line.
        try Data(#"{"schemaVersion":1,"toolVersion":"0.0.1","accepted":[]}"#.utf8).write(to: root.appendingPathComponent("old.json"))
        let old = try tool(["--write", "--accept", "old.json", "alpha"], in: root)
        #expect(old.status == 2 && old.stderr == "old.json: error: made with plist-migrate 0.0.1, this is \(ToolVersion.current): review the changes again with this version\n")
        try Data("[]".utf8).write(to: root.appendingPathComponent("bad.json"))
        #expect(try tool(["--accept", "bad.json", "alpha"], in: root).stderr.hasPrefix("bad.json: error: not a review decision"))
    }

    /// Accepting a kind but not the kind it follows in a file: ATS006 cleans the
    /// domain keys of the NSExceptionDomains that ATS005 spells right. Without ATS005, ATS006
    /// cannot be applied there, and the run says so per file and fails.
    @Test func anAcceptedKindThatCannotBeAppliedFailsLoudly() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            	<key>NSAppTransportSecurity</key>
            	<dict>
            		<key>NSExceptionDomain</key>
            		<dict>
            			<key>https://example.com/</key>
            			<dict>
            				<key>NSIncludesSubdomains</key>
            				<true/>
            			</dict>
            		</dict>
            	</dict>
            </dict>
            </plist>

            """
        let file = root.appendingPathComponent("App/Info.plist")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(plist.utf8).write(to: file)
        let report = try Self.json(try tool(["--no-config", "--format", "json", "App"], in: root).stdout)
        let passes = ((report["files"] as? [[String: Any]]) ?? []).flatMap { ($0["passes"] as? [[String: Any]]) ?? [] }
        let ats005 = try #require(passes.first { $0["id"] as? String == "ATS005" }?["group"] as? String)
        let ats006 = try #require(passes.first { $0["id"] as? String == "ATS006" }?["group"] as? String)
        try JSONEncoder().encode(ReviewDecision(accepted: [ats006], rejected: [ats005])).write(to: root.appendingPathComponent("decision.json"))
        let expected = "App/Info.plist: error: accepted \(ats006) cannot be applied here: it applies after \(ats005), which the decision does not accept"
        let check = try tool(["--no-config", "--check", "--accept", "decision.json", "App"], in: root)
        #expect(check.status == 1, "the accepted edit is still pending: \(check.stderr)")
        #expect(check.stderr.contains(expected), "\(check.stderr)")
        #expect(!check.stderr.contains("does not have"), "the kind is the run's, only not applicable")
        let write = try tool(["--no-config", "--write", "--accept", "decision.json", "App"], in: root)
        #expect(write.status == 2 && write.stderr.contains(expected), "\(write.stderr)")
        #expect(write.stderr.contains("1 with accepted kinds that cannot be applied"), "\(write.stderr)")
        #expect(try Data(contentsOf: file) == Data(plist.utf8), "nothing accepted could be written")
        let json = try Self.json(try tool(["--no-config", "--format", "json", "--accept", "decision.json", "App"], in: root).stdout)
        let record = try #require((json["files"] as? [[String: Any]])?.first)
        #expect((record["acceptedNotApplied"] as? [[String: Any]])?.first?["after"] as? [String] == [ats005])
        #expect((json["summary"] as? [String: Any])?["acceptedNotApplied"] as? Int == 1)
        // Accepting both applies both, and nothing is left.
        try JSONEncoder().encode(ReviewDecision(accepted: [ats005, ats006], rejected: [])).write(to: root.appendingPathComponent("both.json"))
        #expect(try tool(["--no-config", "--write", "--accept", "both.json", "App"], in: root).status == 0)
        #expect(try tool(["--no-config", "--check", "--accept", "both.json", "App"], in: root).status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("<key>example.com</key>"))
    }
}

extension URL {
    func creatingParent() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }

}

/// `--write -` prints the plist on standard output: another format's report cannot share it.
@Suite struct StandardOutputTests {
    @Test func aReportNeverGarblesTheMigratedPlist() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS001/tabs.before.plist"))
        let expected = try Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS001/tabs.after.plist"))
        for format in ["json", "patch", "html"] {
            let refused = try tool(["--write", "--format", format, "-"], in: directory, input: input)
            #expect(refused.status == 64 && refused.stdout.isEmpty && refused.stderr.contains("--output FILE"), "\(format)")
            let split = try tool(["--write", "--format", format, "--output", "report.\(format)", "-"], in: directory, input: input)
            #expect(split.status == 0 && split.stdout == expected, "\(format): the plist alone on standard output")
            #expect(try Data(contentsOf: directory.appendingPathComponent("report.\(format)")).count > 0)
        }
    }
}

/// What a plist or its name holds is text on the review page, never markup or script.
@Suite struct ReviewPageEscapingTests {
    /// A host with a right-to-left override (U+202E) reads as another domain; zero-width and
    /// other invisible characters hide a difference. The page shows each as a mark.
    @Test func invisibleAndBidirectionalCharactersAreShownAsMarks() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = "*.moc.\u{202E}elpmaxe.com"
        let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>NSAppTransportSecurity</key>\n\t<dict>\n"
            + "\t\t<key>NSExceptionDomains</key>\n\t\t<dict>\n\t\t\t<key>\(host)</key>\n\t\t\t<dict>\n"
            + "\t\t\t\t<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key>\n\t\t\t\t<true/>\n\t\t\t</dict>\n"
            + "\t\t\t<key>zero\u{200B}width.example.com</key>\n\t\t\t<dict>\n\t\t\t\t<key>NSThirdPartyExceptionMinimumTLSVersion</key>\n"
            + "\t\t\t\t<string>TLSv1.2</string>\n\t\t\t</dict>\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n"
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("App\u{2066}"), withIntermediateDirectories: true)
        try Data(plist.utf8).write(to: directory.appendingPathComponent("App\u{2066}/Info.plist"))
        let page = try tool(["--no-config", "--format", "html", "."], in: directory).text
        #expect(!page.isEmpty)
        for scalar in ["\u{202E}", "\u{200B}", "\u{2066}"] {
            #expect(!page.contains(scalar), "U+\(String(scalar.unicodeScalars.first!.value, radix: 16, uppercase: true)) is on the page as itself")
        }
        #expect(page.contains("⟦U+202E⟧elpmaxe") && page.contains("zero⟦U+200B⟧width"), "shown as marks")
        #expect(page.contains("App⟦U+2066⟧") || page.contains("App\\342\\201\\246"), "the path too")
    }

    @Test func namesAndValuesCannotInjectMarkup() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = "</pre><script>alert(1)</script><img src=x onerror=alert(2)>"
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<key>NSExceptionDomains</key>
            \t\t<dict>
            \t\t\t<key>*.Example.com</key>
            \t\t\t<dict>
            \t\t\t\t<!-- \(hostile.replacingOccurrences(of: "--", with: "")) -->
            \t\t\t\t<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key>
            \t\t\t\t<true/>
            \t\t\t</dict>
            \t\t</dict>
            \t</dict>
            </dict>
            </plist>

            """
        let name = "App <script>alert(3)</script> \"'&"
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
        try Data(plist.utf8).write(to: directory.appendingPathComponent(name).appendingPathComponent("Info.plist"))
        let page = try tool(["--format", "html", "."], in: directory).text
        #expect(page.contains("<article class=\"group\""), "the edits are on the page")
        // The page's own script is the only one; the hostile text is there, escaped.
        #expect(page.components(separatedBy: "<script").count - 1 == 4, "the page's script, its JSON version, report key and plan only")
        #expect(!page.contains("<img") && !page.contains("alert(3)</script>") && !page.contains("</pre><script>"))
        // In element text only `<` and `&` need escaping (a diff line's `>` is written as it is).
        #expect(page.contains("&lt;script&gt;alert(3)&lt;/script&gt;") && page.contains("&lt;img src=x onerror=alert(2)>"))
    }
}
