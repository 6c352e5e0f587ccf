/// The domain rules of one dictionary (`NSExceptionDomains` or `NSPinnedDomains`) arranged for
/// look-up by host name, so matching a host costs the same however many domains are listed.
/// `PolicyEngine.matchingRule(_:host:era:notes:ignored:)` is the reference it must agree with
/// (checked by a test); this is the same rules, found by key instead of by scan.
/// A class: it is read through `PolicyEngine.Indexed` for every host, and a copy of its
/// fields costs a retain each.
final class DomainRuleIndex: Sendable {
    let rules: [ATSConfiguration.DomainRule]
    /// Positions in `rules`, each list in order.
    private let byName: [String: [Int]]
    private let subdomainParents: [String: [Int]]
    private let buildTime: [Int]
    private let addresses: [Int]
    /// Keys that match nothing, by the host they seem meant for; wildcard ones apart.
    private let unmatchedByMeant: [String: [Int]]
    private let unmatchedWildcardsByMeant: [String: [Int]]

    init(_ rules: [ATSConfiguration.DomainRule]) {
        self.rules = rules
        var byName: [String: [Int]] = [:], subdomainParents: [String: [Int]] = [:]
        var buildTime: [Int] = [], addresses: [Int] = []
        var unmatchedByMeant: [String: [Int]] = [:], unmatchedWildcardsByMeant: [String: [Int]] = [:]
        for (position, rule) in rules.enumerated() {
            switch rule.matcher {
            case .nothing:
                unmatchedByMeant[rule.meantHost, default: []].append(position)
                if rule.key.hasPrefix("*.") { unmatchedWildcardsByMeant[rule.meantHost, default: []].append(position) }
            case .resolvedAtBuildTime:
                buildTime.append(position)
            case .address:
                addresses.append(position)
            case .name:
                byName[rule.key, default: []].append(position)
                if rule.includesSubdomains?.value == true { subdomainParents[rule.key, default: []].append(position) }
            }
        }
        self.byName = byName
        self.subdomainParents = subdomainParents
        self.buildTime = buildTime
        self.addresses = addresses
        self.unmatchedByMeant = unmatchedByMeant
        self.unmatchedWildcardsByMeant = unmatchedWildcardsByMeant
    }

    /// The rule that decides for a host name (not an IP address), without the open questions:
    /// for names the match does not depend on the OS.
    func ruleDeciding(name host: Host) -> ATSConfiguration.DomainRule? {
        if let exact = byName[host.name]?.first { return rules[exact] }
        return parents(of: host).max { $0.key.count < $1.key.count }
    }

    /// The entries with NSIncludesSubdomains that cover `host`: those for `domain` when the host
    /// is `label.domain` with a label that has no dot (the one domain a parent can be), in order.
    private func parents(of host: Host) -> [ATSConfiguration.DomainRule] {
        guard let domain = host.parentDomain else { return [] }
        guard let found = subdomainParents[domain], PolicyEngine.isOneLabel(host.name, under: domain) else { return [] }
        return found.map { rules[$0] }
    }

    /// - Parameter explaining: `false` leaves `notes` and `ignored` alone (the rule is the same).
    func matchingRule(
        host: Host, era: OSEra, notes: inout [String], ignored: inout [Decision.Reason], explaining: Bool = true
    ) -> ATSConfiguration.DomainRule? {
        var exactPosition = byName[host.name]?.first
        for position in buildTime where explaining {
            let rule = rules[position]
            notes.append(PolicyEngine.buildTimeNote(rule, host: host))
        }
        for position in addresses {
            guard case .address(let network, let prefix) = rules[position].matcher,
                let address = host.address, address.isIn(network, prefix: prefix)
            else { continue }
            guard era >= .ios17 else {
                if explaining { ignored.append(PolicyEngine.addressTooEarly(rules[position], host: host)) }
                continue
            }
            exactPosition = min(exactPosition ?? position, position)
            break
        }
        guard explaining else {
            return PolicyEngine.choose(exact: exactPosition.map { rules[$0] }, parents: parents(of: host), host: host,
                                       notes: &notes, explaining: false)
        }
        var unmatched = unmatchedByMeant[host.name] ?? []
        var suffix = Substring(host.name)
        while let dot = suffix.utf8.firstIndex(of: UInt8(ascii: ".")) {
            suffix = suffix[suffix.index(after: dot)...]
            unmatched += unmatchedWildcardsByMeant[String(suffix)] ?? []
        }
        for position in Set(unmatched).sorted() {
            notes.append(PolicyEngine.unmatchedKeyNote(rules[position], host: host))
        }
        return PolicyEngine.choose(exact: exactPosition.map { rules[$0] }, parents: parents(of: host), host: host, notes: &notes)
    }
}
