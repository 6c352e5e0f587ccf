import Foundation
import Testing
import PlistDOM
@testable import ATSPolicy

/// The indexed look-up of domain rules gives what the plain scan of Apple's rules gives: the
/// same rule, the same open questions and the same ignored keys, in the same order. Without
/// the explanation, it and the decisions give the same rule and policy.
@Suite struct DomainRuleIndexTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    func check(_ config: ATSConfiguration, hosts extra: [ATSPolicy.Host] = []) -> Int {
        var compared = 0
        let hosts = PolicyDelta.hostClasses([config]).map(\.host) + extra
        for rules in [config.exceptionDomains, config.pinnedDomains] where !rules.isEmpty {
            let index = DomainRuleIndex(rules)
            for host in hosts {
                for era in OSEra.allCases {
                    var scanNotes: [String] = [], scanIgnored: [Decision.Reason] = []
                    var indexNotes: [String] = [], indexIgnored: [Decision.Reason] = []
                    let scanned = PolicyEngine.matchingRule(rules, host: host, era: era, notes: &scanNotes, ignored: &scanIgnored)
                    let found = index.matchingRule(host: host, era: era, notes: &indexNotes, ignored: &indexIgnored)
                    #expect(found == scanned, "\(host.name) \(era)")
                    if !host.isIPAddress { #expect(index.ruleDeciding(name: host) == scanned, "\(host.name) \(era)") }
                    #expect(indexNotes == scanNotes, "\(host.name) \(era)")
                    #expect(indexIgnored == scanIgnored, "\(host.name) \(era)")
                    var quietNotes: [String] = [], quietIgnored: [Decision.Reason] = []
                    let quiet = index.matchingRule(host: host, era: era, notes: &quietNotes, ignored: &quietIgnored, explaining: false)
                    #expect(quiet == scanned && quietNotes.isEmpty && quietIgnored.isEmpty, "\(host.name) \(era)")
                    compared += 1
                }
            }
        }
        return compared + checkDecisionsWithoutExplanation(config, hosts: hosts)
    }

    /// Deltas decide without building the explanation: the policy must be the same.
    func checkDecisionsWithoutExplanation(_ config: ATSConfiguration, hosts: [ATSPolicy.Host]) -> Int {
        let indexed = PolicyEngine.Indexed(config)
        var compared = 0
        for host in hosts {
            for era in OSEra.allCases {
                let explained = PolicyEngine.decide(indexed, era: era, host: host, kinds: LoadKind.allCases)
                let quiet = PolicyEngine.decide(indexed, era: era, host: host, kinds: LoadKind.allCases, explaining: false)
                for (full, bare) in zip(explained, quiet) {
                    #expect(full.samePolicy(as: bare) && full.policyValues == bare.policyValues, "\(host.name) \(era)")
                    #expect(bare.decidedBy.isEmpty && bare.openQuestions.isEmpty && !full.decidedBy.isEmpty)
                    compared += 1
                }
            }
        }
        return compared
    }

    /// A rule's fields are shared between copies until one changes: the change stays in that
    /// copy, and rules compare by their values, not by what they share.
    @Test func aChangedCopyOfARuleLeavesTheOriginalAsItWas() {
        var original = ATSConfiguration.DomainRule(key: "example.com", line: 3)
        original.allowsInsecureHTTP = .init(value: true, key: "NSExceptionAllowsInsecureHTTPLoads", line: 4)
        var copy = original
        #expect(copy == original)
        copy.allowsInsecureHTTP = nil
        copy.pinnedCAIdentities.append("SPKI")
        #expect(original.allowsInsecureHTTP?.value == true && original.pinnedCAIdentities.isEmpty)
        #expect(copy.allowsInsecureHTTP == nil && copy.pinnedCAIdentities == ["SPKI"])
        #expect(copy != original && !copy.decidesAlike(original))
        // Built apart with the same values: equal, and deciding alike.
        var twin = ATSConfiguration.DomainRule(key: "example.com", line: 3)
        twin.allowsInsecureHTTP = original.allowsInsecureHTTP
        #expect(twin == original && twin.decidesAlike(original))
        twin.line = 9
        #expect(twin != original && twin.decidesAlike(original))
    }

    @Test func agreesWithTheScanOverTheCorpus() throws {
        var compared = 0
        for set in ["real", "wild"] {
            let folder = Self.corpus.appendingPathComponent(set)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".plist") {
                let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
                guard bytes.containsBytes(Array("NSExceptionDomains".utf8)) || bytes.containsBytes(Array("NSPinnedDomains".utf8)),
                    let document = try? PlistDocument(parsing: bytes)
                else { continue }
                compared += check(ATSConfiguration(document: document))
            }
        }
        #expect(compared > 5_000)
    }

    /// The cases the corpus may lack: every matcher kind, duplicates, parents at two depths,
    /// wildcards and keys with capitals, addresses before iOS 17.
    @Test func agreesOnEveryKindOfKey() throws {
        let domains = [
            ("example.com", true), ("example.com", false), ("api.example.com", true), ("*.example.com", false),
            ("Example.COM", false), ("*.other.org", true), ("other.org:8443", false), ("$(API_HOST)", false),
            ("10.0.0.0/8", false), ("10.1.2.3", false), ("fe80::/10", false), ("https://secure.example.com/path", false),
        ]
        var body = "<key>NSExceptionDomains</key><dict>"
        for (key, subdomains) in domains {
            body += "<key>\(key)</key><dict><key>NSIncludesSubdomains</key><\(subdomains)/></dict>"
        }
        body += "</dict>"
        let document = try PlistDocument(parsing: "<plist><dict><key>NSAppTransportSecurity</key><dict>\(body)</dict></dict></plist>")
        let hosts = ["example.com", "api.example.com", "v1.api.example.com", "x.example.com", "a.b.example.com",
                     "other.org", "www.other.org", "10.1.2.3", "10.9.9.9", "fe80::1", "secure.example.com", "printer.local"]
        let asWritten = ["Example.com", "example.com.", "10.1.2.3", "::ffff:10.1.2.3", "FE80::1", "fe80:0::1"]
        #expect(check(ATSConfiguration(document: document), hosts: hosts.map { ATSPolicy.Host($0) } + asWritten.map(ATSPolicy.Host.init(asWritten:))) > 100)
    }

    /// The look-up passes over names no key is as long as, when keys and host are ASCII; keys
    /// and hosts that are not ASCII (a combining mark is as long as no precomposed letter) are
    /// looked up as before. The scan of Apple's rules is the reference.
    @Test func keysSpelledWithCombiningMarksStillMatch() throws {
        for keys in [["bu\u{0308}cher.example"], ["bu\u{0308}cher.example", "plain.example"], ["b\u{00FC}cher.example", "plain.example"]] {
            var body = "<key>NSExceptionDomains</key><dict>"
            for key in keys { body += "<key>\(key)</key><dict><key>NSIncludesSubdomains</key><true/></dict>" }
            body += "</dict>"
            let document = try PlistDocument(parsing: "<plist><dict><key>NSAppTransportSecurity</key><dict>\(body)</dict></dict></plist>")
            let hosts = ["b\u{00FC}cher.example", "www.b\u{00FC}cher.example", "bu\u{0308}cher.example", "plain.example", "a.plain.example", "example"]
            let config = ATSConfiguration(document: document)
            #expect(check(config, hosts: hosts.map { ATSPolicy.Host($0) }) > 20)
            // The ASCII key beside them is still found for a subdomain, past names of other lengths.
            let index = DomainRuleIndex(config.exceptionDomains)
            #expect((index.ruleDeciding(name: ATSPolicy.Host("a.plain.example")) != nil) == keys.contains("plain.example"), "\(keys)")
        }
    }
}

/// Reading a document again with the rules of an earlier reading: the domains the editor says it
/// touched are read again, the others kept, and the result is the full reading's.
@Suite struct DomainRuleCacheTests {
    @Test func aReadingWithTheCacheReadsAgainOnlyTheDomainsTouched() throws {
        let domain = "<dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/></dict>"
        let document = try PlistDocument(parsing: "<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>"
            + "<key>a.com</key>\(domain)<key>b.com</key>\(domain)</dict></dict></dict></plist>")
        let cache = ATSConfiguration.DomainRuleCache()
        #expect(ATSConfiguration(document: document, reusing: cache) == ATSConfiguration(document: document))
        let path: [PathStep] = [.key("NSAppTransportSecurity"), .key("NSExceptionDomains"), .key("b.com"), .key("NSExceptionAllowsInsecureHTTPLoads")]
        document.replace(try #require(document.element(at: path)), with: .bool(true))
        // Untold, the cache keeps b.com's rule as it was: the editor must say what it edited.
        #expect(ATSConfiguration(document: document, reusing: cache).exceptionDomains.map { $0.allowsInsecureHTTP?.value } == [false, false])
        cache.touch("b.com")
        let again = ATSConfiguration(document: document, reusing: cache)
        #expect(again == ATSConfiguration(document: document))
        #expect(again.exceptionDomains.map { $0.allowsInsecureHTTP?.value } == [false, true])
        // A renamed key is read again whatever the editor says.
        let key = try #require(document.element(at: [.key("NSAppTransportSecurity"), .key("NSExceptionDomains")])?.entries.first?.key)
        document.rename(key, to: "c.com")
        #expect(ATSConfiguration(document: document, reusing: cache) == ATSConfiguration(document: document))
    }
}
