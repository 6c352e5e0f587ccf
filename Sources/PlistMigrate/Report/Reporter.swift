// Room: Report. Every output format, each behind one of two small protocols: a migrate run's
// (per file as it completes, then once at the end) and lint's (the findings, sorted). May call
// Run's results (FileResult, Report), Lint's findings, Diff's text; nothing here reads or writes
// files: the runners hand the bytes to their output sink.
import Foundation
import FileAccess

/// How one `--format` of a migrate run prints: what each file adds, in input order, as it
/// completes, and what the run adds when every file is done.
protocol RunReporter {
    func bytes(for result: FileResult) -> [UInt8]
    func finish(_ report: Report) -> [UInt8]
}

extension RunOptions.Format {
    func reporter(color: Bool) -> any RunReporter {
        switch self {
        case .text: TextRunReporter(color: color)
        case .patch: PatchRunReporter()
        case .json: JSONRunReporter()
        case .html: HTMLRunReporter()
        case .markdown: MarkdownRunReporter()
        }
    }
}

/// Each pass's diff under `# ID name (impact)` and its policy lines.
struct TextRunReporter: RunReporter {
    var color: Bool

    func bytes(for result: FileResult) -> [UInt8] {
        var out: [UInt8] = []
        for pass in result.passes {
            // One string, its room reserved: the diff is most of it.
            var text = "# "
            text.reserveCapacity(pass.diff.utf8.count + 64 * (pass.policyDelta.count + 1))
            text += pass.label
            text += "\n"
            for note in pass.notes {
                text += "# note: "
                text += note
                text += "\n"
            }
            for line in pass.policyDelta {
                text += "# policy: "
                text += line
                text += "\n"
            }
            text += pass.diff
            // Marks for characters a terminal would hide or reorder; `--format patch` keeps the bytes.
            let shown = InvisibleCharacters.marked(text)
            out.append(contentsOf: (color ? Colour.diff(shown) : shown).utf8)
        }
        return out
    }

    func finish(_ report: Report) -> [UInt8] { [] }
}

/// One `git apply`-able patch: each changed file's combined diff.
struct PatchRunReporter: RunReporter {
    func bytes(for result: FileResult) -> [UInt8] {
        guard result.status == .changed || result.written, let diff = result.combinedDiff else { return [] }
        return Array(diff.utf8)
    }

    func finish(_ report: Report) -> [UInt8] { [] }
}

/// The review page (`ReviewPage`), made from the JSON report at the end.
struct HTMLRunReporter: RunReporter {
    func bytes(for result: FileResult) -> [UInt8] { [] }
    func finish(_ report: Report) -> [UInt8] { ReviewPage.render(report.document()) }
}

/// A pull request's body (`PullRequestBody`), made from the JSON report at the end.
struct MarkdownRunReporter: RunReporter {
    func bytes(for result: FileResult) -> [UInt8] { [] }
    func finish(_ report: Report) -> [UInt8] { PullRequestBody.render(report.document()) }
}

/// The JSON report (docs/json-report.md), printed whole at the end.
struct JSONRunReporter: RunReporter {
    func bytes(for result: FileResult) -> [UInt8] { [] }
    func finish(_ report: Report) -> [UInt8] { report.json() }
}

/// How one `lint --format` prints the run's findings.
protocol LintReporter {
    func bytes(for findings: [Finding]) -> [UInt8]
}

extension LintRunner.Format {
    func reporter(color: Bool, version: String) -> any LintReporter {
        switch self {
        case .text: TextLintReporter(color: color)
        case .github: GitHubLintReporter()
        case .json: JSONLintReporter()
        case .sarif: SARIFLintReporter(version: version)
        case .junit: JUnitLintReporter()
        case .checkstyle: CheckstyleLintReporter()
        case .gitlab: GitLabLintReporter()
        case .xcode: XcodeLintReporter(root: ReportPaths.current.root)
        }
    }
}

/// `path:line:column: severity: [ID] message`, one finding a line.
struct TextLintReporter: LintReporter {
    var color: Bool

    func bytes(for findings: [Finding]) -> [UInt8] {
        let text = findings.map { $0.text + "\n" }.joined()
        return Array((color ? Colour.lint(text) : text).utf8)
    }
}

/// The text lines with absolute paths, which Xcode's issue navigator and IDEs link to the line
/// (the build-tool plugin's format).
struct XcodeLintReporter: LintReporter {
    var root: String

    func bytes(for findings: [Finding]) -> [UInt8] {
        Array(findings.map { finding in
            var absolute = finding
            if !finding.path.hasPrefix("/"), finding.path != "-", finding.path != "<stdin>" {
                absolute.path = (root == "/" ? "" : root) + "/" + finding.path
            }
            return absolute.text + "\n"
        }.joined().utf8)
    }
}

/// GitHub Actions workflow commands (`::warning file=…::…`).
struct GitHubLintReporter: LintReporter {
    func bytes(for findings: [Finding]) -> [UInt8] {
        Array(findings.map { GitHubAnnotations.line($0) + "\n" }.joined().utf8)
    }
}

/// `{"schemaVersion": 1, "findings": […]}`.
struct JSONLintReporter: LintReporter {
    struct Document: Codable {
        var schemaVersion: Int
        var findings: [Finding]
    }

    func bytes(for findings: [Finding]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(Document(schemaVersion: 1, findings: findings))) ?? Data()) + [0x0A]
    }
}

/// SARIF 2.1.0 (see `SARIF`).
struct SARIFLintReporter: LintReporter {
    var version: String

    func bytes(for findings: [Finding]) -> [UInt8] {
        let sarif = SARIF.document(findings: findings, rules: LintRule.all, root: SARIF.repositoryRoot(), version: version,
                                   executionSuccessful: !findings.contains { $0.ruleID == "L009" })
        let data = (try? JSONSerialization.data(withJSONObject: sarif, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Array(data) + [0x0A]
    }
}

/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`, for
/// repositories without code scanning.
enum GitHubAnnotations {
    static func line(_ finding: Finding) -> String {
        let command = switch finding.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
        let properties = "file=\(escapeProperty(finding.path)),line=\(finding.line),col=\(finding.column),"
            + "title=\(escapeProperty("plist-migrate \(finding.ruleID)"))"
        return "::\(command) \(properties)::\(escapeData(finding.message))"
    }

    /// The escaping GitHub's runner applies to command data: `%`, CR and LF.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Properties also escape `:` and `,`.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
