import Foundation
import Testing
import PlistDOM
@testable import ATSPolicy

/// Deltas skip the decisions of hosts whose deciding rules did not change (names by their
/// matching rules, addresses by theirs at iOS 14 and iOS 17): what they report must be exactly
/// what deciding every host class, era and kind both ways reports.
@Suite struct PolicyDeltaTests {
    /// Every decision that differs, decided the long way, as "label era kind".
    static func decidedTheLongWay(_ before: ATSConfiguration, _ after: ATSConfiguration) -> Set<String> {
        var changed: Set<String> = []
        // Without the explanation (the same policy: DomainRuleIndexTests).
        let old = PolicyEngine.Indexed(before), new = PolicyEngine.Indexed(after)
        for hostClass in PolicyDelta.hostClasses([before, after]) {
            for era in OSEra.allCases {
                let olds = PolicyEngine.decide(old, era: era, host: hostClass.host, kinds: LoadKind.allCases, explaining: false)
                let news = PolicyEngine.decide(new, era: era, host: hostClass.host, kinds: LoadKind.allCases, explaining: false)
                for (index, kind) in LoadKind.allCases.enumerated() where !olds[index].samePolicy(as: news[index]) {
                    changed.insert("\(hostClass.label) \(era) \(kind)")
                }
            }
        }
        return changed
    }

    static func reported(_ before: ATSConfiguration, _ after: ATSConfiguration) -> Set<String> {
        reported(PolicyDelta.Changes(before: before, after: after))
    }

    static func reported(_ changes: PolicyDelta.Changes) -> Set<String> {
        var reported: Set<String> = []
        for (hostClass, template) in changes.perHost {
            for change in changes.templates[template] { reported.insert("\(hostClass.label) \(change.era) \(change.kind)") }
        }
        return reported
    }

    static let address = "<key>192.168.0.10</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>"
    /// Not an address (three parts): a name, whose subdomains include 192.168.0.10 on every OS.
    static let parentName = "<key>168.0.10</key><dict><key>NSIncludesSubdomains</key><true/><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.1</string></dict>"

    /// Keys that match no host (capitals, a `*.` wildcard, a build setting), with settings that
    /// would allow HTTP.
    static let unmatched = ["Unmatched.Example.com", "*.wild.example.com", "$(API_HOST)"]
        .map { "<key>\($0)</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>" }.joined()

    /// A key named as a built-in exception domain, without subdomains: it replaces the built-in
    /// entry (which covers subdomains) for every host below it, though no rule of the app
    /// decides for those hosts.
    static let builtInName = "<key>apple.com</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string></dict>"

    /// A configuration whose NSExceptionDomains dict holds `domains` (its XML).
    static func configuration(domains: String) throws -> ATSConfiguration {
        ATSConfiguration(document: try PlistDocument(parsing: Array(
            "<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>\(domains)</dict></dict></dict></plist>".utf8)))
    }

    @Test func aKeyNamedAsABuiltInExceptionChangesItsSubdomains() throws {
        let before = try Self.configuration(domains: "<key>example.com</key><dict/>")
        let after = try Self.configuration(domains: "<key>example.com</key><dict/>" + Self.builtInName)
        let expected = Self.decidedTheLongWay(before, after)
        #expect(expected.contains { $0.hasPrefix("sub.apple.com ") }, "the subdomain loses the built-in entry")
        #expect(Self.reported(before, after) == expected)
        #expect(Self.reported(after, before) == expected)
    }

    /// A rule that matches no host decides nothing, so configurations that differ only there are
    /// equivalent without a decision taken; one that matches a host makes them differ.
    @Test func rulesThatMatchNoHostDoNotMakeConfigurationsDiffer() throws {
        let listed = "<key>example.com</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict>"
        let base = try Self.configuration(domains: listed)
        #expect(base.isPolicyEquivalent(to: try Self.configuration(domains: Self.unmatched + listed)))
        #expect(base.isPolicyEquivalent(to: try Self.configuration(domains: listed + Self.unmatched)))
        #expect(PolicyDelta.lines(before: base, after: try Self.configuration(domains: listed + Self.unmatched)) == ["no policy change"])
        #expect(!base.isPolicyEquivalent(to: try Self.configuration(domains: listed.replacingOccurrences(of: "TLSv1.0", with: "TLSv1.2"))))
        #expect(!base.isPolicyEquivalent(to: try Self.configuration(domains: listed + "<key>unmatched.example.com</key><dict/>")))
        #expect(!base.isPolicyEquivalent(to: try Self.configuration(domains: listed + "<key>192.168.0.10</key><dict/>")))
    }

    /// Edits of a file with exception domains: an address, a range, a name whose subdomains
    /// hold an address, settings flipped or dropped, and global keys added.
    static func variants(of text: String) -> [String] {
        let domains = (anchor: "<key>NSExceptionDomains</key>", marker: "<dict>")
        let ats = (anchor: "<key>NSAppTransportSecurity</key>", marker: "<dict>")
        return [
            text.inserting(address, after: domains.anchor, domains.marker),
            text.inserting(address + parentName, after: domains.anchor, domains.marker),
            text.inserting(parentName, after: domains.anchor, domains.marker),
            text.inserting("<key>192.168.0.0/16</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict>",
                           after: domains.anchor, domains.marker),
            text.inserting("<key>192.168.0.10</key><dict/>", after: domains.anchor, domains.marker),
            text.inserting(unmatched, after: domains.anchor, domains.marker),
            text.inserting(builtInName, after: domains.anchor, domains.marker),
            text.replacing("<true/>", after: "InsecureHTTPLoads</key>", with: "<false/>"),
            text.replacing("TLSv1.2", after: "", with: "TLSv1.0"),
            text.replacing("<key>NSIncludesSubdomains</key>", after: "", with: "<key>NSIncludesSubdomainsNot</key>"),
            text.inserting("<key>NSAllowsLocalNetworking</key><true/>", after: ats.anchor, ats.marker),
            text.inserting("<key>NSAllowsArbitraryLoads</key><true/>", after: ats.anchor, ats.marker),
        ].compactMap { $0 }
    }

    /// Pins for a listed domain, before and after a change of identity (the same global keys).
    static func pinning(_ text: String, identity: String) -> String? {
        let domain = "<key>NSPinnedDomains</key><dict><key>example.com</key><dict><key>NSIncludesSubdomains</key><true/>"
            + "<key>NSPinnedCAIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>\(identity)</string></dict></array></dict></dict>"
        return text.inserting(domain, after: "<key>NSAppTransportSecurity</key>", "<dict>")
    }

    /// In shards worked on side by side: one loop over the corpus was the last test to finish.
    @Test(arguments: 0..<6) func deltasReportExactlyTheDecisionsThatDiffer(shard: Int) throws {
        var pairs = 0, withChanges = 0, mismatches: [String] = []
        let folders = ["real", "wild"].map { DomainRuleIndexTests.corpus.appendingPathComponent($0) }
        let files = try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".plist") }.sorted()
                .map { folder.appendingPathComponent($0) }
        }.enumerated().filter { $0.offset % 6 == shard }.map(\.element)
        func configuration(_ text: String) -> ATSConfiguration? {
            (try? PlistDocument(parsing: text)).map(ATSConfiguration.init(document:))
        }
        for url in files {
            guard let text = try? String(contentsOf: url, encoding: .utf8), text.contains("<key>NSExceptionDomains</key>"),
                let original = configuration(text)
            else { continue }
            let edited = Self.variants(of: text).compactMap(configuration)
            let pinned = ["AAAA", "BBBB"].compactMap { Self.pinning(text, identity: $0) }.compactMap(configuration)
            // The file against each edit, the address against the address with the name, and
            // one pin against another.
            var compared = edited.map { (original, $0) }
            if edited.count > 1 { compared.append((edited[0], edited[1])) }
            if pinned.count == 2 { compared.append((pinned[0], pinned[1])) }
            for (before, after) in compared {
                // Which decisions differ does not depend on which side is before: decided the
                // long way once, and the delta asked both ways.
                let expected = Self.decidedTheLongWay(before, after)
                for (x, y) in [(before, after), (after, before)] {
                    pairs += 1
                    if !expected.isEmpty { withChanges += 1 }
                    let changes = PolicyDelta.Changes(before: x, after: y)
                    let got = Self.reported(changes)
                    // The hosts come in the order of all host classes, however few are weighed.
                    let labels = changes.perHost.map(\.hostClass.label)
                    if labels != PolicyDelta.hostClasses([x, y]).map(\.label).filter(Set(labels).contains) {
                        mismatches.append("\(url.lastPathComponent): hosts out of order")
                    }
                    if got != expected {
                        mismatches.append("\(url.lastPathComponent): missing \(expected.subtracting(got).sorted().prefix(3)), extra \(got.subtracting(expected).sorted().prefix(3))")
                    }
                    // Whether a kind of load changes (an overreach asks this of the loads outside a pass's reach).
                    for kind in LoadKind.allCases where changes.hasChanges(include: { $1 == kind }) != expected.contains(where: { $0.hasSuffix(" \(kind)") }) {
                        mismatches.append("\(url.lastPathComponent): hasChanges for \(kind) loads is wrong")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(5))")
        #expect(pairs > 3_000 / 6 && withChanges > 2_000 / 6, "shard \(shard): \(pairs) pairs, \(withChanges) with changes")
    }
}

extension String {
    /// `self` with `text` put just after the first `marker` that follows the first `anchor`.
    func inserting(_ text: String, after anchor: String, _ marker: String) -> String? {
        guard let found = range(of: anchor), let at = self[found.upperBound...].range(of: marker) else { return nil }
        return String(self[..<at.upperBound]) + text + String(self[at.upperBound...])
    }

    /// `self` with the first `target` after the first `anchor` replaced; `nil` when there is none.
    func replacing(_ target: String, after anchor: String, with replacement: String) -> String? {
        let from = anchor.isEmpty ? startIndex : range(of: anchor)?.upperBound
        guard let from, let found = self[from...].range(of: target) else { return nil }
        return replacingCharacters(in: found, with: replacement)
    }
}
