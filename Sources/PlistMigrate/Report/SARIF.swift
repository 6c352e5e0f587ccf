import Foundation
import FileAccess

/// SARIF 2.1.0 output for GitHub code scanning and other CI readers, written from the spec:
/// one run whose driver lists every rule, and one result per finding with its rule, level,
/// message and a physical location relative to the repository root.
public enum SARIF {
    public static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// GitHub code scanning's bands of `security-severity` (over 9.0 critical, 7.0–8.9 high,
    /// 4.0–6.9 medium, below 4.0 low). GitHub reads the value only from a rule's descriptor, not
    /// from a result, so each posture rule has one descriptor per band (`P001/critical`, a
    /// sub-rule in SARIF's hierarchical ids) and each finding points at the one its own exposure
    /// falls in: the severity a GitHub user sees is the finding's.
    enum ExposureBand: String, CaseIterable {
        case critical, high, medium, low

        init(score: Double) {
            self = score >= 9 ? .critical : score >= 7 ? .high : score >= 4 ? .medium : .low
        }

        /// The level a finding of the band has (`Posture.severity`: 7 and over an error, 4 a warning).
        var level: String {
            switch self {
            case .critical, .high: "error"
            case .medium: "warning"
            case .low: "note"
            }
        }

        /// The value the band's descriptor carries: inside the band, away from its edges.
        var securitySeverity: String {
            switch self {
            case .critical: "9.5"
            case .high: "8.0"
            case .medium: "5.5"
            case .low: "2.0"
            }
        }
    }

    /// Rules about exposure (posture: what the settings allow) are security alerts; the others
    /// (spelling, types, parse errors, migrations) are code-quality findings without a security
    /// severity.
    static func isAboutExposure(_ ruleID: String) -> Bool { LintRule.group(of: ruleID) == "posture" }

    /// The descriptor id a finding reports under: its band's for a posture finding with a score.
    static func descriptorID(_ finding: Finding) -> String {
        guard let score = finding.securitySeverity, isAboutExposure(finding.ruleID) else { return finding.ruleID }
        return finding.ruleID + "/" + ExposureBand(score: score).rawValue
    }

    /// L007 (malformed pins) has no computed exposure: a medium security alert.
    static let unbandedSecuritySeverity = "5.5"

    /// Stable across unrelated edits and distinct within a run (`Finding.identities`): FNV-1a 64, hex.
    static func fingerprint(_ identity: String) -> String {
        String(FNV1a.hash(identity.utf8), radix: 16)
    }

    public static func document(
        findings: [Finding], rules: [LintRule], root: String, version: String, executionSuccessful: Bool = true
    ) -> [String: Any] {
        // Posture rules are listed once per exposure band (see `ExposureBand`), the others once.
        let descriptors: [(id: String, rule: LintRule, band: ExposureBand?)] = rules.flatMap { rule in
            rule.id.hasPrefix("P") ? ExposureBand.allCases.map { (rule.id + "/" + $0.rawValue, rule, $0) } : [(rule.id, rule, nil)]
        }
        let ruleIndex = Dictionary(uniqueKeysWithValues: descriptors.enumerated().map { ($1.id, $0) })
        let identities = Finding.identities(findings) { uri($0.path, root: root) }
        let results: [[String: Any]] = zip(findings, identities).map { finding, identity in
            let location = uri(finding.path, root: root)
            var result: [String: Any] = [
                "ruleId": descriptorID(finding),
                // v2: v1 left the message and order out, so two findings on one entry collided.
                "partialFingerprints": ["plistMigrateFinding/v2": fingerprint(identity)],
                "level": finding.severity.rawValue,
                "message": ["text": finding.message + (finding.fix.map { " Fix: plist-migrate --only \($0)." } ?? "")],
                "locations": [[
                    "physicalLocation": [
                        "artifactLocation": ["uri": location, "uriBaseId": "%SRCROOT%"],
                        "region": ["startLine": finding.line, "startColumn": finding.column],
                    ],
                ]],
            ]
            if let index = ruleIndex[descriptorID(finding)] { result["ruleIndex"] = index }
            // A posture finding's own exposure (its rule's default is the typical one).
            if let score = finding.securitySeverity { result["properties"] = ["security-severity": String(format: "%.1f", score)] }
            return result
        }
        let driverRules: [[String: Any]] = descriptors.map { id, rule, band in
            var properties: [String: Any] = ["tags": ["app-transport-security", rule.group], "precision": "high"]
            if isAboutExposure(rule.id) {
                properties["tags"] = ["security", "app-transport-security", rule.group]
                properties["security-severity"] = band?.securitySeverity ?? unbandedSecuritySeverity
            }
            let bandText = band.map { " (\($0.rawValue) exposure)" } ?? ""
            return [
                "id": id,
                "name": rule.name + (band.map { "-" + $0.rawValue } ?? ""),
                "shortDescription": ["text": rule.summary + bandText],
                "fullDescription": ["text": rule.help],
                "help": ["text": rule.help, "markdown": "**\(rule.id) \(rule.name)**: \(rule.summary).\n\n\(rule.help)"],
                "helpUri": rule.documentation,
                "defaultConfiguration": ["level": band?.level ?? rule.severity.rawValue],
                "properties": properties,
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
                "originalUriBaseIds": ["%SRCROOT%": ["uri": "file://" + PathBytes.percentEncoded(root.hasSuffix("/") ? root : root + "/")]],
                "results": results,
            ]],
        ]
    }

    /// A report's name for a file (see `ReportPaths`: already relative to `root` unless it lies
    /// outside), relative to `root`, percent-encoded as a URI reference.
    static func uri(_ shown: String, root: String) -> String {
        // Reports show names quoted where needed (`PathBytes.display`); a URI holds the bytes.
        let path = PathBytes.unquoted(shown) ?? shown
        guard path.hasPrefix("/") || path.hasPrefix("../") else { return PathBytes.percentEncoded(path) }
        let absolute = FileIO.absolute(path)
        let base = FileIO.absolute(root)
        let relative = absolute.hasPrefix(base + "/") ? String(absolute.dropFirst(base.count + 1)) : absolute
        return PathBytes.percentEncoded(relative)
    }

    /// The repository root holding the working directory, or the working directory outside git.
    public static func repositoryRoot() -> String {
        ReportPaths.current.root
    }
}
