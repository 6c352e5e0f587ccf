import Foundation
import Testing
@testable import PlistMigrate

/// SARIF that GitHub code scanning uses fully.
@Suite struct SARIFTests {
    static func sarif(_ directory: URL) throws -> [String: Any] {
        let result = try tool(["lint", "--format", "sarif", "."], in: directory)
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    static func firstRun(_ log: [String: Any]) throws -> [String: Any] {
        try #require((log["runs"] as? [[String: Any]])?.first)
    }

    /// Every finding of a run has its own fingerprint, in SARIF and GitLab's report alike
    /// (two ATS004 findings of the demo, lines 16 and 17, shared one, so GitHub
    /// and GitLab merged them), over the demo and the whole shared corpus.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Paths.corpus.path), "needs ../shared/corpus"))
    func everyFindingOfARunHasItsOwnFingerprint() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (label, paths) in [("demo", [Paths.fixtures.appendingPathComponent("demo").path]),
                               ("corpus", [Paths.corpus.appendingPathComponent("real").path, Paths.corpus.appendingPathComponent("wild").path])] {
            let sarif = try tool(["lint", "--no-config", "--format", "sarif"] + paths, in: directory)
            let log = try #require(try JSONSerialization.jsonObject(with: sarif.stdout) as? [String: Any])
            let results = (try Self.firstRun(log)["results"] as? [[String: Any]]) ?? []
            let prints = results.compactMap { ($0["partialFingerprints"] as? [String: String])?["plistMigrateFinding/v2"] }
            #expect(prints.count == results.count && results.count > (label == "demo" ? 5 : 1000), "\(label): \(results.count)")
            #expect(Set(prints).count == prints.count, "\(label): \(prints.count - Set(prints).count) SARIF fingerprints shared")
            let gitlab = try tool(["lint", "--no-config", "--format", "gitlab"] + paths, in: directory)
            let issues = try #require(try JSONSerialization.jsonObject(with: gitlab.stdout) as? [[String: Any]])
            let fingerprints = issues.compactMap { $0["fingerprint"] as? String }
            #expect(fingerprints.count == results.count)
            #expect(Set(fingerprints).count == fingerprints.count, "\(label): \(fingerprints.count - Set(fingerprints).count) GitLab fingerprints shared")
        }
    }

    @Test func fingerprintsAreStableAcrossUnrelatedEditsAndRulesCarryWhatGitHubReads() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try copyFixture("lint/everything.plist", to: directory, as: "App/Info.plist")
        let before = try Self.firstRun(try Self.sarif(directory))
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "<plist version=\"1.0\">", with: "<!-- unrelated\nedit -->\n<plist version=\"1.0\">")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let after = try Self.firstRun(try Self.sarif(directory))
        func prints(_ run: [String: Any]) -> [String] {
            ((run["results"] as? [[String: Any]]) ?? []).compactMap { ($0["partialFingerprints"] as? [String: String])?["plistMigrateFinding/v2"] }
        }
        func lines(_ run: [String: Any]) -> [Int] {
            ((run["results"] as? [[String: Any]]) ?? []).compactMap {
                ((($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int
            }
        }
        #expect(!prints(before).isEmpty && prints(before).count == (before["results"] as? [Any])?.count)
        #expect(prints(before) == prints(after), "the same findings keep their fingerprints")
        #expect(lines(before) != lines(after), "though their lines moved")
        #expect(Set(prints(before)).count == prints(before).count, "no two findings share a fingerprint")

        #expect(before["columnKind"] as? String == "unicodeCodePoints")
        #expect((before["automationDetails"] as? [String: Any])?["id"] as? String == "plist-migrate/lint/")
        #expect(((before["invocations"] as? [[String: Any]])?.first)?["executionSuccessful"] as? Bool == true)
        let driver = try #require((before["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["semanticVersion"] as? String == ToolVersion.current && driver["version"] as? String == ToolVersion.current)
        #expect(driver["informationUri"] == nil, "no placeholder address")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        for rule in rules {
            let properties = try #require(rule["properties"] as? [String: Any])
            // Only rules about exposure are security alerts.
            let id = rule["id"] as? String ?? ""
            let exposure = id.hasPrefix("P") || id == "L007"
            #expect((properties["tags"] as? [String])?.contains("security") == exposure, "\(id)")
            #expect((Double(properties["security-severity"] as? String ?? "") != nil) == exposure, "\(id)")
            #expect(properties["precision"] as? String == "high")
            #expect((rule["help"] as? [String: Any])?["markdown"] is String)
            #expect((rule["helpUri"] as? String)?.hasPrefix("https://developer.apple.com/documentation/bundleresources/information-property-list/") == true)
        }
        // Each rule links the page of the key it is about: that key is named in the rule's texts.
        for rule in LintRule.all {
            let key = try #require(rule.documentation.split(separator: "/").last).lowercased()
            let texts = (rule.summary + " " + rule.help).lowercased()
            #expect(key == "nsapptransportsecurity" || texts.contains(key) || (key == "nsincludessubdomains" && texts.contains("subdomain")),
                    "\(rule.id) links \(key)")
        }
        #expect(Set(rules.compactMap { $0["helpUri"] as? String }).count >= 8, "rules link their own keys, not one page")
    }

    /// Validated against the official SARIF 2.1.0 schema (OASIS, oasis-tcs/sarif-spec,
    /// sarif-2.1/schema/sarif-schema-2.1.0.json). Project files may not carry a copy fetched
    /// here, so the schema is read from ../shared/schemas/ where the project's shared data
    /// lives; without it the test says so and does not pretend to have validated.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Paths.corpus.deletingLastPathComponent()
                    .appendingPathComponent("schemas/sarif-schema-2.1.0.json").path),
                   "../shared/schemas/sarif-schema-2.1.0.json is not there"),
          .enabled(if: pythonHas("jsonschema"), "needs Python's jsonschema (pip install jsonschema; .ci/run installs it)"))
    func sarifValidatesAgainstTheOfficialSchema() throws {
        let schema = Paths.corpus.deletingLastPathComponent().appendingPathComponent("schemas/sarif-schema-2.1.0.json")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("lint/everything.plist", to: directory, as: "App/Info.plist")
        let output = try tool(["lint", "--format", "sarif", "."], in: directory)
        try output.stdout.write(to: directory.appendingPathComponent("out.sarif"))
        let check = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import json, sys, jsonschema
            jsonschema.Draft4Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
            """, schema.path, "out.sarif"], in: directory)
        #expect(check.status == 0, "\(check.stderr)")
        // Posture results, with their own security-severity, are part of what was validated.
        let sarif = try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any]
        let results = ((sarif?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        let posture = results.first { ($0["ruleId"] as? String)?.hasPrefix("P001/") == true }
        #expect(Double(((posture?["properties"] as? [String: Any])?["security-severity"] as? String) ?? "") != nil, "\(output.text)")
    }
}

/// GitHub reads `security-severity` from the rule descriptor only, so a posture
/// finding points at the descriptor of its own exposure band.
@Suite struct SARIFExposureBandTests {
    func run(_ ats: String, minimumOS: String = "12.0") throws -> (results: [[String: Any]], rules: [[String: Any]]) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = "<plist version=\"1.0\"><dict><key>MinimumOSVersion</key><string>\(minimumOS)</string>"
            + "<key>NSAppTransportSecurity</key><dict>\(ats)</dict></dict></plist>\n"
        try Data(plist.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let output = try tool(["lint", "--no-config", "--format", "sarif", "Info.plist"], in: directory)
        let log = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        return ((run["results"] as? [[String: Any]]) ?? [], (driver["rules"] as? [[String: Any]]) ?? [])
    }

    /// The band GitHub shows for a result: that of the descriptor its ruleIndex names.
    func band(_ result: [String: Any], _ rules: [[String: Any]]) throws -> Double {
        let index = try #require(result["ruleIndex"] as? Int)
        #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
        return try #require(Double((rules[index]["properties"] as? [String: Any])?["security-severity"] as? String ?? ""))
    }

    @Test func eachFindingShowsItsOwnExposure() throws {
        let all = try run("<key>NSAllowsArbitraryLoads</key><true/>")
        let p001 = try #require(all.results.first { ($0["ruleId"] as? String)?.hasPrefix("P001") == true })
        #expect(p001["ruleId"] as? String == "P001/critical")
        #expect(try band(p001, all.rules) >= 9.0)

        let media = try run("<key>NSAllowsArbitraryLoadsForMedia</key><true/>")
        let mediaResult = try #require(media.results.first { ($0["ruleId"] as? String)?.hasPrefix("P001") == true })
        let mediaBand = try band(mediaResult, media.rules)
        #expect(mediaBand >= 4.0 && mediaBand < 7.0, "\(mediaResult)")
        // The band agrees with the finding's own score.
        let score = try #require(Double((mediaResult["properties"] as? [String: Any])?["security-severity"] as? String ?? ""))
        #expect(SARIF.ExposureBand(score: score) == SARIF.ExposureBand(score: mediaBand))
        // Every band of a posture rule has a stable descriptor, whether used or not.
        let ids = Set(media.rules.compactMap { $0["id"] as? String })
        #expect(["P001/critical", "P001/high", "P001/medium", "P001/low", "P005/low"].allSatisfy(ids.contains))
        #expect(!ids.contains("P001"))
    }

    @Test func aParseErrorIsNoSecurityAlert() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("<plist><dict><key>a</key></plist>".utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let output = try tool(["lint", "--no-config", "--format", "sarif", "Info.plist"], in: directory)
        let log = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let result = try #require((run["results"] as? [[String: Any]])?.first)
        #expect(result["ruleId"] as? String == "L009")
        let rules = try #require((run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"] as? [[String: Any]])
        let index = try #require(result["ruleIndex"] as? Int)
        let rule = try #require(rules[index]["properties"] as? [String: Any])
        #expect(rule["security-severity"] == nil && (rule["tags"] as? [String])?.contains("security") == false)
    }
}
