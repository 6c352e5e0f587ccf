import Foundation
import Testing
@testable import PlistMigrate

@Suite struct ConfigTests {
    func write(_ json: String, to dir: URL, _ relative: String = ".plist-migrate.json") throws {
        let url = dir.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: url)
    }

    @Test func nearestConfigWinsAndFlagsOverrideIt() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try git(["init", "-q"], in: dir)
        _ = try copyFixture("ATS004/tabs.before.plist", to: dir, as: "Pinned/App/Info.plist")
        _ = try copyFixture("ATS004/tabs.before.plist", to: dir, as: "Free/Info.plist")
        try write(#"{ "to": 3 }"#, to: dir, "Pinned/.plist-migrate.json")
        try write(#"{ "skip": ["ATS001"] }"#, to: dir)
        let result = try tool(["."], in: dir)
        #expect(result.text.contains("--- a/Free/Info.plist"))
        #expect(!result.text.contains("Pinned/App/Info.plist"), "Pinned/ pins version 3, so ATS004 does not run there")
        let overridden = try tool(["--to", "4", "."], in: dir)
        #expect(overridden.text.contains("--- a/Pinned/App/Info.plist"))
        let ignored = try tool(["--no-config", "."], in: dir)
        #expect(ignored.text.contains("--- a/Pinned/App/Info.plist"))
    }

    /// `lint.only` (SwiftLint's `only_rules`) runs the rules it names alone; a misspelled rule
    /// name is an error that names the nearest rule.
    @Test func lintOnlyRunsTheNamedRulesAndMisspellingsGetASuggestion() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("demo/ShopApp/Info.plist", to: dir, as: "Info.plist")
        let all = try tool(["lint", "--format", "json", "Info.plist"], in: dir)
        let everyRule = try Self.ruleIDs(all)
        #expect(everyRule.contains("ATS001") && everyRule.count > 2, "\(everyRule)")
        try write(#"{ "lint": { "only": ["ATS001", "normalize-exception-domains"] } }"#, to: dir)
        let only = try tool(["lint", "--format", "json", "Info.plist"], in: dir)
        #expect(try Self.ruleIDs(only) == ["ATS001", "ATS004"], "\(only.stderr)")
        for (field, json) in [("only", #"{ "lint": { "only": ["arbitary-loads"] } }"#),
                              ("disable", #"{ "lint": { "disable": ["arbitary-loads"] } }"#)] {
            try write(json, to: dir)
            let typo = try tool(["lint", "Info.plist"], in: dir)
            #expect(typo.status == 2, "\(typo.stderr)")
            #expect(typo.stderr.contains("\"lint.\(field)\": unknown rule \"arbitary-loads\" (did you mean \"arbitrary-loads\"?)"), "\(typo.stderr)")
        }
    }

    static func ruleIDs(_ result: ProcessResult) throws -> Set<String> {
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return Set((report["findings"] as? [[String: Any]] ?? []).compactMap { $0["ruleId"] as? String })
    }

    @Test func lookupStopsAtTheGitRoot() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(#"{ "to": 1 }"#, to: dir)
        _ = try git(["init", "-q"], in: dir.appendingPathComponent("repo").creatingDirectory())
        _ = try copyFixture("ATS004/tabs.before.plist", to: dir, as: "repo/Info.plist")
        let result = try tool(["."], in: dir.appendingPathComponent("repo"))
        #expect(result.text.contains("# ATS004"), "the config above the repository root does not apply")
    }

    @Test func configExcludeIsRelativeToTheConfig() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "mono/Legacy/Info.plist")
        _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "mono/App/Info.plist")
        try write(#"{ "exclude": ["Legacy/**"] }"#, to: dir, "mono/.plist-migrate.json")
        let result = try tool(["mono"], in: dir)
        #expect(result.text.contains("--- a/mono/App/Info.plist"))
        #expect(!result.text.contains("Legacy"))
    }

    @Test(arguments: [
        (#"{ "to": "4" }"#, #"error: "to" must be an integer"#),
        (#"{ "allowPolicyChange": 1 }"#, #"error: "allowPolicyChange" must be true or false"#),
        (#"{ "only": "ATS001" }"#, #"error: "only" must be an array of strings"#),
        (#"{ "exclude": [1] }"#, #"error: "exclude" must be an array of strings"#),
        (#"{ "colour": true }"#, #"error: unknown key "colour""#),
        (#"{ "only": ["ATS999"] }"#, #"error: unknown migration "ATS999""#),
        (#"[1, 2]"#, "error: expected a JSON object at the top level"),
        (#"{ "to": 4,"#, "error: not valid JSON"),
    ])
    func invalidConfigsNameTheFileAndKey(_ json: String, _ message: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "App/Info.plist")
        try write(json, to: dir, "App/.plist-migrate.json")
        let before = try Data(contentsOf: dir.appendingPathComponent("App/Info.plist"))
        let result = try tool(["--write", "."], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("App/.plist-migrate.json: \(message)"), "\(result.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("App/Info.plist")) == before)
    }
}

/// Nested configs inherit from their parents; `--config FILE…` replaces discovery.
@Suite struct ConfigMergeTests {
    let write = ConfigTests().write

    func tree() throws -> URL {
        let dir = try temporaryDirectory()
        _ = try git(["init", "-q"], in: dir)
        _ = try copyFixture("lint/everything.plist", to: dir, as: "Apps/Shop/Info.plist")
        _ = try copyFixture("lint/everything.plist", to: dir, as: "Apps/Shop/Legacy/Info.plist")
        _ = try copyFixture("lint/everything.plist", to: dir, as: "Other/Info.plist")
        return dir
    }

    @Test func aChildOverridesTheKeysItSetsAndInheritsTheRest() throws {
        let dir = try tree()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(#"{ "minimumOS": "ios17", "lint": { "disable": ["L005"], "severity": { "L007": "warning", "L003": "note" } }, "exclude": ["Apps/Shop/Legacy/**"] }"#, dir, ".plist-migrate.json")
        try write(#"{ "lint": { "disable": ["L001"], "severity": { "L003": "warning" } } }"#, dir, "Apps/.plist-migrate.json")
        let result = try tool(["lint", "."], in: dir)
        let shop = result.text.split(separator: "\n").filter { $0.hasPrefix("Apps/Shop/Info.plist:") }
        let other = result.text.split(separator: "\n").filter { $0.hasPrefix("Other/Info.plist:") }
        // The child's disable replaces the parent's: L005 comes back under Apps/, L001 goes.
        #expect(shop.contains { $0.contains("[L005]") } && !shop.contains { $0.contains("[L001]") }, "\(shop)")
        #expect(!other.contains { $0.contains("[L005]") } && other.contains { $0.contains("[L001]") }, "\(other)")
        // Severities merge rule by rule: L007 from the root, L003 from the child.
        #expect(shop.contains { $0.contains("warning: [L007]") } && shop.contains { $0.contains("warning: [L003]") })
        #expect(other.contains { $0.contains("note: [L003]") })
        // minimumOS is inherited (ATS010 only fires when iOS 17 is the floor) …
        #expect(shop.contains { $0.contains("[ATS010]") } && other.contains { $0.contains("[ATS010]") })
        // … and the root's exclude still applies below the child.
        #expect(!result.text.contains("Legacy"), "\(result.text)")
        let rules = try tool(["rules", "--format", "json", "Apps/Shop"], in: dir)
        #expect(rules.text.contains("\"configs\" : [\n    \".plist-migrate.json\",\n    \"Apps/.plist-migrate.json\"\n  ]"), "\(rules.text)")
    }

    @Test func aMergedSelectionThatMakesNoPlanNamesBothFiles() throws {
        let dir = try tree()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Paths.repository.appendingPathComponent("Recipes/drop-armv7.yml"), to: dir.appendingPathComponent("armv7.yml"))
        try FileManager.default.copyItem(at: Paths.repository.appendingPathComponent("Recipes/export-compliance.yml"), to: dir.appendingPathComponent("Apps/enc.yml"))
        // The root runs only its recipe's pass; the child's recipes replace the root's, so that pass is gone.
        try write(#"{ "recipes": ["armv7.yml"], "only": ["CAP001"] }"#, dir, ".plist-migrate.json")
        try write(#"{ "recipes": ["enc.yml"] }"#, dir, "Apps/.plist-migrate.json")
        #expect(try tool(["Other"], in: dir).status == 0)
        let result = try tool(["Apps"], in: dir)
        #expect(result.status == 2 && result.stderr.contains("Apps/.plist-migrate.json: error:") && result.stderr.contains("CAP001")
                && result.stderr.contains("(with .plist-migrate.json)"), "\(result.stderr)")
    }

    @Test func explicitConfigsReplaceDiscoveryAndTheLaterOneWins() throws {
        let dir = try tree()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(#"{ "lint": { "disable": ["L001", "L002", "L003", "L004", "L005", "L006", "L007", "ATS005"] } }"#, dir, ".plist-migrate.json")
        try write(#"{ "lint": { "disable": ["L005"] }, "minimumOS": "ios17" }"#, dir, "ci/base.json")
        try write(#"{ "lint": { "disable": ["L001"] } }"#, dir, "ci/strict.json")
        let result = try tool(["lint", "--config", "ci/base.json", "--config", "ci/strict.json", "Other"], in: dir)
        #expect(result.text.contains("[L005]") && !result.text.contains("[L001]"), "the later file's disable wins: \(result.text)")
        #expect(result.text.contains("[L007]"), "the discovered .plist-migrate.json is not read")
        #expect(result.text.contains("[ATS010]"), "minimumOS comes from the earlier file")
        let migrate = try tool(["--config", "ci/base.json", "--format", "json", "Other"], in: dir)
        #expect(migrate.text.contains("ci/base.json"), "the deployment target names its source: \(migrate.text)")
        let missing = try tool(["lint", "--config", "ci/none.json", "Other"], in: dir)
        #expect(missing.status == 2 && missing.stderr == "ci/none.json: error: cannot read the config: cannot open: no such file or directory\n", "\(missing.stderr)")
        let both = try tool(["lint", "--config", "ci/base.json", "--no-config", "Other"], in: dir)
        #expect(both.status == 64 && both.stderr.contains("--config and --no-config cannot be used together"))
        let explain = try tool(["explain", "--config", "ci/base.json", "Other/Info.plist"], in: dir)
        #expect(explain.text.contains("iOS 17") && !explain.text.contains("iOS 9/"), "\(explain.text)")
    }
}

extension URL {
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
