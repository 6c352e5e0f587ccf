import Testing
import PlistDOM
@testable import ATSPolicy

/// Apple's reader as oracle: the cases of Apple's own tests of its ATS reader
/// (apple-oss-distributions/Security, `protocol/SecProtocolConfigurationTest.m`:
/// `testInvalidATSDictionary`, `testIncludesSubdomains`, `testCIDRExceptions`), each
/// dictionary written here as a plist and each expectation (ATS required, minimum TLS,
/// forward secrecy) checked against the engine on the newest OS, where the reader's IP keys
/// are read. `atsRequired` is HTTP blocked. The reader's built-in Apple exceptions are checked
/// by `testBuiltInExceptions` and `testExceptionOverridesBuiltInException`.
@Suite struct ReaderOracleTests {
    struct Expectation: CustomTestStringConvertible {
        var host: String
        var atsRequired: Bool
        /// `nil` where the reader sets none (a local host outside ATS).
        var minimumTLS: String?
        var forwardSecrecy: Bool
        var testDescription: String { host }
    }

    func decide(_ body: String, _ host: String) throws -> Decision {
        let text = "<plist><dict><key>NSAppTransportSecurity</key><dict>\(body)</dict></dict></plist>"
        return PolicyEngine.decide(ATSConfiguration(document: try PlistDocument(parsing: text)), era: .ios17, host: Host(host), kind: .urlSession)
    }

    func check(_ body: String, _ expectations: [Expectation]) throws {
        for item in expectations {
            let decision = try decide(body, item.host)
            #expect(decision.httpAllowed == !item.atsRequired, "\(item.host): \(decision.decidedBy.map(\.rule))")
            if item.atsRequired || item.minimumTLS != nil {
                #expect(decision.minimumTLS == item.minimumTLS, "\(item.host)")
                #expect(decision.requiresForwardSecrecy == item.forwardSecrecy, "\(item.host)")
            }
        }
    }

    static func allows(_ value: String) -> String { "<dict><key>NSExceptionAllowsInsecureHTTPLoads</key>\(value)</dict>" }

    /// `testInvalidATSDictionary`: a string where a Boolean belongs is absent, an entry that is
    /// not a dict is skipped, a number where a string belongs is the default.
    @Test func wrongTypesAreReadAsAbsent() throws {
        let body = """
            <key>NSAllowsArbitraryLoads</key><string>YES</string>
            <key>NSExceptionDomains</key><dict>
            <key>invalid.exception.com</key><string></string>
            <key>neverssl.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><string>YES</string>
            <key>NSExceptionMinimumTLSVersion</key><integer>13</integer>
            <key>NSExceptionRequiresForwardSecrecy</key><string>NO</string></dict>
            </dict>
            """
        try check(body, ["example.com", "neverssl.com", "google.com", "youtube.com", "invalid.exception.com"].map {
            Expectation(host: $0, atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true)
        })
        try check(body, [Expectation(host: "myhost.local", atsRequired: false, minimumTLS: nil, forwardSecrecy: false)])
    }

    /// `testIncludesSubdomains`: the entry for the host itself decides, with or without
    /// NSIncludesSubdomains; above it the nearest parent that includes subdomains, at any depth.
    @Test func subdomainsAreFoundAtAnyDepth() throws {
        let body = """
            <key>NSExceptionDomains</key><dict>
            <key>example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/><key>NSIncludesSubdomains</key><true/></dict>
            <key>subhostname.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/>
            <key>NSIncludesSubdomains</key><false/><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string></dict>
            <key>another.subhostname.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/>
            <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.1</string></dict>
            </dict>
            """
        try check(body, [
            Expectation(host: "example.com", atsRequired: false, minimumTLS: "TLSv1.2", forwardSecrecy: true),
            Expectation(host: "subhostname.example.com", atsRequired: true, minimumTLS: "TLSv1.3", forwardSecrecy: true),
            Expectation(host: "another.subhostname.example.com", atsRequired: true, minimumTLS: "TLSv1.1", forwardSecrecy: true),
            Expectation(host: "test.another.subhostname.example.com", atsRequired: false, minimumTLS: "TLSv1.2", forwardSecrecy: true),
        ])
    }

    /// `testCIDRExceptions`: an entry for the address itself wins; else the longest prefix.
    @Test func addressesTakeTheirOwnEntryElseTheLongestPrefix() throws {
        let first = """
            <key>NSExceptionDomains</key><dict>
            <key>example.com</key>\(Self.allows("<true/>"))
            <key>198.51.100.0/24</key>\(Self.allows("<true/>"))
            <key>198.51.100.0/27</key>\(Self.allows("<false/>"))
            <key>198.51.100.1</key>\(Self.allows("<true/>"))
            <key>198.51.100.101</key>\(Self.allows("<false/>"))
            <key>2001:db8::/32</key>\(Self.allows("<true/>"))
            <key>2001:db8::/64</key>\(Self.allows("<false/>"))
            </dict>
            """
        let allowed = ["198.51.100.1", "198.51.100.100", "198.51.100.255", "2001:db8:85a3::8a2e:370:7334", "example.com"]
        let required = ["1.1.1.1", "198.51.100.0", "198.51.100.101", "198.51.101.0", "203.0.113.0", "255.255.255.0", "fe00::",
                        "2001:db8::8a2e:370:7334", "2001:db80:0000:0000:0000:0000:0000:0000", "google.com"]
        try check(first, allowed.map { Expectation(host: $0, atsRequired: false, minimumTLS: "TLSv1.2", forwardSecrecy: true) }
            + required.map { Expectation(host: $0, atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true) })
        // The reader's 127.0.0.1 and ::1 cases depend on its caller's `is_direct`, which the
        // source does not show; for IP addresses Apple's iOS 17 page decides ("ATS no longer
        // allows connections to IP addresses by default"), so only the names are compared.
        try check(first, ["localhost", "myhost.local"].map {
            Expectation(host: $0, atsRequired: false, minimumTLS: nil, forwardSecrecy: false)
        })

        let second = """
            <key>NSExceptionDomains</key><dict>
            <key>::/0</key>\(Self.allows("<true/>"))
            <key>::/1</key>\(Self.allows("<false/>"))
            <key>0.0.0.0/0</key>\(Self.allows("<true/>"))
            <key>0.0.0.0/1</key>\(Self.allows("<false/>"))
            </dict>
            """
        let wide = ["128.0.0.0", "198.51.100.1", "198.51.100.100", "198.51.100.255", "198.51.100.0", "198.51.100.101",
                    "198.51.101.0", "203.0.113.0", "255.255.255.0", "fe00::"]
        let narrow = ["127.0.0.1", "::1", "1.1.1.1", "127.255.255.255", "2001:db8::8a2e:370:7334", "2001:db8:85a3::8a2e:370:7334"]
        try check(second, wide.map { Expectation(host: $0, atsRequired: false, minimumTLS: "TLSv1.2", forwardSecrecy: true) }
            + narrow.map { Expectation(host: $0, atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true) }
            + [Expectation(host: "example.com", atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true)])
    }

    /// `testLocalNetworkingDisabled`: NSAllowsLocalNetworking written out as NO makes local
    /// hosts require TLS like any other (the reader lets a direct connection through only while
    /// the key is not NO), on every OS where the engine otherwise leaves them outside ATS.
    /// `testLocalNetworkingAllowedByDefault`: without the key they stay outside it. (Its IP
    /// cases turn on the caller's `is_direct`, which the reader's source does not decide.)
    @Test func localNetworkingWrittenAsNoRequiresTLSForLocalHosts() throws {
        for value in ["<false/>", "<integer>0</integer>"] {
            let body = "<key>NSAllowsLocalNetworking</key>\(value)"
            try check(body, ["localhost", "myhost.local", "example.com", "203.0.113.1", "127.0.0.1", "::1", "fe80::1", "fe00::1",
                             "2001:db8::8a2e:370:7334"].map { Expectation(host: $0, atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true) })
            for era in [OSEra.ios10, .ios12, .ios14] {
                let text = "<plist><dict><key>NSAppTransportSecurity</key><dict>\(body)</dict></dict></plist>"
                let decision = PolicyEngine.decide(ATSConfiguration(document: try PlistDocument(parsing: text)), era: era,
                                                   host: Host("myhost.local"), kind: .urlSession)
                #expect(!decision.httpAllowed && decision.openQuestions.contains { $0.contains("NSAllowsLocalNetworking page") }, "\(era)")
            }
        }
        try check("", ["localhost", "myhost.local"].map { Expectation(host: $0, atsRequired: false, minimumTLS: nil, forwardSecrecy: false) }
            + ["example.com", "203.0.113.1", "fe00::1", "2001:db8::8a2e:370:7334"].map {
                Expectation(host: $0, atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true)
            })
    }

    /// A domain key written twice: the last copy is the one read, and when it is not a dict the
    /// reader skips it, so the earlier dict copy does not apply either (the first
    /// copy's dict applied, though the tool's own notes say the last copy is read).
    @Test func aDuplicateDomainWhoseLastCopyIsNoDictIsSkipped() throws {
        let dict = Self.allows("<true/>")
        try check("<key>NSExceptionDomains</key><dict><key>example.com</key>\(dict)<key>example.com</key><string>x</string></dict>",
                  [Expectation(host: "example.com", atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true)])
        try check("<key>NSExceptionDomains</key><dict><key>example.com</key><string>x</string><key>example.com</key>\(dict)</dict>",
                  [Expectation(host: "example.com", atsRequired: false, minimumTLS: "TLSv1.2", forwardSecrecy: true)])
        let decision = try decide("<key>NSExceptionDomains</key><dict><key>example.com</key>\(dict)<key>example.com</key><true/></dict>", "example.com")
        #expect(decision.decidedBy.contains { $0.rule.contains("not read: it is") }, "\(decision.decidedBy)")
    }

    /// An address key is looked up by the text the system writes: `2001:0db8:0012:0000:0000:0000:0000:0034`
    /// or `010.0.0.1` matches nothing (the tool matched them), and says why.
    @Test func anAddressKeyWrittenOtherwiseMatchesNothing() throws {
        for (key, host) in [("2001:0db8:0012:0000:0000:0000:0000:0034", "2001:db8:12::34"), ("2001:DB8:12::34", "2001:db8:12::34"),
                            ("2001:db8:12:0:0:0:0:34", "2001:db8:12::34"), ("010.0.0.1", "8.0.0.1")] {
            let body = "<key>NSExceptionDomains</key><dict><key>\(key)</key>\(Self.allows("<true/>"))</dict>"
            try check(body, [Expectation(host: host, atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true)])
        }
        for key in ["2001:db8:12::34", "::ffff:10.0.0.1", "10.0.0.1", "2001:db8::1:0:0:1"] {
            let body = "<key>NSExceptionDomains</key><dict><key>\(key)</key>\(Self.allows("<true/>"))</dict>"
            try check(body, [Expectation(host: key, atsRequired: false, minimumTLS: "TLSv1.2", forwardSecrecy: true)])
        }
        let decision = try decide("<key>NSExceptionDomains</key><dict><key>2001:0db8::34</key>\(Self.allows("<true/>"))</dict>", "2001:db8::34")
        #expect(decision.openQuestions.contains { $0.contains("is the address 2001:db8::34 written otherwise") }, "\(decision.openQuestions)")
        #expect(IPAddress("2001:db8:0:0:1:0:0:1")?.text == "2001:db8::1:0:0:1", "the first of equal zero runs")
        #expect(IPAddress("0:0:0:0:0:0:0:0")?.text == "::" && IPAddress("2001:db8:1:1:1:1:0:1")?.text == "2001:db8:1:1:1:1:0:1")
    }

    /// Where the reader does not decide, an open question: two ranges of one prefix
    /// length over the host (the reader visits its dictionary in no documented order), and
    /// whether a loopback or link-local address is a "direct" connection (its caller's flag).
    @Test func whatTheReaderLeavesToChanceOrItsCallerIsAnOpenQuestion() throws {
        for (a, b) in [("0.0.0.0/0", "10.0.0.0/08"), ("2001:db8::/32", "2001:DB8::/32")] {
            let body = "<key>NSExceptionDomains</key><dict><key>\(a)</key>\(Self.allows("<true/>"))<key>\(b)</key>\(Self.allows("<false/>"))</dict>"
            let host = a.hasPrefix("0") ? "10.1.2.3" : "2001:db8::5"
            let decision = try decide(body, host)
            #expect(decision.openQuestions.contains { $0.contains("both cover \(host) with the same prefix length") }, "\(a) \(b): \(decision.openQuestions)")
            // The index and the reference scan agree, notes included.
            var notes: [String] = [], ignored: [Decision.Reason] = []
            let text = "<plist><dict><key>NSAppTransportSecurity</key><dict>\(body)</dict></dict></plist>"
            let rules = ATSConfiguration(document: try PlistDocument(parsing: text)).exceptionDomains
            _ = PolicyEngine.matchingRule(rules, host: Host(host), era: .ios17, notes: &notes, ignored: &ignored)
            #expect(notes.contains { $0.contains("same prefix length") })
        }
        for host in ["127.0.0.1", "::1", "fe80::1"] {
            let decision = try decide("", host)
            #expect(!decision.httpAllowed && decision.openQuestions.contains { $0.contains("is \"direct\"") }, "\(host)")
        }
        #expect(!(try decide("", "203.0.113.1")).openQuestions.contains { $0.contains("direct") })
        // NSAllowsLocalNetworking written out as NO: the reader requires TLS whatever the caller
        // says, so there is nothing to ask (the question used to be asked there too).
        for host in ["127.0.0.1", "::1"] {
            let decision = try decide("<key>NSAllowsLocalNetworking</key><false/>", host)
            #expect(!decision.httpAllowed && !decision.openQuestions.contains { $0.contains("direct") }, "\(host): \(decision.openQuestions)")
        }
    }

    /// `testExceptionRaisesSecurityRequirements`: with NSAllowsArbitraryLoads YES an exception
    /// domain still raises what its own keys ask (an entry for a local host included), and the
    /// built-in exceptions stay.
    @Test func anExceptionRaisesRequirementsUnderArbitraryLoads() throws {
        let body = """
            <key>NSAllowsArbitraryLoads</key><true/>
            <key>NSExceptionDomains</key><dict>
            <key>neverssl.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/>
            <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string><key>NSExceptionRequiresForwardSecrecy</key><true/></dict>
            <key>google.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/>
            <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string><key>NSExceptionRequiresForwardSecrecy</key><true/></dict>
            <key>youtube.com</key><dict><key>NSExceptionRequiresForwardSecrecy</key><true/></dict>
            <key>myhost.local</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/>
            <key>NSExceptionRequiresForwardSecrecy</key><true/></dict>
            </dict>
            """
        try check(body, [
            Expectation(host: "example.com", atsRequired: false, minimumTLS: nil, forwardSecrecy: false),
            Expectation(host: "neverssl.com", atsRequired: true, minimumTLS: "TLSv1.3", forwardSecrecy: true),
            Expectation(host: "google.com", atsRequired: false, minimumTLS: "TLSv1.3", forwardSecrecy: true),
            Expectation(host: "youtube.com", atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true),
            Expectation(host: "myhost.local", atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true),
        ] + ["apple.com", "csd4.apple.com", "setup.icloud.com"].map {
            Expectation(host: $0, atsRequired: false, minimumTLS: "TLSv1.2", forwardSecrecy: false)
        } + ["ls.apple.com", "gs.apple.com", "geo.apple.com", "is.autonavi.com", "apple-mapkit.com"].map {
            Expectation(host: $0, atsRequired: false, minimumTLS: "TLSv1.0", forwardSecrecy: false)
        })
    }

    /// `testAllowsArbitraryLoads`, the five `…OverridesAllowsArbitraryLoads` tests and
    /// `testGarbageValueDisablesAllowsArbitraryLoads`: NSAllowsArbitraryLoads YES alone lets every
    /// host through; beside any later key (local networking, web content, media, YES or NO) it
    /// is not read, and a value other than YES (2, a string, NO) is not YES. The load is a URL
    /// session (the reader's client is neither WebKit nor mediaserverd); the addresses Apple's
    /// tests pass as direct are left to `whatTheReaderLeavesToChanceOrItsCallerIsAnOpenQuestion`.
    @Test func laterKeysAndGarbageValuesTurnArbitraryLoadsOff() throws {
        let open = Expectation(host: "", atsRequired: false, minimumTLS: nil, forwardSecrecy: false)
        try check("<key>NSAllowsArbitraryLoads</key><true/>", ["localhost", "myhost.local", "example.com", "203.0.113.1", "fe00::1",
                                                                 "2001:db8::8a2e:370:7334"].map { var e = open; e.host = $0; return e })
        let overrides = ["<key>NSAllowsLocalNetworking</key><true/>", "<key>NSAllowsArbitraryLoadsInWebContent</key><false/>",
                         "<key>NSAllowsArbitraryLoadsInWebContent</key><true/>", "<key>NSAllowsArbitraryLoadsForMedia</key><false/>",
                         "<key>NSAllowsArbitraryLoadsForMedia</key><true/>"].map { "<key>NSAllowsArbitraryLoads</key><true/>" + $0 }
        let garbage = ["<integer>2</integer>", "<string>YES</string>", "<false/>"].map { "<key>NSAllowsArbitraryLoads</key>" + $0 }
        for body in overrides + garbage {
            try check(body, ["localhost", "myhost.local"].map { var e = open; e.host = $0; return e }
                + ["example.com", "google.com", "203.0.113.1", "fe00::1", "2001:db8::8a2e:370:7334"].map {
                    Expectation(host: $0, atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true)
                })
        }
    }

    /// `testBuiltInExceptions`: with no entry of the app's own, Apple's built-in exceptions
    /// decide for their domains and subdomains (HTTP allowed, TLS 1.2 or 1.0, no forward
    /// secrecy), and nothing else changes.
    @Test func builtInExceptionsDecideForTheirDomains() throws {
        let body = "<key>NSAllowsArbitraryLoads</key><false/>"
        try check(body, ["example.com", "neverssl.com"].map { Expectation(host: $0, atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true) })
        try check(body, [Expectation(host: "myhost.local", atsRequired: false, minimumTLS: nil, forwardSecrecy: false)])
        try check(body, ["apple.com", "csd4.apple.com", "setup.icloud.com"].map {
            Expectation(host: $0, atsRequired: false, minimumTLS: "TLSv1.2", forwardSecrecy: false)
        } + ["ls.apple.com", "gs.apple.com", "geo.apple.com", "is.autonavi.com", "apple-mapkit.com"].map {
            Expectation(host: $0, atsRequired: false, minimumTLS: "TLSv1.0", forwardSecrecy: false)
        })
        let decision = try decide(body, "csd4.apple.com")
        #expect(decision.decidedBy.contains { $0.rule.hasPrefix("Apple's built-in exception for apple.com") }, "\(decision.decidedBy)")
    }

    /// `testExceptionOverridesBuiltInException`: an app entry with a built-in one's key replaces
    /// it, subdomains included (apple.com without NSIncludesSubdomains leaves csd4.apple.com to
    /// the defaults); the other built-in entries stay.
    @Test func anAppEntryReplacesTheBuiltInOneOfItsName() throws {
        let body = """
            <key>NSAllowsArbitraryLoads</key><false/>
            <key>NSExceptionDomains</key><dict>
            <key>neverssl.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/>
            <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string><key>NSExceptionRequiresForwardSecrecy</key><true/></dict>
            <key>apple.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/>
            <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string><key>NSIncludesSubdomains</key><false/>
            <key>NSExceptionRequiresForwardSecrecy</key><true/></dict>
            <key>setup.icloud.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/>
            <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string></dict>
            </dict>
            """
        try check(body, [
            Expectation(host: "example.com", atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true),
            Expectation(host: "neverssl.com", atsRequired: true, minimumTLS: "TLSv1.3", forwardSecrecy: true),
            Expectation(host: "google.com", atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true),
            Expectation(host: "youtube.com", atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true),
            Expectation(host: "myhost.local", atsRequired: false, minimumTLS: nil, forwardSecrecy: false),
            Expectation(host: "apple.com", atsRequired: true, minimumTLS: "TLSv1.3", forwardSecrecy: true),
            Expectation(host: "csd4.apple.com", atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true),
            Expectation(host: "setup.icloud.com", atsRequired: true, minimumTLS: "TLSv1.3", forwardSecrecy: true),
            Expectation(host: "test.setup.icloud.com", atsRequired: true, minimumTLS: "TLSv1.2", forwardSecrecy: true),
        ] + ["ls.apple.com", "gs.apple.com", "geo.apple.com", "is.autonavi.com", "apple-mapkit.com"].map {
            Expectation(host: $0, atsRequired: false, minimumTLS: "TLSv1.0", forwardSecrecy: false)
        })
    }
}

/// Ranges as the reader's parser (`cidr_string_to_subnet_and_mask`) reads them.
@Suite struct ReaderCIDRTests {
    @Test(arguments: [
        ("10/8", "10.0.0.0", 8), ("10.1/16", "10.1.0.0", 16), ("2001:db8/32", "2001:db8::", 32), ("2001:DB8::/32", "2001:db8::", 32),
        ("10.0.0.0/08", "10.0.0.0", 0), ("10.0.0.0/010", "10.0.0.0", 8), ("::/0", "::", 0), ("198.51.100.0/24", "198.51.100.0", 24),
    ])
    func rangesTheReaderAccepts(_ key: String, _ network: String, _ prefix: Int) throws {
        let range = try #require(ReaderCIDR(key), "\(key)")
        #expect(range.network.text == network)
        #expect(range.prefix == prefix)
    }

    @Test(arguments: ["/8", "10.0.0.0/", "10.0.0.0/33", "2001:db8::/129", "10.0.0./8", "2001:db8:/32", "255.255.255.255/32",
                      "10.0.0.0/8/8", "10.0.0.0/0x8", "01.0.0.0/8", "10.a.0.0/8", "1:2:3:4:5:6:7:8:9/64", "fe80::%lo0/10"])
    func rangesTheReaderRefuses(_ key: String) {
        #expect(ReaderCIDR(key) == nil, "\(key)")
    }

    @Test func aRefusedRangeMatchesNothingAndAnAcceptedOneItsWholeRange() throws {
        let text = """
            <plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>
            <key>10.0.0.0/08</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            <key>255.255.255.255/32</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            </dict></dict></dict></plist>
            """
        let config = ATSConfiguration(document: try PlistDocument(parsing: text))
        #expect(config.exceptionDomains.map(\.matcher) == [.address(network: try #require(IPAddress("10.0.0.0")), prefix: 0), .nothing])
        // Prefix 0: a public address far outside 10/8 is covered.
        #expect(PolicyEngine.decide(config, era: .ios17, host: Host("8.8.8.8"), kind: .urlSession).httpAllowed)
        // 255.255.255.255 is decided by the prefix-0 entry: the refused /32 plays no part.
        let broadcast = PolicyEngine.decide(config, era: .ios17, host: Host("255.255.255.255"), kind: .urlSession)
        #expect(broadcast.decidedBy.first?.key == "NSExceptionDomains › 10.0.0.0/08")
    }

}
