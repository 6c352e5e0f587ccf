import PlistDOM

/// Strips what is not part of a domain name from NSExceptionDomains/NSPinnedDomains keys:
/// `http://` or `https://`, a port, a path or a trailing slash.
///
/// A trailing dot is left alone: Apple gives `example.com.` a meaning of its own.
public struct CleanDomainKeys: Migration {
    public let id = "ATS006"
    public let version = 6
    public let name = "clean-domain-keys"
    public let title = "Strip schemes, ports, paths and trailing slashes from domain keys"
    public let rationale = """
        Apple's NSExceptionDomains reference: use a DNS domain name or IP address, and don't \
        include a port number; a key such as https://example.com:443/api matches no host, so its \
        exception never applies.
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
                // Decoded once: each `name` is a new String.
                let name = entry.name
                // An entry that is no dict is no domain: left alone (lint's L006 names it).
                guard entry.value.name == "dict", !containsBuildSettingReference(name) else { continue }
                let cleaned = Self.clean(name)
                guard cleaned != name, !cleaned.isEmpty else { continue }
                guard Self.isHostLike(cleaned) else {
                    // `</script>.example.com` would become `<`: never write a key that is no host.
                    session.conflict(at: entry.key,
                        "domain key \"\(name)\" would become \"\(cleaned)\", which is not a host name; left as it is")
                    continue
                }
                session.renameDomainKey(entry, to: cleaned, in: domains)
            }
        }
    }

    /// `HTTPS://Example.com:8443/path/` → `Example.com` (case is ATS004's business).
    /// Whether `name` can name a host or range: letters (any script, for internationalized
    /// names), digits, and the punctuation of names, addresses and ranges (`.-_:[]%*/`).
    static func isHostLike(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_:[]%*/".unicodeScalars.contains(scalar)
        }
    }

    static func clean(_ key: String) -> String {
        // Nothing to clean without a `/` or `:` (most keys): no searching.
        guard key.utf8Contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") }) else { return key }
        var name = Substring(key)
        for scheme in ["https://", "http://"] where name.lowercased().hasPrefix(scheme) {
            name = name.dropFirst(scheme.count)
        }
        // Another scheme (`ftp://d.com`) is not a web address ATS governs: not ours to guess at.
        if name.contains("://") { return key }
        if let slash = name.firstIndex(of: "/") {
            // Keep a CIDR range such as 10.0.0.0/8.
            let suffix = name[name.index(after: slash)...]
            let isCIDR = !suffix.isEmpty && suffix.allSatisfy(\.isNumber) && !name.contains("://")
            if !isCIDR { name = name[..<slash] }
        }
        // A port: `host:digits`, but not an IPv6 address (more than one colon).
        if name.filter({ $0 == ":" }).count == 1, let colon = name.firstIndex(of: ":"), colon != name.startIndex,
            case let port = name[name.index(after: colon)...], !port.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber)
        {
            name = name[..<colon]
        }
        return String(name)
    }
}
