import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate
import FileAccess

/// `plist-migrate [migrate] PATH…`: dry run (per-pass diffs), `--check`, `--write`.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Show (default) or apply the migrations to plist files and directories.",
        discussion: """
            A dry run prints one unified diff per pass and writes nothing. Exit status: 0 fine, \
            1 --check found pending changes, 2 a file failed to parse, hit a conflict, or could \
            not be read or written, 64 a usage error (also a named path that does not exist: nothing runs).
            """)

    @Argument(help: "Plists, project.yml/app.json or directories (default: the current directory); - reads standard input.")
    var paths: [String] = []

    @Flag(name: [.short, .long], help: "Apply the changes, atomically per file (with -: to standard output).")
    var write = false

    @Flag(help: "Exit 1 if anything would change (a CI gate).")
    var check = false

    @Option(help: ArgumentHelp("Run only these passes (naming a changesPolicy one opts in to it).", valueName: "ID[,ID...]"),
            completion: .list(Self.passWords))
    var only: String?

    @Option(help: ArgumentHelp("Never run these passes.", valueName: "ID[,ID...]"), completion: .list(Self.passWords))
    var skip: String?

    /// What `--only` and `--skip` complete to: each built-in pass's id and name.
    static let passWords = MigrationRegistry.all.flatMap { [$0.id, $0.name] }

    @Option(help: ArgumentHelp("Run only passes up to this version.", valueName: "VERSION"))
    var to: Int?

    @Flag(help: "Include passes that change the effective policy.")
    var allowPolicyChange = false

    @OptionGroup var target: DeploymentTargetOption

    @Option(help: ArgumentHelp("text (per-pass diffs), json, patch (for git apply), html (a review page) or markdown (a pull request body).", valueName: "FORMAT"))
    var format: RunOptions.Format = .text

    @OptionGroup var walk: WalkOptions

    @OptionGroup var config: ConfigOptions

    @OptionGroup var report: ReportOutputOption

    @Option(help: ArgumentHelp("Also process the paths listed in FILE, one per line (- for standard input).", valueName: "FILE", visibility: .hidden))
    var filesFrom: String?

    @Option(help: ArgumentHelp("Process only shard I of N (by a stable hash of each path).", valueName: "I/N", visibility: .hidden))
    var shard: String?

    @Option(help: ArgumentHelp("Colour the text report: auto (on a terminal, unless NO_COLOR is set), always, never.", valueName: "WHEN", visibility: .hidden))
    var color: Colour.Mode = .auto

    @Flag(help: "Only diffs and errors: no notes, no summary.")
    var quiet = false

    @Flag(help: "With --check: held-back passes count as pending too.")
    var strict = false

    @Option(help: ArgumentHelp("Also run this recipe's passes, YAML or JSON (repeatable).", valueName: "FILE"))
    var recipe: [String] = []

    @Option(help: ArgumentHelp("Apply only the kinds of change a review accepted (the review page's decision file).", valueName: "FILE"))
    var accept: String?

    @Flag(help: ArgumentHelp("The --accept decision covers several runs (one review page over many repositories): ids this run does not have are a warning, not an error.", visibility: .hidden))
    var decisionSpansRuns = false

    mutating func validate() throws {
        // No path and no list: the current directory, as `lint` does (`--write` too: it writes
        // only what the same dry run shows).
        if paths.isEmpty && filesFrom == nil { paths = ["."] }
        if paths.contains("-") && (paths.count > 1 || filesFrom == "-") {
            throw ValidationError("- (standard input) cannot be combined with other paths")
        }
        if let shard, Shard(shard) == nil { throw ValidationError("--shard expects I/N with 1 <= I <= N, e.g. 2/8") }
        // `--write -` prints the migrated plist on standard output: a report there would garble it.
        if write, paths == ["-"], format != .text, report.file == nil {
            throw ValidationError("--write - prints the migrated plist on standard output: send the \(format.rawValue) report to a file with --output FILE")
        }
    }

    func run() throws {
        let stated = try CommandLineTypos.requireExisting(paths, subcommands: PlistMigrateCommand.subcommandNames)
        try report.refuseIfRead(paths + [filesFrom, accept].compactMap { $0 } + recipe + config.files)
        let selection = Selection(
            only: only.map(Self.ids), skip: skip.map(Self.ids), to: to,
            allowPolicyChange: allowPolicyChange ? true : nil, minimumOS: target.minOS,
            recipes: recipe.isEmpty ? nil : try Self.loadRecipes(recipe))
        if let to, to < 1 { throw Self.usageError("--to \(to) selects no pass: pass versions start at 1 (see `plist-migrate list`)") }
        let plan: MigrationPlan
        do {
            plan = try selection.plan()
        } catch {
            throw Self.usageError(error.description)
        }
        if plan.selected.isEmpty && plan.heldBack.isEmpty {
            throw Self.usageError("no pass is left to run with these --only/--skip/--to options: nothing would be checked")
        }
        var options = RunOptions(paths: paths, selection: selection)
        options.stated = stated
        options.write = write
        options.check = check
        options.format = format
        options.jobs = walk.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        options.excludes = walk.exclude.map(Glob.init)
        options.includes = walk.include.map(Glob.init)
        options.shard = shard.flatMap(Shard.init)
        options.useConfig = !config.noConfig
        options.explicitConfig = try config.explicit()
        options.forceExclude = walk.forceExclude
        options.listedPaths = try filesFrom.map(Self.readList) ?? []
        try report.refuseIfRead(options.listedPaths)
        let stdoutIsTerminal = report.file == nil && isatty(STDOUT_FILENO) == 1
        options.color = format == .text
            && Colour.enabled(color, isTerminal: stdoutIsTerminal, environment: ProcessInfo.processInfo.environment)
        options.quiet = quiet
        options.strict = strict
        options.reportOutput = report.file
        options.recipeFiles = recipe
        options.configFiles = config.files
        if let accept {
            let decision = try Apply.load(accept)
            if decision.hasPlan {
                // The plan holds the review's options: one typed here may only repeat them.
                let contradicting = PlanApplication.contradictions(decision, given: selection, recipes: recipe, configs: config.files,
                                                                   noConfig: config.noConfig)
                if !contradicting.isEmpty {
                    StandardStreams.writeError("\(accept): error: the decision applies the options its review ran with, and "
                        + contradicting.joined(separator: ", ") + " contradict\(contradicting.count == 1 ? "s" : "") them: leave "
                        + (contradicting.count == 1 ? "it" : "them") + " out (plist-migrate apply \(accept) needs none)\n")
                    throw ExitCode(2)
                }
                options.progress = isatty(STDERR_FILENO) == 1
                try Apply.run(decision, named: accept, scope: paths, options: options)
                return
            }
            FileHandle.standardError.write(Data(("plist-migrate: warning: \(OneLine.escaped(accept)) lists kinds without the plan they were reviewed in "
                + "(schemaVersion 1): it cannot tell a file edited after the review from the one reviewed; download the decision "
                + "again from a review page of this version\n").utf8))
            options.accepted = Set(decision.accepted)
            options.rejected = Set(decision.rejected)
            options.reviewed = decision.reviewed.map(Set.init)
            options.decisionSpansRuns = decisionSpansRuns
            for (kind, prerequisites) in (decision.undecidedPrerequisites ?? [:]).sorted(by: { $0.key < $1.key }) {
                FileHandle.standardError.write(Data(("plist-migrate: warning: \(OneLine.escaped(accept)): \(OneLine.escaped(kind)) was accepted while "
                    + "\(prerequisites.map(OneLine.escaped).joined(separator: ", ")), which it follows, was undecided on the review page\n").utf8))
            }
        }
        // Progress goes to stderr, so it shows whenever stderr is a terminal; it is cleared
        // before any output, whatever stdout is.
        options.progress = isatty(STDERR_FILENO) == 1
        let input = paths == ["-"] ? try Self.standardInput() : []
        let streams = try StandardStreams(output: report.file)
        let status = Runner(options: options, sink: streams, readStandardInput: { input }).run()
        let final = streams.finish(status: status)
        if final != 0 { throw ExitCode(final) }
    }

    /// A usage error found while running (the passes are known once recipes are read): said with
    /// `migrate`'s own usage line, as one found while parsing is, and exit 64.
    static func usageError(_ message: String) -> ExitCode {
        // The subcommand's own message names it alone ("Usage: migrate"): as a user types it.
        let text = fullMessage(for: ValidationError(message)).replacingOccurrences(of: "Usage: migrate ", with: "Usage: plist-migrate migrate ")
            .replacingOccurrences(of: "'migrate --help'", with: "'plist-migrate migrate --help'")
        StandardStreams.writeError(text + "\n")
        return ExitCode(64)
    }

    /// The passes of recipe files; an error in one prints `file:line:column: error: …` and
    /// nothing runs (exit 2).
    static func loadRecipes(_ paths: [String]) throws -> [RecipePass] {
        do {
            return try RecipeLoader.load(paths)
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(2)
        }
    }

    static func ids(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A `--files-from` list, streamed and bounded; what is wrong with it is one line and exit 2.
    static func readList(_ path: String) throws -> [String] {
        do {
            return try BoundedInput.pathList(path)
        } catch {
            FileHandle.standardError.write(Data((error.line(path: path == "-" ? "(standard input)" : path) + "\n").utf8))
            throw ExitCode(2)
        }
    }

    /// Standard input, at most `FileIO.maximumSize` bytes: more is one line and exit 2, read no further.
    static func standardInput() throws -> [UInt8] {
        guard let bytes = BoundedInput.standardInput() else {
            FileHandle.standardError.write(Data("-: error: input too large (more than \(FileIO.maximumSize >> 20) MiB, the limit)\n".utf8))
            throw ExitCode(2)
        }
        return bytes
    }
}
