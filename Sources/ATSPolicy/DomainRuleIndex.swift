import PlistDOM

/// The domain rules of one dictionary (`NSExceptionDomains` or `NSPinnedDomains`) arranged for
/// look-up by host name, so matching a host costs the same however many domains are listed.
/// `PolicyEngine.matchingRule(_:host:era:notes:ignored:)` is the reference it must agree with
/// (checked by a test); this is the same rules, found by key instead of by scan.
/// A class: it is read through `PolicyEngine.Indexed` for every host, and a copy of its
/// fields costs a retain each.
final class DomainRuleIndex: Sendable {
    let rules: [ATSConfiguration.DomainRule]
    /// The position in `rules` of each name key: the last one written, as the reader reads duplicates.
    private let byName: [String: Int]
    private let buildTime: [Int]
    private let addresses: [Int]
    /// Keys that match nothing, by their text: what Apple's reader finds for a host looked up
    /// as written (the last one written of a text).
    private let unmatchedByText: [String: Int]
    /// Keys that match nothing, by the host they seem meant for; wildcard ones apart.
    private let unmatchedByMeant: [String: [Int]]
    private let unmatchedWildcardsByMeant: [String: [Int]]
    /// When every name key is ASCII: which UTF-8 lengths they have, so that a host or parent
    /// domain of another length is passed over without hashing it (for ASCII text, equal
    /// strings have equal lengths). `nil` otherwise: Unicode-equal keys may differ in length.
    private let nameKeyLengths: [Bool]?

    init(_ rules: [ATSConfiguration.DomainRule]) {
        self.rules = rules
        var byName: [String: Int] = [:]
        var buildTime: [Int] = [], addresses: [Int] = []
        var unmatchedByMeant: [String: [Int]] = [:], unmatchedWildcardsByMeant: [String: [Int]] = [:]
        var unmatchedByText: [String: Int] = [:]
        // Sized once for many rules: a table that grows hashes every key in it again.
        if rules.count > 16 {
            let names = rules.count { $0.matcher == .name }, unmatched = rules.count { $0.matcher == .nothing }
            byName.reserveCapacity(names)
            unmatchedByMeant.reserveCapacity(unmatched)
        }
        for (position, rule) in rules.enumerated() {
            switch rule.matcher {
            case .nothing:
                unmatchedByText[rule.key] = position
                unmatchedByMeant[rule.meantHost, default: []].append(position)
                if rule.key.hasPrefix("*.") { unmatchedWildcardsByMeant[rule.meantHost, default: []].append(position) }
            case .resolvedAtBuildTime:
                buildTime.append(position)
            case .address:
                addresses.append(position)
            case .name:
                byName[rule.key] = position
            }
        }
        self.byName = byName
        self.unmatchedByText = unmatchedByText
        var lengths: [Bool]? = []
        for key in byName.keys {
            guard key.utf8AllSatisfy({ $0 < 0x80 }) else { lengths = nil; break }
            let count = key.utf8.count
            if count >= lengths!.count { lengths!.append(contentsOf: repeatElement(false, count: count + 1 - lengths!.count)) }
            lengths![count] = true
        }
        nameKeyLengths = lengths
        self.buildTime = buildTime
        self.addresses = addresses
        self.unmatchedByMeant = unmatchedByMeant
        self.unmatchedWildcardsByMeant = unmatchedWildcardsByMeant
    }

    /// Whether the dictionary has a name key written exactly `name` (it replaces a built-in
    /// exception of that name, whatever its settings).
    func hasNameKey(_ name: String) -> Bool { byName[name] != nil }

    /// The rule that decides for a host name (not an IP address), without the open questions:
    /// for names the match does not depend on the OS.
    func ruleDeciding(name host: Host) -> ATSConfiguration.DomainRule? {
        var depth = 0
        return nameRule(host, depth: &depth)
    }

    /// The entry for the host itself, else the nearest parent whose entry has
    /// NSIncludesSubdomains, every label walked (`depth`: how many labels up it was found).
    private func nameRule(_ host: Host, depth: inout Int) -> ATSConfiguration.DomainRule? {
        var name = host.name
        // Walked as bytes: a `.` is ASCII, so each parent domain starts on a character.
        // A host taken as written also finds, by its text, a key that matches nothing here.
        let byText = host.isAsWritten && !unmatchedByText.isEmpty ? unmatchedByText : nil
        // A text is either a valid name key or not: it is in one table or the other.
        func position(_ key: String) -> Int? { byName[key] ?? byText?[key] }
        return name.withUTF8 { bytes -> ATSConfiguration.DomainRule? in
            var lengths = nameKeyLengths
            if lengths != nil, byText != nil || bytes.contains(where: { $0 >= 0x80 }) { lengths = nil }
            func mayBeAKey(_ count: Int) -> Bool {
                guard let lengths else { return true }
                return count < lengths.count && lengths[count]
            }
            if mayBeAKey(bytes.count), let exact = position(host.name) { return rules[exact] }
            var start = 0
            while let dot = bytes[start...].firstIndex(of: UInt8(ascii: ".")) {
                start = dot + 1
                depth += 1
                guard mayBeAKey(bytes.count - start) else { continue }
                let parent = String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
                if let found = position(parent), rules[found].includesSubdomains?.value == true { return rules[found] }
            }
            return nil
        }
    }

    /// - Parameter explaining: `false` leaves `notes` and `ignored` alone (the rule is the same).
    func matchingRule(
        host: Host, era: OSEra, notes: inout [String], ignored: inout [Decision.Reason], explaining: Bool = true
    ) -> ATSConfiguration.DomainRule? {
        for position in buildTime where explaining {
            notes.append(PolicyEngine.buildTimeNote(rules[position], host: host))
        }
        var exactAddress: Int?, range: (position: Int, prefix: Int)?
        if let address = host.address {
            for position in addresses {
                guard case .address(let network, let prefix) = rules[position].matcher, address.isIn(network, prefix: prefix) else { continue }
                let isRange = rules[position].key.utf8.contains(UInt8(ascii: "/"))
                guard isRange || host.isNamedExactly(byAddressKey: rules[position].key) else { continue }
                guard era >= .ios17 else {
                    if explaining { ignored.append(PolicyEngine.addressTooEarly(rules[position], host: host)) }
                    continue
                }
                if !isRange { exactAddress = position }
                else if prefix >= (range?.prefix ?? 0) {
                    if explaining, let other = range, other.prefix == prefix {
                        notes.append(PolicyEngine.equalRangesNote(rules[other.position], rules[position], host: host))
                    }
                    range = (position, prefix)
                }
            }
        }
        if explaining {
            var unmatched = unmatchedByMeant[host.name] ?? []
            var suffix = Substring(host.name)
            while let dot = suffix.utf8.firstIndex(of: UInt8(ascii: ".")) {
                suffix = suffix[suffix.index(after: dot)...]
                unmatched += unmatchedWildcardsByMeant[String(suffix)] ?? []
            }
            for position in Set(unmatched).sorted() {
                notes.append(PolicyEngine.unmatchedKeyNote(rules[position], host: host))
            }
        }
        if host.isIPAddress { return (exactAddress ?? range?.position).map { rules[$0] } }
        var depth = 0
        let rule = nameRule(host, depth: &depth)
        if explaining, let rule, depth > 1 { notes.append(PolicyEngine.deepSubdomainNote(rule, host: host)) }
        return rule
    }
}
