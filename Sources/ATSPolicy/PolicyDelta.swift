import PlistDOM

/// What an edit does to the effective policy, over every OS era × host class × load kind.
public enum PolicyDelta {
    public struct HostClass: Sendable, Hashable {
        public var label: String
        public var host: Host

        public init(label: String, host: Host) {
            self.label = label
            self.host = host
        }
    }

    /// A host no rule lists, a local name, a local IP, and each listed domain (normalised) with
    /// one subdomain when subdomains could be included.
    public static func hostClasses(_ configs: [ATSConfiguration]) -> [HostClass] {
        hostClasses(configs, reaching: nil)
    }

    /// `hostClasses`, leaving out the names that neither are nor lie below one of `changed` (the
    /// keys of the rules that differ), which no rule change can reach when the global keys are
    /// the same; addresses, and names that may be read as one, stay. The classes kept are in
    /// the same order as among all.
    static func hostClasses(_ configs: [ATSConfiguration], reaching changed: Set<Substring>?) -> [HostClass] {
        var classes = fixedHostClasses
        var seen = fixedHosts
        // A name added before adds nothing new.
        var seenNames: Set<String> = []
        // Sized once: growing a set rehashes every name in it.
        let rules = configs.first.map { $0.exceptionDomains.count + $0.pinnedDomains.count } ?? 0
        // With changed keys given, few names are reached (a few of many domains edited).
        let expected = changed == nil ? rules : min(rules, 8)
        seenNames.reserveCapacity(expected)
        seen.reserveCapacity(fixedHosts.count + 2 * expected)
        classes.reserveCapacity(fixedHostClasses.count + 2 * expected)
        func add(_ name: String) {
            let host = Host(name)
            if seen.insert(host).inserted { classes.append(HostClass(label: host.name, host: host)) }
        }
        // `sub.NAME` lies below NAME: reached when NAME is, or when it is itself a changed key.
        let subKeys = changed?.contains { $0.utf8.starts(with: "sub.".utf8) } ?? false
        // Worth its making only where there are many names to weigh.
        let filter = rules > rulesWorthAFilter ? changed.flatMap(ChangedKeyFilter.init) : nil
        for (number, config) in configs.enumerated() {
            for (list, rules) in [config.exceptionDomains, config.pinnedDomains].enumerated() {
                // Most rules are in every configuration at the same place: a key weighed there in
                // the first is not weighed again (its name, and whether it is reached, follow
                // from the key).
                let first = number == 0 ? [] : list == 0 ? configs[0].exceptionDomains : configs[0].pinnedDomains
                for (place, rule) in rules.enumerated() {
                    if place < first.count, first[place].key == rule.key { continue }
                    // The host the key is meant to name (scheme, `*.`, port and path stripped),
                    // so that a key that starts to match shows the change on that host.
                    let name = rule.meantHost
                    guard !name.isEmpty, !name.contains(ascii: "*"), rule.matcher != .resolvedAtBuildTime else { continue }
                    // Names no changed rule reaches (nearly all, when a pass edits a few of many
                    // domains) are not remembered: a repeat of one is asked again, and is again not reached.
                    if changed.map({ Self.mayBeReached(name, by: $0, filter: filter) }) ?? true {
                        guard seenNames.insert(name).inserted else { continue }
                        add(name)
                        add("sub." + name)
                    } else if subKeys, changed?.contains(Substring("sub." + name)) == true, seenNames.insert(name).inserted {
                        add("sub." + name)
                    }
                }
            }
        }
        return classes
    }

    /// Whether a change of the rules keyed `changed` can reach a host named `name`: it is one of
    /// them or below one, or it may be an address (hex digits, dots and colons) or not yet
    /// lowercase (then the host is kept whatever changed), or a built-in exception domain
    /// covers it (a key of that name replaces the built-in entry below it).
    /// `filter`, when given, is made from `changed` and asks the set only for the likely names.
    static func mayBeReached(_ name: String, by changed: Set<Substring>, filter: ChangedKeyFilter?) -> Bool {
        var mayBeAddress = true
        // Over the bytes in place: iterating a string's UTF-8 view costs several times more.
        var bytes = name
        let capitalOrNonASCII = bytes.withUTF8 { buffer in
            for byte in buffer {
                if (byte >= 0x41 && byte <= 0x5A) || byte >= 0x80 { return true }
                if !((byte >= 0x30 && byte <= 0x3A) || (byte >= 0x61 && byte <= 0x66) || byte == 0x2E) { mayBeAddress = false }
            }
            return false
        }
        if capitalOrNonASCII { return true }
        // Here the name is ASCII, as the filter needs.
        let listed = filter.map { $0.containsNameOrParent(of: name) } ?? changed.containsNameOrParent(of: name)
        return mayBeAddress || listed || BuiltInExceptions.covers(name: name)
    }

    /// The keys of the rules that differ between the two configurations, compared place by
    /// place (a key written twice is read at its last place: every place of it is compared);
    /// `nil` when the lists differ in length, or when more keys changed than there are rules:
    /// then every host class is weighed.
    static func changedKeys(_ before: ATSConfiguration, _ after: ATSConfiguration) -> Set<Substring>? {
        var changed: Set<Substring> = []
        for (old, new) in [(before.exceptionDomains, after.exceptionDomains), (before.pinnedDomains, after.pinnedDomains)] {
            guard old.count == new.count else { return nil }
            for (a, b) in zip(old, new) where !a.decidesAlike(b) {
                changed.insert(Substring(a.key))
                changed.insert(Substring(b.key))
            }
        }
        let rules = before.exceptionDomains.count + before.pinnedDomains.count
        return changed.count > rules ? nil : changed
    }

    #if DEBUG
    /// Every delta of the tests goes through the filter (their decisions are checked the long way).
    static let rulesWorthAFilter = -1
    #else
    static let rulesWorthAFilter = 32
    #endif

    /// Made once: an address is parsed by characters.
    private static let fixedHostClasses = [
        HostClass(label: "any other host", host: Host("a.unlisted-host.invalid")),
        HostClass(label: "a local name", host: Host("printer.local")),
        HostClass(label: "a local IP address", host: Host("192.168.0.10")),
    ]
    private static let fixedHosts = Set(fixedHostClasses.map(\.host))

    /// `["no policy change"]`, or one line per host, kind and run of OS eras, e.g.
    /// `iOS 10+/macOS 10.12+: HTTP to any other host (urlSession): allowed → blocked; minimum TLS: not enforced → TLSv1.2`.
    ///
    /// - Parameters:
    ///   - eras: the OS eras to consider (the app's supported ones).
    ///   - include: which host and kind of load to consider (all, by default).
    public static func lines(
        before: ATSConfiguration, after: ATSConfiguration, eras: [OSEra] = OSEra.allCases, labels: EraLabels = .iosAndMacOS,
        include: (Host, LoadKind) -> Bool = { _, _ in true }
    ) -> [String] {
        Changes(before: before, after: after, eras: eras, labels: labels).lines(include: include)
    }

    /// The changes between two configurations under both readings of the legacy
    /// `NSThirdPartyException…`/`NSTemporaryException…` keys: as their `NSException…` twins
    /// (the engine's reading) and ignored (Apple's open reader, which never reads them). The
    /// second is worked out only where a legacy key decides a setting in either configuration.
    public struct Readings: Sendable {
        public var asTwins: Changes
        public var ignoringLegacyKeys: Changes?

        public init(before: ATSConfiguration, after: ATSConfiguration, eras: [OSEra] = OSEra.allCases, labels: EraLabels = .iosAndMacOS) {
            // Both readings have the same rules (ignoring a key leaves its domain in place), so
            // the same host classes: listed once, by the first reading that needs them.
            var classes: [HostClass]?
            asTwins = Changes(before: before, after: after, eras: eras, labels: labels, hostClasses: &classes)
            ignoringLegacyKeys = before.decidesByLegacyKeys || after.decidesByLegacyKeys
                ? Changes(before: before.ignoringLegacyKeys(), after: after.ignoringLegacyKeys(), eras: eras, labels: labels, hostClasses: &classes)
                : nil
        }

        /// Whether neither reading changes any load.
        public var isEmpty: Bool { asTwins.isEmpty && ignoringLegacyKeys?.isEmpty != false }

        /// Whether either reading changes a load `include` selects.
        public func hasChanges(include: (Host, LoadKind) -> Bool) -> Bool {
            asTwins.hasChanges(include: include) || ignoringLegacyKeys?.hasChanges(include: include) == true
        }

        /// One reading's lines when both agree; otherwise each reading's, saying which it is.
        public func lines(include: (Host, LoadKind) -> Bool = { _, _ in true }) -> [String] {
            let twins = asTwins.lines(include: include)
            guard let open = ignoringLegacyKeys?.lines(include: include), open != twins else { return twins }
            let ignored = open.map { "\(Self.ignoredPrefix)\($0)" }
            if twins == [noChange] { return ["\(noChange) \(Self.twinsCondition)"] + ignored }
            return twins.map { "\(Self.twinsCondition): \($0)" } + ignored
        }

        /// What the lines of each reading start with (`no policy change ` + the condition when
        /// that reading changes nothing), for readers of the lines such as the review page.
        public static let twinsCondition = "if the OS reads NSThirdParty…/NSTemporary… keys as their NSException… twins"
        public static let ignoredPrefix = "if it ignores them, as Apple's open reader does: "
    }

    /// What the lines say when nothing changes.
    static let noChange = "no policy change"

    /// Every decision that differs between two configurations, worked out once, so the lines
    /// for several questions (all loads; loads outside a pass's reach) cost one set of decisions.
    public struct Changes: Sendable {
        /// One changed decision, described without the host's label: the text is
        /// `head + label + tail` (`describe`).
        struct Change: Sendable {
            var era: OSEra
            var kind: LoadKind
            var head: String
            var tail: String
        }

        /// The changes of hosts that change the same way, in era order, then kind order.
        private(set) var templates: [[Change]] = []
        /// Per host class with changes, in order, the template its changes follow.
        private(set) var perHost: [(hostClass: HostClass, template: Int)] = []
        /// How the lines name the eras: for the platforms the app is built for.
        let labels: EraLabels

        public init(before: ATSConfiguration, after: ATSConfiguration, eras: [OSEra] = OSEra.allCases, labels: EraLabels = .iosAndMacOS) {
            var classes: [HostClass]?
            self.init(before: before, after: after, eras: eras, labels: labels, hostClasses: &classes)
        }

        /// `hostClasses`: those of `[before, after]` when known, else worked out and given back.
        init(before: ATSConfiguration, after: ATSConfiguration, eras: [OSEra], labels: EraLabels, hostClasses known: inout [HostClass]?) {
            WorkCounts.add(.deltas)
            self.labels = labels
            if before.isPolicyEquivalent(to: after) { return }
            let indexedBefore = PolicyEngine.Indexed(before), indexedAfter = PolicyEngine.Indexed(after)
            let sameGlobal = before.hasSameGlobalSettings(as: after)
            // Hosts decided by rules with the same settings change the same way, but for their
            // name: their changes are worked out once.
            var shared: [Signature: Int] = [:]
            // With the same global keys, only hosts that a changed rule can reach are weighed
            // (a pass editing 800 of 20,000 domains); otherwise every class, listed once for both readings.
            let classes: [HostClass]
            if sameGlobal, let changed = PolicyDelta.changedKeys(before, after) {
                classes = PolicyDelta.hostClasses([before, after], reaching: changed)
            } else {
                classes = known ?? PolicyDelta.hostClasses([before, after])
                known = classes
            }
            for hostClass in classes {
                // Under a built-in exception domain (apple.com…) a key of that name, whatever its
                // settings, replaces the built-in entry for every subdomain: such hosts are decided.
                let signature = sameGlobal && !hostClass.host.isIPAddress && !BuiltInExceptions.covers(hostClass.host)
                    ? Signature(hostClass.host, indexedBefore, indexedAfter) : nil
                // With the same global keys, a host name whose matching rules set the same policy
                // in both is decided the same way on every OS (for names, which rule matches
                // does not depend on the OS): no decisions needed.
                if let signature, signature.before == signature.after, signature.beforePins == signature.afterPins { continue }
                if sameGlobal, hostClass.host.isIPAddress, Self.addressDecidedAlike(hostClass.host, indexedBefore, indexedAfter) { continue }
                if let signature, let known = shared[signature] {
                    if !templates[known].isEmpty { perHost.append((hostClass, known)) }
                    continue
                }
                var changes: [Change] = []
                // Eras and kinds often change alike: the last description is reused for equal values.
                var last: (old: [String], new: [String], text: (head: String, tail: String)?)?
                for era in eras {
                    let olds = PolicyEngine.decide(indexedBefore, era: era, host: hostClass.host, kinds: LoadKind.allCases, explaining: false)
                    let news = PolicyEngine.decide(indexedAfter, era: era, host: hostClass.host, kinds: LoadKind.allCases, explaining: false)
                    for (index, kind) in LoadKind.allCases.enumerated() where !olds[index].samePolicy(as: news[index]) {
                        let old = olds[index].policyValues, new = news[index].policyValues
                        if last == nil || last!.old != old || last!.new != new { last = (old, new, describe(old: old, new: new)) }
                        guard let (head, tail) = last!.text else { continue }
                        changes.append(Change(era: era, kind: kind, head: head, tail: tail))
                    }
                }
                templates.append(changes)
                if let signature { shared[signature] = templates.count - 1 }
                if !changes.isEmpty { perHost.append((hostClass, templates.count - 1)) }
            }
        }

        /// What decides a host name's policy when the global keys are the same: the policy
        /// settings of the exception and pinned-domain rules that match it, and whether it is local.
        struct Signature: Hashable {
            var before: PolicySettings?
            var after: PolicySettings?
            var beforePins: PolicySettings?
            var afterPins: PolicySettings?
            var isLocal: Bool

            init(_ host: Host, _ before: PolicyEngine.Indexed, _ after: PolicyEngine.Indexed) {
                self.before = before.exceptions.ruleDeciding(name: host).map(PolicySettings.init)
                self.after = after.exceptions.ruleDeciding(name: host).map(PolicySettings.init)
                beforePins = before.pins.ruleDeciding(name: host).map(PolicySettings.init)
                afterPins = after.pins.ruleDeciding(name: host).map(PolicySettings.init)
                isLocal = host.isLocal
            }
        }

        /// Whether an IP address is decided alike on every OS when the global keys are the same.
        /// Which rule matches an address depends on the OS only at iOS 17 (address keys apply
        /// from then), and pinned domains are read from iOS 14: the same settings matched at
        /// iOS 14 and at iOS 17, before and after, mean the same decisions on every OS.
        static func addressDecidedAlike(_ host: Host, _ before: PolicyEngine.Indexed, _ after: PolicyEngine.Indexed) -> Bool {
            [OSEra.ios14, .ios17].allSatisfy { era in
                var notes: [String] = [], ignored: [Decision.Reason] = []
                func settings(_ rules: DomainRuleIndex) -> PolicySettings? {
                    rules.matchingRule(host: host, era: era, notes: &notes, ignored: &ignored, explaining: false).map(PolicySettings.init)
                }
                return settings(before.exceptions) == settings(after.exceptions) && settings(before.pins) == settings(after.pins)
            }
        }

        /// The values of a domain rule that the policy of a host it matches depends on.
        struct PolicySettings: Hashable {
            var http: Bool?, tls: String?, secrecy: Bool?, transparency: Bool?
            var caIdentities: [String], leafIdentities: [String]

            init(_ rule: ATSConfiguration.DomainRule) {
                http = rule.allowsInsecureHTTP?.value
                tls = rule.minimumTLS?.value
                secrecy = rule.requiresForwardSecrecy?.value
                transparency = rule.requiresCertificateTransparency?.value
                caIdentities = rule.pinnedCAIdentities
                leafIdentities = rule.pinnedLeafIdentities
            }
        }

        /// Whether no load changes.
        public var isEmpty: Bool { perHost.isEmpty }

        /// Whether any change is left for the host classes and kinds `include` keeps.
        public func hasChanges(include: (Host, LoadKind) -> Bool) -> Bool {
            // By index, without copying each host class and change (a large file has thousands).
            for place in perHost.indices {
                let template = perHost[place].template
                // Asked once per kind that changed, not once per change (eras repeat kinds).
                var asked: (urlSession: Bool, media: Bool, webView: Bool) = (false, false, false)
                for index in templates[template].indices {
                    let kind = templates[template][index].kind
                    switch kind {
                    case .urlSession: if asked.urlSession { continue } else { asked.urlSession = true }
                    case .media: if asked.media { continue } else { asked.media = true }
                    case .webView: if asked.webView { continue } else { asked.webView = true }
                    }
                    if include(perHost[place].hostClass.host, kind) { return true }
                }
            }
            return false
        }

        /// The lines for the host classes and kinds `include` keeps.
        public func lines(include: (Host, LoadKind) -> Bool = { _, _ in true }) -> [String] {
            var output: [String] = []
            // Hosts that follow one template and keep the same kinds get the same lines but for
            // their label: those are worked out once, with a hole for it.
            var known: [LinesKey: [(head: String, tail: String)]] = [:]
            for (hostClass, template) in perHost {
                let kept = LoadKind.allCases.map { include(hostClass.host, $0) }
                let key = LinesKey(template: template, kept: kept)
                let pattern = known[key] ?? Self.lines(of: templates[template], kept: kept, labels: labels)
                known[key] = pattern
                output += pattern.map { $0.head + hostClass.label + $0.tail }
            }
            return output.isEmpty ? [noChange] : output
        }

        struct LinesKey: Hashable {
            var template: Int
            var kept: [Bool]
        }

        /// One host's lines for `changes` and the kinds `kept` (in `LoadKind.allCases` order),
        /// as the text before and after the host's label.
        private static func lines(of changes: [Change], kept: [Bool], labels: EraLabels) -> [(head: String, tail: String)] {
            // Per era: the change (head, tail) → the kinds that changed that way, in kind order.
            var perEra: [(era: OSEra, head: String, tail: String, kinds: [LoadKind])] = []
            var index = 0
            while index < changes.count {
                let era = changes[index].era
                // At most one entry per kind: a scan beats hashing the texts.
                var grouped: [(head: String, tail: String, kinds: [LoadKind])] = []
                while index < changes.count, changes[index].era == era {
                    let change = changes[index]
                    index += 1
                    guard kept[LoadKind.allCases.firstIndex(of: change.kind)!] else { continue }
                    if let at = grouped.firstIndex(where: { $0.head == change.head && $0.tail == change.tail }) {
                        grouped[at].kinds.append(change.kind)
                    } else {
                        grouped.append((change.head, change.tail, [change.kind]))
                    }
                }
                perEra += grouped.map { (era, $0.head, $0.tail, $0.kinds) }
            }
            return merged(perEra, labels: labels)
        }
    }

    static let fields = ["HTTP", "minimum TLS", "forward secrecy", "certificate transparency",
                         "pinned CA identities", "pinned leaf identities"]

    /// `HTTP to HOST (KINDS): allowed → blocked; minimum TLS: …` with a `KINDS` placeholder, or
    /// `HOST (KINDS): forward secrecy: …` when HTTP itself does not change, as the text before
    /// and after `HOST`; `nil` when nothing changes. `old` and `new` are in `fields` order.
    private static func describe(old: [String], new: [String]) -> (head: String, tail: String)? {
        let changed = fields.indices.filter { old[$0] != new[$0] }
        guard let first = changed.first else { return nil }
        let parts = changed.filter { $0 != 0 }.map { "\(fields[$0]): \(old[$0]) → \(new[$0])" }
        if first == 0 {
            return ("HTTP to ", ([" (KINDS): \(old[0]) → \(new[0])"] + parts).joined(separator: "; "))
        }
        return ("", " (KINDS): " + parts.joined(separator: "; "))
    }

    /// `change` with its `KINDS` placeholder replaced (a byte search: this runs once per line).
    static func filling(_ change: String, kinds: String) -> String {
        let bytes = Array(change.utf8), hole = Array("KINDS".utf8)
        guard let at = bytes.indices.first(where: { bytes[$0...].starts(with: hole) }) else { return change }
        return String(decoding: bytes[..<at], as: UTF8.self) + kinds + String(decoding: bytes[(at + hole.count)...], as: UTF8.self)
    }

    /// Joins adjacent eras with the same change and kinds into one line (with a hole for the
    /// host's label between `head` and `tail`).
    private static func merged(
        _ changes: [(era: OSEra, head: String, tail: String, kinds: [LoadKind])], labels: EraLabels
    ) -> [(head: String, tail: String)] {
        struct Group { var head: String; var tail: String; var kinds: [LoadKind]; var eras: [OSEra] }
        var groups: [Group] = []
        for item in changes {
            if let index = groups.firstIndex(where: { $0.head == item.head && $0.tail == item.tail && $0.kinds == item.kinds }) {
                groups[index].eras.append(item.era)
            } else {
                groups.append(Group(head: item.head, tail: item.tail, kinds: item.kinds, eras: [item.era]))
            }
        }
        var lines: [(first: OSEra, line: (head: String, tail: String))] = []
        for group in groups {
            let kinds = group.kinds.count == LoadKind.allCases.count ? "all loads" : group.kinds.map(\.rawValue).joined(separator: ", ")
            // The `KINDS` placeholder is in the tail: the head is "HTTP to " or empty.
            let tail = Self.filling(group.tail, kinds: kinds)
            var runStart = group.eras[0]
            var runEnd = runStart
            for era in group.eras.dropFirst().map(Optional.some) + [nil] {
                if let era, era == runEnd.successor {
                    runEnd = era
                    continue
                }
                lines.append((runStart, ("\(labels.label(from: runStart, through: runEnd)): " + group.head, tail)))
                if let era { runStart = era; runEnd = era }
            }
        }
        return lines.enumerated().sorted { ($0.element.first, $0.offset) < ($1.element.first, $1.offset) }.map(\.element.line)
    }
}
