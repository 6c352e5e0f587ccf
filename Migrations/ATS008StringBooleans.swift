import PlistDOM

/// Turns `<string>YES</string>`, `NO`, `true` or `false` on boolean ATS keys into `<true/>` or
/// `<false/>`.
public struct StringBooleans: Migration {
    public let id = "ATS008"
    public let version = 8
    public let name = "string-booleans"
    public let title = "Write boolean ATS keys as <true/> or <false/>, not as strings"
    public let rationale = """
        Apple documents the ATS switches (NSAllowsArbitraryLoads, NSIncludesSubdomains, \
        NSExceptionAllowsInsecureHTTPLoads, …) as Boolean values; a string value is not a Boolean, \
        so the setting is not read as the author meant.
        """
    public let impact = Impact.activatesIntent
    public let intent = PolicyIntent.editedSettingsTakeEffect

    public init() {}

    /// Each level's Boolean keys, worked out once.
    private static let booleanKeys = ATSKeyCatalog.keys.mapValues { Set($0.filter { $0.value == .bool }.keys) }

    /// Switches hold `<true/>` or `<false/>`, and the only strings in domains are TLS versions.
    public func isInert(on outline: ATSOutline) -> Bool {
        outline.domainStringsAreTLSVersionsOnly
    }

    public func apply(to session: MigrationSession) {
        for level in ATSKeyCatalog.Level.allCases {
            let booleans = Self.booleanKeys[level] ?? []
            for dict in session.dicts(at: level) {
                // The value's kind first: most values are not strings, and their key's name is
                // then never decoded.
                for entry in dict.entries where entry.value.kind == .string && booleans.contains(entry.name) {
                    switch entry.value.text.trimmingCharacters(in: " \t\n\r").lowercased() {
                    case "yes", "true": session.replace(entry.value, with: .bool(true))
                    case "no", "false": session.replace(entry.value, with: .bool(false))
                    default: continue
                    }
                }
            }
        }
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}
