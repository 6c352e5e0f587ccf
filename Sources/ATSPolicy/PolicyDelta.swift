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
        var classes = [
            HostClass(label: "any other host", host: Host("a.unlisted-host.invalid")),
            HostClass(label: "a local name", host: Host("printer.local")),
            HostClass(label: "a local IP address", host: Host("192.168.0.10")),
        ]
        var seen = Set(classes.map(\.host))
        for config in configs {
            for rule in config.exceptionDomains + config.pinnedDomains {
                // The host the key is meant to name (scheme, `*.`, port and path stripped), so
                // that a key that starts to match shows the change on that host.
                let name = rule.meantHost
                guard !name.isEmpty, !name.contains("*"), rule.matcher != .resolvedAtBuildTime else { continue }
                for host in [Host(name), Host("sub." + name)] where seen.insert(host).inserted {
                    classes.append(HostClass(label: host.name, host: host))
                }
            }
        }
        return classes
    }

    /// `["no policy change"]`, or one line per host, kind and run of OS eras, e.g.
    /// `iOS 10+/macOS 10.12+: HTTP to any other host (urlSession): allowed → blocked; minimum TLS: not enforced → TLSv1.2`.
    ///
    /// - Parameters:
    ///   - eras: the OS eras to consider (the app's supported ones).
    ///   - include: which host and kind of load to consider (all, by default).
    public static func lines(
        before: ATSConfiguration, after: ATSConfiguration, eras: [OSEra] = OSEra.allCases,
        include: (Host, LoadKind) -> Bool = { _, _ in true }
    ) -> [String] {
        if before.isPolicyEquivalent(to: after) { return ["no policy change"] }
        let indexedBefore = PolicyEngine.Indexed(before), indexedAfter = PolicyEngine.Indexed(after)
        var output: [String] = []
        for hostClass in hostClasses([before, after]) {
            // Per era: the change text → the kinds that changed that way, in kind order.
            var perEra: [(era: OSEra, change: String, kinds: [LoadKind])] = []
            // A host none of whose loads count needs no decisions.
            guard LoadKind.allCases.contains(where: { include(hostClass.host, $0) }) else { continue }
            for era in eras {
                var order: [String] = []
                var kindsByChange: [String: [LoadKind]] = [:]
                let olds = PolicyEngine.decide(indexedBefore, era: era, host: hostClass.host, kinds: LoadKind.allCases)
                let news = PolicyEngine.decide(indexedAfter, era: era, host: hostClass.host, kinds: LoadKind.allCases)
                for (index, kind) in LoadKind.allCases.enumerated() where include(hostClass.host, kind) {
                    let old = olds[index]
                    let new = news[index]
                    guard !old.samePolicy(as: new) else { continue }
                    let change = describe(old: old.policy, new: new.policy, host: hostClass.label)
                    guard !change.isEmpty else { continue }
                    if kindsByChange[change] == nil { order.append(change) }
                    kindsByChange[change, default: []].append(kind)
                }
                perEra += order.map { (era, $0, kindsByChange[$0]!) }
            }
            output += merged(perEra)
        }
        return output.isEmpty ? ["no policy change"] : output
    }

    static let fields = ["HTTP", "minimum TLS", "forward secrecy", "certificate transparency",
                         "pinned CA identities", "pinned leaf identities"]

    /// `HTTP to HOST (KINDS): allowed → blocked; minimum TLS: …` with a `KINDS` placeholder, or
    /// `HOST (KINDS): forward secrecy: …` when HTTP itself does not change.
    private static func describe(old: [String: String], new: [String: String], host: String) -> String {
        let changed = fields.filter { old[$0] != new[$0] }
        guard !changed.isEmpty else { return "" }
        var parts: [String] = []
        var head = "\(host) (KINDS)"
        for field in changed {
            if field == "HTTP" {
                head = "HTTP to \(host) (KINDS): \(old[field]!) → \(new[field]!)"
            } else {
                parts.append("\(field): \(old[field]!) → \(new[field]!)")
            }
        }
        return changed.first == "HTTP" ? ([head] + parts).joined(separator: "; ") : head + ": " + parts.joined(separator: "; ")
    }

    /// Joins adjacent eras with the same change and kinds into one line.
    private static func merged(_ changes: [(era: OSEra, change: String, kinds: [LoadKind])]) -> [String] {
        struct Group { var change: String; var kinds: [LoadKind]; var eras: [OSEra] }
        var groups: [Group] = []
        for item in changes {
            if let index = groups.firstIndex(where: { $0.change == item.change && $0.kinds == item.kinds }) {
                groups[index].eras.append(item.era)
            } else {
                groups.append(Group(change: item.change, kinds: item.kinds, eras: [item.era]))
            }
        }
        var lines: [(first: OSEra, line: String)] = []
        for group in groups {
            let kinds = group.kinds.count == LoadKind.allCases.count ? "all loads" : group.kinds.map(\.rawValue).joined(separator: ", ")
            var runStart = group.eras[0]
            var runEnd = runStart
            for era in group.eras.dropFirst().map(Optional.some) + [nil] {
                if let era, era == runEnd.successor {
                    runEnd = era
                    continue
                }
                lines.append((runStart, "\(OSEra.label(from: runStart, through: runEnd)): " + group.change.replacing("KINDS", with: kinds)))
                if let era { runStart = era; runEnd = era }
            }
        }
        return lines.enumerated().sorted { ($0.element.first, $0.offset) < ($1.element.first, $1.offset) }.map(\.element.line)
    }
}
