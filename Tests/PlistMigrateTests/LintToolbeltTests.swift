import Foundation
import Testing
@testable import PlistMigrate

/// A lint a team can tune: inline suppressions, config, baseline, strict/quiet,
/// GitHub annotations, standard input, colour rules.
@Suite struct LintToolbeltTests {
    static let suppressed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<!-- plist-migrate:disable L005 ATS003 -->
        \t\t<key>NSAllowsArbitraryLoads</key>
        \t\t<true/>
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<!-- plist-migrate:disable-next-line ATS004 -->
        \t\t\t<key>API.Example.com</key>
        \t\t\t<dict/>
        \t\t\t<key>Other.Example.com</key>
        \t\t\t<dict/>
        \t\t</dict>
        \t\t<!-- plist-migrate:disable L007 -->
        \t\t<key>NSAllowsLocalNetworking</key>
        \t\t<true/>
        \t</dict>
        </dict>
        </plist>

        """

    @Test func inlineSuppressionsSilenceTheirEntryLineOrFileAndUnusedOnesAreFindings() {
        let findings = Linter.lint(Array(Self.suppressed.utf8), path: "Info.plist")
        let rules = findings.map { "\($0.line):\($0.ruleID)" }
        #expect(!rules.contains("7:L005") && !rules.contains("7:ATS003"), "the entry after disable is silenced")
        #expect(!rules.contains("12:ATS004"), "the next line is silenced")
        #expect(rules.contains("14:ATS004"), "only the next line")
        #expect(findings.contains { $0.ruleID == "L011" && $0.line == 17 && $0.message.hasPrefix("unused suppression") })
        let file = Self.suppressed.replacingOccurrences(of: "<!-- plist-migrate:disable L007 -->", with: "<!-- plist-migrate:disable-file ATS004 -->")
        #expect(!Linter.lint(Array(file.utf8), path: "Info.plist").contains { $0.ruleID == "ATS004" || $0.ruleID == "L011" })
    }

    @Test func aDisableCommentCoversTheNextEntryAtItsOwnDepthOnly() {
        let file = Self.suppressed.replacingOccurrences(
            of: "<!-- plist-migrate:disable-next-line ATS004 -->", with: "<!-- plist-migrate:disable ATS004 -->")
        let rules = Linter.lint(Array(file.utf8), path: "Info.plist").map { "\($0.line):\($0.ruleID)" }
        #expect(!rules.contains("12:ATS004"), "the next entry, inside the domains dict, is silenced")
        #expect(rules.contains("14:ATS004"), "not the one after it, nor the dicts around the comment")
    }

    @Test func findingsCarryKeyPathsAndJSONSpellsRuleIdLikeSARIF() throws {
        let finding = try #require(Linter.lint(Array(Self.suppressed.utf8), path: "Info.plist").first { $0.ruleID == "ATS004" })
        #expect(finding.keyPath == "NSAppTransportSecurity:NSExceptionDomains:Other.Example.com")
        let json = String(decoding: try JSONEncoder().encode(finding), as: UTF8.self)
        #expect(json.contains("\"ruleId\":\"ATS004\"") && !json.contains("ruleID"))
    }

    func workspace() throws -> URL {
        let directory = try temporaryDirectory()
        _ = try copyFixture("lint/everything.plist", to: directory, as: "App/Info.plist")
        return directory
    }

    @Test func theConfigDisablesRulesSetsSeveritiesAndSkipsAndExcludes() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try tool(["lint", "."], in: directory)
        #expect(before.text.contains("[L005]") && before.text.contains("error: [L007]"))
        try #"{ "lint": { "disable": ["L005"], "severity": { "L007": "warning" } }, "skip": ["ATS005"] }"#
            .write(to: directory.appendingPathComponent(".plist-migrate.json"), atomically: true, encoding: .utf8)
        let after = try tool(["lint", "."], in: directory)
        #expect(!after.text.contains("[L005]") && !after.text.contains("[ATS005]"))
        #expect(after.text.contains("warning: [L007]") && !after.text.contains("error: [L007]"))
        try #"{ "exclude": ["App/**"] }"#.write(to: directory.appendingPathComponent(".plist-migrate.json"), atomically: true, encoding: .utf8)
        #expect(try tool(["lint", "."], in: directory).text.isEmpty, "lint honours exclude")
        try #"{ "lint": { "disable": ["L999"] } }"#.write(to: directory.appendingPathComponent(".plist-migrate.json"), atomically: true, encoding: .utf8)
        let invalid = try tool(["lint", "."], in: directory)
        #expect(invalid.status == 2 && invalid.stderr.contains("\"lint.disable\": unknown rule"))
    }

    @Test func aBaselineSurvivesEditsElsewhereAndLetsNewFindingsThrough() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try tool(["lint", "--write-baseline", "base.json", "."], in: directory).status == 0)
        let file = directory.appendingPathComponent("App/Info.plist")
        var text = try String(contentsOf: file, encoding: .utf8)
        // Lines move (a comment above everything), and one new problem appears.
        text = text.replacingOccurrences(of: "<dict>", with: "<!-- moved\n down\n two lines -->\n<dict>", options: [], range: text.range(of: "<dict>"))
        text = text.replacingOccurrences(of: "<key>NSExceptionDomains</key>", with: "<key>NSAllowsArbitraryLoadsInWebContent</key><string>yes</string><key>NSExceptionDomains</key>")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = try tool(["lint", "--baseline", "base.json", "."], in: directory)
        let lines = result.text.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("[ATS008]") == true, "only the new finding: \(result.text)")
    }

    @Test func strictQuietGithubAndStandardInput() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let warningOnly = "<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict></dict></plist>"
        try warningOnly.write(to: directory.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        // The checks give a warning only (L005); its posture is an error (P001), so it is left out here.
        #expect(try tool(["lint", "--rules", "checks", "Info.plist"], in: directory).status == 0)
        #expect(try tool(["lint", "--rules", "checks", "--strict", "Info.plist"], in: directory).status == 1)
        #expect(try tool(["lint", "Info.plist"], in: directory).status == 1)
        #expect(try tool(["lint", "--rules", "posture", "Info.plist"], in: directory).text.contains("error: [P001]"))
        let quiet = try tool(["lint", "--quiet", "Info.plist"], in: directory)
        #expect(!quiet.text.contains(": note: ") && quiet.stderr.isEmpty)
        let github = try tool(["lint", "--format", "github", "Info.plist"], in: directory)
        #expect(github.text.hasPrefix("::notice file=Info.plist,line=1,col="))
        #expect(github.text.contains("::warning file=Info.plist,line=1,") && github.text.contains("title=plist-migrate L005::"))
        let stdin = try tool(["lint", "-", "--stdin-path", "App/Info.plist"], in: directory, input: Data(warningOnly.utf8))
        #expect(stdin.text.contains("App/Info.plist:1:") && stdin.text.contains("[L005]"), "lint - reads standard input")
        #expect(GitHubAnnotations.escapeProperty("a:b,c%") == "a%3Ab%2Cc%25")
    }

    @Test func colourFollowsTheEnvironment() {
        #expect(Colour.enabled(.auto, isTerminal: true, environment: [:]))
        #expect(!Colour.enabled(.auto, isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(!Colour.enabled(.auto, isTerminal: true, environment: ["TERM": "dumb"]))
        #expect(Colour.enabled(.auto, isTerminal: false, environment: ["FORCE_COLOR": "1"]))
        #expect(!Colour.enabled(.auto, isTerminal: false, environment: [:]))
        #expect(Colour.enabled(.always, isTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(Colour.lint("a:1:1: error: [X] m").contains("\u{1B}[1;31merror\u{1B}[0m"))
    }

    @Test func migrateQuietAndStrict() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("ATS003/tabs.before.plist", to: directory, as: "Info.plist")
        let check = try tool(["--check", "Info.plist"], in: directory)
        #expect(check.status == 0 && check.stderr.contains("note:"))
        #expect(try tool(["--check", "--strict", "Info.plist"], in: directory).status == 1, "held back counts as pending")
        let quiet = try tool(["--quiet", "Info.plist"], in: directory)
        #expect(quiet.stderr.isEmpty)
    }
}

/// Every file error is one plain line, and an unknown rule id is named.
@Suite struct LintPlainErrorTests {
    @Test func aMissingOrBrokenBaselineIsOnePlainLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "Info.plist")
        let missing = try tool(["lint", "--no-config", "--baseline", "missing.json", "Info.plist"], in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("missing.json: error: cannot read the baseline: cannot open: no such file or directory"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("NSCocoaErrorDomain"))
        try Data("{".utf8).write(to: directory.appendingPathComponent("bad.json"))
        let broken = try tool(["lint", "--no-config", "--baseline", "bad.json", "Info.plist"], in: directory)
        #expect(broken.stderr.contains("bad.json: error: cannot read the baseline: not a baseline written by --write-baseline (not valid JSON)"))
    }

    @Test func anUnknownRuleInTheConfigIsNamed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "Info.plist")
        try Data(#"{"lint":{"disable":["L999"]}}"#.utf8).write(to: directory.appendingPathComponent(".plist-migrate.json"))
        let result = try tool(["lint", "Info.plist"], in: directory)
        #expect(result.stderr.contains(#"error: "lint.disable": unknown rule "L999""#), "\(result.stderr)")
    }
}

extension LintPlainErrorTests {
    @Test func aMistypedSuppressionIdIsUnknownNotUnused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = """
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
            <!-- plist-migrate:disable-next-line L05 -->
            <key>NSAllowsArbitraryLoads</key><true/>
            </dict></dict></plist>

            """
        try Data(plist.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let result = try tool(["lint", "--no-config", "Info.plist"], in: directory)
        // As written, with the nearest rule, and where the rules are listed.
        #expect(result.text.contains("Info.plist:2:1: warning: [L011] unknown rule \"L05\" (did you mean \"L005\"?) in plist-migrate:disable-next-line "
            + "(`plist-migrate rules` lists the rules)"), "\(result.text)")
        try Data(plist.replacingOccurrences(of: "L05", with: "arbitary-loads").utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let named = try tool(["lint", "--no-config", "Info.plist"], in: directory)
        #expect(named.text.contains("unknown rule \"arbitary-loads\" (did you mean \"arbitrary-loads\"?)"), "\(named.text)")
        #expect(!result.text.contains("silences nothing"))
    }

    @Test func aValueWithALineBreakStaysOnItsFindingsLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = "<plist version=\"1.0\"><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>"
            + "<key>example.com</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.4\nsecond line</string></dict>"
            + "</dict></dict></dict></plist>\n"
        try Data(plist.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let result = try tool(["lint", "--no-config", "Info.plist"], in: directory)
        let lines = result.text.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("Info.plist:") }, "\(result.text)")
        #expect(result.text.contains("TLSv1.4\\nsecond line"))
    }
}

/// Pre-commit names every file; `--force-exclude` holds them to the excludes too.
@Suite struct ForceExcludeTests {
    @Test func aBrokenFixtureUnderAnExcludedFolderFailsNeitherHook() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Broken"), withIntermediateDirectories: true)
        try Data("<plist><dict><key>NSAppTransportSecurity</key><dict></array></dict></plist>\n".utf8)
            .write(to: directory.appendingPathComponent("Broken/Info.plist"))
        try Data(#"{"exclude": ["Broken/**"]}"#.utf8).write(to: directory.appendingPathComponent(".plist-migrate.json"))
        for command in [["--check"], ["lint"]] {
            #expect(try tool(command + ["Broken/Info.plist"], in: directory).status == 2, "named: checked, as before")
            let forced = try tool(command + ["--force-exclude", "Broken/Info.plist"], in: directory)
            #expect(forced.status == 0, "\(command): \(forced.stderr)")
        }
        let glob = try tool(["--check", "--no-config", "--force-exclude", "--exclude", "Broken/**", "Broken/Info.plist"], in: directory)
        #expect(glob.status == 0, "\(glob.stderr)")
    }

    @Test func theHooksUseIt() throws {
        let hooks = try String(contentsOf: Paths.repository.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
        #expect(hooks.contains("entry: plist-migrate --check --force-exclude") && hooks.contains("entry: plist-migrate lint --force-exclude"))
    }
}

/// Baseline keys name array items by their content, not their position.
@Suite struct BaselineArrayItemTests {
    static func plist(_ pins: [String]) -> String {
        let identities = pins.map { "<dict><key>SPKI-SHA256-BASE64</key><string>\($0)</string></dict>" }.joined(separator: "\n")
        return """
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
            <key>example.com</key><dict><key>NSPinnedLeafIdentities</key><array>
            \(identities)
            </array></dict></dict></dict></dict></plist>

            """
    }

    @Test func insertingAPinBeforeABaselinedOneKeepsTheOldOneQuietAndReportsTheNewOne() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Info.plist")
        try Data(Self.plist(["old-bad"]).utf8).write(to: file)
        #expect(try tool(["lint", "--no-config", "--write-baseline", "baseline.json", "Info.plist"], in: directory).status == 0)
        let baseline = try String(contentsOf: directory.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(baseline.contains("NSPinnedLeafIdentities:[#") && !baseline.contains("NSPinnedLeafIdentities:0"), "\(baseline)")
        try Data(Self.plist(["new-bad", "old-bad"]).utf8).write(to: file)
        let result = try tool(["lint", "--no-config", "--baseline", "baseline.json", "Info.plist"], in: directory)
        let pins = result.text.split(separator: "\n").filter { $0.contains("[L007]") }
        #expect(pins.count == 1 && pins[0].contains("\"new-bad\""), "\(result.text)")
    }
}

/// Standard input named with `--stdin-path` gets the config of the file it stands for.
@Suite struct StdinPathConfigTests {
    @Test func lintAndExplainOfStandardInputUseTheConfigOfTheNamedPath() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = try copyFixture("ATS010/comments.before.plist", to: directory, as: "App/Info.plist")
        try Data(#"{"minimumOS": "ios16", "lint": {"disable": ["L005"]}}"#.utf8).write(to: directory.appendingPathComponent("App/.plist-migrate.json"))
        let input = try Data(contentsOf: plist)
        let lint = try tool(["lint", "-", "--stdin-path", "App/Info.plist"], in: directory, input: input)
        #expect(!lint.text.contains("[L005]"), "App's config disables L005: \(lint.text)")
        let plain = try tool(["lint", "-"], in: directory, input: input)
        #expect(plain.text.contains("[L005]"), "without --stdin-path no config applies")
        let explain = try tool(["explain", "-", "--stdin-path", "App/Info.plist"], in: directory, input: input)
        #expect(explain.text.contains("deployment target ios16 (from App/.plist-migrate.json)"), "\(explain.text)")
    }
}

/// `plist-migrate rules` lists every rule with its severity and whether the config
/// where it is asked leaves it enabled.
@Suite struct RulesListingTests {
    @Test func textAndJSONFollowTheConfig() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"lint": {"disable": ["L005"], "severity": {"L004": "note"}}}"#.utf8).write(to: directory.appendingPathComponent(".plist-migrate.json"))
        let text = try tool(["rules"], in: directory)
        #expect(text.status == 0)
        let lines = text.text.split(separator: "\n")
        #expect(lines.count == LintRule.all.count)
        #expect(lines.contains { $0.hasPrefix("L005") && $0.contains("disabled") && $0.contains("NSAllowsArbitraryLoads is true") })
        #expect(lines.contains { $0.hasPrefix("L004") && $0.contains(" note ") && $0.contains("enabled") })
        let json = try tool(["rules", "--format", "json"], in: directory)
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let rules = try #require(document["rules"] as? [[String: Any]])
        #expect(rules.count == LintRule.all.count)
        #expect(rules.first { $0["id"] as? String == "L005" }?["enabled"] as? Bool == false)
        #expect(rules.first { $0["id"] as? String == "ATS001" }?["enabled"] as? Bool == true)
        let without = try tool(["rules", "--no-config", "--format", "json"], in: directory)
        let all = try #require((try JSONSerialization.jsonObject(with: without.stdout) as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(all.allSatisfy { $0["enabled"] as? Bool == true })
    }
}

/// `--output FILE` writes the report there; messages stay on standard error.
@Suite struct ReportOutputTests {
    @Test func migrateAndLintWriteTheirReportToTheFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "Info.plist")
        let patch = try tool(["--no-config", "--format", "patch", "--output", "out.patch", "Info.plist"], in: directory)
        #expect(patch.status == 0 && patch.stdout.isEmpty && patch.stderr.contains("1 would change"))
        let written = try String(contentsOf: directory.appendingPathComponent("out.patch"), encoding: .utf8)
        #expect(written.hasPrefix("--- a/Info.plist"))
        let sarif = try tool(["lint", "--no-config", "--format", "sarif", "--output", "lint.sarif", "Info.plist"], in: directory)
        #expect(sarif.stdout.isEmpty)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("lint.sarif"))) as? [String: Any]
        #expect(document?["version"] as? String == "2.1.0")
        let refused = try tool(["lint", "--no-config", "--output", "missing/dir/x.txt", "Info.plist"], in: directory)
        #expect(refused.status == 2 && refused.stderr.contains("missing/dir/x.txt: error: cannot write the report there"))
    }
}

/// The reporters CI systems ingest, each read back by an independent parser.
@Suite struct CIReporterTests {
    static func lint(_ format: String) throws -> ProcessResult {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = """
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
            <key>NSAllowsArbitraryLoads</key><true/>
            <key>NSExceptionDomains</key><dict><key>a&amp;b.example.com.</key><dict/></dict>
            </dict></dict></plist>

            """
        try Data(plist.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        return try tool(["lint", "--no-config", "--format", format, "Info.plist"], in: directory)
    }

    static func python(_ script: String, _ input: Data) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], in: Paths.repository, input: input)
    }

    @Test func junitCheckstyleAndGitLabCarryEveryFinding() throws {
        let json = try Self.lint("json")
        let findings = try #require((try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])?["findings"] as? [[String: Any]])
        #expect(findings.count >= 2)
        let junit = try Self.lint("junit")
        let junitCheck = try Self.python("""
            import sys, xml.etree.ElementTree as ET
            root = ET.fromstring(sys.stdin.buffer.read())
            assert root.tag == 'testsuites'
            cases = root.findall('./testsuite/testcase')
            print(len(cases), len(root.findall('./testsuite/testcase/failure')), root.get('failures'))
            """, junit.stdout)
        let counts = junitCheck.text.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(junitCheck.status == 0 && counts.first == String(findings.count), "\(junitCheck.stderr)\(junit.text)")
        #expect(counts.count == 3 && counts[1] == counts[2])
        let checkstyle = try Self.lint("checkstyle")
        let checkstyleCheck = try Self.python("""
            import sys, xml.etree.ElementTree as ET
            root = ET.fromstring(sys.stdin.buffer.read())
            assert root.tag == 'checkstyle'
            errors = root.findall('./file/error')
            assert all(e.get('source').startswith('plist-migrate.') for e in errors)
            assert any('a&b.example.com.' in e.get('message') for e in errors)
            print(len(errors))
            """, checkstyle.stdout)
        #expect(checkstyleCheck.status == 0 && checkstyleCheck.text.trimmingCharacters(in: .whitespacesAndNewlines) == String(findings.count),
                "\(checkstyleCheck.stderr)")
        let gitlab = try Self.lint("gitlab")
        let issues = try #require(try JSONSerialization.jsonObject(with: gitlab.stdout) as? [[String: Any]])
        #expect(issues.count == findings.count)
        #expect(issues.allSatisfy { issue in
            ["description", "check_name", "fingerprint", "severity", "location"].allSatisfy { issue[$0] != nil }
                && ["info", "minor", "major", "critical", "blocker"].contains(issue["severity"] as? String ?? "")
        })
        #expect(Set(issues.compactMap { $0["fingerprint"] as? String }).count == issues.count, "fingerprints are distinct")
    }

    @Test func junitWithoutFindingsIsOnePassingCase() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("roundtrip/all-types.plist", to: directory, as: "Info.plist")
        let result = try tool(["lint", "--no-config", "--format", "junit", "Info.plist"], in: directory)
        #expect(result.text.contains("<testcase classname=\"plist-migrate\" name=\"lint\"/>") && result.text.contains("failures=\"0\""))
    }
}

/// Every output names files from the repository root, wherever in it the tool runs.
@Suite struct RepositoryRelativePathTests {
    func repository() throws -> URL {
        let directory = try temporaryDirectory()
        #expect(try git(["init", "-q"], in: directory).status == 0)
        _ = try copyFixture("lint/everything.plist", to: directory, as: "App/Info.plist")
        _ = try copyFixture("demo/ShopApp/Info.plist", to: directory, as: "App/Legacy/Info.plist")
        return directory
    }

    @Test func aBaselineWrittenAtTheRootMatchesFromASubdirectory() throws {
        let directory = try repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = directory.appendingPathComponent("App")
        #expect(try tool(["lint", "--no-config", "--write-baseline", "base.json", "App"], in: directory).status == 0)
        let fromApp = try tool(["lint", "--no-config", "--baseline", "../base.json", "."], in: app)
        #expect(fromApp.status == 0 && fromApp.text.isEmpty, "\(fromApp.text)\(fromApp.stderr)")
        // And the other way round: written in App/, read at the root.
        #expect(try tool(["lint", "--no-config", "--write-baseline", "../base2.json", "Info.plist"], in: app).status == 0)
        let baseline = try String(contentsOf: directory.appendingPathComponent("base2.json"), encoding: .utf8)
        #expect(baseline.contains("\"App/Info.plist\""), "\(baseline)")
        let fromRoot = try tool(["lint", "--no-config", "--baseline", "base2.json", "App/Info.plist"], in: directory)
        #expect(fromRoot.status == 0 && fromRoot.text.isEmpty, "\(fromRoot.text)")
    }

    @Test func everyFormatNamesTheFileFromTheRoot() throws {
        let directory = try repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = directory.appendingPathComponent("App")
        let text = try tool(["lint", "--no-config", "Info.plist"], in: app)
        #expect(!text.text.isEmpty && text.text.split(separator: "\n").allSatisfy { $0.hasPrefix("App/Info.plist:") }, "\(text.text)")
        let github = try tool(["lint", "--no-config", "--format", "github", "Info.plist"], in: app)
        #expect(github.text.contains("file=App/Info.plist,") && !github.text.contains("file=Info.plist"))
        let json = try tool(["lint", "--no-config", "--format", "json", "Info.plist"], in: app)
        #expect(json.text.contains("\"path\" : \"App/Info.plist\""), "\(json.text)")
        let xcode = try tool(["lint", "--no-config", "--format", "xcode", "Info.plist"], in: app)
        #expect(!xcode.text.isEmpty && xcode.text.split(separator: "\n").allSatisfy { $0.hasPrefix("/") && $0.contains("/App/Info.plist:") }, "\(xcode.text)")
        let sarif = try tool(["lint", "--no-config", "--format", "sarif", "Info.plist"], in: app)
        #expect(sarif.text.contains("\"uri\" : \"App/Info.plist\""))
        let migrate = try tool(["--no-config", "--format", "json", "Legacy"], in: app)
        #expect(migrate.text.contains("\"path\" : \"App/Legacy/Info.plist\""), "\(migrate.text)")
        let explain = try tool(["explain", "--no-config", "Legacy/Info.plist"], in: app)
        #expect(explain.text.contains("App/Legacy/Info.plist"), "\(explain.text)")
        // Outside any repository, names stay relative to the working directory.
        let plain = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: plain) }
        _ = try copyFixture("lint/everything.plist", to: plain, as: "App/Info.plist")
        let outside = try tool(["lint", "--no-config", "Info.plist"], in: plain.appendingPathComponent("App"))
        #expect(!outside.text.isEmpty && outside.text.split(separator: "\n").allSatisfy { $0.hasPrefix("Info.plist:") }, "\(outside.text)")
    }
}
