/// Apple's built-in exception domains. Apple's open-source ATS reader (Security,
/// `protocol/SecProtocolConfiguration.m`, `sec_protocol_configuration_register_builtin_exceptions`,
/// called for every app by `sec_protocol_configuration_create_with_builder` before the app's
/// own dictionary is read) registers these domains with subdomains included, plain HTTP
/// allowed, forward secrecy not required and Certificate Transparency required; only the
/// minimum TLS version differs. An app's `NSExceptionDomains` entry with the same key replaces
/// the built-in one (Apple's test `testExceptionOverridesBuiltInException`). No Apple page lists
/// them: the reader is the source.
enum BuiltInExceptions {
    struct Entry: Sendable {
        let domain: String
        let minimumTLS: String
    }

    static let entries: [String: Entry] = Dictionary(uniqueKeysWithValues: [
        Entry(domain: "apple.com", minimumTLS: "TLSv1.2"),
        Entry(domain: "ls.apple.com", minimumTLS: "TLSv1.0"),
        Entry(domain: "gs.apple.com", minimumTLS: "TLSv1.0"),
        Entry(domain: "geo.apple.com", minimumTLS: "TLSv1.0"),
        Entry(domain: "is.autonavi.com", minimumTLS: "TLSv1.0"),
        Entry(domain: "apple-mapkit.com", minimumTLS: "TLSv1.0"),
        Entry(domain: "setup.icloud.com", minimumTLS: "TLSv1.2"),
    ].map { ($0.domain, $0) })

    /// `apple.com`, `autonavi.com`, `apple-mapkit.com`, `icloud.com`: what every entry ends with.
    /// As bytes: a host's name is lowercased, so a byte comparison of its end is the test.
    private static let lastTwoLabels = Set(entries.keys.map { $0.split(separator: ".").suffix(2).joined(separator: ".") })
        .sorted().map { Array($0.utf8) }

    /// Whether a built-in domain is the host or one of its parents (whatever the app's keys).
    static func covers(_ host: Host) -> Bool {
        match(host, appHasKey: { _ in false }) != nil
    }

    /// `covers` for a lowercase name, looked at before a host is made of it.
    static func covers(name: String) -> Bool {
        lastTwoLabels.contains { name.utf8.hasSuffix(bytes: $0) } && covers(Host(name))
    }

    /// The built-in entry that decides for a host name, with how many labels above the host it
    /// is (0: the host itself): the reader walks from the host up, and at each name the app's
    /// own key, when there is one, has replaced the built-in entry. `nil` for addresses.
    static func match(_ host: Host, appHasKey: (String) -> Bool) -> (entry: Entry, depth: Int)? {
        // Asked for every host of every decision: a host ending in none of the built-in domains'
        // last two labels is passed over before any label is copied.
        guard !host.isIPAddress, lastTwoLabels.contains(where: { host.name.utf8.hasSuffix(bytes: $0) }) else { return nil }
        var name = Substring(host.name), depth = 0
        while true {
            let text = String(name)
            if let entry = entries[text], !appHasKey(text) { return (entry, depth) }
            guard let dot = name.firstIndex(of: ".") else { return nil }
            name = name[name.index(after: dot)...]
            depth += 1
        }
    }

    /// How many labels `key` is above `host` (0 when they are the same name).
    static func depth(of key: String, above host: Host) -> Int {
        host.name.split(separator: ".", omittingEmptySubsequences: false).count
            - key.split(separator: ".", omittingEmptySubsequences: false).count
    }

    /// The policy of a built-in entry, and why.
    static func policy(_ entry: Entry, era: OSEra, explaining: Bool) -> Decision {
        var decision = Decision.atsDefaults
        decision.httpAllowed = true
        decision.minimumTLS = entry.minimumTLS
        decision.requiresForwardSecrecy = false
        guard explaining else { return decision }
        decision.decidedBy.append(.init(key: "(built in) \(entry.domain)", line: nil,
            rule: "Apple's built-in exception for \(entry.domain) and its subdomains: HTTP allowed, minimum \(entry.minimumTLS), "
                + "forward secrecy not required (Security, SecProtocolConfiguration.m, sec_protocol_configuration_register_builtin_exceptions); "
                + "an NSExceptionDomains entry for \(entry.domain) would replace it"))
        if era < .ios12 {
            decision.openQuestions.append("Apple's built-in exception for \(entry.domain) comes from Apple's open-source reader, "
                + "which no Apple page dates: applied on \(era.label) too")
        }
        return decision
    }
}
