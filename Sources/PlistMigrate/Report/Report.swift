import Foundation
import Migrations
import PlistDOM
import Project
import FileAccess

/// The run's tally and, for `--format json`, its per-file records.
///
/// JSON schema (version 1), one object:
/// `{ "schemaVersion": 1, "mode": "dry-run"|"write", "files": [FileRecord], "summary": Summary }`.
/// See docs/json-report.md.
struct Report {
    static let schemaVersion = 1

    struct PassRecord: Codable, Equatable {
        var id: String
        var version: Int
        var name: String
        var impact: String
        var editCount: Int
        var diff: String
        var policyDelta: [String]
        /// What the diff does beyond its pass's title (an entry removed as a redundant twin).
        var notes: [String]? = nil
        var round: Int
        /// The kind of change (`EditGroup.id`) a review accepts or rejects.
        var group: String?
        /// In a report that records its plan: the digest of the file's bytes after this
        /// application (`SHA256.digest`).
        var result: String? = nil
    }

    struct DiagnosticRecord: Codable, Equatable {
        var migration: String?
        var line: Int?
        var column: Int?
        var message: String
    }

    struct FileRecord: Codable, Equatable {
        /// The name for people: quoted the way `git diff` quotes it when it holds bytes that are
        /// not printable UTF-8, `"` or `\\` (`PathBytes.display`).
        var path: String
        /// When `path` is quoted: the name's exact bytes, base64.
        var pathBytes: String? = nil
        var status: String
        var skipReason: String?
        var error: DiagnosticRecord?
        var passes: [PassRecord]
        var diagnostics: [DiagnosticRecord]
        var heldBack: [String]
        /// Why each pass in `heldBack` was held back.
        var heldBackReasons: [String: String]
        /// For files with an ATS dict: the deployment target whose OS eras counted.
        var deploymentTarget: TargetRecord?
        var written: Bool
        /// The targets whose Info.plist the file is (absent when none).
        var targets: [ProjectTarget]?
        /// Recipe passes the file is not for, with why (absent when none).
        var outOfScope: [String: String]?
        /// Index in the report's `repositories` of the git repository holding the file.
        var repository: Int?
        /// What could not be read of the projects around the file (absent when nothing).
        var projectNotes: [String]? = nil
        /// With `--accept`: accepted kinds the file has that could not be applied (absent when none).
        var acceptedNotApplied: [AcceptedKindNotApplied]? = nil
        /// With a decision listing what the review showed: this file's kinds it did not show.
        var changedSinceReview: [String]? = nil
        /// A generator's code: each key to change by hand, where it is written (absent when none).
        var sourceChanges: [CodeSources.Change]? = nil
        /// In a report that records its plan, for a changed file: the digest of its bytes as
        /// read, and the index in `plans` of the run's options.
        var digest: String? = nil
        var plan: Int? = nil
    }

    /// A git repository files of the run are in: its root, and its remote and commit where git
    /// knows them.
    struct RepositoryRecord: Codable, Equatable, Hashable {
        var root: String
        var remote: String?
        var commit: String?
    }

    struct ToolRecord: Codable, Equatable {
        var name = "plist-migrate"
        var version = ToolVersion.current
    }

    /// A pass the run could apply: the pass set reports must share to be merged.
    struct PassInfo: Codable, Equatable, Hashable {
        var id: String
        var version: Int
        var name: String
        var impact: String
        /// What the pass changes and why (the review page shows them on its kinds).
        var title: String? = nil
        var description: String? = nil
    }

    /// The options the run was given (what the review page's header says was run).
    struct OptionsRecord: Codable, Equatable {
        var write: Bool
        var check: Bool
        var only: [String]?
        var skip: [String]?
        var to: Int?
        var allowPolicyChange: Bool
        var minimumOS: String?
        var accept: Bool
        var paths: [String]
    }

    struct TargetRecord: Codable, Equatable {
        /// `ios15,macos12`; absent when none is known (every OS era counted).
        var minimumOS: String?
        /// `--min-os`, a config file, a project.pbxproj, the plist's own keys, or `unknown`.
        var source: String
    }

    struct Summary: Codable, Equatable {
        var scanned = 0
        var changed = 0
        var unchanged = 0
        var skipped = 0
        var errors = 0
        var conflicts = 0
        /// With `--write`: files that needed changes but could not be written.
        var notWritten = 0
        /// Files with a held-back pass (`--strict --check` counts them as pending).
        var heldBack = 0
        var skippedReasons: [String: Int] = [:]
        var editsPerPass: [String: Int] = [:]
        /// Files with an ATS dict, by where their deployment target came from.
        var deploymentTargetSources: [String: Int] = [:]
        /// Files with an ATS dict whose projects were read only in part, or that no target of
        /// the projects around them claims (`projectNotes` says why).
        var projectsReadInPart: Int? = nil
        /// With `--accept`: files with an accepted kind that could not be applied.
        var acceptedNotApplied: Int? = nil
        /// Files whose edit is no kind the review showed: changed since the review, not written.
        var changedSinceReview: Int? = nil
        /// Files of a generator's code (Tuist, `app.config.js`) with ATS keys to change by hand
        /// (`--check` counts them as pending).
        var codeToChange: Int? = nil
    }

    struct Document: Codable, Equatable {
        var schemaVersion: Int
        var mode: String
        var files: [FileRecord]
        var summary: Summary
        // What `plist-migrate report` needs to merge reports and build a review page (absent
        // from reports of older versions, which it refuses).
        var tool: ToolRecord?
        var generatedAt: String?
        var options: OptionsRecord?
        var passes: [PassInfo]?
        var repositories: [RepositoryRecord]?
        /// `plist-migrate report`: the reports merged into this one.
        var mergedFrom: [String]?
        /// The absolute directory the files' paths are relative to (the repository holding the
        /// working directory, or the working directory outside git).
        var base: String? = nil
        /// The options of the run (of each run, merged) as a review plan: what applying a
        /// decision made from this report runs again.
        var plans: [ReviewPlan]? = nil
    }

    let options: RunOptions
    var files: [FileRecord] = []
    var summary = Summary()
    /// Plists the run left out, by `--exclude`/`--include` and by configs' `exclude`: said in
    /// the summary line (not files of the report).
    var excluded: (byOption: Int, byConfig: Int) = (0, 0)
    /// Files with a pass held back that `--allow-policy-change` would include (not in the JSON
    /// summary: the next-step line says it).
    var heldBackForPolicy = 0
    var repositories: [RepositoryRecord] = []
    private var repositoryIndex: [String: Int] = [:]
    let startedAt = Report.runDate(environment: ProcessInfo.processInfo.environment)

    /// When the run happened, as reports say it: `SOURCE_DATE_EPOCH` (reproducible builds'
    /// convention: seconds since 1970, UTC) when it is set, so two identical runs give identical
    /// JSON and HTML; else now.
    static func runDate(environment: [String: String]) -> Date {
        if let text = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(text), seconds >= 0, seconds < 253_402_300_800 {
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        return Date()
    }

    init(options: RunOptions) {
        self.options = options
    }

    mutating func add(_ result: FileResult, repositoryRoot: String? = nil) {
        summary.scanned += 1
        switch result.status {
        case .changed: summary.changed += 1
        case .unchanged: summary.unchanged += 1
        case .skipped:
            summary.skipped += 1
            summary.skippedReasons[result.skipReason ?? "skipped", default: 0] += 1
        case .error: summary.errors += 1
        }
        if result.hasConflict { summary.conflicts += 1 }
        if result.notWritten { summary.notWritten += 1 }
        if !result.heldBack.isEmpty { summary.heldBack += 1 }
        if result.heldBack.contains(where: { (result.heldBackReasons[$0] ?? "").hasSuffix(FileMigrator.allowPolicyChangeIncludesIt) }) {
            heldBackForPolicy += 1
        }
        if !result.acceptedNotApplied.isEmpty { summary.acceptedNotApplied = (summary.acceptedNotApplied ?? 0) + 1 }
        if !result.changedSinceReview.isEmpty || result.staleSinceReview { summary.changedSinceReview = (summary.changedSinceReview ?? 0) + 1 }
        if !result.sourceChanges.isEmpty { summary.codeToChange = (summary.codeToChange ?? 0) + 1 }
        for pass in result.passes { summary.editsPerPass[pass.id, default: 0] += pass.editCount }
        let target = Self.targetRecord(result)
        if let target { summary.deploymentTargetSources[Self.sourceKind(target.source), default: 0] += 1 }
        if !result.projectNotes.isEmpty { summary.projectsReadInPart = (summary.projectsReadInPart ?? 0) + 1 }
        guard options.format == .json || options.format == .html || options.format == .markdown else { return }
        let repository = repositoryRoot.map { root in
            if let known = repositoryIndex[root] { return known }
            repositories.append(Self.repositoryRecord(root))
            repositoryIndex[root] = repositories.count - 1
            return repositories.count - 1
        }
        // A changed file is part of the plan: what a review of it saw.
        let planned = options.recordsPlan && result.status == .changed && !result.passes.isEmpty && result.passes.allSatisfy { $0.result != nil }
        files.append(FileRecord(
            path: result.path,
            pathBytes: PathBytes.isQuoted(result.path) ? PathBytes.unquoted(result.path).map(PathBytes.base64) : nil,
            status: result.status.rawValue, skipReason: result.skipReason,
            error: result.error.map { DiagnosticRecord(migration: nil, line: $0.location?.line, column: $0.location?.column, message: $0.message) },
            passes: result.passes.map {
                PassRecord(id: $0.id, version: $0.version, name: $0.name, impact: $0.impact.rawValue, editCount: $0.editCount,
                           diff: $0.diff, policyDelta: $0.policyDelta, notes: $0.notes.isEmpty ? nil : $0.notes, round: $0.round, group: $0.group.isEmpty ? nil : $0.group,
                           result: $0.result)
            },
            diagnostics: result.diagnostics.map {
                DiagnosticRecord(migration: $0.migrationID, line: $0.location.line, column: $0.location.column, message: $0.message)
            },
            heldBack: result.heldBack, heldBackReasons: result.heldBackReasons, deploymentTarget: target,
            written: result.written, targets: result.targets.isEmpty ? nil : result.targets,
            outOfScope: result.outOfScope.isEmpty ? nil : result.outOfScope, repository: repository,
            projectNotes: result.projectNotes.isEmpty ? nil : result.projectNotes,
            acceptedNotApplied: result.acceptedNotApplied.isEmpty ? nil : result.acceptedNotApplied,
            changedSinceReview: result.changedSinceReview.isEmpty ? nil : result.changedSinceReview,
            sourceChanges: result.sourceChanges.isEmpty ? nil : result.sourceChanges,
            digest: planned ? SHA256.digest(result.original) : nil, plan: planned ? 0 : nil))
    }

    /// The root, and what git says of its `origin` remote and checked-out commit.
    static func repositoryRecord(_ root: String) -> RepositoryRecord {
        RepositoryRecord(root: root, remote: remote(of: root), commit: git(["rev-parse", "--verify", "-q", "HEAD"], in: root))
    }

    /// The `origin` remote of the repository at `root`, as git says it.
    static func remote(of root: String) -> String? {
        git(["config", "--get", "remote.origin.url"], in: root)
    }

    /// What `git -C root ARGUMENTS` prints, trimmed; `nil` when it fails or prints nothing.
    private static func git(_ arguments: [String], in root: String) -> String? {
        guard let output = Subprocess.run("git", ["-C", root] + arguments) else { return nil }
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The deployment target of a file that has an ATS dict (changed or unchanged).
    static func targetRecord(_ result: FileResult) -> TargetRecord? {
        guard result.hasAppTransportSecurity, result.status == .changed || result.status == .unchanged else { return nil }
        guard let target = result.deploymentTarget else { return TargetRecord(minimumOS: nil, source: "unknown") }
        return TargetRecord(minimumOS: target.platforms.joined(separator: ","), source: target.source)
    }

    /// `--min-os`, `config`, `target` (the targets using the file), `project.pbxproj` or
    /// `project.yml` (the nearest Xcode project or XcodeGen spec), `Info.plist` or `unknown`,
    /// for the summary.
    static func sourceKind(_ source: String) -> String {
        if source == "--min-os" || source == "unknown" { return source }
        // Searched as bytes: this runs once per file with the ATS dict.
        var text = source
        return text.withUTF8 { bytes in
            func has(_ part: [UInt8]) -> Bool { bytes.firstOffset(of: part) != nil }
            if bytes.hasSuffix(bytes: Array(".plist-migrate.json".utf8)) { return "config" }
            if bytes.last == UInt8(ascii: ")"), has(Array(" (".utf8)) { return "target" }
            if has(Array("project.pbxproj".utf8)) { return "project.pbxproj" }
            // An XcodeGen spec is a project too, whatever its file name (`project.yml`, `App.yml`).
            if bytes.hasSuffix(bytes: Array(".yml".utf8)) || bytes.hasSuffix(bytes: Array(".yaml".utf8))
                || has(Array(".yml, ".utf8)) || has(Array(".yaml, ".utf8))
            {
                return "project.yml"
            }
            return "Info.plist"
        }
    }

    func exitStatus(check: Bool, strict: Bool = false) -> Int32 {
        // An accepted kind that cannot be applied: the decision is not what gets written. `--check`
        // counts it as pending (exit 1, as docs/usage.md says); any other run fails.
        let unapplied = (summary.acceptedNotApplied ?? 0) > 0 || (summary.changedSinceReview ?? 0) > 0
        if summary.errors > 0 || summary.conflicts > 0 || (unapplied && !check) { return 2 }
        if check && (summary.changed > 0 || unapplied || (summary.codeToChange ?? 0) > 0 || (strict && summary.heldBack > 0)) { return 1 }
        return 0
    }

    /// The whole report, as `--format json` prints it and the review page reads it.
    func document() -> Document {
        let selection = options.selection
        let passes = MigrationRegistry.all.map {
            PassInfo(id: $0.id, version: $0.version, name: $0.name, impact: $0.impact.rawValue, title: $0.title, description: $0.rationale)
        } + (selection.recipes ?? []).map {
            PassInfo(id: $0.id, version: $0.version, name: $0.name, impact: $0.impact.rawValue, title: $0.title, description: $0.rationale)
        }
        return Document(
            schemaVersion: Self.schemaVersion, mode: options.write ? "write" : "dry-run", files: files, summary: summary,
            tool: ToolRecord(), generatedAt: Self.timestamp(startedAt),
            options: OptionsRecord(write: options.write, check: options.check, only: selection.only, skip: selection.skip, to: selection.to,
                                   allowPolicyChange: selection.allowPolicyChange ?? false, minimumOS: selection.minimumOS,
                                   accept: options.accepted != nil, paths: options.paths + options.listedPaths),
            passes: passes, repositories: repositories, base: ReportPaths.current.root,
            plans: options.recordsPlan ? [ReviewPlan(options: options)] : nil)
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func encode(_ document: Document) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }

    func json() -> [UInt8] {
        Self.encode(document())
    }

    /// What to run next, after a dry run's summary: how to write what it showed, and how to
    /// include the passes it held back for their policy change. `nil` when there is nothing to say.
    func nextStepLines() -> [String] {
        guard !options.write, !options.check else { return [] }
        var lines: [String] = []
        if summary.changed > 0 {
            let files = summary.changed == 1 ? "this file" : "these \(summary.changed) files"
            lines.append(options.reviewPlan != nil
                ? "plist-migrate: to write \(files), run the same command without --dry-run"
                : "plist-migrate: to write \(files), run the same command with --write")
        }
        if heldBackForPolicy > 0, options.reviewPlan == nil, options.accepted == nil {
            let files = heldBackForPolicy == 1 ? "1 file has a pass held back because it" : "\(heldBackForPolicy) files have passes held back because they"
            lines.append("plist-migrate: \(files) would change what the app may load; "
                + (heldBackForPolicy == 1 ? "review it (the note above names it), then add --allow-policy-change to include it"
                    : "review them (the notes above name each), then add --allow-policy-change to include them"))
        }
        return lines
    }

    func summaryLine() -> String {
        var parts = ["\(summary.scanned) file\(summary.scanned == 1 ? "" : "s") scanned"]
        parts.append("\(summary.changed) \(options.write ? "changed" : "would change")")
        parts.append("\(summary.unchanged) unchanged")
        if summary.skipped > 0 {
            let reasons = summary.skippedReasons.sorted { $0.key < $1.key }.map { Self.skipped($0.value, because: $0.key) }
            parts.append("\(summary.skipped) skipped (\(reasons.joined(separator: ", ")))")
        }
        parts.append("\(summary.errors) error\(summary.errors == 1 ? "" : "s")")
        if summary.notWritten > 0 { parts.append("\(summary.notWritten) not written") }
        if summary.conflicts > 0 { parts.append("\(summary.conflicts) with conflicts") }
        if let unapplied = summary.acceptedNotApplied, unapplied > 0 {
            parts.append("\(unapplied) with accepted kinds that cannot be applied")
        }
        if let changed = summary.changedSinceReview, changed > 0 {
            parts.append("\(changed) file\(changed == 1 ? "" : "s") changed since the review: not written")
        }
        if let code = summary.codeToChange, code > 0 {
            parts.append("\(code) file\(code == 1 ? "" : "s") of generator code to change by hand")
        }
        var line = "plist-migrate: " + parts.joined(separator: ", ")
        if !summary.editsPerPass.isEmpty {
            line += "; edits: " + summary.editsPerPass.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        let sources = summary.deploymentTargetSources
        if !sources.isEmpty {
            let order = ["--min-os", "config", "target", "project.pbxproj", "project.yml", "Info.plist", "unknown"]
            let names = ["unknown": "none known (every OS counted)", "target": "the targets using them"]
            line += "; deployment target: " + order.compactMap { key in
                sources[key].map { "\($0) from \(names[key] ?? key)" }
            }.joined(separator: ", ")
        }
        if let partial = summary.projectsReadInPart, partial > 0 {
            line += "; \(partial) file\(partial == 1 ? "" : "s") in projects read only in part"
        }
        return line + FileDiscovery.excludedClause(byOption: excluded.byOption, byConfig: excluded.byConfig)
    }
}

extension Report {
    /// A skip reason with its count, in the summary line: `3 no NSAppTransportSecurity`,
    /// `2 symbolic links not followed`.
    static func skipped(_ count: Int, because reason: String) -> String {
        if count != 1, reason == FileResult.linkNotFollowed { return "\(count) symbolic links not followed" }
        return "\(count) \(reason)"
    }
}
