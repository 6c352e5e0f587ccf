import Foundation
import ATSPolicy
import PlistDOM

/// Runs the linter over paths (same discovery as the migrations) and renders the findings.
public struct LintRunner {
    public enum Format: String, Sendable, CaseIterable { case text, json, sarif }

    public var paths: [String]
    public var format: Format = .text
    public var excludes: [Glob] = []
    public var includes: [Glob] = []
    /// `--min-os`; without it each file's nearest project, else the plist's own keys.
    public var minimumOS: String?
    public static var version: String { ToolVersion.current }

    public init(paths: [String]) {
        self.paths = paths
    }

    /// Exit status: 0 no error-level findings, 1 error-level findings, 2 a file could not be read
    /// or parsed.
    public func run(sink: any OutputSink) -> Int32 {
        let (files, missing) = FileDiscovery(excludes: excludes, includes: includes).discover(paths)
        var findings: [Finding] = []
        var unreadable = !missing.isEmpty
        for (path, error) in missing {
            findings.append(Finding(ruleID: "L009", severity: .error, path: path, line: 1, column: 1, message: error.message))
        }
        let projects = ProjectDeploymentTargets()
        for file in files where file.path != "-" {
            let bytes: [UInt8]
            do {
                bytes = try FileIO.load(file.path).bytes
            } catch {
                findings.append(Finding(ruleID: "L009", severity: .error, path: PathBytes.display(file.path), line: 1, column: 1, message: error.message))
                unreadable = true
                continue
            }
            // Walked files: binary/JSON/OpenStep ones are not ours, and ones that cannot hold the
            // ATS key are only checked for broken XML.
            if !file.explicit {
                if isNotAPlist(bytes) { continue }
                if case .some(.some) = try? FileMigrator.skipReasonWithoutTree(bytes) { continue }
            }
            let target = minimumOS.flatMap { DeploymentTarget($0, source: "--min-os") } ?? projects.target(forFile: file.path)
            let fileFindings = Linter.lint(bytes, path: PathBytes.display(file.path), deploymentTarget: target,
                                           skipPreprocessed: !file.explicit)
            if fileFindings.contains(where: { $0.ruleID == "L009" }) { unreadable = true }
            findings += fileFindings
        }
        switch format {
        case .text:
            sink.standardOutput(Array(findings.map { $0.text + "\n" }.joined().utf8))
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let document = JSONReport(schemaVersion: 1, findings: findings)
            sink.standardOutput(Array((try? encoder.encode(document)) ?? Data()) + [0x0A])
        case .sarif:
            let sarif = SARIF.document(findings: findings, rules: LintRule.all, root: SARIF.repositoryRoot(), version: Self.version)
            let data = (try? JSONSerialization.data(withJSONObject: sarif, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
            sink.standardOutput(Array(data) + [0x0A])
        }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        let notes = findings.filter { $0.severity == .note }.count
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        sink.standardError("plist-migrate lint: \(count(files.count, "file")) checked, \(count(errors, "error")), "
            + "\(count(warnings, "warning")), \(count(notes, "note"))\n")
        if unreadable { return 2 }
        return errors > 0 ? 1 : 0
    }

    struct JSONReport: Codable {
        var schemaVersion: Int
        var findings: [Finding]
    }

    private func isNotAPlist(_ bytes: [UInt8]) -> Bool {
        do {
            try PlistDocument.preflight(bytes)
            return false
        } catch {
            return error.kind == .notAPropertyList || error.kind == .preprocessed
        }
    }
}
