import ArgumentParser
import Foundation
import PlistMigrate

/// `plist-migrate apply DECISION [PATH…]`: what a review accepted, written exactly as reviewed.
struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Write what a review accepted: the review page's decision, with the options the review ran with.",
        discussion: """
            The decision carries the plan the page was made from: each run's options and, per file, \
            the bytes reviewed and what each pass left. Nothing else needs typing. In a repository the \
            decision reviewed, its files are applied; elsewhere, every reviewed file (at the paths the \
            review saw). A file whose bytes are not those reviewed is an error and is not written; a \
            rejected or undecided kind is held back with every kind after it in that file. Exit \
            status: 0 fine, 1 --check found accepted kinds not yet applied, 2 a file changed since the \
            review or failed, or the decision was refused, 64 a usage error.
            """)

    @Argument(help: "The decision the review page downloaded (plist-migrate-decision.json).")
    var decision: String

    @Argument(help: "Only the reviewed files under these paths (default: the repository here, or every one).")
    var paths: [String] = []

    @Flag(help: "Show what would be written, writing nothing.")
    var dryRun = false

    @Flag(help: "Exit 1 while accepted kinds are not yet applied, writing nothing (a CI gate).")
    var check = false

    @Option(help: ArgumentHelp("text (per-pass diffs), json or patch (for git apply).", valueName: "FORMAT"))
    var format: RunOptions.Format = .text

    @OptionGroup var report: ReportOutputOption

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: ArgumentHelp("Files worked on at once (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Flag(help: "Only diffs and errors: no notes, no summary.")
    var quiet = false

    func validate() throws {
        if dryRun && check { throw ValidationError("--dry-run and --check cannot be used together (--check writes nothing either)") }
        if format == .html || format == .markdown { throw ValidationError("apply reports as text, json or patch") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        try report.refuseIfRead([decision] + paths)
        let loaded = try Self.load(decision)
        guard loaded.hasPlan else {
            StandardStreams.writeError("\(decision): error: this decision carries no plan (schemaVersion 1, a list of kinds): "
                + "apply it with plist-migrate --write --accept \(decision) PATH…, or download it again from a review page of this version\n")
            throw ExitCode(2)
        }
        var options = RunOptions(paths: [])
        options.write = !dryRun && !check
        options.check = check
        options.format = format
        options.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        options.quiet = quiet
        options.reportOutput = report.file
        options.progress = isatty(STDERR_FILENO) == 1
        try Self.run(loaded, named: decision, scope: paths.isEmpty ? nil : paths, options: options)
    }

    /// The decision at `path`, or its one-line error and exit 2.
    static func load(_ path: String) throws -> ReviewDecision {
        do {
            return try ReviewDecision.load(path)
        } catch {
            StandardStreams.writeError(error.line(path: path) + "\n")
            throw ExitCode(2)
        }
    }

    /// Applies a decision that carries its plan: its reviewed files under `scope`, each with the
    /// options of its run; `options` says how (write, check, format, the report's file).
    static func run(_ decision: ReviewDecision, named name: String, scope: [String]?, options given: RunOptions) throws {
        let plan: PlanApplication
        do {
            plan = try PlanApplication.prepare(decision, scope: scope)
        } catch {
            StandardStreams.writeError(error.line(path: name) + "\n")
            throw ExitCode(2)
        }
        var options = given
        options.paths = []
        options.listedPaths = plan.paths
        options.reviewPlan = plan
        options.useConfig = plan.useConfig
        options.explicitConfig = plan.explicitConfig
        let streams = try StandardStreams(output: options.reportOutput)
        let status = Runner(options: options, sink: streams).run()
        let final = streams.finish(status: status)
        if final != 0 { throw ExitCode(final) }
    }
}
