import Foundation
import Testing
import ATSPolicy
import PlistDOM

/// The project's own decision table: `Fixtures/engine/decisions.tsv`, written from
/// Apple's sentences by an independent model (Tests/oracle/ats_decision_table.py). Every case
/// runs through the engine and through `explain --format json`.
@Suite struct DecisionTableTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id, body, os, host, kind, http, minimumTLS, forwardSecrecy, ct, basis: String
        var testDescription: String { "\(id) \(os) \(host) \(kind)" }
        var plist: String { "<plist><dict><key>NSAppTransportSecurity</key><dict>\(body)</dict></dict></plist>" }
    }

    static let cases = load("engine/decisions.tsv")

    static func load(_ relative: String) -> [Case] {
        let url = Paths.fixtures.appendingPathComponent(relative)
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Case(id: f[0], body: f[1], os: f[2], host: f[3], kind: f[4], http: f[5], minimumTLS: f[6],
                        forwardSecrecy: f[7], ct: f[8], basis: f[9])
        }
    }

    static func fields(_ decision: Decision) -> [String] {
        [decision.httpAllowed ? "allowed" : "blocked", decision.minimumTLS ?? "none",
         decision.requiresForwardSecrecy ? "required" : "not", decision.requiresCertificateTransparency ? "required" : "not"]
    }

    @Test func theTableHasEnoughCasesEachWithItsBasis() {
        #expect(Self.cases.count >= 120)
        // Where the pages are silent, rows cite Apple's reader by file and function.
        #expect(Self.cases.filter { $0.basis.contains("SecProtocolConfiguration.m") }.count >= 40)
        #expect(Self.cases.allSatisfy { !$0.basis.isEmpty })
    }

    /// A case cites Apple's sentence where Apple documents the rule, an iOS 17 case an
    /// iOS 17 sentence, and no basis speaks of the project's own copy of a page.
    @Test func casesCiteTheSentenceApplyWrites() {
        #expect(!Self.cases.contains { $0.basis.contains("stored copy") || $0.basis.contains("AV Foundation") })
        // A later key the reader does not read (a string) makes nothing ignored.
        let ignored = Self.cases.filter {
            $0.body.contains("NSAllowsArbitraryLoads</key><true/><key>NSAllows") && !$0.body.contains("<string>") && $0.os != "ios9"
        }
        #expect(!ignored.isEmpty && ignored.allSatisfy { $0.basis.contains("\"ATS ignores the NSAllowsArbitraryLoads value that you set\"") },
                "\(ignored.filter { !$0.basis.contains("ATS ignores") }.map(\.id))")
        #expect(!ignored.contains { $0.basis.contains("inference for ForMedia") })
        let local17 = Self.cases.filter { $0.os == "ios17" && ($0.host.hasSuffix(".local") || !$0.host.contains(".") || $0.host.first?.isNumber == true) }
        #expect(!local17.isEmpty && local17.allSatisfy { $0.basis.contains("In iOS 17, iPadOS 17, and macOS 14") }, "\(local17.filter { !$0.basis.contains("In iOS 17") }.map(\.id))")
    }

    @Test func theEngineAgreesWithEveryCase() throws {
        for item in Self.cases {
            let era = try #require(OSEra(os: item.os), "\(item.id)")
            let kind = try #require(LoadKind(rawValue: item.kind))
            let configuration = ATSConfiguration(document: try PlistDocument(parsing: item.plist))
            let decision = PolicyEngine.decide(configuration, era: era, host: Host(item.host), kind: kind)
            #expect(Self.fields(decision) == [item.http, item.minimumTLS, item.forwardSecrecy, item.ct],
                    "\(item.id) \(item.os) \(item.host) \(item.kind): \(decision.decidedBy.map(\.rule))")
        }
    }

    @Test func explainJSONAgreesWithEveryCase() throws {
        let answers = try Self.explainAnswers(Self.cases)
        for item in Self.cases {
            #expect(answers[item.id] == [item.http, item.minimumTLS, item.forwardSecrecy, item.ct], "\(item.id)")
        }
    }

    /// Each case's four fields as `explain --format json` gives them, by case id: one `explain`
    /// per body, over every era (no `--os`), with every host of those cases (`--host` repeated);
    /// a case's row is found by its OS's era label, host and kind.
    static func explainAnswers(_ cases: [Case]) throws -> [String: [String]] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var groups: [[Case]] = []
        var groupOf: [String: Int] = [:]
        for item in cases {
            if let at = groupOf[item.body] { groups[at].append(item) } else { groupOf[item.body] = groups.count; groups.append([item]) }
        }
        var answers: [String: [String]] = [:]
        for (number, group) in groups.enumerated() {
            let name = "c\(number).plist"
            try group[0].plist.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            var hosts: [String] = []
            for item in group where !hosts.contains(item.host) { hosts.append(item.host) }
            let result = try tool(["explain", name, "--min-os", "ios9,macos10.11", "--format", "json"] + hosts.flatMap { ["--host", $0] }, in: directory)
            let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(group[0].id)")
            let rows = try #require(report["rows"] as? [[String: Any]])
            var decisions: [String: [String: Any]] = [:]
            for row in rows {
                guard let os = row["os"] as? String, let host = row["host"] as? String, let kind = row["kind"] as? String else { continue }
                #expect(decisions.updateValue(try #require(row["decision"] as? [String: Any]), forKey: "\(os) \(host) \(kind)") == nil,
                        "\(group[0].id): one row per era, host and kind")
            }
            let eras = Set(rows.compactMap { $0["os"] as? String })
            try #require(rows.count == eras.count * hosts.count * LoadKind.allCases.count, "\(group[0].id): \(rows.count) rows")
            for item in group {
                let era = try #require(OSEra(os: item.os), "\(item.id)")
                let decision = try #require(decisions["\(era.label) \(item.host) \(item.kind)"], "\(item.id): no row for \(era.label)")
                answers[item.id] = [(decision["httpAllowed"] as? Bool) == true ? "allowed" : "blocked",
                                    decision["minimumTLS"] as? String ?? "none",
                                    (decision["requiresForwardSecrecy"] as? Bool) == true ? "required" : "not",
                                    (decision["requiresCertificateTransparency"] as? Bool) == true ? "required" : "not"]
            }
        }
        return answers
    }
}
