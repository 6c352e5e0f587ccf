import Foundation
import Testing
@testable import PlistMigrate
import ATSPolicy

/// Posture findings come from the policy engine, for the eras the app supports.
/// Every posture rule has fixtures under `Fixtures/lint/posture/<RULE>/`: each `must-*.plist`
/// raises the rule (and its `.expected` holds every posture line exactly), each
/// `must-not-*.plist` does not.
@Suite struct PostureFixtureTests {
    static let directory = Paths.fixtures.appendingPathComponent("lint/posture")

    static var fixtures: [String] {
        let rules = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return rules.sorted().flatMap { rule in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(rule).path)) ?? [])
                .filter { $0.hasSuffix(".plist") }.sorted().map { "\(rule)/\($0)" }
        }
    }

    static func postureLines(_ relative: String) throws -> [String] {
        let url = directory.appendingPathComponent(relative)
        let findings = Linter.lint(Array(try Data(contentsOf: url)), path: url.lastPathComponent)
        return findings.filter { $0.ruleID.hasPrefix("P") }.map(\.text)
    }

    @Test func everyPostureRuleHasFixturesBothWays() {
        let posture = LintRule.all.filter { $0.id.hasPrefix("P") }.map(\.id)
        #expect(posture.count == 5)
        for rule in posture {
            #expect(Self.fixtures.contains { $0.hasPrefix("\(rule)/must-") && !$0.hasPrefix("\(rule)/must-not-") }, "\(rule) has a must fixture")
            #expect(Self.fixtures.contains { $0.hasPrefix("\(rule)/must-not-") }, "\(rule) has a must-not fixture")
        }
    }

    @Test(arguments: fixtures)
    func fixture(_ relative: String) throws {
        let rule = String(relative.prefix { $0 != "/" })
        let name = relative.split(separator: "/").last.map(String.init) ?? relative
        let lines = try Self.postureLines(relative)
        if name.hasPrefix("must-not-") {
            #expect(!lines.contains { $0.contains("[\(rule)]") }, "\(relative) raises \(rule): \(lines)")
        } else {
            #expect(lines.contains { $0.contains("[\(rule)]") }, "\(relative) does not raise \(rule): \(lines)")
            let expected = try String(contentsOf: Self.directory.appendingPathComponent(relative.replacingOccurrences(of: ".plist", with: ".expected")),
                                      encoding: .utf8)
            #expect(lines == expected.split(separator: "\n").map(String.init))
        }
    }
}

/// MobSF (`mobsf/StaticAnalyzer/views/ios/app_transport_security.py`) flags ATS keys by name,
/// with no model of OS versions. Its categories, and what this tool reports for each: every
/// real exposure it flags is reported; each of its known false positives is not.
@Suite struct MobSFComparisonTests {
    struct Case: CustomStringConvertible, Sendable {
        var mobsf: String
        var ats: String
        var minimumOS: String
        /// The posture rule that must be reported, or nil: nothing may be.
        var expected: String?
        var mustNotMention: String? = nil
        var description: String { mobsf }
    }

    static let cases: [Case] = [
        Case(mobsf: "AllowsArbitraryLoads is allowed (high)", ats: "<key>NSAllowsArbitraryLoads</key><true/>", minimumOS: "12.0", expected: "P001"),
        Case(mobsf: "Insecure media load is allowed (high)", ats: "<key>NSAllowsArbitraryLoadsForMedia</key><true/>", minimumOS: "12.0", expected: "P001"),
        Case(mobsf: "Insecure WebView load is allowed (high)", ats: "<key>NSAllowsArbitraryLoadsInWebContent</key><true/>", minimumOS: "12.0", expected: "P001"),
        Case(mobsf: "Insecure local networking is allowed (high)", ats: "<key>NSAllowsLocalNetworking</key><true/>", minimumOS: "12.0", expected: "P004"),
        Case(mobsf: "Insecure communication to a domain is allowed (high)",
             ats: "<key>NSExceptionDomains</key><dict><key>api.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
             minimumOS: "12.0", expected: "P002"),
        Case(mobsf: "NSExceptionMinimumTLSVersion set to TLSv1.0 (high)",
             ats: "<key>NSExceptionDomains</key><dict><key>api.example.com</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict></dict>",
             minimumOS: "12.0", expected: "P003"),
        Case(mobsf: "NSExceptionRequiresForwardSecrecy set to NO (high), when it is",
             ats: "<key>NSExceptionDomains</key><dict><key>api.example.com</key><dict><key>NSExceptionRequiresForwardSecrecy</key><false/></dict></dict>",
             minimumOS: "12.0", expected: "P003"),
        // The real exposure MobSF finds that this tool missed (its check reads the
        // parsed plist, where the last duplicate wins, as on the device), and two it misses.
        Case(mobsf: "AllowsArbitraryLoads is allowed (high), written twice with the last copy true",
             ats: "<key>NSAllowsArbitraryLoads</key><false/><key>NSAllowsArbitraryLoads</key><true/>", minimumOS: "12.0", expected: "P001"),
        Case(mobsf: "missed by MobSF: AllowsArbitraryLoads as <integer>1</integer>, which the OS reads as YES",
             ats: "<key>NSAllowsArbitraryLoads</key><integer>1</integer>", minimumOS: "12.0", expected: "P001"),
        Case(mobsf: "missed by MobSF: a string InWebContent does not make the OS ignore AllowsArbitraryLoads",
             ats: "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><string>YES</string>",
             minimumOS: "12.0", expected: "P001"),
        // Its false positives.
        Case(mobsf: "false positive: AllowsArbitraryLoads where iOS 10+ ignores it (a later key is present)",
             ats: "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><true/>",
             minimumOS: "12.0", expected: "P001", mustNotMention: "URLSession"),
        Case(mobsf: "false positive: AllowsArbitraryLoads ignored beside NSAllowsLocalNetworking",
             ats: "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><true/>",
             minimumOS: "12.0", expected: "P004", mustNotMention: "every host"),
        Case(mobsf: "false positive: forward secrecy \"set to NO\" when the key is absent (Apple's default is YES)",
             ats: "<key>NSExceptionDomains</key><dict><key>api.example.com</key><dict><key>NSIncludesSubdomains</key><true/></dict></dict>",
             minimumOS: "12.0", expected: nil),
        Case(mobsf: "false positive: NSIncludesSubdomains alone rated high",
             ats: "<key>NSExceptionDomains</key><dict><key>example.com</key><dict><key>NSIncludesSubdomains</key><true/></dict></dict>",
             minimumOS: "9.0", expected: nil),
        Case(mobsf: "false positive: TLSv1.2 minimum called vulnerable (warning)",
             ats: "<key>NSExceptionDomains</key><dict><key>api.example.com</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string></dict></dict>",
             minimumOS: "9.0", expected: nil),
        Case(mobsf: "false positive: the obsolete CT key rated secure; its absence or NO is no exposure where the OS requires CT",
             ats: "<key>NSExceptionDomains</key><dict><key>api.example.com</key><dict><key>NSRequiresCertificateTransparency</key><false/></dict></dict>",
             minimumOS: "13.0", expected: nil),
    ]

    @Test(arguments: cases)
    func category(_ c: Case) throws {
        let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>MinimumOSVersion</key><string>\(c.minimumOS)</string>\n"
            + "<key>NSAppTransportSecurity</key>\n<dict>\(c.ats)</dict>\n</dict>\n</plist>\n"
        let posture = Linter.lint(Array(plist.utf8), path: "Info.plist").filter { $0.ruleID.hasPrefix("P") }
        if let expected = c.expected {
            #expect(posture.contains { $0.ruleID == expected }, "\(c.mobsf): \(posture.map(\.text))")
        } else {
            #expect(posture.isEmpty, "\(c.mobsf): \(posture.map(\.text))")
        }
        if let word = c.mustNotMention {
            #expect(!posture.contains { $0.message.contains(word) }, "\(c.mobsf): \(posture.map(\.text))")
        }
    }

    /// Exposure decides severity: HTTP for every host and load outranks one media switch.
    @Test func severityFollowsTheExposure() {
        func score(_ ats: String) -> Double? {
            let plist = "<plist><dict><key>MinimumOSVersion</key><string>12.0</string><key>NSAppTransportSecurity</key><dict>\(ats)</dict></dict></plist>"
            return Linter.lint(Array(plist.utf8), path: "x").first { $0.ruleID.hasPrefix("P") }?.securitySeverity
        }
        let everything = score("<key>NSAllowsArbitraryLoads</key><true/>") ?? 0
        let web = score("<key>NSAllowsArbitraryLoadsInWebContent</key><true/>") ?? 0
        let media = score("<key>NSAllowsArbitraryLoadsForMedia</key><true/>") ?? 0
        let domain = score("<key>NSExceptionDomains</key><dict><key>a.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>") ?? 0
        #expect(everything > web && web > media && everything > domain && media > 0, "\(everything) \(web) \(media) \(domain)")
        #expect(everything >= 7 && media < 7)
    }
}

/// Posture findings are findings like any other: suppressed, baselined, turned off as a group,
/// and carried in every format with their exposure.
@Suite struct PostureIntegrationTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>MinimumOSVersion</key>
        \t<string>12.0</string>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSAllowsArbitraryLoads</key>
        \t\t<true/>
        \t\t<key>NSExceptionDomains</key>
        \t\t<dict>
        \t\t\t<key>TLS.example.com</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSExceptionMinimumTLSVersion</key>
        \t\t\t\t<string>TLSv1.1</string>
        \t\t\t</dict>
        \t\t\t<key>old.example.com</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSExceptionMinimumTLSVersion</key>
        \t\t\t\t<string>TLSv1.0</string>
        \t\t\t</dict>
        \t\t</dict>
        \t</dict>
        </dict>
        </plist>

        """

    func workspace(_ text: String = plist) throws -> URL {
        let directory = try temporaryDirectory()
        try text.write(to: directory.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test func groupsTurnOnAndOff() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let all = try tool(["lint", "Info.plist"], in: directory).text
        #expect(all.contains("[P001]") && all.contains("[P003]") && all.contains("[L005]"), "\(all)")
        let posture = try tool(["lint", "--rules", "posture", "Info.plist"], in: directory).text
        #expect(posture.contains("[P001]") && !posture.contains("[L005]") && !posture.contains("[ATS004]"))
        let checks = try tool(["lint", "--rules", "checks", "Info.plist"], in: directory).text
        #expect(!checks.contains("[P00") && checks.contains("[L005]"))
        try #"{ "lint": { "disable": ["posture"] } }"#.write(to: directory.appendingPathComponent(".plist-migrate.json"), atomically: true, encoding: .utf8)
        let configured = try tool(["lint", "Info.plist"], in: directory).text
        #expect(!configured.contains("[P00") && configured.contains("[L005]"), "\(configured)")
        let rules = try tool(["rules", "--format", "json"], in: directory).text
        #expect(rules.contains("\"group\" : \"posture\"") && rules.contains("\"id\" : \"P001\""))
    }

    @Test func suppressionsAndBaselinesApply() throws {
        let suppressed = Self.plist.replacingOccurrences(of: "\t\t<key>NSAllowsArbitraryLoads</key>",
                                                         with: "\t\t<!-- plist-migrate:disable-next-line P001 -->\n\t\t<key>NSAllowsArbitraryLoads</key>")
        let directory = try workspace(suppressed)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try tool(["lint", "Info.plist"], in: directory).text
        #expect(!result.contains("[P001]") && !result.contains("[L011]") && result.contains("[L005]"), "\(result)")
        #expect(try tool(["lint", "--write-baseline", "base.json", "Info.plist"], in: directory).status == 0)
        let baselined = try tool(["lint", "--baseline", "base.json", "Info.plist"], in: directory)
        #expect(baselined.status == 0 && baselined.text.isEmpty, "\(baselined.text)")
        // A new exposure gets through the baseline.
        let text = try String(contentsOf: directory.appendingPathComponent("Info.plist"), encoding: .utf8)
        try text.replacingOccurrences(of: "<string>TLSv1.0</string>", with: "<string>TLSv1.0</string>\n\t\t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>\n\t\t\t\t<true/>")
            .write(to: directory.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        let after = try tool(["lint", "--baseline", "base.json", "Info.plist"], in: directory).text
        #expect(after.split(separator: "\n").count == 1 && after.contains("[P002] plain HTTP is allowed to old.example.com"), "\(after)")
    }

    @Test func everyFormatCarriesTheExposure() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try JSONSerialization.jsonObject(with: try tool(["lint", "--format", "json", "Info.plist"], in: directory).stdout) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        let posture = findings.filter { ($0["ruleId"] as? String)?.hasPrefix("P") == true }
        #expect(!posture.isEmpty && posture.allSatisfy { $0["securitySeverity"] is Double })
        #expect(findings.filter { ($0["ruleId"] as? String)?.hasPrefix("L") == true }.allSatisfy { $0["securitySeverity"] == nil })
        let sarif = try JSONSerialization.jsonObject(with: try tool(["lint", "--format", "sarif", "Info.plist"], in: directory).stdout) as? [String: Any]
        let run = try #require((sarif?["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        // Reported under its exposure band's descriptor.
        let p001 = try #require(results.first { ($0["ruleId"] as? String)?.hasPrefix("P001/") == true })
        #expect(Double(((p001["properties"] as? [String: Any])?["security-severity"] as? String) ?? "") ?? 0 >= 7)
        let github = try tool(["lint", "--format", "github", "Info.plist"], in: directory).text
        #expect(github.contains("title=plist-migrate P001::plain HTTP is allowed to every host without an exception"))
        let text = try tool(["lint", "Info.plist"], in: directory).text
        // The uppercase key matches nothing, so it exposes nothing (L004/ATS004 say why); the other does.
        #expect(!text.contains("TLS.example.com accept") && text.contains("connections to old.example.com accept TLSv1.0"), "\(text)")
    }
}
