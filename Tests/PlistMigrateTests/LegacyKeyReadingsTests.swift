import ATSPolicy
import Foundation
import Migrations
import PlistDOM
import Testing
@testable import PlistMigrate

/// Apple's open ATS reader (Security, `protocol/SecProtocolConfiguration.m`) never
/// reads `NSThirdPartyException…` or `NSTemporaryException…` keys, while the engine reads them as
/// their `NSException…` twins. Both readings are shown wherever the difference matters: the
/// migrations' policy delta, `explain`, and posture findings (message and security severity).
@Suite struct LegacyKeyReadingsTests {
    static func plist(_ domain: String) -> String {
        """
        <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
        <key>NSExceptionDomains</key><dict>
        <key>legacy.example.com</key><dict>\(domain)</dict>
        <key>modern.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
        </dict></dict></dict></plist>
        """
    }

    static let thirdParty = plist("<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/>")
    static let temporary = plist("<key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key><true/>")

    @Test func renamingPassesActivateIntentAndStayInsideTheDomainTheyEdit() {
        for id in ["ATS001", "ATS009"] {
            #expect(MigrationRegistry.migration(id: id)?.impact == .activatesIntent, "\(id)")
            #expect(MigrationRegistry.migration(id: id)?.intent == .editedSettingsTakeEffect, "\(id)")
        }
    }

    /// The delta of the rename: nothing where the OS reads the old key as its twin, HTTP to
    /// that domain from blocked to allowed where it ignores it.
    @Test(arguments: [(thirdParty, "ATS001"), (temporary, "ATS009")])
    func theDeltaShowsBothReadings(_ text: String, _ id: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(text.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let result = try tool(["--only", id, "Info.plist"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let policy = result.text.split(separator: "\n").filter { $0.hasPrefix("# policy: ") }
        #expect(policy == [
            "# policy: no policy change if the OS reads NSThirdParty…/NSTemporary… keys as their NSException… twins",
            "# policy: if it ignores them, as Apple's open reader does: iOS 9+/macOS 10.11+: HTTP to legacy.example.com (all loads): blocked → allowed",
        ], "\(result.text)")
    }

    /// Where a twin is written beside the old key, the twin decides in both readings: one line.
    @Test func aTwinBesideTheOldKeyLeavesOneReading() throws {
        let both = Self.plist("<key>NSExceptionAllowsInsecureHTTPLoads</key><true/><key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/>")
        let configuration = ATSConfiguration(document: try PlistDocument(parsing: both))
        #expect(!configuration.decidesByLegacyKeys)
        let readings = PolicyDelta.Readings(before: configuration, after: ATSConfiguration(document: try PlistDocument(parsing: Self.thirdParty)))
        #expect(readings.ignoringLegacyKeys != nil)
        #expect(readings.lines() == [
            "no policy change if the OS reads NSThirdParty…/NSTemporary… keys as their NSException… twins",
            "if it ignores them, as Apple's open reader does: iOS 9+/macOS 10.11+: HTTP to legacy.example.com (all loads): allowed → blocked",
        ])
        #expect(PolicyDelta.Readings(before: configuration, after: configuration).lines() == ["no policy change"])
    }

    /// `explain` adds the rows that differ under the open reader's reading (text and JSON),
    /// and nothing for a file without legacy keys.
    @Test func explainShowsTheOtherReading() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.thirdParty.utf8).write(to: directory.appendingPathComponent("Legacy.plist"))
        try Data(Self.plist("").utf8).write(to: directory.appendingPathComponent("Modern.plist"))
        let json = try tool(["explain", "--format", "json", "--min-os", "ios17", "--host", "legacy.example.com", "Legacy.plist"], in: directory)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        let rows = try #require(report["rows"] as? [[String: Any]])
        let other = try #require(report["rowsIfLegacyKeysIgnored"] as? [[String: Any]], "\(json.text)")
        #expect(rows.count == 3 && other.count == 3)
        #expect(rows.allSatisfy { ($0["decision"] as? [String: Any])?["httpAllowed"] as? Bool == true })
        #expect(other.allSatisfy { ($0["decision"] as? [String: Any])?["httpAllowed"] as? Bool == false })
        let text = try tool(["explain", "--min-os", "ios17", "Legacy.plist"], in: directory)
        #expect(text.text.contains("If the OS ignores NSThirdParty…/NSTemporary… keys, as Apple's open reader does"), "\(text.text)")
        #expect(text.text.contains("never reads it"))
        let modern = try tool(["explain", "--format", "json", "--min-os", "ios17", "Modern.plist"], in: directory)
        #expect(!modern.text.contains("rowsIfLegacyKeysIgnored"))
    }

    /// A posture finding that rests only on an old key says so and weighs half; the same
    /// exposure written with the documented key keeps its full weight.
    @Test func postureFindingsRestingOnAnOldKeyAreReRated() throws {
        let findings = Linter.lint(Array(Self.thirdParty.utf8), path: "Info.plist").filter { $0.ruleID == "P002" }
        let legacy = try #require(findings.first { $0.message.contains("legacy.example.com") })
        let modern = try #require(findings.first { $0.message.contains("modern.example.com") })
        #expect(legacy.message.hasSuffix("Apple's open reader does not read NSThirdPartyExceptionAllowsInsecureHTTPLoads: "
            + "this holds only where the OS reads it as its NSException… twin"), "\(legacy.message)")
        #expect(!modern.message.contains("open reader"))
        let full = try #require(modern.securitySeverity), halved = try #require(legacy.securitySeverity)
        #expect(halved == (full * 0.5 * 10).rounded() / 10, "\(halved) vs \(full)")
        #expect(legacy.severity == .note && modern.severity == .warning)
    }
}
