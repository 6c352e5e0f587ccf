import PlistDOM

/// Rewrites minimum-TLS values the system does not recognise into the documented spelling:
/// `TLS v1.2`, `tlsv1.2`, `TLSv1.2 ` and `TLS1.2` → `TLSv1.2`.
public struct NormalizeTLSVersion: Migration {
    public let id = "ATS007"
    public let version = 7
    public let name = "normalize-tls-version"
    public let title = "Spell minimum TLS versions as TLSv1.0, TLSv1.1, TLSv1.2 or TLSv1.3"
    public let rationale = """
        Apple's NSExceptionMinimumTLSVersion reference lists exactly the values TLSv1.0, TLSv1.1, \
        TLSv1.2 and TLSv1.3; another spelling is not one of them, so the minimum the author chose \
        is not the one applied.
        """
    public let impact = Impact.activatesIntent
    public let intent = PolicyIntent.editedSettingsTakeEffect

    public init() {}

    /// Nothing to normalize where no domain holds a minimum-TLS key.
    public func isInert(on outline: ATSOutline) -> Bool {
        outline.domainsAreDocumented && !outline.domainsMayHoldAny(of: ATSOutline.minimumTLSKeys)
    }

    public func apply(to session: MigrationSession) {
        for dict in session.dicts(at: .exceptionDomain) {
            // The value's kind first: most values are not strings (no key name decoded then).
            for entry in dict.entries where entry.value.kind == .string && ATSKeyCatalog.minimumTLSKeys.contains(entry.name) {
                if let canonical = Self.canonical(entry.value.text), canonical != entry.value.text {
                    session.replace(entry.value, with: .string(canonical))
                }
            }
        }
    }

    /// `TLSv1.x` for any spelling of TLS 1.0–1.3; `nil` for anything else.
    public static func canonical(_ text: String) -> String? {
        let compact = text.lowercased().filter { !$0.isWhitespace }
        for minor in 0...3 where compact == "tlsv1.\(minor)" || compact == "tls1.\(minor)" {
            return "TLSv1.\(minor)"
        }
        return nil
    }
}
