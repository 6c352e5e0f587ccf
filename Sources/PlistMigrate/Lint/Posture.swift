import ATSPolicy
import PlistDOM

/// Posture findings (P001–P005): what a file's ATS settings *allow*, computed by the policy
/// engine for every OS era the app supports and compared with what the same OS does for an app
/// with no ATS settings at all. A key that no supported era reads allows nothing and is not
/// reported; a default the OS applies anyway (forward secrecy when the key is absent, CT from
/// iOS 12.1.1) is never reported as a weakness.
enum Posture {
    /// The OS's own policy: a plist without NSAppTransportSecurity.
    static let defaults = PolicyEngine.Decider(ATSConfiguration())

    /// The OS's own policies for a host: with no settings, every public name is decided alike,
    /// so only local and IP hosts are asked each time.
    static func baseline(era: OSEra, host: Host) -> [Decision] {
        if !host.isLocal, !host.isIPAddress { return publicNameDefaults[era.rawValue] ?? [] }
        return defaults.policies(era: era, host: host, kinds: LoadKind.allCases)
    }

    static let publicNameDefaults: [Int: [Decision]] = Dictionary(uniqueKeysWithValues: OSEra.allCases.map {
        ($0.rawValue, defaults.policies(era: $0, host: unlistedHost, kinds: LoadKind.allCases))
    })

    /// The hosts that stand for a class (parsed once).
    static let unlistedHost = Host("a.unlisted-host.invalid")
    static let localName = Host("printer.local")
    static let unqualifiedName = Host("printer")
    static let localAddress = Host("192.168.0.10")

    /// One scope the engine is asked about: a class of host, and the rule that names it.
    struct Scope {
        enum Kind { case everywhere, domain, local, pinned }
        var kind: Kind
        /// `every host without an exception`, `api.example.com and its subdomains`.
        var label: String
        var hosts: [Host]
        /// Where its finding points when no setting of its own is the cause.
        var line: Int?
        /// The NSExceptionDomains key that names it.
        var key: String? = nil
    }

    /// A weakening found on one era for some load kinds, with the settings that caused it.
    struct Observation {
        var era: OSEra
        var kinds: [LoadKind]
        var causes: [Decision.Reason]
    }

    enum Weakness: Hashable {
        case http, tls(String), forwardSecrecy, certificateTransparency, pinsWithoutATS

        /// The order findings of one scope are made in.
        var rank: Int {
            switch self {
            case .certificateTransparency: 0
            case .forwardSecrecy: 1
            case .http: 2
            case .pinsWithoutATS: 3
            case .tls: 4
            }
        }
    }

    /// - Parameter floor: the deployment target as people write it, each platform onward (`iOS 15+/macOS 12+`), for a run of eras
    ///   that starts at the oldest supported one and goes on to the newest.
    ///
    /// A finding that rests on a legacy `NSThirdPartyException…`/`NSTemporaryException…` key
    /// (it is gone when the file is read as Apple's open reader reads it, which never reads those
    /// keys) says so, and its score is halved: the exposure holds only if the OS reads the key.
    static func findings(_ configuration: ATSConfiguration, eras: [OSEra], labels: EraLabels = .iosAndMacOS, floor: String? = nil, atsLine: Int,
                         add: (_ rule: String, _ line: Int, _ message: String, _ score: Double) -> Void) {
        guard configuration.decidesByLegacyKeys else {
            found(configuration, eras: eras, labels: labels, floor: floor, atsLine: atsLine) { add($0.rule, $0.line, $0.message, $0.score) }
            return
        }
        var openReading: Set<Found.Key> = []
        found(configuration.ignoringLegacyKeys(), eras: eras, labels: labels, floor: floor, atsLine: atsLine) { openReading.insert($0.key) }
        found(configuration, eras: eras, labels: labels, floor: floor, atsLine: atsLine) { finding in
            guard !openReading.contains(finding.key) else { return add(finding.rule, finding.line, finding.message, finding.score) }
            let legacy = finding.causes.map(\.key).filter(ATSConfiguration.isLegacyKey)
            let named = legacy.isEmpty ? "its NSThirdParty…/NSTemporary… keys" : legacy.joined(separator: ", ")
            let message = finding.message + "; Apple's open reader does not read \(named): this holds only where the OS "
                + "reads \(legacy.count == 1 ? "it as its" : "them as their") NSException… twin\(legacy.count == 1 ? "" : "s")"
            add(finding.rule, finding.line, message, (finding.score * 0.5 * 10).rounded() / 10)
        }
    }

    /// One finding, with what it was made of.
    struct Found {
        /// What makes two readings' findings the same finding.
        struct Key: Hashable {
            var rule: String
            var scope: String
            var weakness: Weakness
        }
        var key: Key
        var line: Int
        var message: String
        var score: Double
        var causes: [Decision.Reason]
        var rule: String { key.rule }
    }

    private static func found(
        _ configuration: ATSConfiguration, eras: [OSEra], labels: EraLabels, floor: String?, atsLine: Int, add: (Found) -> Void
    ) {
        guard configuration.present, !eras.isEmpty else { return }
        let decider = PolicyEngine.Decider(configuration)
        // Plain HTTP to every host already covers the local network's on that era and kind (a
        // local host has no exception of its own); a listed domain's entry overrides the global
        // keys, so its own HTTP allowance is always reported.
        var everywhereHTTP = [Bool](repeating: false, count: (OSEra.allCases.last!.rawValue + 1) * LoadKind.allCases.count)
        func point(_ era: OSEra, _ kind: Int) -> Int { era.rawValue * LoadKind.allCases.count + kind }
        // Local names are asked about as `.local` names and as unqualified names, which an
        // exception domain `local` tells apart (NSAllowsLocalNetworking does not): where both give
        // the same finding it is one finding about both, else each is said for what it is.
        var dotLocal: [Found] = []
        func emit(_ finding: Found) {
            switch finding.key.scope {
            case Self.dotLocalLabel: dotLocal.append(finding)
            case Self.unqualifiedLabel:
                if let at = dotLocal.firstIndex(where: { Self.sameLocalFinding($0, finding) }) {
                    var both = dotLocal.remove(at: at)
                    both.key.scope = Self.localNamesLabel
                    both.message = both.message.replacingOccurrences(of: Self.dotLocalLabel, with: Self.localNamesLabel)
                    add(both)
                } else {
                    add(finding)
                }
            default:
                // The `.local` findings with no unqualified twin, said once that scope is done.
                for alone in dotLocal { add(alone) }
                dotLocal = []
                add(finding)
            }
        }
        defer { for alone in dotLocal { add(alone) } }
        for scope in scopes(configuration) {
            // Unqualified names are open only where `.local` names are: NSAllowsLocalNetworking opens
            // both, an exception key `local` only the latter, and a key without a dot is reported
            // as a domain of its own. So they are asked about only then.
            if scope.label == Self.unqualifiedLabel, dotLocal.isEmpty { continue }
            // A handful of weaknesses at most: arrays, searched in place, in a fixed order.
            var seen: [(weakness: Weakness, observations: [Observation])] = []
            for era in eras {
                var found: [(weakness: Weakness, kinds: [LoadKind], causes: [Decision.Reason])] = []
                for host in scope.hosts {
                    // Policies first; only a host with a weakness is decided again with its reasons.
                    let baseline = Self.baseline(era: era, host: host)
                    var decided = decider.policies(era: era, host: host, kinds: LoadKind.allCases)
                    let weak = zip(LoadKind.allCases.indices, zip(decided, baseline)).contains { index, pair in
                        weaknesses(pair.0, pair.1, scope: scope, era: era).contains { weakness in
                            // The local network's HTTP where every host's is reported already adds nothing.
                            !(weakness == .http && scope.kind == .local && everywhereHTTP[point(era, index)])
                        }
                    }
                    guard weak else { continue }
                    decided = decider.decide(era: era, host: host, kinds: LoadKind.allCases)
                    for (index, (decision, base)) in zip(decided, baseline).enumerated() {
                        let kind = LoadKind.allCases[index]
                        for weakness in weaknesses(decision, base, scope: scope, era: era) {
                            if weakness == .http {
                                if scope.kind == .everywhere { everywhereHTTP[point(era, index)] = true }
                                else if scope.kind == .local, everywhereHTTP[point(era, index)] { continue }
                                // A domain's HTTP is its entry's doing only where the entry is read
                                // (an IP key before iOS 17 is not: the global keys decide there).
                                else if scope.kind == .domain, let key = scope.key,
                                    !decision.decidedBy.contains(where: { $0.key == "NSExceptionDomains › \(key)" && !$0.rule.hasPrefix("covers ") }) { continue }
                            }
                            let at = found.firstIndex { $0.weakness == weakness } ?? {
                                found.append((weakness, [], []))
                                return found.count - 1
                            }()
                            if !found[at].kinds.contains(kind) { found[at].kinds.append(kind) }
                            for cause in causes(decision, of: weakness) where !found[at].causes.contains(cause) { found[at].causes.append(cause) }
                        }
                    }
                }
                found.sort { $0.weakness.rank < $1.weakness.rank }
                for entry in found {
                    let observation = Observation(era: era, kinds: entry.kinds, causes: entry.causes)
                    if let at = seen.firstIndex(where: { $0.weakness == entry.weakness }) { seen[at].observations.append(observation) }
                    else { seen.append((entry.weakness, [observation])) }
                }
            }
            for (weakness, observations) in seen {
                var causes = observations.flatMap(\.causes).reduce(into: [Decision.Reason]()) { if !$0.contains($1) { $0.append($1) } }
                // A pin's finding is about the pin: it points there.
                if weakness == .pinsWithoutATS { causes.sort { $0.key.hasPrefix("NSPinnedDomains") && !$1.key.hasPrefix("NSPinnedDomains") } }
                let line = causes.compactMap(\.line).first ?? scope.line ?? atsLine
                let rule = ruleID(weakness, scope)
                let message = describe(weakness, scope) + ": " + erasText(observations, labels: labels, floor: floor.map { ($0, eras[0]) }) + causeText(causes)
                emit(Found(key: .init(rule: rule, scope: scope.label, weakness: weakness), line: line, message: message,
                           score: score(weakness, scope, observations, supported: eras.count), causes: causes))
            }
        }
    }

    static let dotLocalLabel = ".local names", unqualifiedLabel = "unqualified names", localNamesLabel = ".local and unqualified names"

    /// The same finding about `.local` names (`a`) and unqualified names (`b`): the same rule,
    /// weakness, line and words but for the scope's name.
    private static func sameLocalFinding(_ a: Found, _ b: Found) -> Bool {
        a.key.rule == b.key.rule && a.key.weakness == b.key.weakness && a.line == b.line
            && a.message.replacingOccurrences(of: dotLocalLabel, with: "") == b.message.replacingOccurrences(of: unqualifiedLabel, with: "")
    }

    /// Every host without an exception, the local network, and each listed domain (with one
    /// subdomain where NSIncludesSubdomains could apply), pinned domains included.
    static func scopes(_ configuration: ATSConfiguration) -> [Scope] {
        var scopes = [
            Scope(kind: .everywhere, label: "every host without an exception", hosts: [Self.unlistedHost], line: nil),
            Scope(kind: .local, label: Self.dotLocalLabel, hosts: [Self.localName], line: nil),
            Scope(kind: .local, label: Self.unqualifiedLabel, hosts: [Self.unqualifiedName], line: nil),
            Scope(kind: .local, label: "local IP addresses", hosts: [Self.localAddress], line: nil),
        ]
        for (rules, kind) in [(configuration.exceptionDomains, Scope.Kind.domain), (configuration.pinnedDomains, .pinned)] {
            for rule in rules {
                guard rule.matcher != .nothing, rule.matcher != .resolvedAtBuildTime else { continue }
                // A range is asked about through its network address, however it is written (`10/8`).
                let name = rule.matcher.networkText ?? rule.key
                var hosts = [Host(name)]
                var label = name
                if rule.includesSubdomains?.value == true, case .name = rule.matcher {
                    hosts.append(Host("sub." + name))
                    label += " and its subdomains"
                }
                if case .address(let network, let prefix) = rule.matcher, rule.key.contains("/") {
                    label = prefix == 0 ? "\(rule.key) (read as prefix 0: every IPv\(network.isIPv4 ? 4 : 6) address)"
                        : "\(rule.key) (\(prefix)-bit range)"
                }
                scopes.append(Scope(kind: kind, label: label, hosts: hosts, line: rule.line, key: rule.key))
            }
        }
        return scopes
    }

    static func weaknesses(_ decision: Decision, _ base: Decision, scope: Scope, era: OSEra) -> [Weakness] {
        var found: [Weakness] = []
        if scope.kind == .pinned {
            // Pins guard TLS; where ATS lets plain HTTP through or does not apply, they guard nothing.
            let pinned = !decision.pinnedCAIdentities.isEmpty || !decision.pinnedLeafIdentities.isEmpty
            if pinned, decision.httpAllowed || decision.minimumTLS == nil { found.append(.pinsWithoutATS) }
            return found
        }
        if decision.httpAllowed, !base.httpAllowed { found.append(.http) }
        if let minimum = decision.minimumTLS, let required = base.minimumTLS, minimum < required { found.append(.tls(minimum)) }
        if decision.minimumTLS != nil, base.minimumTLS != nil, !decision.requiresForwardSecrecy, base.requiresForwardSecrecy {
            found.append(.forwardSecrecy)
        }
        if !decision.requiresCertificateTransparency, base.requiresCertificateTransparency { found.append(.certificateTransparency) }
        return found
    }

    /// The settings in the file that made the decision for this weakness (not those the era
    /// ignores, nor the domain's own key, which the scope names).
    static func causes(_ decision: Decision, of weakness: Weakness) -> [Decision.Reason] {
        // Compared as bytes in place: this runs for every reason of every weak decision.
        func starts(_ text: String, _ prefix: [UInt8]) -> Bool { text.utf8.hasPrefix(bytes: prefix) }
        func ends(_ text: String, _ suffix: [UInt8]) -> Bool { text.utf8.hasSuffix(bytes: suffix) }
        return decision.decidedBy.filter { reason in
            guard reason.line != nil, !Self.ignoringRules.contains(where: { starts(reason.rule, $0) }),
                !starts(reason.key, Self.exceptionDomainsPrefix)
            else { return false }
            let setting = Self.settingSuffixes.firstIndex { ends(reason.key, $0) }
            switch weakness {
            case .http: return setting == nil && !starts(reason.key, Self.pinnedDomainsPrefix)
            case .tls: return setting == 0
            case .forwardSecrecy: return setting == 1
            case .certificateTransparency: return setting == 2
            case .pinsWithoutATS: return setting == nil
            }
        }
    }

    /// Reasons for keys an era ignores, and the domain's own key (the scope names it).
    static let ignoringRules = ["ignored", "not read", "not counted", "covers "].map { Array($0.utf8) }
    static let exceptionDomainsPrefix = Array("NSExceptionDomains ›".utf8)
    static let pinnedDomainsPrefix = Array("NSPinnedDomains".utf8)
    /// Setting keys end in these (NSExceptionMinimumTLSVersion, NSThirdParty…, NSTemporary…).
    static let settingSuffixes = ["MinimumTLSVersion", "ForwardSecrecy", "CertificateTransparency"].map { Array($0.utf8) }

    static func ruleID(_ weakness: Weakness, _ scope: Scope) -> String {
        switch weakness {
        case .pinsWithoutATS: "P005"
        case .tls, .forwardSecrecy, .certificateTransparency: "P003"
        case .http:
            switch scope.kind {
            case .everywhere: "P001"
            case .local: "P004"
            case .domain, .pinned: "P002"
            }
        }
    }

    static func describe(_ weakness: Weakness, _ scope: Scope) -> String {
        switch weakness {
        case .http: "plain HTTP is allowed to \(scope.label)"
        case .tls(let version): "connections to \(scope.label) accept \(version), below the TLSv1.2 ATS requires"
        case .forwardSecrecy: "forward secrecy is not required for \(scope.label)"
        case .certificateTransparency: "Certificate Transparency is not required for \(scope.label) where the OS would require it"
        case .pinsWithoutATS: "\(scope.label) pins identities, but ATS lets plain HTTP through or does not apply there, so the pins guard nothing"
        }
    }

    /// `URLSession and web views on iOS 9/macOS 10.11; web views on iOS 10+/macOS 10.12+`.
    static func erasText(_ observations: [Observation], labels: EraLabels = .iosAndMacOS, floor: (text: String, era: OSEra)? = nil) -> String {
        var parts: [String] = []
        var index = 0
        while index < observations.count {
            let kinds = Set(observations[index].kinds)
            var last = index
            while last + 1 < observations.count, Set(observations[last + 1].kinds) == kinds,
                observations[last + 1].era == observations[last].era.successor { last += 1 }
            let first = observations[index].era, final = observations[last].era
            let label = if let floor, first == floor.era, final == OSEra.allCases.last { floor.text }
                else { labels.label(from: first, through: final) }
            parts.append(kindsText(kinds) + " on " + label)
            index = last + 1
        }
        return parts.joined(separator: "; ")
    }

    static func kindsText(_ kinds: Set<LoadKind>) -> String {
        if kinds.count == LoadKind.allCases.count { return "all loads" }
        let names = LoadKind.allCases.filter(kinds.contains).map { kind in
            switch kind {
            case .urlSession: "URLSession"
            case .media: "media"
            case .webView: "web views"
            }
        }
        return names.count == 2 ? names.joined(separator: " and ") : names.joined(separator: ", ")
    }

    static func causeText(_ causes: [Decision.Reason]) -> String {
        guard !causes.isEmpty else { return "" }
        return " (" + causes.map { "\($0.key) line \($0.line ?? 0)" }.joined(separator: ", ") + ")"
    }

    /// GitHub's security-severity scale (0–10), following the real exposure: plain HTTP for
    /// every host on every kind of load on every supported OS is the top of it; one media host,
    /// or a weakness on only the oldest supported OS, much lower.
    static func score(_ weakness: Weakness, _ scope: Scope, _ observations: [Observation], supported: Int) -> Double {
        let kinds = Set(observations.flatMap(\.kinds))
        let reach = (kinds.contains(.urlSession) ? 1.0 : kinds.contains(.webView) ? 0.6 : 0.3) + 0.05 * Double(kinds.count - 1)
        let base: Double = switch weakness {
        case .http:
            switch scope.kind {
            case .everywhere: 4.0 + 4.5 * reach
            case .domain, .pinned: 3.0 + 3.0 * reach + (scope.label.hasSuffix("subdomains") ? 0.5 : 0)
            case .local: 2.0 + 2.0 * reach
            }
        case .tls(let version): version < "TLSv1.1" ? 5.5 : 5.0
        case .forwardSecrecy: 4.0
        case .certificateTransparency: 4.0
        case .pinsWithoutATS: 4.5
        }
        let coverage = Double(Set(observations.map(\.era)).count) / Double(max(supported, 1))
        return (base * (0.6 + 0.4 * coverage) * 10).rounded() / 10
    }

    static func severity(_ score: Double) -> Finding.Severity {
        score >= 7 ? .error : score >= 4 ? .warning : .note
    }
}
