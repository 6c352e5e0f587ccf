import PlistDOM

/// Lowercases the domain keys of `NSExceptionDomains` and `NSPinnedDomains`, and turns a
/// leading `*.` wildcard into the documented `NSIncludesSubdomains` = true.
///
/// ATS matches domain keys against the lowercase host name and does not understand wildcards,
/// so `API.Example.com` and `*.example.com` are exceptions that never apply. An entry whose
/// value is not a dict is no domain and is left alone.
public struct NormalizeExceptionDomains: Migration {
    public let id = "ATS004"
    public let version = 4
    public let name = "normalize-exception-domains"
    public let title = "Lowercase domain keys and replace *. wildcards with NSIncludesSubdomains"
    public let rationale = """
        Apple's NSExceptionDomains reference: use lowercase domain names (example.com, not \
        EXAMPLE.COM), and to cover subdomains set NSIncludesSubdomains to YES instead of writing a \
        wildcard; keys that break these rules do not match the host they were meant for.
        """
    public let impact = Impact.activatesIntent
    public let intent = PolicyIntent.editedSettingsTakeEffect

    public init() {}

    /// It edits domain keys only: there are none.
    public func isInert(on outline: ATSOutline) -> Bool {
        outline.isSwitchesOnly
    }

    public func apply(to session: MigrationSession) {
        for domains in session.domainKeyDicts {
            for entry in domains.entries {
                normalize(entry, in: domains, session: session)
            }
        }
    }

    private func normalize(_ entry: DictEntry, in domains: PlistElement, session: MigrationSession) {
        let key = entry.name
        guard !containsBuildSettingReference(key) else { return }
        var base = key
        let wildcard = key.contains(ascii: "*")
        if wildcard {
            guard key.hasPrefix("*."), !Self.hasWildcard(afterPrefixOf: key) else {
                session.conflict(at: entry.key,
                    "domain key \"\(key)\" uses a wildcard ATS cannot match; left as it is "
                    + "(use the domain name with NSIncludesSubdomains instead)")
                return
            }
            base = String(key.dropFirst(2))
            guard entry.value.name == "dict" else {
                session.conflict(at: entry.key, "domain key \"\(key)\" has a \(entry.value.name), not a dict; left as it is")
                return
            }
        }
        // An entry that is no dict is no domain (a setting written one level too deep, say):
        // lint's L006 says what it is; lowercasing its key would hide what was meant.
        guard entry.value.name == "dict" else { return }
        let normalized = base.lowercased()
        guard normalized != key else { return }

        let renamed = session.renameDomainKey(entry, to: normalized, in: domains,
                                              intended: intendedValue(of: entry, wildcard: wildcard))
        if renamed && wildcard { includeSubdomains(in: entry.value, session: session) }
    }

    /// Whether `key` (which starts with `*.`) holds another `*`, or nothing after the `*.`. An
    /// ASCII key (nearly all) is read as bytes, each byte a character there.
    private static func hasWildcard(afterPrefixOf key: String) -> Bool {
        guard key.utf8.isASCII else { return key.dropFirst(2).contains("*") || key.count <= 2 }
        var bytes = key
        return bytes.withUTF8 { $0.count <= 2 || $0[2...].contains(UInt8(ascii: "*")) }
    }

    /// The value `entry` would have once normalised, to compare with an existing twin.
    private func intendedValue(of entry: DictEntry, wildcard: Bool) -> PlistValue {
        let value = PlistValue(entry.value)
        guard wildcard, case .dict(var settings) = value else { return value }
        settings[ATSKey.includesSubdomains] = .bool(true)
        return .dict(settings)
    }

    private func includeSubdomains(in settings: PlistElement, session: MigrationSession) {
        if let existing = settings.entry(ATSKey.includesSubdomains) {
            if !existing.value.isTrue { session.replace(existing.value, with: .bool(true)) }
        } else {
            session.insert(key: ATSKey.includesSubdomains, value: .bool(true), into: settings, after: nil)
        }
    }
}
