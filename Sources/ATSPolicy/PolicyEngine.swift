/// The effective ATS policy for one host, OS era and kind of load, and why.
public struct Decision: Sendable, Equatable, Codable {
    public struct Reason: Sendable, Equatable, Codable {
        public var key: String
        public var line: Int?
        public var rule: String
    }

    public var httpAllowed: Bool
    /// `nil` when ATS does not apply (arbitrary loads, or a local host it does not cover).
    public var minimumTLS: String?
    public var requiresForwardSecrecy: Bool
    public var requiresCertificateTransparency: Bool
    public var pinnedCAIdentities: [String] = []
    public var pinnedLeafIdentities: [String] = []
    public var decidedBy: [Reason] = []
    /// Cases Apple's documentation leaves open, said rather than guessed.
    public var openQuestions: [String] = []

    /// Whether two decisions give the same policy (their explanations may differ).
    public func samePolicy(as other: Decision) -> Bool {
        httpAllowed == other.httpAllowed && minimumTLS == other.minimumTLS
            && requiresForwardSecrecy == other.requiresForwardSecrecy
            && requiresCertificateTransparency == other.requiresCertificateTransparency
            && pinnedCAIdentities == other.pinnedCAIdentities && pinnedLeafIdentities == other.pinnedLeafIdentities
    }

    /// The policy's values in `PolicyDelta.fields` order (what deltas compare and print).
    var policyValues: [String] {
        [
            httpAllowed ? "allowed" : "blocked",
            minimumTLS ?? "not enforced",
            requiresForwardSecrecy ? "required" : "not required",
            requiresCertificateTransparency ? "required" : "not required",
            pinnedCAIdentities.isEmpty ? "none" : pinnedCAIdentities.joined(separator: ", "),
            pinnedLeafIdentities.isEmpty ? "none" : pinnedLeafIdentities.joined(separator: ", "),
        ]
    }

    /// The policy itself, without the explanation.
    public var policy: [String: String] {
        [
            "HTTP": httpAllowed ? "allowed" : "blocked",
            "minimum TLS": minimumTLS ?? "not enforced",
            "forward secrecy": requiresForwardSecrecy ? "required" : "not required",
            "certificate transparency": requiresCertificateTransparency ? "required" : "not required",
            "pinned CA identities": pinnedCAIdentities.isEmpty ? "none" : pinnedCAIdentities.joined(separator: ", "),
            "pinned leaf identities": pinnedLeafIdentities.isEmpty ? "none" : pinnedLeafIdentities.joined(separator: ", "),
        ]
    }

    enum CodingKeys: String, CodingKey {
        case httpAllowed, minimumTLS, requiresForwardSecrecy, requiresCertificateTransparency, pinnedCAIdentities,
            pinnedLeafIdentities, decidedBy, openQuestions, atsApplies
    }

    /// Every field is written, `minimumTLS` as `null` where ATS does not apply, with
    /// `atsApplies` saying so: a reader never has to infer "not enforced" from a missing field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(httpAllowed, forKey: .httpAllowed)
        try container.encode(minimumTLS, forKey: .minimumTLS)
        try container.encode(minimumTLS != nil, forKey: .atsApplies)
        try container.encode(requiresForwardSecrecy, forKey: .requiresForwardSecrecy)
        try container.encode(requiresCertificateTransparency, forKey: .requiresCertificateTransparency)
        try container.encode(pinnedCAIdentities, forKey: .pinnedCAIdentities)
        try container.encode(pinnedLeafIdentities, forKey: .pinnedLeafIdentities)
        try container.encode(decidedBy, forKey: .decidedBy)
        try container.encode(openQuestions, forKey: .openQuestions)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        httpAllowed = try container.decode(Bool.self, forKey: .httpAllowed)
        minimumTLS = try container.decodeIfPresent(String.self, forKey: .minimumTLS)
        requiresForwardSecrecy = try container.decode(Bool.self, forKey: .requiresForwardSecrecy)
        requiresCertificateTransparency = try container.decode(Bool.self, forKey: .requiresCertificateTransparency)
        pinnedCAIdentities = try container.decodeIfPresent([String].self, forKey: .pinnedCAIdentities) ?? []
        pinnedLeafIdentities = try container.decodeIfPresent([String].self, forKey: .pinnedLeafIdentities) ?? []
        decidedBy = try container.decodeIfPresent([Reason].self, forKey: .decidedBy) ?? []
        openQuestions = try container.decodeIfPresent([String].self, forKey: .openQuestions) ?? []
    }

    public init(httpAllowed: Bool, minimumTLS: String?, requiresForwardSecrecy: Bool, requiresCertificateTransparency: Bool) {
        self.httpAllowed = httpAllowed
        self.minimumTLS = minimumTLS
        self.requiresForwardSecrecy = requiresForwardSecrecy
        self.requiresCertificateTransparency = requiresCertificateTransparency
    }

    static let atsDefaults = Decision(
        httpAllowed: false, minimumTLS: "TLSv1.2", requiresForwardSecrecy: true, requiresCertificateTransparency: false)
    static let atsOff = Decision(
        httpAllowed: true, minimumTLS: nil, requiresForwardSecrecy: false, requiresCertificateTransparency: false)
}

/// Apple's documented ATS rules, one function per decision step. Each rule quotes the key page
/// it comes from (developer.apple.com, Bundle Resources › Information Property List ›
/// NSAppTransportSecurity › KEY) word for word, or says it is an inference and why.
public enum PolicyEngine {
    public static func decide(_ config: ATSConfiguration, era: OSEra, host: Host, kind: LoadKind) -> Decision {
        decide(config, era: era, host: host, kinds: [kind])[0]
    }

    /// The decisions for every load kind, in `LoadKind.allCases` order (matching done once).
    public static func decideAllKinds(_ config: ATSConfiguration, era: OSEra, host: Host) -> [Decision] {
        decide(config, era: era, host: host, kinds: LoadKind.allCases)
    }

    static func decide(_ config: ATSConfiguration, era: OSEra, host: Host, kinds: [LoadKind]) -> [Decision] {
        decide(Indexed(config), era: era, host: host, kinds: kinds)
    }

    /// Decides for one configuration whose domain rules are indexed once: for asking about many
    /// hosts (each question costs the same however many domains are listed).
    public struct Decider: Sendable {
        let indexed: Indexed

        public init(_ config: ATSConfiguration) {
            indexed = Indexed(config)
        }

        /// The decisions for `kinds`, in that order (the host is matched once).
        public func decide(era: OSEra, host: Host, kinds: [LoadKind]) -> [Decision] {
            PolicyEngine.decide(indexed, era: era, host: host, kinds: kinds)
        }

        /// The policies alone (`decidedBy` and `openQuestions` left empty): much cheaper, for
        /// callers that explain only the decisions they keep.
        public func policies(era: OSEra, host: Host, kinds: [LoadKind]) -> [Decision] {
            PolicyEngine.decide(indexed, era: era, host: host, kinds: kinds, explaining: false)
        }
    }

    /// A configuration with its domain rules indexed once, for many decisions. A class: it is
    /// passed around a great deal, and a copy of its fields costs a retain each.
    final class Indexed: Sendable {
        let config: ATSConfiguration
        let exceptions: DomainRuleIndex
        let pins: DomainRuleIndex
        /// The `laterKeys` the dict holds, in that order, with their lines: asked on every
        /// global decision, so looked up once.
        let laterKeysPresent: [(key: String, line: Int)]
        let holdsInMediaKey: Bool
        let pinnedDomainsLine: Int?

        init(_ config: ATSConfiguration) {
            self.config = config
            exceptions = DomainRuleIndex(config.exceptionDomains)
            pins = DomainRuleIndex(config.pinnedDomains)
            // Present as Apple's reader counts presence (a `<string>YES</string>` is absent to it;
            // `unreadGlobalKeys` says so).
            laterKeysPresent = config.laterKeySettings.map { ($0.key, $0.line) }
            holdsInMediaKey = config.keyLines["NSAllowsArbitraryLoadsInMedia"] != nil
            pinnedDomainsLine = config.keyLines["NSPinnedDomains"]
        }
    }

    /// - Parameter explaining: `false` leaves `decidedBy` and `openQuestions` empty, for callers
    ///   that compare policies only (policy deltas); the policy is the same either way.
    static func decide(_ indexed: Indexed, era: OSEra, host: Host, kinds: [LoadKind], explaining: Bool = true) -> [Decision] {
        var notes: [String] = []
        var ignored: [Decision.Reason] = []
        let rule = indexed.exceptions.matchingRule(host: host, era: era, notes: &notes, ignored: &ignored, explaining: explaining)
        if explaining {
            for skipped in indexed.config.skippedDomainEntries where skipped.key == "NSExceptionDomains › \(host.name)" {
                ignored.append(.init(key: skipped.key, line: skipped.line, rule: "not read: it is \(skipped.written), not a dict, and "
                    + "Apple's reader skips such an entry, so the global keys decide for this host "
                    + "(SecProtocolConfiguration.m, sec_protocol_configuration_set_ats_overrides)"))
            }
        }
        var pinNotes: [String] = []
        // NSPinnedDomains: its page's availability is iOS 14.0+/macOS 11.0+; that pins apply
        // to matching hosts whatever the exception domains say is an inference (the two
        // dictionaries are separate keys).
        let pins = era >= .ios14
            ? indexed.pins.matchingRule(host: host, era: era, notes: &pinNotes, ignored: &ignored, explaining: explaining) : nil
        if explaining, era < .ios14, let line = indexed.pinnedDomainsLine {
            ignored.append(.init(key: "NSPinnedDomains", line: line, rule: "not read before iOS 14/macOS 11 (its page's availability)"))
        }
        // An exception domain's policy does not depend on the kind of load: built once. Apple's
        // built-in exceptions (apple.com…) decide where they are nearer the host than the app's
        // own entry, and the app has no key of the same name (which would replace them).
        var exception = rule.map { exceptionPolicy($0, era: era, explaining: explaining) }
        if let builtIn = BuiltInExceptions.match(host, appHasKey: indexed.exceptions.hasNameKey),
            rule.map({ $0.matcher == .name && BuiltInExceptions.depth(of: $0.key, above: host) > builtIn.depth }) ?? true
        {
            exception = BuiltInExceptions.policy(builtIn.entry, era: era, explaining: explaining)
        }
        return kinds.map { kind in
            var decision = exception ?? globalPolicy(indexed, era: era, host: host, kind: kind, explaining: explaining)
            certificateTransparency(&decision, era: era)
            if let pins {
                decision.pinnedCAIdentities = pins.pinnedCAIdentities
                decision.pinnedLeafIdentities = pins.pinnedLeafIdentities
            }
            guard explaining else { return decision }
            // The explanation, in the order the steps above were taken.
            decision.openQuestions += notes
            decision.decidedBy += ignored
            decision.decidedBy.append(contentsOf: certificateTransparencyReasons(era: era))
            if let pins {
                decision.decidedBy.append(.init(key: "NSPinnedDomains › \(pins.key)", line: pins.line, rule: "pins identities for this host"))
                decision.openQuestions += pinNotes
                if decision.minimumTLS == nil {
                    decision.openQuestions.append("NSPinnedDomains › \(pins.key) while ATS does not apply to this load: Apple does not "
                        + "document whether pins are still checked; they are listed as if they were")
                }
            }
            if let rule, host.isLocal, era >= .ios10, era < .ios17 || !host.isIPAddress {
                decision.openQuestions.append("NSExceptionDomains › \(rule.key) names a local host that ATS would not otherwise "
                    + "cover on this OS: Apple does not document whether the entry then applies; it is applied")
            }
            return decision
        }
    }

    /// Apple's Certificate Transparency policy (support.apple.com/103214): "Publicly trusted
    /// Transport Layer Security (TLS) server authentication certificates must meet Apple's
    /// Certificate Transparency (CT) policy to be evaluated as trusted on Apple platforms."
    /// Enforced, per Apple's announcement of it, "starting in iOS 12.1.1" for certificates
    /// "issued after October 15, 2018"; the era's macOS bound (10.14.3) and tvOS 12.1.1 follow
    /// the issue's reading of that announcement (inference: the stored copy names iOS only).
    /// It is a trust policy, not an ATS setting: it holds whether or not ATS is on, and for a
    /// certificate from a private CA (not publicly trusted) it does not apply.
    /// (`certificateTransparencyReasons` says why.)
    static func certificateTransparency(_ decision: inout Decision, era: OSEra) {
        if era >= .ios12 { decision.requiresCertificateTransparency = true }
    }

    /// Why `certificateTransparency` requires CT on `era` (nothing before iOS 12.1.1).
    static func certificateTransparencyReasons(era: OSEra) -> [Decision.Reason] {
        guard era >= .ios12 else { return [] }
        return [.init(key: "(iOS 12.1.1+)", line: nil,
            rule: "Apple's CT policy: publicly trusted server certificates issued after October 15, 2018 must meet it "
                + "to be trusted (a private CA's certificates are not publicly trusted)")]
    }

    /// NSExceptionDomains: "Use lowercase — Use `example.com`, not `EXAMPLE.COM`." That a key
    /// breaking this rule (or holding a wildcard or a port) matches nothing is an inference, and
    /// said as an open question. IP addresses and ranges: "In iOS 17, iPadOS 17, and macOS 14, you
    /// can use an IPv4 address … or an IPv6 address"; "You can also use a classless inter-domain
    /// routing (CIDR) range".
    ///
    /// Which entry decides, where the pages are silent, follows Apple's reader (Security,
    /// `protocol/SecProtocolConfiguration.m`): for a name, the entry for the host itself, else
    /// the nearest parent whose entry has NSIncludesSubdomains, walking every label
    /// (`sec_protocol_configuration_find_exception_for_host`; the NSIncludesSubdomains page says
    /// one label, so a deeper match carries an open question); for an address, the entry for the
    /// address itself, else the range with the longest prefix (`…find_exception_for_address`,
    /// `_find_cidr_exception`). With duplicate keys the last one written is the one read.
    /// This scan is the reference `DomainRuleIndex` must agree with.
    static func matchingRule(
        _ rules: [ATSConfiguration.DomainRule], host: Host, era: OSEra, notes: inout [String], ignored: inout [Decision.Reason]
    ) -> ATSConfiguration.DomainRule? {
        var exactAddress: ATSConfiguration.DomainRule?
        var range: ATSConfiguration.DomainRule?
        for rule in rules {
            switch rule.matcher {
            case .nothing, .name:
                continue
            case .resolvedAtBuildTime:
                notes.append(buildTimeNote(rule, host: host))
            case .address(let network, let prefix):
                guard let address = host.address, address.isIn(network, prefix: prefix) else { continue }
                let isRange = rule.key.utf8.contains(UInt8(ascii: "/"))
                guard isRange || host.isNamedExactly(byAddressKey: rule.key) else { continue }
                guard era >= .ios17 else {
                    ignored.append(addressTooEarly(rule, host: host))
                    continue
                }
                if !isRange { exactAddress = rule }
                else if case .address(_, let best)? = range?.matcher, best > prefix {}
                else {
                    if let other = range, case .address(_, let best) = other.matcher, best == prefix {
                        notes.append(equalRangesNote(other, rule, host: host))
                    }
                    range = rule
                }
            }
        }
        for rule in rules where rule.matcher == .nothing {
            let meant = rule.meantHost
            if meant == host.name || (rule.key.hasPrefix("*.") && host.name.hasSuffix("." + meant)) {
                notes.append(unmatchedKeyNote(rule, host: host))
            }
        }
        if host.isIPAddress { return exactAddress ?? range }
        // Apple's reader looks the text it is given up among every key as written: a host taken
        // as written finds a key this tool counts as matching nothing (`Example.org`) by its text.
        func named(_ name: Substring) -> ATSConfiguration.DomainRule? {
            rules.last { ($0.matcher == .name || (host.isAsWritten && $0.matcher == .nothing)) && $0.key.utf8.elementsEqual(name.utf8) }
        }
        if let exact = named(Substring(host.name)) { return exact }
        var suffix = Substring(host.name), depth = 0
        while let dot = suffix.utf8.firstIndex(of: UInt8(ascii: ".")) {
            suffix = suffix[suffix.index(after: dot)...]
            depth += 1
            if let parent = named(suffix), parent.includesSubdomains?.value == true {
                if depth > 1 { notes.append(deepSubdomainNote(parent, host: host)) }
                return parent
            }
        }
        return nil
    }

    static func buildTimeNote(_ rule: ATSConfiguration.DomainRule, host: Host) -> String {
        "\(rule.key) (line \(rule.line)) is a build setting resolved when the app is built; "
            + "if it names \(host.name), that entry decides instead"
    }

    static func deepSubdomainNote(_ rule: ATSConfiguration.DomainRule, host: Host) -> String {
        "\(rule.key) (line \(rule.line)) covers \(host.name), more than one label below it: Apple's NSIncludesSubdomains page "
            + "speaks of subdomains \"that have one additional path component\", while Apple's reader walks every parent label "
            + "(Security, SecProtocolConfiguration.m, sec_protocol_configuration_find_exception_for_host); the reader is followed"
    }

    /// Two ranges of one prefix length cover the host: Apple's reader keeps the longest prefix
    /// it meets while visiting the dictionary, whose order is unspecified.
    static func equalRangesNote(_ earlier: ATSConfiguration.DomainRule, _ later: ATSConfiguration.DomainRule, host: Host) -> String {
        "NSExceptionDomains › \(earlier.key) (line \(earlier.line)) and \(later.key) (line \(later.line)) both cover \(host.name) "
            + "with the same prefix length: Apple's reader keeps the longest prefix it meets while visiting the dictionary, "
            + "in no documented order (SecProtocolConfiguration.m, _find_cidr_exception, over xpc_dictionary_apply); "
            + "the later key is taken here"
    }

    static func addressTooEarly(_ rule: ATSConfiguration.DomainRule, host: Host) -> Decision.Reason {
        .init(key: "NSExceptionDomains › \(rule.key)", line: rule.line,
              rule: "covers \(host.name) but is not read here: IP addresses and ranges are exception keys from iOS 17/macOS 14")
    }

    static func unmatchedKeyNote(_ rule: ATSConfiguration.DomainRule, host: Host) -> String {
        if !rule.key.contains("/"), let address = IPAddress(rule.key), address.text != rule.key {
            return "NSExceptionDomains › \(rule.key) (line \(rule.line)) is the address \(address.text) written otherwise: "
                + "Apple's reader looks address keys up by the text the system writes (SecProtocolConfiguration.m, "
                + "sec_protocol_configuration_find_exception_for_address), so it matches nothing"
        }
        return "NSExceptionDomains › \(rule.key) (line \(rule.line)) seems meant for \(host.name), but breaks "
            + "Apple's rules for keys (lowercase, no wildcard, no port); Apple does not document what the system does "
            + "with it, so it is counted as matching nothing"
    }

    static let documentedTLSVersions: Set = ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]
    static let laterKeys = ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking"]

    /// A matching NSExceptionDomains entry: the global keys' pages say "Domains you specify in
    /// that dictionary aren't affected by this key's value." Its own settings start from ATS's
    /// defaults (HTTPS, TLS 1.2, forward secrecy): inference from the exception keys' pages,
    /// each of which relaxes one of them.
    static func exceptionPolicy(_ rule: ATSConfiguration.DomainRule, era: OSEra, explaining: Bool = true) -> Decision {
        var decision = Decision.atsDefaults
        if let http = rule.allowsInsecureHTTP { decision.httpAllowed = http.value }
        if let tls = rule.minimumTLS, documentedTLSVersions.contains(tls.value) { decision.minimumTLS = tls.value }
        if let secrecy = rule.requiresForwardSecrecy { decision.requiresForwardSecrecy = secrecy.value }
        // NSRequiresCertificateTransparency, Apple's key page: "Earlier versions of the system used
        // this key to enable or disable CT for a given domain." "The system now requires this
        // behavior in all cases, making the key irrelevant." From iOS 12.1.1 `certificateTransparency`
        // decides; before, the key decides where the system reads it (see `explainException` for
        // iOS 9).
        if era == .ios10, let ct = rule.requiresCertificateTransparency { decision.requiresCertificateTransparency = ct.value }
        if explaining { explainException(&decision, rule, era: era) }
        return decision
    }

    /// Why `exceptionPolicy` decided as it did: each key of the rule, in the order Apple's
    /// pages are read above, with the cases they leave open.
    private static func explainException(_ decision: inout Decision, _ rule: ATSConfiguration.DomainRule, era: OSEra) {
        decision.decidedBy.append(.init(key: "NSExceptionDomains › \(rule.key)", line: rule.line,
                                        rule: "a matching exception domain overrides the global keys"))
        if let http = rule.allowsInsecureHTTP {
            decision.decidedBy.append(.init(key: http.key, line: http.line, rule: (http.value
                ? "allows insecure HTTP loads for this domain" : "keeps insecure HTTP loads blocked for this domain") + numberNote(http)))
        }
        if let tls = rule.minimumTLS, !documentedTLSVersions.contains(tls.value) {
            decision.decidedBy.append(.init(key: tls.key, line: tls.line, rule: "\"\(tls.value)\" is not a documented value"))
            decision.openQuestions.append("\(tls.key) \"\(tls.value)\" is not one of Apple's values; assumed ignored (the default TLSv1.2 applies)")
        } else if let tls = rule.minimumTLS {
            decision.decidedBy.append(.init(key: tls.key, line: tls.line, rule: "minimum TLS version for this domain"))
        }
        let keys = [rule.allowsInsecureHTTP?.key, rule.minimumTLS?.key, rule.requiresForwardSecrecy?.key].compactMap { $0 }
        for key in keys where ATSConfiguration.isLegacyKey(key) {
            decision.openQuestions.append("\(key) is on no current Apple page, and Apple's open reader (SecProtocolConfiguration.m) "
                + "never reads it: read here as its NSException… twin (the twin wins when both are present); "
                + "where the OS ignores it, the entry's ATS default applies")
        }
        if let secrecy = rule.requiresForwardSecrecy {
            decision.decidedBy.append(.init(key: secrecy.key, line: secrecy.line, rule: (secrecy.value
                ? "requires forward secrecy for this domain" : "does not require forward secrecy for this domain") + numberNote(secrecy)))
        }
        if let ct = rule.requiresCertificateTransparency {
            switch era {
            case .ios9:
                decision.decidedBy.append(.init(key: ct.key, line: ct.line, rule: "not counted on iOS 9/macOS 10.11 (see the open question)"))
                decision.openQuestions.append("\(ct.key) on iOS 9/macOS 10.11: the key page lists iOS 9.0 as available, "
                    + "but Apple does not document what it did there; CT is counted as not required")
            case .ios10:
                decision.decidedBy.append(.init(key: ct.key, line: ct.line, rule: ct.value
                    ? "requires certificate transparency for this domain" : "does not require certificate transparency for this domain"))
            case .ios12, .ios14, .ios17:
                decision.decidedBy.append(.init(key: ct.key, line: ct.line,
                    rule: "ignored: obsolete, \"the system now requires this behavior in all cases, making the key irrelevant\""))
            }
        }
    }

    /// ` (integer 1, read as YES by Apple's reader …)` for a Boolean written as a number.
    static func numberNote(_ setting: ATSConfiguration.Setting<Bool>) -> String {
        guard let number = setting.writtenAsNumber else { return "" }
        return " (\(number), read as \(setting.value ? "YES" : "NO") by Apple's reader: SecProtocolConfiguration.m, "
            + "sec_protocol_configuration_set_ats_overrides, takes any number, YES when it equals 1)"
    }

    static func globalPolicy(_ indexed: Indexed, era: OSEra, host: Host, kind: LoadKind, explaining: Bool = true) -> Decision {
        let config = indexed.config
        // NSAllowsArbitraryLoads page: "Set this key's value to YES to disable App Transport
        // Security (ATS) restrictions for all domains not specified in the NSExceptionDomains
        // dictionary." NSAllowsArbitraryLoadsInWebContent page: "In iOS 10 and later and in macOS
        // 10.12 and later, if you include this key with any value, then App Transport Security
        // ignores the value of the NSAllowsArbitraryLoads" key; the ForMedia and LocalNetworking
        // pages say the same of themselves (inference for those two: the stored copies break off
        // before that paragraph).
        let overriding = era >= .ios10 ? indexed.laterKeysPresent.first?.key : nil
        var arbitrary = false
        var reasons: [Decision.Reason] = []
        var questions: [String] = []
        if let setting = config.allowsArbitraryLoads {
            if let overriding {
                if explaining {
                    reasons.append(.init(key: setting.key, line: setting.line,
                                         rule: "ignored on iOS 10+/macOS 10.12+ because \(overriding) is present"))
                }
            } else {
                arbitrary = setting.value
                if explaining {
                    reasons.append(.init(key: setting.key, line: setting.line,
                                         rule: (setting.value ? "turns ATS off" : "keeps ATS on") + numberNote(setting)))
                }
            }
        }
        if explaining {
            // Apple's reader (SecProtocolConfiguration.m, sec_protocol_configuration_set_ats_overrides)
            // takes only a number for these keys; anything else is as if absent.
            for unread in config.unreadGlobalKeys {
                reasons.append(.init(key: unread.key, line: unread.line, rule: "not read: it holds \(unread.written), and Apple's "
                    + "reader takes only a Boolean or number here (SecProtocolConfiguration.m, sec_protocol_configuration_set_ats_overrides)"))
                if laterKeys.contains(unread.key), config.allowsArbitraryLoads?.value == true, era >= .ios10, overriding == nil {
                    questions.append("\(unread.key) holds \(unread.written): its page says ATS ignores NSAllowsArbitraryLoads when the "
                        + "key is present \"with any value\", but Apple's reader counts it as absent unless it is a Boolean or number "
                        + "(SecProtocolConfiguration.m, sec_protocol_configuration_tls_required); the reader is followed, so "
                        + "NSAllowsArbitraryLoads is counted as in effect")
                }
            }
        }
        // NSAllowsArbitraryLoadsForMedia: "Set this key’s value to YES to disable App Transport
        // Security restrictions for media loaded using the AVFoundation framework, without
        // affecting your URLSession connections"; NSAllowsArbitraryLoadsInWebContent: "exempt your app's WKWebView
        // instances from App Transport Security restrictions without affecting your URLSession
        // connections". Both iOS 10.0+/macOS 10.12+ (the pages' availability).
        if era >= .ios10 {
            let perKind: ATSConfiguration.Setting<Bool>? = switch kind {
            case .media: config.allowsArbitraryLoadsForMedia
            case .webView: config.allowsArbitraryLoadsInWebContent
            case .urlSession: nil
            }
            if let perKind, perKind.value {
                arbitrary = true
                if explaining {
                    reasons.append(.init(key: perKind.key, line: perKind.line, rule: "turns ATS off for \(kind.rawValue) loads" + numberNote(perKind)))
                }
            }
        }
        if explaining, era < .ios10 {
            // Each of these pages gives iOS 10.0/macOS 10.12 as the first release.
            for (key, line) in indexed.laterKeysPresent {
                reasons.append(.init(key: key, line: line, rule: "not read on iOS 9/macOS 10.11 (available from iOS 10/macOS 10.12)"))
            }
        }
        if explaining, indexed.holdsInMediaKey {
            questions.append("NSAllowsArbitraryLoadsInMedia is not in Apple's current reference (the documented key is "
                + "NSAllowsArbitraryLoadsForMedia): counted as not read, and as not making NSAllowsArbitraryLoads ignored")
        }
        if host.isLocal {
            var decision = localPolicy(config, era: era, host: host, arbitrary: arbitrary, reasons: reasons, explaining: explaining)
            decision.openQuestions += questions
            return decision
        }
        var decision = arbitrary ? Decision.atsOff : Decision.atsDefaults
        if explaining {
            decision.decidedBy = reasons.isEmpty
                ? [.init(key: "(none)", line: nil, rule: "ATS defaults: HTTPS with TLS 1.2 and forward secrecy")]
                : reasons
            decision.openQuestions += questions
        }
        return decision
    }

    /// NSAllowsLocalNetworking: "controls whether App Transport Security (ATS) allows your app to
    /// connect to unqualified domains, `.local` domains, and IP addresses using IPv4 or IPv6. In
    /// iOS 9 and macOS 10.11, ATS disallows connections to all three domain types." iOS 10–16 do
    /// not apply ATS to them; "In iOS 17, iPadOS 17, and macOS 14, ATS no longer allows
    /// connections to IP addresses by default": only IP addresses changed, so unqualified and
    /// `.local` hosts stay outside ATS.
    static func localPolicy(
        _ config: ATSConfiguration, era: OSEra, host: Host, arbitrary: Bool, reasons: [Decision.Reason], explaining: Bool = true
    ) -> Decision {
        var decision: Decision
        var why = reasons
        switch era {
        case .ios9:
            decision = arbitrary ? .atsOff : .atsDefaults
            why.append(.init(key: "(iOS 9)", line: nil, rule: "ATS applies to local hosts; only NSAllowsArbitraryLoads lets HTTP through"))
        case .ios10, .ios12, .ios14:
            decision = .atsOff
            why.append(.init(key: "(iOS 10–16)", line: nil, rule: "ATS does not apply to unqualified, .local or IP hosts"))
        case .ios17:
            if !host.isIPAddress {
                decision = .atsOff
                why.append(.init(key: "(iOS 17+)", line: nil, rule: "ATS does not apply to unqualified or .local hosts (only IP addresses "
                    + "changed in iOS 17: \"ATS no longer allows connections to IP addresses by default\")"))
            } else if let local = config.allowsLocalNetworking, local.value, host.isPrivateAddress {
                decision = .atsOff
                why.append(.init(key: local.key, line: local.line, rule: "allows connections to IP addresses"))
            } else if let local = config.allowsLocalNetworking, local.value {
                // A public address: Apple's reader lets NSAllowsLocalNetworking through only for a
                // "direct" connection, and its tests pass public addresses as not direct
                // (`runAllowsArbitraryLoadsOverrideTestWithATSDictionary`: 203.0.113.1, fe00::1,
                // 2001:db8::… require TLS), so it is followed.
                decision = .atsDefaults
                why.append(.init(key: local.key, line: local.line, rule: "does not cover \(host.name), a public IP address, in Apple's "
                    + "reader (a connection to it is not \"direct\"; SecProtocolConfiguration.m, "
                    + "sec_protocol_configuration_tls_required_for_host_or_address_internal)"))
                decision.openQuestions.append("\(host.name) is a public IP address: Apple's NSAllowsLocalNetworking page "
                    + "speaks of \"IP addresses using IPv4 or IPv6\" without saying whether public ones count; Apple's reader "
                    + "and its tests require TLS for them, and are followed")
            } else if arbitrary {
                // One chain of reasons: NSAllowsArbitraryLoads (or the per-kind key) turned ATS off.
                decision = .atsOff
            } else {
                decision = .atsDefaults
                why.append(.init(key: "(iOS 17+)", line: nil, rule: "connections to IP addresses are subject to ATS unless NSAllowsLocalNetworking is YES"))
                // Apple's reader lets a "direct" connection through (unless NSAllowsLocalNetworking
                // is NO), and its caller decides what is direct: its tests pass 127.0.0.1, ::1 and
                // fe80::1 as direct and other addresses as not.
                // With the key written out as NO the reader requires TLS whatever the caller says
                // (below): no question then.
                if host.isLoopbackOrLinkLocal, config.allowsLocalNetworking?.value != false {
                    decision.openQuestions.append("whether a connection to \(host.name) is \"direct\" is decided by the code that "
                        + "calls Apple's reader (its is_direct flag; Apple's tests pass loopback and link-local addresses as direct): "
                        + "a direct one is let through over HTTP; counted here as not direct, as Apple's iOS 17 page reads")
                }
            }
        }
        // NSAllowsLocalNetworking written out as NO: Apple's reader then requires TLS for local
        // hosts (`sec_protocol_configuration_tls_required_for_host_or_address_internal` lets a
        // direct connection through only while the key is not NO; Apple's test
        // `testLocalNetworkingDisabled`). Apple's page only says ATS does not cover them from
        // iOS 10, so the reader is followed and the page's silence is an open question.
        if era >= .ios10, decision.minimumTLS == nil, let local = config.allowsLocalNetworking, !local.value {
            decision = .atsDefaults
            why = reasons + [.init(key: local.key, line: local.line, rule: "NO written out: Apple's reader requires TLS for local hosts "
                + "then (SecProtocolConfiguration.m, sec_protocol_configuration_tls_required_for_host_or_address_internal; "
                + "Apple's test testLocalNetworkingDisabled)" + numberNote(local))]
            decision.openQuestions.append("\(local.key) is NO: Apple's NSAllowsLocalNetworking page says ATS does not apply to "
                + "unqualified, .local (and before iOS 17 IP) hosts, without saying what NO written out does; "
                + "Apple's open-source reader requires TLS for them, and is followed")
        }
        // Two local host classes per question: the explanation is built and then dropped.
        if explaining { decision.decidedBy = why } else { decision.openQuestions = [] }
        return decision
    }
}
