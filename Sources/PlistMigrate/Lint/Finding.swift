import Migrations
import PlistDOM
import FileAccess

/// One lint result.
public struct Finding: Sendable, Codable, Equatable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case note, warning, error
        public static func < (a: Severity, b: Severity) -> Bool { order(a) < order(b) }
        private static func order(_ s: Severity) -> Int { s == .note ? 0 : s == .warning ? 1 : 2 }
    }

    public var ruleID: String
    public var severity: Severity
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String
    /// The migration that fixes it, when one does.
    public var fix: String?
    /// The entry it is about (`NSAppTransportSecurity:NSExceptionDomains:example.com`): what a
    /// baseline matches, so that edits elsewhere do not move it.
    public var keyPath: String?
    /// Posture findings: the exposure on GitHub's security-severity scale (0–10).
    public var securitySeverity: Double?

    enum CodingKeys: String, CodingKey {
        case ruleID = "ruleId", severity, path, line, column, message, fix, keyPath, securitySeverity
    }

    public init(ruleID: String, severity: Severity, path: String, line: Int, column: Int, message: String,
                fix: String? = nil, keyPath: String? = nil, securitySeverity: Double? = nil) {
        self.ruleID = ruleID
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.fix = fix
        self.keyPath = keyPath
        self.securitySeverity = securitySeverity
    }

    /// `path:line:column: severity: [RULE] message (fix: ID name)`
    public var text: String {
        let fixText = fix.flatMap { MigrationRegistry.migration(id: $0) }.map { " (fix: \($0.id) \($0.name))" } ?? ""
        // One finding, one line: line breaks in a value the message quotes are written escaped.
        let oneLine = OneLine.escaped(message)
        return "\(path):\(line):\(column): \(severity.rawValue): [\(ruleID)] \(oneLine)\(fixText)"
    }
}

extension Finding {
    /// What identifies each finding across runs, for SARIF's `partialFingerprints` and GitLab's
    /// `fingerprint`: the rule, the file, the entry's key path and the message
    /// (line numbers in it left out), so it is stable when unrelated lines move; findings that
    /// are the same in all of these (two entries the same) are told apart by their order.
    /// `location` names the file as the format does (a URI for SARIF).
    static func identities(_ findings: [Finding], location: (Finding) -> String) -> [String] {
        var seen: [String: Int] = [:]
        return findings.map { finding in
            let base = "\(finding.ruleID)|\(location(finding))|\(finding.keyPath ?? "")|\(withoutLineNumbers(finding.message))"
            let occurrence = seen[base, default: 0]
            seen[base] = occurrence + 1
            return occurrence == 0 ? base : base + "#\(occurrence)"
        }
    }

    /// `first at line 3` → `first at line #`: where a finding is may not change what it is.
    static func withoutLineNumbers(_ message: String) -> String {
        var out = "", rest = Substring(message)
        while let range = rest.range(of: "line ") {
            out += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty { out += "#"; rest = rest.dropFirst(digits.count) }
        }
        return out + rest
    }
}

/// A lint rule: every migration is one (what it would change), plus checks no pass can fix.
public struct LintRule: Sendable, Equatable {
    public var id: String
    public var name: String
    public var summary: String
    public var severity: Finding.Severity
    public var help: String
    /// `posture` (what the settings allow: P001–P005, and L007's malformed pins) or `checks`.
    public var group: String { Self.group(of: id) }

    public static let groups = ["checks", "posture"]

    /// The id of the rule `text` names: its id in any case (`l005`) or its name
    /// (`arbitrary-loads`), as SwiftLint's configs address rules by name; `nil` for neither.
    public static func id(named text: String) -> String? {
        let upper = text.uppercased()
        if all.contains(where: { $0.id == upper }) { return upper }
        return all.first { $0.name == text.lowercased() }?.id
    }

    /// ` (did you mean "arbitrary-loads"?)` for a rule name or id one or two edits from a known
    /// one, else empty.
    public static func suggestion(for text: String) -> String {
        guard let near = NearestName.nearest(to: text, among: all.flatMap { [$0.name, $0.id] } + groups) else { return "" }
        return " (did you mean \"\(near)\"?)"
    }

    public static func group(of id: String) -> String { id.hasPrefix("P") || id == "L007" ? "posture" : "checks" }
    /// Apple's reference page for the key the rule is about (SARIF's `helpUri`).
    public var documentation: String { Self.applePage(Self.documentedKey[id] ?? "NSAppTransportSecurity") }

    /// The key whose page documents each rule; a rule about the whole dict (spelling, types,
    /// duplicates, parse errors, suppressions) gets NSAppTransportSecurity's.
    static let documentedKey: [String: String] = [
        "ATS001": "NSExceptionDomains", "ATS002": "NSAllowsArbitraryLoadsForMedia", "ATS003": "NSAllowsLocalNetworking",
        "ATS004": "NSIncludesSubdomains", "ATS006": "NSExceptionDomains", "ATS007": "NSExceptionMinimumTLSVersion",
        "ATS009": "NSExceptionAllowsInsecureHTTPLoads", "ATS010": "NSAllowsArbitraryLoads",
        "L003": "NSExceptionMinimumTLSVersion", "L004": "NSExceptionDomains", "L005": "NSAllowsArbitraryLoads",
        "L006": "NSExceptionDomains", "L007": "NSPinnedDomains", "L010": "NSExceptionDomains",
    ]

    static func applePage(_ key: String) -> String {
        "https://developer.apple.com/documentation/bundleresources/information-property-list/" + key.lowercased()
    }

    static func forMigration(_ migration: any Migration) -> LintRule {
        LintRule(id: migration.id, name: migration.name, summary: migration.title, severity: severity(of: migration),
                 help: migration.rationale + " Fixed by `plist-migrate --only \(migration.id)`.")
    }

    /// The severity of a migration's findings (its rule's, without building the rule's texts).
    static func severity(of migration: any Migration) -> Finding.Severity {
        switch migration.impact {
        case .spelling: .warning
        case .activatesIntent: .error
        case .changesPolicy: .note
        }
    }

    public static let lintOnly: [LintRule] = [
        LintRule(id: "L001", name: "unknown-key", summary: "Unknown or misspelled ATS key that no migration can fix on its own",
                 severity: .error, help: "The system reads ATS keys by their exact, documented names; this key is ignored."),
        LintRule(id: "L002", name: "wrong-value-type", summary: "ATS key with a value of the wrong type",
                 severity: .error, help: "Apple documents each ATS key's type; a value of another type is not read."),
        LintRule(id: "L003", name: "invalid-tls-version", summary: "NSExceptionMinimumTLSVersion is not TLSv1.0–TLSv1.3",
                 severity: .error, help: "Apple lists TLSv1.0, TLSv1.1, TLSv1.2 and TLSv1.3 as the only values."),
        LintRule(id: "L004", name: "domain-key-format", summary: "Domain key that matches differently than it seems",
                 severity: .warning, help: "Keys of NSExceptionDomains are compared with the host as written: a trailing dot matches only the name with a trailing dot; IP addresses are valid keys only from iOS 17/macOS 14."),
        LintRule(id: "L005", name: "arbitrary-loads", summary: "NSAllowsArbitraryLoads is true",
                 severity: .warning, help: "Turning ATS off needs a justification in App Review; prefer narrow exception domains."),
        LintRule(id: "L006", name: "not-a-dict", summary: "NSExceptionDomains/NSPinnedDomains (or one of their domains) is not a dict",
                 severity: .error, help: "Apple documents these as dictionaries; anything else is ignored."),
        LintRule(id: "L007", name: "pinned-identities", summary: "NSPinnedDomains entry without valid identities",
                 severity: .error, help: "Each pinned domain needs NSPinnedCAIdentities or NSPinnedLeafIdentities, whose SPKI-SHA256-BASE64 values are base64 SHA-256 digests (32 bytes)."),
        LintRule(id: "L008", name: "duplicate-key", summary: "Duplicate key where ATS is configured",
                 severity: .error, help: "Apple's reader keeps the last of duplicate keys; the earlier ones are dead text."),
        LintRule(id: "L010", name: "build-setting-reference", summary: "Domain key or value set by a build setting",
                 severity: .note, help: "Xcode substitutes $(NAME) and ${NAME} (in NSExceptionDomains keys and in values) when it builds the Info.plist; their values are not known here, so the entry cannot be checked or migrated. Check the built app's Info.plist."),
        LintRule(id: "L011", name: "unused-suppression", summary: "A plist-migrate:disable comment that silences nothing",
                 severity: .warning, help: "Remove the comment, or correct the rule it names; stale suppressions hide nothing but still read as if they did."),
        LintRule(id: "P001", name: "http-everywhere", summary: "Plain HTTP allowed to every host without an exception, for some loads on some supported OS",
                 severity: .error, help: "NSAllowsArbitraryLoads (and, from iOS 10/macOS 10.12, NSAllowsArbitraryLoadsForMedia or NSAllowsArbitraryLoadsInWebContent) turn ATS off for those loads; the finding names the loads and the OS versions where a supported OS reads the key, and none where every supported OS ignores it."),
        LintRule(id: "P002", name: "http-to-domain", summary: "Plain HTTP allowed to a listed domain (or IP address)",
                 severity: .warning, help: "NSExceptionAllowsInsecureHTTPLoads on an entry of NSExceptionDomains lets plain HTTP through to that host (and its subdomains with NSIncludesSubdomains); IP-address keys count only from iOS 17/macOS 14."),
        LintRule(id: "P003", name: "weakened-tls", summary: "TLS below 1.2, forward secrecy off, or CT not required where the OS would require it",
                 severity: .warning, help: "NSExceptionMinimumTLSVersion below TLSv1.2 and NSExceptionRequiresForwardSecrecy = NO weaken HTTPS to that host. An absent key keeps Apple's default (forward secrecy required), and from iOS 12.1.1 the OS requires Certificate Transparency whatever the plist says: neither is reported."),
        LintRule(id: "P004", name: "local-network", summary: "Plain HTTP allowed to the local network where the OS would block it",
                 severity: .note, help: "NSAllowsLocalNetworking (or arbitrary loads) lets plain HTTP through to .local names and local IP addresses; reported only on the OS versions whose default would block it."),
        LintRule(id: "P005", name: "pins-without-ats", summary: "NSPinnedDomains entry for a host where ATS lets plain HTTP through",
                 severity: .warning, help: "Pins are checked on TLS connections; where plain HTTP is allowed to the pinned host (or ATS does not apply to it), they protect nothing."),
        LintRule(id: "L009", name: "parse-error", summary: "The file is not a plist that can be read",
                 severity: .error, help: "Fix the XML or plist structure first."),
    ]

    public static let all: [LintRule] = MigrationRegistry.all.map(forMigration) + lintOnly

    /// Each rule's severity by its id, for findings made many times per run.
    static let severities: [String: Finding.Severity] = Dictionary(all.map { ($0.id, $0.severity) }, uniquingKeysWith: { first, _ in first })
}
