import Foundation

/// SARIF 2.1.0 output for GitHub code scanning and other CI readers, written from the spec:
/// one run whose driver lists every rule, and one result per finding with its rule, level,
/// message and a physical location relative to the repository root.
public enum SARIF {
    public static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    public static func document(findings: [Finding], rules: [LintRule], root: String, version: String) -> [String: Any] {
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let results: [[String: Any]] = findings.map { finding in
            var result: [String: Any] = [
                "ruleId": finding.ruleID,
                "level": finding.severity.rawValue,
                "message": ["text": finding.message + (finding.fix.map { " Fix: plist-migrate --only \($0)." } ?? "")],
                "locations": [[
                    "physicalLocation": [
                        "artifactLocation": ["uri": uri(finding.path, root: root), "uriBaseId": "%SRCROOT%"],
                        "region": ["startLine": finding.line, "startColumn": finding.column],
                    ],
                ]],
            ]
            if let index = ruleIndex[finding.ruleID] { result["ruleIndex"] = index }
            return result
        }
        let driverRules: [[String: Any]] = rules.map { rule in
            [
                "id": rule.id,
                "name": rule.name,
                "shortDescription": ["text": rule.summary],
                "fullDescription": ["text": rule.help],
                "help": ["text": rule.help],
                "defaultConfiguration": ["level": rule.severity.rawValue],
            ]
        }
        return [
            "$schema": schema,
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "plist-migrate",
                    "informationUri": "https://github.com/plist-migrate/plist-migrate",
                    "semanticVersion": version,
                    "rules": driverRules,
                ]],
                "originalUriBaseIds": ["%SRCROOT%": ["uri": "file://" + percentEncoded(root.hasSuffix("/") ? root : root + "/")]],
                "results": results,
            ]],
        ]
    }

    /// `path` relative to `root` (both made absolute), percent-encoded as a URI reference.
    static func uri(_ path: String, root: String) -> String {
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

    /// The repository root (git's top level), or the working directory outside git.
    public static func repositoryRoot() -> String {
        if let output = Subprocess.run("git", ["rev-parse", "--show-toplevel"]) {
            let top = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !top.isEmpty { return top }
        }
        return FileManager.default.currentDirectoryPath
    }
}
