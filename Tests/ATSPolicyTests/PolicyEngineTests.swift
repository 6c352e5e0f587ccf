import Testing
import PlistDOM
@testable import ATSPolicy

/// Apple's documented ATS rules, one test each.
@Suite struct PolicyEngineTests {
    func configuration(_ atsBody: String) throws -> ATSConfiguration {
        let text = "<plist><dict><key>NSAppTransportSecurity</key><dict>\(atsBody)</dict></dict></plist>"
        return ATSConfiguration(document: try PlistDocument(parsing: text))
    }

    func http(_ config: ATSConfiguration, _ era: OSEra, _ host: String, _ kind: LoadKind = .urlSession) -> Bool {
        PolicyEngine.decide(config, era: era, host: Host(host), kind: kind).httpAllowed
    }

    @Test func defaultsRequireHTTPSWithTLS12AndForwardSecrecy() throws {
        let decision = PolicyEngine.decide(try configuration(""), era: .ios17, host: Host("example.com"), kind: .urlSession)
        #expect(!decision.httpAllowed)
        #expect(decision.minimumTLS == "TLSv1.2")
        #expect(decision.requiresForwardSecrecy)
        // Apple's CT policy, enforced from iOS 12.1.1 for publicly trusted certificates.
        #expect(decision.requiresCertificateTransparency)
        #expect(!PolicyEngine.decide(try configuration(""), era: .ios10, host: Host("example.com"), kind: .urlSession).requiresCertificateTransparency)
    }

    /// NSRequiresCertificateTransparency: "The system now requires this behavior in all cases,
    /// making the key irrelevant." `<false/>` cannot switch CT off from iOS 12.1.1; before, it
    /// decides; on iOS 9 what it did is an open question.
    @Test func theObsoleteCTKeyCannotSwitchCTOff() throws {
        let config = try configuration("""
            <key>NSAllowsArbitraryLoads</key><true/>
            <key>NSExceptionDomains</key><dict><key>bank.example</key><dict><key>NSRequiresCertificateTransparency</key><false/></dict></dict>
            """)
        for era in [OSEra.ios12, .ios14, .ios17] {
            let decision = PolicyEngine.decide(config, era: era, host: Host("bank.example"), kind: .urlSession)
            #expect(decision.requiresCertificateTransparency, "\(era)")
            #expect(decision.decidedBy.contains { $0.key == "NSRequiresCertificateTransparency" && $0.rule.hasPrefix("ignored: obsolete") })
            // ATS off (arbitrary loads) does not switch off a trust policy either.
            #expect(PolicyEngine.decide(config, era: era, host: Host("other.example"), kind: .urlSession).requiresCertificateTransparency)
        }
        #expect(!PolicyEngine.decide(config, era: .ios10, host: Host("bank.example"), kind: .urlSession).requiresCertificateTransparency)
        let ios9 = PolicyEngine.decide(config, era: .ios9, host: Host("bank.example"), kind: .urlSession)
        #expect(!ios9.requiresCertificateTransparency && ios9.openQuestions.contains { $0.hasPrefix("NSRequiresCertificateTransparency on iOS 9") })
    }

    @Test func arbitraryLoadsTurnATSOffUntilALaterKeyIsPresentOnIOS10() throws {
        let plain = try configuration("<key>NSAllowsArbitraryLoads</key><true/>")
        #expect(OSEra.allCases.allSatisfy { http(plain, $0, "example.com") })
        for laterKey in ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking"] {
            // Presence counts, whatever the value.
            let config = try configuration("<key>NSAllowsArbitraryLoads</key><true/><key>\(laterKey)</key><false/>")
            #expect(http(config, .ios9, "example.com"), "iOS 9 does not know \(laterKey)")
            #expect(!http(config, .ios10, "example.com"), "\(laterKey) makes iOS 10 ignore NSAllowsArbitraryLoads")
            let reason = PolicyEngine.decide(config, era: .ios10, host: Host("example.com"), kind: .urlSession).decidedBy
            #expect(reason.contains { $0.rule.contains("ignored on iOS 10+") && $0.line == 1 })
        }
    }

    @Test func mediaAndWebContentKeysOpenOnlyTheirKindFromIOS10() throws {
        let config = try configuration("<key>NSAllowsArbitraryLoadsForMedia</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><true/>")
        #expect(http(config, .ios10, "example.com", .media))
        #expect(http(config, .ios10, "example.com", .webView))
        #expect(!http(config, .ios10, "example.com", .urlSession))
        #expect(!http(config, .ios9, "example.com", .media), "iOS 9 knows none of these keys")
        let misspelled = try configuration("<key>NSAllowsArbitraryLoadsInMedia</key><true/>")
        #expect(!http(misspelled, .ios17, "example.com", .media), "NSAllowsArbitraryLoadsInMedia is not a key the system reads")
    }

    @Test func aMatchingExceptionDomainOverridesEveryGlobalKeyEvenWhenEmpty() throws {
        let config = try configuration(
            "<key>NSAllowsArbitraryLoads</key><true/><key>NSExceptionDomains</key><dict><key>example.com</key><dict/></dict>")
        #expect(!http(config, .ios9, "example.com"))
        #expect(http(config, .ios9, "other.com"))
    }

    /// Subdomains are matched as Apple's reader matches them, every parent label
    /// walked (the page says one label: an open question says which was followed).
    @Test func matchingIsExactLowercaseWithSubdomainsAtAnyDepthAndNoWildcards() throws {
        let config = try configuration("""
            <key>NSExceptionDomains</key><dict>
            <key>example.com</key><dict><key>NSIncludesSubdomains</key><true/><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            <key>Upper.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            <key>*.wild.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            </dict>
            """)
        #expect(http(config, .ios17, "example.com"))
        #expect(http(config, .ios17, "api.example.com"))
        #expect(http(config, .ios17, "a.b.example.com"), "Apple's reader walks every parent label")
        let deep = PolicyEngine.decide(config, era: .ios17, host: Host("a.b.example.com"), kind: .urlSession)
        #expect(deep.openQuestions.contains { $0.contains("one additional path component") && $0.contains("sec_protocol_configuration_find_exception_for_host") })
        #expect(!http(config, .ios17, "upper.com"), "a key with capitals matches nothing")
        #expect(!http(config, .ios17, "x.wild.com"), "wildcard keys match nothing")
    }

    @Test func deprecatedExceptionSpellingsReadAsTheirTwins() throws {
        let config = try configuration("""
            <key>NSExceptionDomains</key><dict><key>example.com</key><dict>
            <key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/>
            <key>NSThirdPartyExceptionMinimumTLSVersion</key><string>TLSv1.0</string>
            <key>NSTemporaryExceptionRequiresForwardSecrecy</key><false/>
            </dict></dict>
            """)
        let decision = PolicyEngine.decide(config, era: .ios14, host: Host("example.com"), kind: .urlSession)
        #expect(decision.httpAllowed)
        #expect(decision.minimumTLS == "TLSv1.0")
        #expect(!decision.requiresForwardSecrecy)
    }

    @Test func localHostsFollowEachEra() throws {
        let none = try configuration("")
        for host in ["printer.local", "devbox", "192.168.1.4"] {
            #expect(!http(none, .ios9, host), "iOS 9 applies ATS to \(host)")
            #expect(http(none, .ios10, host) && http(none, .ios14, host), "iOS 10–16 do not apply ATS to \(host)")
        }
        #expect(http(none, .ios17, "printer.local"))
        #expect(!http(none, .ios17, "192.168.1.4"))
        // Documented (NSAllowsLocalNetworking), so no open question.
        #expect(PolicyEngine.decide(none, era: .ios17, host: Host("192.168.1.4"), kind: .urlSession).openQuestions.isEmpty)
        let local = try configuration("<key>NSAllowsLocalNetworking</key><true/>")
        #expect(http(local, .ios17, "192.168.1.4"))
        #expect(!http(local, .ios9, "192.168.1.4"), "iOS 9 does not know NSAllowsLocalNetworking")
    }

    @Test func ipExceptionKeysCountFromIOS17() throws {
        let config = try configuration(
            "<key>NSExceptionDomains</key><dict><key>10.0.0.0/8</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><false/><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string></dict></dict>")
        let ios17 = PolicyEngine.decide(config, era: .ios17, host: Host("10.1.2.3"), kind: .urlSession)
        #expect(ios17.minimumTLS == "TLSv1.3")
        #expect(!ios17.openQuestions.contains { $0.contains("TLSv1.3") }, "TLSv1.3 is one of Apple's listed values")
        #expect(PolicyEngine.decide(config, era: .ios14, host: Host("10.1.2.3"), kind: .urlSession).minimumTLS == nil)
    }

    @Test func certificateTransparencyFromIOS10AndPinsFromIOS14() throws {
        let config = try configuration("""
            <key>NSExceptionDomains</key><dict><key>bank.example</key><dict><key>NSRequiresCertificateTransparency</key><true/></dict></dict>
            <key>NSPinnedDomains</key><dict><key>bank.example</key><dict><key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>abc=</string></dict></array></dict></dict>
            """)
        let ios9 = PolicyEngine.decide(config, era: .ios9, host: Host("bank.example"), kind: .urlSession)
        let ios10 = PolicyEngine.decide(config, era: .ios10, host: Host("bank.example"), kind: .urlSession)
        let ios14 = PolicyEngine.decide(config, era: .ios14, host: Host("bank.example"), kind: .urlSession)
        #expect(!ios9.requiresCertificateTransparency && ios10.requiresCertificateTransparency)
        #expect(ios10.pinnedLeafIdentities.isEmpty && ios14.pinnedLeafIdentities == ["abc="])
    }

    @Test func osNamesMapToEras() {
        #expect(OSEra(os: "ios9") == .ios9)
        #expect(OSEra(os: "iOS13.4") == .ios12)
        #expect(OSEra(os: "ios12.1") == .ios10 && OSEra(os: "ios12.1.1") == .ios12 && OSEra(os: "tvos12.1.1") == .ios12)
        #expect(OSEra(os: "macos10.14.2") == .ios10 && OSEra(os: "macos10.14.3") == .ios12)
        #expect(OSEra(os: "ipados15") == .ios14)
        #expect(OSEra(os: "tvos17") == .ios17)
        #expect(OSEra(os: "visionos1") == .ios17)
        #expect(OSEra(os: "macos10.11") == .ios9)
        #expect(OSEra(os: "macos10.15") == .ios12)
        #expect(OSEra(os: "macos10.12") == .ios10)
        #expect(OSEra(os: "macos11") == .ios14)
        #expect(OSEra(os: "macos14") == .ios17)
        #expect(OSEra(os: "ios8") == nil && OSEra(os: "android") == nil)
    }

    @Test func deltaLinesNameErasHostsAndKinds() throws {
        let before = try configuration("<key>NSAllowsArbitraryLoads</key><true/>")
        let after = try configuration("<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><true/>")
        #expect(PolicyDelta.lines(before: before, after: after) == [
            "iOS 10+/macOS 10.12+: HTTP to any other host (all loads): allowed → blocked; minimum TLS: not enforced → TLSv1.2; forward secrecy: not required → required",
        ])
        #expect(PolicyDelta.lines(before: before, after: before) == ["no policy change"])
    }
}

/// IP exception keys: addresses compared by value, IPv4 and IPv6 ranges, read from
/// iOS 17/macOS 14 only, and said when ignored.
@Suite struct AddressKeyTests {
    func configuration(_ keys: [String]) throws -> ATSConfiguration {
        let entries = keys.map { "<key>\($0)</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>" }.joined()
        let text = "<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>\(entries)</dict></dict></dict></plist>"
        return ATSConfiguration(document: try PlistDocument(parsing: text))
    }

    func allowed(_ config: ATSConfiguration, _ host: String, _ era: OSEra = .ios17) -> Bool {
        PolicyEngine.decide(config, era: era, host: Host(host), kind: .urlSession).httpAllowed
    }

    @Test func ipv6KeysMatchTheSameAddressWhateverItsSpelling() throws {
        let config = try configuration(["2001:db8::1"])
        #expect(allowed(config, "2001:db8:0::1"))
        #expect(allowed(config, "2001:0db8:0000:0000:0000:0000:0000:0001"))
        #expect(!allowed(config, "2001:db8::2"))
    }

    @Test func ipv4AndIPv6RangesMatchTheirAddresses() throws {
        let config = try configuration(["2001:db8:12::/48", "10.0.0.0/8"])
        #expect(allowed(config, "2001:db8:12:ff::7"))
        #expect(!allowed(config, "2001:db8:13::1"))
        #expect(allowed(config, "10.200.3.4"))
        #expect(!allowed(config, "11.0.0.1"))
        #expect(!allowed(config, "::ffff:10.0.0.1") || allowed(config, "10.0.0.1"), "a mapped address is the IPv4 one")
    }

    @Test func addressKeysAreIgnoredBeforeIOS17AndTheReasonsSaySo() throws {
        let config = try configuration(["2001:db8:12::/48"])
        let decision = PolicyEngine.decide(config, era: .ios14, host: Host("2001:db8:12::1"), kind: .urlSession)
        #expect(decision.decidedBy.contains { $0.key == "NSExceptionDomains › 2001:db8:12::/48" && $0.rule.contains("from iOS 17/macOS 14") })
    }

    @Test func malformedAddressesAreNotAddresses() {
        #expect(Host("2001:db8::1::2").isIPAddress == false)
        #expect(Host("api.example.com:8443").isIPAddress == false, "a port is not an IPv6 literal")
        #expect(Host("256.1.1.1").isIPAddress == false)
        #expect(Host("::1").isIPAddress && Host("::ffff:192.0.2.1").isIPAddress)
    }

    @Test func hostInputNeverFailsOpen() {
        #expect(HostInput("api.example.com:8443") == HostInput.init(host: "api.example.com", notes: ["port 8443 dropped: ATS settings do not depend on the port"]))
        #expect(HostInput("http://user@API.example.com:80/path?q")?.host == "api.example.com")
        #expect(HostInput("[2001:db8::1]:443")?.host == "2001:db8::1")
        #expect(HostInput("2001:db8::1")?.notes == [])
        for bad in ["not a host!", "http://", "example.com:http", "a..b", "-bad.example", "[::1]x", ""] {
            #expect(HostInput(bad) == nil, "\(bad)")
        }
    }
}

extension HostInput {
    init(host: String, notes: [String]) {
        self = HostInput("x")!
        self.host = host
        self.notes = notes
        asWritten = host
    }
}

/// Open questions are said where Apple is silent, and one decision has one chain of reasons.
@Suite struct OpenQuestionTests {
    func decide(_ atsBody: String, _ host: String, _ era: OSEra = .ios17) throws -> Decision {
        let text = "<plist><dict><key>NSAppTransportSecurity</key><dict>\(atsBody)</dict></dict></plist>"
        return PolicyEngine.decide(ATSConfiguration(document: try PlistDocument(parsing: text)), era: era, host: Host(host), kind: .urlSession)
    }

    @Test func arbitraryLoadsOnAnIPHostIsOneChain() throws {
        let decision = try decide("<key>NSAllowsArbitraryLoads</key><true/>", "192.168.1.4")
        #expect(decision.httpAllowed)
        #expect(decision.decidedBy.map(\.rule) == ["turns ATS off",
            "Apple's CT policy: publicly trusted server certificates issued after October 15, 2018 must meet it to be trusted (a private CA's certificates are not publicly trusted)"])
        #expect(decision.openQuestions.isEmpty)
    }

    @Test func whereAppleIsSilentTheOutputSaysSo() throws {
        let domains = { (entries: String) in "<key>NSExceptionDomains</key><dict>\(entries)</dict>" }
        let cases: [(String, String, String)] = [
            (domains("<key>API.Example.com</key><dict/>"), "api.example.com", "breaks Apple's rules for keys"),
            (domains("<key>*.example.com</key><dict/>"), "a.example.com", "breaks Apple's rules for keys"),
            (domains("<key>example.com:8443</key><dict/>"), "example.com", "breaks Apple's rules for keys"),
            (domains("<key>example.com</key><dict><key>NSIncludesSubdomains</key><true/></dict>"),
             "a.b.example.com", "Apple's reader walks every parent label"),
            ("<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><string>YES</string>", "example.com",
             "\"with any value\", but Apple's reader counts it as absent"),
            (domains("<key>example.com</key><dict><key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/></dict>"),
             "example.com", "NSThirdPartyExceptionAllowsInsecureHTTPLoads is on no current Apple page"),
            ("<key>NSAllowsArbitraryLoadsInMedia</key><true/>", "example.com",
             "NSAllowsArbitraryLoadsInMedia is not in Apple's current reference (the documented key is NSAllowsArbitraryLoadsForMedia)"),
            ("<key>NSAllowsLocalNetworking</key><true/>", "8.8.8.8", "is a public IP address"),
            (domains("<key>printer.local</key><dict/>"), "printer.local", "names a local host that ATS would not otherwise cover"),
            ("<key>NSAllowsArbitraryLoads</key><true/><key>NSPinnedDomains</key><dict><key>example.com</key><dict>"
                + "<key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>abc=</string></dict></array></dict></dict>",
             "example.com", "whether pins are still checked"),
        ]
        for (body, host, question) in cases {
            let decision = try decide(body, host)
            #expect(decision.openQuestions.contains { $0.contains(question) }, "\(body) \(host): \(decision.openQuestions)")
        }
        #expect(try decide(domains("<key>example.com</key><dict/>"), "example.com").openQuestions.isEmpty, "a plain entry is documented")
        // Only IP addresses changed in iOS 17, so .local and unqualified hosts raise no question there.
        for host in ["printer.local", "devbox"] {
            let decision = try decide("", host, .ios17)
            #expect(decision.openQuestions.isEmpty && decision.httpAllowed, "\(host): \(decision.openQuestions)")
            #expect(decision.decidedBy.contains { $0.rule.contains("ATS no longer allows connections to IP addresses by default") })
        }
    }
}

extension OpenQuestionTests {
    @Test func keysAnOSDoesNotReadAreNamedInTheReasons() throws {
        let media = try decide("<key>NSAllowsArbitraryLoadsForMedia</key><true/>", "example.com", .ios9)
        #expect(media.decidedBy.contains { $0.key == "NSAllowsArbitraryLoadsForMedia" && $0.rule.hasPrefix("not read on iOS 9") })
        let pins = try decide("<key>NSPinnedDomains</key><dict><key>example.com</key><dict/></dict>", "example.com", .ios12)
        #expect(pins.decidedBy.contains { $0.key == "NSPinnedDomains" && $0.rule.hasPrefix("not read before iOS 14") })
    }
}
