// Room: Lint. Findings about a plist's ATS settings, suppressions and baselines; a lint run
// over many files. Its output formats live in Report. May call Run (the gate), Config,
// Discovery, Project, Write, Support.
import Foundation
import ATSPolicy
import PlistDOM
import FileAccess

/// Runs the linter over paths (same discovery and configuration as the migrations) and renders
/// the findings.
public struct LintRunner {
    public enum Format: String, Sendable, CaseIterable { case text, json, sarif, github, junit, checkstyle, gitlab, xcode }

    public var paths: [String]
    public var format: Format = .text
    public var excludes: [Glob] = []
    public var includes: [Glob] = []
    /// `--min-os`; without it each file's nearest project, else the plist's own keys.
    public var minimumOS: String?
    /// Read `.plist-migrate.json` files (`exclude`, `skip`, and the `lint` section).
    public var useConfig = true
    /// `--rules`: the groups of rules to run (`checks`, `posture`).
    public var groups: Set<String> = Set(LintRule.groups)
    /// `--config FILE…`, merged: the one config of every file (none is looked for).
    public var explicitConfig: Config?
    /// `--baseline FILE`: findings it lists (by rule, file and key path) are not reported.
    public var baseline: String?
    /// `--write-baseline FILE`: record every finding there and report success. The bytes go to
    /// `baselineOutput` (the file opened through `ReportFile`'s gate, or standard output).
    public var writeBaseline: String?
    public var baselineOutput: (([UInt8]) -> Void)?
    /// `--build-stamp FILE` (written by the command line): checked against the walk too.
    public var buildStamp: String?
    /// `--strict`: warnings fail too.
    public var strict = false
    /// `--force-exclude`: `--exclude` and a config's `exclude` apply to files named explicitly too.
    public var forceExclude = false
    /// `--quiet`: no notes, no summary.
    public var quiet = false
    /// `--stdin-path`: the name standard input (`-`) has in messages.
    public var stdinPath = "<stdin>"
    public var color = false
    public var readStandardInput: () -> [UInt8] = { [] }
    /// Files linted in parallel (default: the number of cores).
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// `--output FILE`: refused when it is a file the run reads, however the walk found it.
    public var reportOutput: String?
    public static var version: String { ToolVersion.current }

    public init(paths: [String]) {
        self.paths = paths
    }

    /// A file to lint, with the name it has in findings and its nearest config.
    private struct WorkItem: Sendable {
        var file: DiscoveredFile
        var display: String
        var config: Config?
    }

    /// The file with its name and nearest config; `nil` for a walked file its config excludes.
    private func workItem(for file: DiscoveredFile, configs: ConfigResolver) -> Result<WorkItem?, Config.ConfigError> {
        let display = file.path == "-" ? stdinPath : PathBytes.display(ReportPaths.current.name(file.path))
        // Standard input named with --stdin-path gets the config of the file it stands for.
        let configPath = file.path == "-" ? (stdinPath == "<stdin>" ? nil : stdinPath) : file.path
        guard useConfig, let configPath else { return .success(WorkItem(file: file, display: display, config: nil)) }
        switch configs.config(forFile: configPath) {
        case .failure(let error):
            return .failure(error)
        case .success(let config):
            if let config, !file.explicit || forceExclude, Runner.isExcluded(configPath, by: config) { return .success(nil) }
            return .success(WorkItem(file: file, display: display, config: config))
        }
    }

    /// The findings of one file, and whether it could not be read or parsed.
    private static func lint(
        _ file: DiscoveredFile, display: String, config: Config?, stdin: [UInt8], given: DeploymentTarget?,
        projects: ProjectDeploymentTargets, index: ProjectIndex, posture: Bool
    ) -> ([Finding], Bool) {
        let bytes: [UInt8]
        if file.path == "-" {
            bytes = stdin
        } else {
            do {
                // Lint writes no plist: the command line's `stat` is fingerprint enough, the open file is not asked again.
                bytes = try FileIO.load(file.path, stated: file.stated).bytes
            } catch {
                return ([Finding(ruleID: "L009", severity: .error, path: display, line: 1, column: 1, message: error.message)], true)
            }
        }
        // A generator's files: its settings linted where they are written; its code's keys to change.
        if CodeSources.isCodeSource(file.path) {
            let changes = (try? MigrationPlan()).map { CodeSources.changes(in: bytes, migrator: FileMigrator(plan: $0)) } ?? []
            var findings = changes.map { change in
                Finding(ruleID: String(change.pass.prefix { $0 != " " }), severity: .warning, path: display, line: change.line, column: change.column,
                        message: "\(change.from) should be \(change.to) (\(change.pass)); \(CodeSources.generator(of: file.path)) writes the Info.plist "
                            + "from this code, which the tool does not rewrite: change it here")
            }
            if let config { findings = applying(config, to: findings) }
            return (findings, false)
        }
        if let format = GeneratedSettings.format(of: file.path) {
            var findings = GeneratedSettings.lintFindings(bytes, path: display, file: file.path == "-" ? nil : file.includedBy ?? file.path, format: format,
                                                          deploymentTarget: given, posture: posture)
            let unreadable = findings.contains { $0.ruleID == "L009" }
            if let config { findings = applying(config, to: findings) }
            return (findings, unreadable)
        }
        // Walked files: binary/JSON/OpenStep ones, and ones that cannot hold the ATS key, are
        // not ours (not even parsed).
        if !file.explicit, FileMigrator.notTextReason(bytes, markers: [Array("NSAppTransport".utf8)]) != nil || isNotAPlist(bytes)
            || FileMigrator.cannotHoldAppTransportSecurity(bytes) { return ([], false) }
        let project = file.path == "-" || given != nil
            ? KnownLookups(claimed: [], nearest: nil)
            : KnownLookups(claimed: index.targets(claiming: file.path), nearest: projects.target(forFile: file.path))
        var findings = Linter.lint(bytes, path: display, deploymentTarget: given, skipPreprocessed: !file.explicit, project: project,
                                   posture: posture)
        let unreadable = findings.contains { $0.ruleID == "L009" }
        if let config { findings = applying(config, to: findings) }
        return (findings, unreadable)
    }

    /// Exit status: 0 no error-level findings (no warnings either, with `--strict`), 1 some, 2
    /// a file could not be read or parsed, or the baseline could not be read.
    public func run(sink: any OutputSink) -> Int32 {
        let directories = DirectoryFacts(looksForConfig: useConfig && explicitConfig == nil)
        var discovery = FileDiscovery(excludes: excludes, includes: includes)
        discovery.readsSettingsFiles = true
        discovery.forceExclude = forceExclude
        discovery.directories = directories
        discovery.jobs = jobs
        let index = ProjectIndex(directories: directories)
        let projects = ProjectDeploymentTargets(directories: directories, index: index)
        let configs = ConfigResolver(directories: directories, explicit: explicitConfig)
        // --min-os, read once; else each file's config's minimumOS, as for migrate.
        let commandLineTarget = minimumOS.flatMap { DeploymentTarget($0, source: "--min-os") }
        let (found, missing, temporaryFiles, excludedByOption) = discovery.discoverAll(paths)
        // A killed run's temporary files are named (lint writes nothing, so removes none).
        for temp in temporaryFiles where FileIO.isStaleTemporaryFile(temp) && !quiet {
            sink.standardError(FileIO.leftoverNote(temp, removed: false) + "\n")
        }
        // Links a walk found are not followed; lint reads the files themselves.
        let files = found.filter { !$0.isLink }
        // Nothing the run reads is replaced: every file it writes is checked against the walk.
        let read = files.map(\.path)
        for (output, option) in [(reportOutput, "--output"), (writeBaseline, "--write-baseline"), (buildStamp, "--build-stamp")] {
            guard let output, let refusal = ReportFile.refusal(output: output, option: option, readingFound: read) else { continue }
            sink.standardError(refusal.line + "\n")
            return 2
        }
        var findings: [Finding] = []
        var unreadable = !missing.isEmpty
        for (path, error) in missing {
            findings.append(Finding(ruleID: "L009", severity: .error, path: PathBytes.display(ReportPaths.current.name(path)), line: 1, column: 1, message: error.message))
        }
        // Configs first, in order (an invalid one stops everything); then the files in parallel.
        var work: [WorkItem] = []
        for file in files {
            switch workItem(for: file, configs: configs) {
            case .failure(let error):
                sink.standardError(error.line + "\n")
                return 2
            case .success(let item?):
                work.append(item)
            case .success(nil):
                continue
            }
        }
        let stdin = work.contains { $0.file.path == "-" } ? readStandardInput() : []
        // Posture findings are worked out only when asked for.
        let posture = groups.contains("posture")
        let items = work
        let perFile = parallelMap(count: items.count, jobs: jobs) { position in
            let item = items[position]
            let given = commandLineTarget ?? item.config.flatMap { config in
                config.selection.minimumOS.flatMap { DeploymentTarget($0, source: config.minimumOSSource ?? config.path) }
            }
            return Self.lint(item.file, display: item.display, config: item.config, stdin: stdin, given: given,
                             projects: projects, index: index, posture: posture)
        }
        for (fileFindings, fileUnreadable) in perFile {
            findings += fileFindings
            unreadable = unreadable || fileUnreadable
        }
        // A file that cannot be read is said whatever the groups.
        if groups.count < LintRule.groups.count {
            findings = findings.filter { $0.ruleID == "L009" || groups.contains(LintRule.group(of: $0.ruleID)) }
        }
        if let writeBaseline {
            let bytes = Baseline(findings: findings).bytes()
            if let baselineOutput { baselineOutput(bytes) } else { sink.standardOutput(bytes) }
            sink.standardError("plist-migrate lint: \(count(findings.count, "finding")) written to \(writeBaseline == "-" ? "standard output" : writeBaseline)\n")
            return unreadable ? 2 : 0
        }
        if let baseline {
            do {
                findings = try Baseline.read(baseline).filtering(findings)
            } catch {
                sink.standardError("\(baseline): error: cannot read the baseline: \(error.message)\n")
                return 2
            }
        }
        let shown = quiet ? findings.filter { $0.severity != .note } : findings
        sink.standardOutput(format.reporter(color: color, version: Self.version).bytes(for: shown))
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        let notes = findings.filter { $0.severity == .note }.count
        if !quiet {
            // Files left out are not checked, and not counted as checked, but said,
            // whichever way they were left out.
            sink.standardError("plist-migrate lint: \(count(work.count, "file")) checked, \(count(errors, "error")), "
                + "\(count(warnings, "warning")), \(count(notes, "note"))"
                + FileDiscovery.excludedClause(byOption: excludedByOption, byConfig: files.count - work.count) + "\n")
        }
        if unreadable { return 2 }
        return errors > 0 || (strict && warnings > 0) ? 1 : 0
    }

    private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// A config's `skip` (migration rules), `lint.disable` and `lint.severity`.
    static func applying(_ config: Config, to findings: [Finding]) -> [Finding] {
        let skipped = Set((config.selection.skip ?? []).map { $0.uppercased() })
        return findings.compactMap { finding in
            if skipped.contains(finding.ruleID) || config.lint.disable.contains(finding.ruleID) { return nil }
            var finding = finding
            if let severity = config.lint.severity[finding.ruleID] { finding.severity = severity }
            return finding
        }
    }

    private static func isNotAPlist(_ bytes: [UInt8]) -> Bool {
        do {
            try PlistDocument.preflight(bytes)
            return false
        } catch {
            return error.kind == .notAPropertyList || error.kind == .preprocessed
        }
    }
}

/// `--write-baseline` / `--baseline`: findings recorded by rule, file and key path (the line is
/// not part of it, so edits elsewhere in the file do not break the baseline).
struct Baseline: Codable {
    struct Entry: Codable, Hashable {
        var ruleId: String
        var path: String
        /// The entry's key path, or the message for findings about no entry.
        var keyPath: String
    }

    var schemaVersion = 1
    var findings: [Entry]

    init(findings: [Finding]) {
        self.findings = Array(Set(findings.map(Self.entry))).sorted { ($0.path, $0.keyPath, $0.ruleId) < ($1.path, $1.keyPath, $1.ruleId) }
    }

    static func entry(_ finding: Finding) -> Entry {
        Entry(ruleId: finding.ruleID, path: finding.path, keyPath: finding.keyPath ?? finding.message)
    }

    /// The baseline at `path`; an error is one plain line (no Foundation error dump).
    static func read(_ path: String) throws(FileError) -> Baseline {
        let bytes = try FileIO.load(path).bytes
        do {
            return try JSONDecoder().decode(Baseline.self, from: Data(bytes))
        } catch {
            throw FileError("not a baseline written by --write-baseline (\(Self.reason(error)))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted?: "not valid JSON"
        case .keyNotFound(let key, _)?: "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "unreadable"
        }
    }

    func bytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8)) + [0x0A]
    }

    func filtering(_ current: [Finding]) -> [Finding] {
        let known = Set(findings)
        return current.filter { !known.contains(Self.entry($0)) }
    }
}
