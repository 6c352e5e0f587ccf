import Foundation

/// SARIF 2.1.0 output for GitHub code scanning and other CI readers, written from the spec:
/// one run whose driver lists every rule, and one result per finding with its rule, level,
/// message and a physical location relative to the repository root.
public enum SARIF {
    public static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// Apple's ATS key reference: where every rule's background is documented.

    /// GitHub's security-severity scale (0–10) for each level.
    static func securitySeverity(_ severity: Finding.Severity) -> String {
        switch severity {
        case .error: "7.0"
        case .warning: "4.0"
        case .note: "1.0"
        }
    }

    /// Stable across unrelated edits: the rule, the file and the entry's key path (or the
    /// message for findings about no entry), never the line. FNV-1a 64, hex.
    static func fingerprint(_ finding: Finding, uri: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(finding.ruleID)|\(uri)|\(finding.keyPath ?? finding.message)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    public static func document(
        findings: [Finding], rules: [LintRule], root: String, version: String, executionSuccessful: Bool = true
    ) -> [String: Any] {
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let results: [[String: Any]] = findings.map { finding in
            let location = uri(finding.path, root: root)
            var result: [String: Any] = [
                "ruleId": finding.ruleID,
                "partialFingerprints": ["plistMigrateFinding/v1": fingerprint(finding, uri: location)],
                "level": finding.severity.rawValue,
                "message": ["text": finding.message + (finding.fix.map { " Fix: plist-migrate --only \($0)." } ?? "")],
                "locations": [[
                    "physicalLocation": [
                        "artifactLocation": ["uri": location, "uriBaseId": "%SRCROOT%"],
                        "region": ["startLine": finding.line, "startColumn": finding.column],
                    ],
                ]],
            ]
            if let index = ruleIndex[finding.ruleID] { result["ruleIndex"] = index }
            // A posture finding's own exposure (its rule's default is the typical one).
            if let score = finding.securitySeverity { result["properties"] = ["security-severity": String(format: "%.1f", score)] }
            return result
        }
        let driverRules: [[String: Any]] = rules.map { rule in
            [
                "id": rule.id,
                "name": rule.name,
                "shortDescription": ["text": rule.summary],
                "fullDescription": ["text": rule.help],
                "help": ["text": rule.help, "markdown": "**\(rule.id) \(rule.name)**: \(rule.summary).\n\n\(rule.help)"],
                "helpUri": rule.documentation,
                "defaultConfiguration": ["level": rule.severity.rawValue],
                "properties": [
                    "tags": ["security", "app-transport-security", rule.group],
                    "security-severity": securitySeverity(rule.severity),
                    "precision": "high",
                ],
            ]
        }
        return [
            "$schema": schema,
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "plist-migrate",
                    "version": version,
                    "semanticVersion": version,
                    "rules": driverRules,
                ]],
                "columnKind": "unicodeCodePoints",
                "automationDetails": ["id": "plist-migrate/lint/"],
                "invocations": [["executionSuccessful": executionSuccessful]],
                "originalUriBaseIds": ["%SRCROOT%": ["uri": "file://" + percentEncoded(root.hasSuffix("/") ? root : root + "/")]],
                "results": results,
            ]],
        ]
    }

    /// A report's name for a file (see `ReportPaths`: already relative to `root` unless it lies
    /// outside), relative to `root`, percent-encoded as a URI reference.
    static func uri(_ path: String, root: String) -> String {
        guard path.hasPrefix("/") || path.hasPrefix("../") else { return percentEncoded(path) }
        let absolute = FileIO.absolute(path)
        let base = FileIO.absolute(root)
        let relative = absolute.hasPrefix(base + "/") ? String(absolute.dropFirst(base.count + 1)) : absolute
        return percentEncoded(relative)
    }

    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "%")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The repository root holding the working directory, or the working directory outside git.
    public static func repositoryRoot() -> String {
        ReportPaths.current.root
    }
}
