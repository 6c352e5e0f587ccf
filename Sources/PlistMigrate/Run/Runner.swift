// Room: Run. One migrate run: plan the jobs, run each file through FileMigrator on all cores,
// hand results in input order to a reporter, write with Write. FileMigrator is the one path of
// a file: parse, choose passes, rounds, gate, diff, check. May call every room but Lint,
// Edit, Explain and Invariants.
import Dispatch
import ATSPolicy
import Foundation
import Migrations
import PlistDOM
import FileAccess

/// Finds the files, migrates them in parallel batches, writes when asked, and reports in path
/// order: the output is byte-identical whatever the number of jobs.
public final class Runner {
    public static let batchSize = 512

    let options: RunOptions
    private let reporter: any RunReporter
    let sink: any OutputSink
    let readStandardInput: () -> [UInt8]
    /// What the walk saw in each directory, for the config, project and repository look-ups.
    private let directories: DirectoryFacts
    // The runner's state is used by the thread that calls `run()` only: no runtime
    // exclusivity checks (one per printed file, each).
    @exclusivity(unchecked) private var report: Report
    /// Output of the current batch, written in one go.
    @exclusivity(unchecked) private var pendingOutput: [UInt8] = []
    @exclusivity(unchecked) private var pendingErrors = ""
    /// With `--accept`: every kind of change the run met, accepted or not.
    @exclusivity(unchecked) private var seenGroups: Set<String> = []
    /// The decision named kinds this run does not have (and does not say it spans runs).
    @exclusivity(unchecked) private var decisionFailed = false

    /// Whether a progress line is on stderr now: it is cleared before anything else is printed,
    /// so that it never mixes into a diff on the same terminal.
    @exclusivity(unchecked) private var progressShown = false

    private func flush() {
        if progressShown, !pendingOutput.isEmpty || !pendingErrors.isEmpty {
            sink.standardError("\r\u{1B}[K")
            progressShown = false
        }
        if !pendingOutput.isEmpty { sink.standardOutput(pendingOutput) }
        if !pendingErrors.isEmpty { sink.standardError(pendingErrors) }
        pendingOutput = []
        pendingErrors = ""
    }

    public init(options: RunOptions, sink: any OutputSink, readStandardInput: @escaping () -> [UInt8] = { [] }) {
        self.options = options
        reporter = options.format.reporter(color: options.color)
        self.sink = sink
        self.readStandardInput = readStandardInput
        self.report = Report(options: options)
        directories = DirectoryFacts(looksForConfig: options.useConfig && options.explicitConfig == nil)
    }

    private let reportPaths = ReportPaths.current
    private lazy var repositories = RepositoryRoots(directories: directories)

    /// Runs and returns the exit status: 0 fine, 1 `--check` found pending changes,
    /// 2 a file failed (parse, conflict, I/O, invalid config).
    public func run() -> Int32 {
        var discovery = FileDiscovery(excludes: options.excludes, includes: options.includes)
        discovery.readsSettingsFiles = true
        discovery.forceExclude = options.forceExclude
        discovery.directories = directories
        discovery.jobs = options.jobs
        discovery.stated = options.stated
        let planner = JobPlanner(options: options, directories: directories)
        var (files, missing, temporaryFiles, excludedByOption) = discovery.discoverAll(options.paths)
        // A killed run's temporary files: removed by a write, named by any other run.
        for temp in temporaryFiles where FileIO.isStaleTemporaryFile(temp) {
            let removed = options.write && FileIO.removeStaleTemporaryFile(temp)
            if !options.quiet { sink.standardError(FileIO.leftoverNote(temp, removed: removed) + "\n") }
        }
        for raw in options.listedPaths {
            let path = FileDiscovery.displayPath(raw)
            if let stated = FileIO.stated(raw) {
                var file = DiscoveredFile(path: path, explicit: false)
                file.stated = stated
                files.append(file)
            } else {
                missing.append((path, FileError(FileIO.openFailureText(raw))))
            }
        }
        if !options.listedPaths.isEmpty {
            // Sized once: growing a set rehashes every path already in it.
            var seen = Set<String>(minimumCapacity: files.count)
            files = FileDiscovery.sortedByPath(files.filter { seen.insert($0.path).inserted })
        }
        if let shard = options.shard {
            files = files.filter { shard.contains($0.path) }
            missing = missing.filter { shard.contains($0.0) }
        }
        // Before any file is read or written: a report would replace the file it names.
        if let output = options.reportOutput,
            let refusal = ReportFile.refusal(output: output, readingFound: files.filter { !$0.isLink }.map(\.path))
        {
            sink.standardError(refusal.line + "\n")
            return 2
        }
        let jobs: [Job]
        switch planner.jobs(for: files) {
        case .success(let planned): jobs = planned
        case .failure(let errors):
            for error in errors.errors { sink.standardError(error.line + "\n") }
            return 2
        }
        // Left out by --exclude/--include or by a config's exclude: said in the summary.
        report.excluded = (byOption: excludedByOption, byConfig: files.count - jobs.count)
        // Reviewed files whose repository is not here: errors of the run, said with the rest.
        for (path, reason) in options.reviewPlan?.notHere ?? [] {
            missing.append((path, FileError(reason)))
        }
        for (path, error) in missing {
            var result = FileResult(path: PathBytes.display(path), status: .error)
            result.error = error
            emit(result)
        }
        flush()
        // Results are printed in path order as they come; output is written (and progress
        // shown) once per batch of files.
        let write = options.write
        let recordsResults = options.recordsPlan
        let stdinBytes = jobs.contains { $0.file.path == "-" } ? readStandardInput() : []
        // A decision naming kinds this run does not have is for another tree or another
        // version: with --write that is found out before anything is written.
        // Each file is worked out once: the results of that first look are the ones written.
        var workedOut: [FileResult]?
        if write, options.accepted != nil, !options.decisionSpansRuns {
            let results = parallelMap(count: jobs.count, jobs: options.jobs) { index in
                var result = Self.processOne(jobs[index], write: false, checksWholeOutput: true, recordsResults: false, stdin: stdinBytes)
                if jobs[index].file.path != "-" { Self.dropUnusedBytes(&result) }
                return result
            }
            let unmatched = unmatchedDecisionIDs(met: results.reduce(into: Set<String>()) { $0.formUnion(Self.groupsMet($1)) })
            if !unmatched.isEmpty {
                sink.standardError(Self.unmatchedLine(unmatched, error: true) + "; nothing was written\n")
                return 2
            }
            workedOut = results
        }
        let firstLook = workedOut
        parallelForEach(count: jobs.count, jobs: options.jobs, window: Self.batchSize) { index in
            let job = jobs[index]
            var result: FileResult
            if var known = firstLook?[index] {
                // The write still checks that the file is as it was read (its fingerprint).
                if write { Self.write(&known, to: job.file.path) }
                result = known
            } else {
                result = Self.processOne(job, write: write, checksWholeOutput: write, recordsResults: recordsResults, stdin: stdinBytes)
            }
            // Freed by the thread that read them, not by the one that prints.
            if job.file.path != "-" { Self.dropUnusedBytes(&result) }
            return result
        } consume: { index, result in
            emit(result)
            if (index + 1) % Self.batchSize == 0 || index + 1 == jobs.count {
                flush()
                showProgress(done: index + 1, total: jobs.count)
            }
        }
        finish()
        return decisionFailed ? 2 : report.exitStatus(check: options.check, strict: options.strict)
    }

    static func isExcluded(_ path: String, by config: Config) -> Bool {
        guard !config.excludes.isEmpty else { return false }
        let absolute = FileIO.absolute(path)
        return config.excludes.contains { glob in
            let configDirectory = FileIO.absolute(glob.directory.isEmpty ? "." : glob.directory)
            guard absolute.hasPrefix(configDirectory + "/") else { return false }
            return Glob(glob.pattern).matches(String(absolute.dropFirst(configDirectory.count + 1)))
        }
    }

    private func showProgress(done: Int, total: Int) {
        guard options.progress, total > 200 else { return }
        sink.standardError(done < total ? "\r\(done)/\(total) files" : "\r\u{1B}[K")
        progressShown = done < total
    }

    /// Only a changed file's bytes are used after its migration (by a patch or a write).
    private static func dropUnusedBytes(_ result: inout FileResult) {
        if result.status != .changed {
            result.original = []
            result.output = []
        }
    }

    /// One file read and worked out (and, with `write`, written). `checksWholeOutput`: its new
    /// bytes are parsed again whole, as bytes about to be written are.
    private static func processOne(_ job: Job, write: Bool, checksWholeOutput: Bool, recordsResults: Bool, stdin: [UInt8]) -> FileResult {
        let file = job.file
        let bytes: [UInt8]
        var fingerprint: FileFingerprint?
        // Reports show the path with bytes that are not UTF-8 as \xNN; I/O uses the bytes.
        let shown = PathBytes.display(file.path)
        if file.isLink {
            // A link the walk found is not followed (it may lead out of the tree): said, not read.
            var result = FileResult(path: shown, status: .skipped)
            result.skipReason = FileResult.linkNotFollowed
            return result
        }
        if file.path == "-" {
            guard stdin.count <= FileIO.maximumSize else {
                var result = FileResult(path: shown, status: .error)
                result.error = FileError("input too large (\(stdin.count >> 20) MiB; the limit is \(FileIO.maximumSize >> 20) MiB)")
                return result
            }
            bytes = stdin
        } else {
            do {
                // A dry run takes the fingerprint the command line's `stat` gave; a write asks
                // the open file, so that a change between the two is not refused as a change
                // after the read.
                (bytes, fingerprint) = try FileIO.load(file.path, stated: write ? nil : file.stated)
            } catch {
                var result = FileResult(path: shown, status: .error)
                result.error = error
                return result
            }
        }
        // Only bytes about to be written are parsed again whole; a dry run's check stands without it.
        var context = FileContext(path: shown, skipIfNotApplicable: !file.explicit, deploymentTarget: job.deploymentTarget,
                                  checksWholeOutput: checksWholeOutput, lookups: job)
        context.recordsResults = recordsResults
        // A generator's settings file: its ATS settings migrated in its own format.
        // Nearly every file is a plist: a generator's file is asked for only when the name says so.
        let isPlist = file.path.hasSuffix(".plist")
        if !isPlist, CodeSources.isCodeSource(file.path) {
            var result = CodeSources.migrate(bytes, context, migrator: job.migrator)
            result.named = file.explicit
            return result
        }
        let settings = isPlist ? nil : GeneratedSettings.format(of: file.path).map { (spec: file.path == "-" ? nil : file.includedBy ?? file.path, format: $0) }
        var result: FileResult
        if let review = job.review {
            result = review.plan.migrate(bytes, context, planned: review.file, migrator: job.migrator, settings: settings)
        } else if let settings {
            result = GeneratedSettings.migrate(bytes, context, file: settings.spec, migrator: job.migrator, format: settings.format)
        } else {
            result = job.migrator.migrate(bytes, context)
            if result.status == .changed, !result.targets.isEmpty || GeneratedSettings.mayBeExpoNative(file.path), let note = GeneratedSettings.generatorNote(forPlist: file.path, targets: result.targets) {
                result.notes.append(note)
            }
            if job.migrator.accepted != nil { Self.judgeByKindList(&result, bytes: bytes, context: context, migrator: job.migrator) }
        }
        result.fingerprint = fingerprint
        result.named = file.explicit
        if write { Self.write(&result, to: file.path) }
        return result
    }

    /// Writes a changed file's output, unless the file changed since it was read.
    private static func write(_ result: inout FileResult, to path: String) {
        if result.status == .changed, let fingerprint = result.fingerprint {
            do {
                switch try FileIO.replace(path, with: result.output, expected: fingerprint, original: result.original) {
                case .replaced:
                    result.written = true
                case .alreadyCurrent:
                    // Another run wrote exactly this output meanwhile: nothing left to do here.
                    result.status = .unchanged
                    result.passes = []
                    result.notes.append("already holds the migrated content (written by another process meanwhile)")
                }
            } catch {
                // Nothing was written: no diff or edit count may suggest otherwise.
                result.status = .error
                result.error = error
                result.passes = []
                result.notWritten = true
            }
        }
    }

    private func emit(_ produced: consuming FileResult) {
        // The path as shown is quoted where a name needs it (`"Dev\342\200\256gpj.exe/…"`):
        // the repository is looked up by the name itself.
        let onDisk = PathBytes.unquoted(produced.path) ?? produced.path
        // Taken over, not copied: the caller is done with it.
        var result = consume produced
        if options.accepted != nil { seenGroups.formUnion(Self.groupsMet(result)) }
        result.path = reportPaths.name(result.path)
        if result.path == "-" && options.write {
            if result.status != .error {
                flush()
                sink.migratedPlist(result.output)
            }
            // Another format's report goes to --output FILE (the command line sees to it).
            if options.format != .text { pendingOutput.append(contentsOf: reporter.bytes(for: result)) }
        } else {
            pendingOutput.append(contentsOf: reporter.bytes(for: result))
        }
        for line in Self.diagnosticLines(result) where !(options.quiet && line.contains(": note: ")) {
            pendingErrors += line
            pendingErrors += "\n"
        }
        let wantsRepository = options.format == .json || options.format == .html || options.format == .markdown
        report.add(result, repositoryRoot: wantsRepository ? repositories.root(forFile: onDisk) : nil)
    }

    /// The note for each built-in changesPolicy pass held back, made once (most files with the
    /// ATS dict get one), by id and by lowercased id (as `MigrationRegistry.migration(id:)`
    /// finds them).
    private static let heldBackPolicyNotes: [String: String] = Dictionary(uniqueKeysWithValues:
        MigrationRegistry.all.filter { $0.impact == .changesPolicy }.flatMap { pass in
            let note = "\(pass.label) held back; add --allow-policy-change to include it"
            return Set([pass.id, pass.id.lowercased()]).map { ($0, note) }
        })

    static func diagnosticLines(_ result: FileResult) -> [String] {
        var lines: [String] = []
        if let error = result.error { lines.append(error.line(path: result.path)) }
        for diagnostic in result.diagnostics {
            lines.append("\(result.path):\(diagnostic.location.line):\(diagnostic.location.column): error: "
                + "\(diagnostic.migrationID): \(OneLine.escaped(diagnostic.message))")
        }
        for kind in result.acceptedNotApplied { lines.append("\(result.path): error: \(kind.message)") }
        for group in result.changedSinceReview {
            lines.append("\(result.path): error: changed since the review: its edit here (\(group)) is no kind the review showed; "
                + "the file is not written (review it again)")
        }
        for change in result.sourceChanges { lines.append(CodeSources.message(change, path: result.path)) }
        for note in result.notes { lines.append("\(result.path): note: \(OneLine.escaped(note))") }
        if result.named {
            for (id, reason) in result.outOfScope.sorted(by: { $0.key < $1.key }) {
                lines.append("\(result.path): note: \(id) not applied to this file: \(OneLine.escaped(reason))")
            }
        }
        for id in result.heldBack {
            // A built-in changesPolicy pass is named with its label; any other (a recipe's too)
            // by the reason it was held back.
            // Built-in ids are upper case already: no lowercased copy is made for them.
            if let note = heldBackPolicyNotes[id] ?? heldBackPolicyNotes[id.lowercased()] {
                lines.append("\(result.path): note: \(note)")
            } else {
                lines.append("\(result.path): note: \(id) held back: \(OneLine.escaped(result.heldBackReasons[id] ?? "its policy delta exceeds its intent"))")
            }
        }
        return lines
    }

    private func finish() {
        let closing = reporter.finish(report)
        if !closing.isEmpty { sink.standardOutput(closing) }
        // Decided ids that are no kind of change of this run: a decision for another tree, or
        // one made before a pass's version changed, an error unless the decision
        // says it spans several runs. `--check` asks whether accepted edits are left,
        // and an applied kind is no longer one of the run's: there it is a warning.
        let unmatched = unmatchedDecisionIDs(met: seenGroups)
        if !unmatched.isEmpty {
            let fails = !options.decisionSpansRuns && !options.check
            sink.standardError(Self.unmatchedLine(unmatched, error: fails) + "\n")
            if fails { decisionFailed = true }
        }
        if !(options.write && options.paths == ["-"]) && !options.quiet {
            sink.standardError(report.summaryLine() + "\n")
            for line in report.nextStepLines() { sink.standardError(line + "\n") }
        }
        // For a benchmark (`PLIST_MIGRATE_COUNTS`): how often the settings were read and compared.
        if WorkCounts.enabled { sink.standardError("plist-migrate: work: \(WorkCounts.summary())\n") }
    }
}
