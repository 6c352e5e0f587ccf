import Foundation
import Testing
@testable import PlistMigrate

@Suite struct LintTests {
    /// Every lint-only rule on one file, compared with its reviewed expected output.
    @Test func everyRuleOnTheLintFixture() throws {
        let bytes = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("lint/everything.plist")))
        let expected = try String(contentsOf: Paths.fixtures.appendingPathComponent("lint/everything.expected"), encoding: .utf8)
        let findings = Linter.lint(bytes, path: "everything.plist")
        #expect(findings.map { $0.text + "\n" }.joined() == expected)
        #expect(Set(findings.map(\.ruleID)).isSuperset(of: ["L001", "L002", "L003", "L004", "L005", "L006", "L007"]))
    }

    /// Every migration is a lint rule: each pass's main fixture yields findings with that fix.
    @Test func eachPassReportsWhatItWouldFix() throws {
        for index in 1...10 {
            let id = index < 10 ? "ATS00\(index)" : "ATS0\(index)"
            let bytes = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("\(id)/tabs.before.plist")))
            let findings = Linter.lint(bytes, path: "Info.plist").filter { $0.fix == id }
            #expect(!findings.isEmpty, "\(id)")
            let after = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("\(id)/tabs.after.plist")))
            #expect(Linter.lint(after, path: "Info.plist").filter { $0.fix == id }.isEmpty, "\(id): nothing left to fix")
        }
    }

    @Test func appleDefaultsAreNotFlagged() throws {
        // Forward secrecy defaults to YES, CT to NO, TLS minimum to 1.2: leaving them out is fine.
        let text = """
            <plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>
            <key>api.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/></dict>
            </dict></dict></dict></plist>
            """
        #expect(Linter.lint(Array(text.utf8), path: "Info.plist").isEmpty)
    }

    @Test func lintRunsOverTheWholeCorpus() throws {
        var files = 0, findings = 0, parseErrors = 0
        for set in ["real", "wild"] {
            let folder = Paths.corpus.appendingPathComponent(set)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".plist") {
                let result = Linter.lint(Array(try Data(contentsOf: folder.appendingPathComponent(name))), path: name)
                files += 1
                findings += result.count
                parseErrors += result.filter { $0.ruleID == "L009" }.count
                #expect(result.allSatisfy { $0.line >= 1 && $0.column >= 1 && !$0.message.isEmpty }, "\(name)")
            }
        }
        print("lint: \(files) corpus files, \(findings) findings, \(parseErrors) unparseable")
        #expect(parseErrors == 18, "exactly the malformed corpus files")
        #expect(findings > parseErrors)
    }

    /// Files are linted in parallel; the report is the same whatever the number of jobs.
    @Test func outputIsIdenticalWhateverTheNumberOfJobs() throws {
        let one = try tool(["lint", "--format", "json", "--jobs", "1", "Fixtures"], in: Paths.repository)
        let four = try tool(["lint", "--format", "json", "--jobs", "4", "Fixtures"], in: Paths.repository)
        #expect(one.status == four.status)
        #expect(one.stdout == four.stdout)
        #expect(one.stdout.count > 10_000, "a report with many findings")
        #expect(try tool(["lint", "--jobs", "0", "Fixtures"], in: Paths.repository).status == 64)
    }

    @Test func exitStatusAndTextOutput() throws {
        // Well-formed, so the checks find nothing (its posture allows HTTP to a domain: P002/P003).
        let clean = try tool(["lint", "--rules", "checks", "Fixtures/ATS001/already-migrated.before.plist"], in: Paths.repository)
        #expect(clean.status == 0 && clean.stdout.isEmpty)
        let warningsOnly = try tool(["lint", "Fixtures/ATS001/already-migrated.before.plist"], in: Paths.repository)
        #expect(warningsOnly.status == 0, "warnings do not fail lint: \(warningsOnly.text)")
        #expect(warningsOnly.text.contains("13:5: warning: [P002] plain HTTP is allowed to api.example.com"))
        // A pending pass that makes a setting take effect (ATS001: Apple's open reader never reads
        // NSThirdParty… keys) is an error.
        let pending = try tool(["lint", "Fixtures/ATS001/tabs.before.plist"], in: Paths.repository)
        #expect(pending.status == 1)
        #expect(pending.text.contains("error: [ATS001] NSThirdPartyExceptionAllowsInsecureHTTPLoads should be NSExceptionAllowsInsecureHTTPLoads"))
        let errors = try tool(["lint", "Fixtures/lint/everything.plist"], in: Paths.repository)
        #expect(errors.status == 1)
        let broken = try tool(["lint", "Fixtures/errors/mismatched-tag.plist"], in: Paths.repository)
        #expect(broken.status == 2)
        #expect(broken.text.hasPrefix("Fixtures/errors/mismatched-tag.plist:7:9: error: [L009] Opening and ending tag mismatch"))
    }

    /// The structure SARIF 2.1.0 requires (§3.13 sarifLog, §3.14 run, §3.19 tool, §3.27 result,
    /// §3.28 location, §3.30 region, §3.49 reportingDescriptor), checked from the spec since no
    /// copy of the official schema is reachable offline here.
    @Test func sarifHasTheStructureTheSpecRequires() throws {
        let result = try tool(["lint", "--format", "sarif", "Fixtures/lint", "Fixtures/ATS004/tabs.before.plist"], in: Paths.repository)
        #expect(result.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.hasSuffix("sarif-schema-2.1.0.json") == true)
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "plist-migrate")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ruleIDs = rules.compactMap { $0["id"] as? String }
        #expect(ruleIDs.count == rules.count && Set(ruleIDs).count == rules.count, "every rule has a unique id")
        #expect(ruleIDs.contains("ATS009") && ruleIDs.contains("L007"))
        for rule in rules {
            #expect(((rule["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["none", "note", "warning", "error"].contains(level ?? ""))
        }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count >= 10)
        for item in results {
            let ruleID = try #require(item["ruleId"] as? String)
            #expect(ruleIDs.contains(ruleID))
            if let index = item["ruleIndex"] as? Int { #expect(ruleIDs[index] == ruleID) }
            #expect(["none", "note", "warning", "error"].contains(item["level"] as? String ?? ""))
            #expect(((item["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let locations = try #require(item["locations"] as? [[String: Any]])
            #expect(!locations.isEmpty)
            let physical = try #require(locations[0]["physicalLocation"] as? [String: Any])
            let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(uri.hasPrefix("Fixtures/"), "relative to the repository root: \(uri)")
            #expect(!uri.hasPrefix("/") && !uri.contains("://"))
            let region = try #require(physical["region"] as? [String: Any])
            #expect((region["startLine"] as? Int ?? 0) >= 1)
            #expect((region["startColumn"] as? Int ?? 0) >= 1)
        }
    }

    /// `$(API_HOST)` keys are set when the app is built: lint says they cannot be checked.
    @Test func buildSettingKeysCannotBeChecked() throws {
        let bytes = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS004/build-setting.before.plist")))
        let findings = Linter.lint(bytes, path: "Info.plist")
        #expect(findings.filter { $0.ruleID == "L010" }.map(\.line) == [8, 13])
        #expect(findings.first { $0.ruleID == "L010" }?.message == "$(API_HOST) is a build setting, resolved when the app is built: this entry cannot be checked here")
        #expect(findings.filter { $0.ruleID == "ATS004" }.map(\.line) == [15], "only the plain key is for ATS004")
    }
}
