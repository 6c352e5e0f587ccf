import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate

@main
struct PlistMigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist-migrate",
        abstract: "Upgrade App Transport Security settings in Info.plist files, changing only the bytes that must change.",
        version: ToolVersion.current,
        subcommands: [Migrate.self, List.self, Explain.self, Lint.self, Edit.self],
        defaultSubcommand: Migrate.self)

    /// Arguments are taken as bytes: a file name that is not valid UTF-8 still names that file.
    static func main() {
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            PathBytes.string(UnsafeRawBufferPointer(start: CommandLine.unsafeArgv[index], count: strlen(CommandLine.unsafeArgv[index]!)))
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Show (default) or apply the migrations to plist files and directories.",
        discussion: """
            A dry run prints one unified diff per pass and writes nothing. Exit status: 0 fine, \
            1 --check found pending changes, 2 a file failed to parse, hit a conflict, or could \
            not be read or written.
            """)

    @Argument(help: "Plist files or directories to walk for *.plist; - reads standard input.")
    var paths: [String] = []

    @Flag(name: [.short, .long], help: "Apply the changes (atomically per file). With -, write the result to standard output.")
    var write = false

    @Flag(help: "Exit 1 if anything would change (a CI gate); the diffs are printed too.")
    var check = false

    @Option(help: ArgumentHelp("Run only these migrations; naming a changesPolicy one opts in to it.", valueName: "ID[,ID…]"))
    var only: String?

    @Option(help: ArgumentHelp("Never run these migrations.", valueName: "ID[,ID…]"))
    var skip: String?

    @Option(help: "Apply only migrations with version <= VERSION.")
    var to: Int?

    @Flag(help: "Include migrations that change the effective policy (changesPolicy).")
    var allowPolicyChange = false

    @Option(name: .customLong("min-os"), help: ArgumentHelp(
        "The app's deployment target: only these OS versions and later count in policy deltas (default: from the nearest project.pbxproj, else the plist's MinimumOSVersion/LSMinimumSystemVersion, else every OS).",
        valueName: "OS[,OS…]"))
    var minOS: String?

    @Option(help: "Output: text (per-pass diffs), json (report), or patch (one git-apply-able patch).")
    var format: RunOptions.Format = .text

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Files processed in parallel (default: the number of cores).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Skip walked files matching GLOB (repeatable).", valueName: "GLOB"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp("Process only walked files matching GLOB (repeatable).", valueName: "GLOB"))
    var include: [String] = []

    @Option(help: ArgumentHelp("Also process the paths listed in FILE, one per line (- for standard input).", valueName: "FILE"))
    var filesFrom: String?

    @Option(help: ArgumentHelp("Process only shard I of N (by a stable hash of each path).", valueName: "I/N"))
    var shard: String?

    @Option(help: "Colour the text report: auto (on a terminal, unless NO_COLOR is set), always, never.")
    var color: Colour.Mode = .auto

    @Flag(help: "No notes and no summary line: only diffs and errors.")
    var quiet = false

    @Flag(help: "With --check: held-back passes count as pending too.")
    var strict = false

    @Flag(help: "Ignore .plist-migrate.json files.")
    var noConfig = false

    @Option(help: ArgumentHelp("Also run the passes of this recipe file, YAML or JSON (repeatable); they run after the built-in ones.", valueName: "FILE"))
    var recipe: [String] = []

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if paths.isEmpty && filesFrom == nil { throw ValidationError("give at least one PATH (or --files-from)") }
        if paths.contains("-") && (paths.count > 1 || filesFrom == "-") {
            throw ValidationError("- (standard input) cannot be combined with other paths")
        }
        if let shard, Shard(shard) == nil { throw ValidationError("--shard expects I/N with 1 <= I <= N, e.g. 2/8") }
        if let minOS, DeploymentTarget(minOS, source: "--min-os") == nil {
            throw ValidationError("--min-os expects OS versions such as ios15, macos12, tvos15, visionos1 (several joined by commas)")
        }
    }

    func run() throws {
        let selection = Selection(
            only: only.map(Self.ids), skip: skip.map(Self.ids), to: to,
            allowPolicyChange: allowPolicyChange ? true : nil, minimumOS: minOS,
            recipes: recipe.isEmpty ? nil : try Self.loadRecipes(recipe))
        do {
            _ = try selection.plan()
        } catch {
            throw ValidationError(error.description)
        }
        var options = RunOptions(paths: paths, selection: selection)
        options.write = write
        options.check = check
        options.format = format
        options.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        options.excludes = exclude.map(Glob.init)
        options.includes = include.map(Glob.init)
        options.shard = shard.flatMap(Shard.init)
        options.useConfig = !noConfig
        options.listedPaths = try filesFrom.map(Self.readList) ?? []
        let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        options.color = format == .text
            && Colour.enabled(color, isTerminal: stdoutIsTerminal, environment: ProcessInfo.processInfo.environment)
        options.quiet = quiet
        options.strict = strict
        // Progress goes to stderr, so it shows whenever stderr is a terminal; it is cleared
        // before any output, whatever stdout is.
        options.progress = isatty(STDERR_FILENO) == 1
        let status = Runner(options: options, sink: StandardStreams(), readStandardInput: {
            Array(FileHandle.standardInput.readDataToEndOfFile())
        }).run()
        if status != 0 { throw ExitCode(status) }
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

    static func readList(_ path: String) throws -> [String] {
        let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path))
        return RunOptions.listedPaths(in: Array(data))
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show the effective App Transport Security policy of a plist, and why.",
        discussion: """
            Without --host: a table for every listed domain, any other host and the local network, \
            per OS era. With --host: the decision for that host and the keys that made it.
            """)

    @Argument(help: "The plist file; - reads standard input.")
    var file: String

    @Option(help: ArgumentHelp("The name standard input (-) has in the output.", valueName: "PATH"))
    var stdinPath: String?

    @Option(help: ArgumentHelp("Only this OS, e.g. ios9, ios16, ipados17, tvos15, visionos1, macos10.11, macos14.", valueName: "OS"))
    var os: String?

    @Option(help: "Explain the decision for this host name, IP address or URL (its host; a port is dropped).")
    var host: String?

    @Option(help: "Only this kind of load: urlSession, media or webView.")
    var kind: LoadKind?

    @Option(help: "text or json")
    var format: List.Format = .text

    @Option(name: .customLong("min-os"), help: ArgumentHelp(
        "The app's deployment target: the table shows only these OS versions and later (default: the nearest project.pbxproj, else the plist's own keys, else every OS).",
        valueName: "OS[,OS…]"))
    var minOS: String?

    func validate() throws {
        if let os, OSEra(os: os) == nil { throw ValidationError("unknown OS \"\(os)\" (examples: ios9, ios17, macos10.12, macos14)") }
        if let minOS, DeploymentTarget(minOS, source: "--min-os") == nil {
            throw ValidationError("--min-os expects OS versions such as ios15, macos12, tvos15, visionos1 (several joined by commas)")
        }
        // A security tool never answers a malformed question with "allowed".
        if let host, HostInput(host) == nil {
            throw ValidationError("--host \"\(host)\" is neither a host name nor an IP address (a URL or host:port is also taken)")
        }
    }

    func run() throws {
        let input = host.flatMap(HostInput.init)
        var explainer = Explainer(era: os.flatMap(OSEra.init(os:)), host: input?.host, kind: kind, minimumOS: minOS)
        explainer.hostNotes = input?.notes ?? []
        let path = file == "-" ? (stdinPath ?? "<stdin>") : FileDiscovery.displayPath(file)
        var report: Explainer.Report
        do {
            let bytes = file == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : try FileIO.load(file).bytes
            report = try explainer.explain(bytes, path: file == "-" ? "-" : path)
        } catch let error as FileError {
            FileHandle.standardError.write(Data((error.line(path: path) + "\n").utf8))
            throw ExitCode(2)
        } catch let error as ParseError {
            FileHandle.standardError.write(Data("\(path):\(error.location): error: \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        report.path = path
        switch format {
        case .text: print(explainer.text(report), terminator: "")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
    }
}

extension LoadKind: ExpressibleByArgument {}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Report what is wrong with ATS settings, with the migration that fixes it.",
        discussion: "Exit status: 0 no error-level findings, 1 error-level findings, 2 a file could not be read or parsed.")

    @Argument(help: "Plist files or directories to walk for *.plist; - reads standard input.")
    var paths: [String]

    @Option(help: "text, json, sarif (SARIF 2.1.0, for GitHub code scanning), or github (workflow commands).")
    var format: LintRunner.Format = .text

    @Option(help: ArgumentHelp("Leave out the findings recorded in FILE (by rule, file and key path).", valueName: "FILE"))
    var baseline: String?

    @Option(help: ArgumentHelp("Record every current finding in FILE, for --baseline, and exit 0.", valueName: "FILE"))
    var writeBaseline: String?

    @Flag(help: "Warnings fail too (exit 1).")
    var strict = false

    @Flag(help: "No notes and no summary line.")
    var quiet = false

    @Option(help: ArgumentHelp("The name standard input (-) has in messages.", valueName: "PATH"))
    var stdinPath: String?

    @Flag(help: "Ignore .plist-migrate.json files.")
    var noConfig = false

    @Option(help: "Colour the text output: auto (on a terminal, unless NO_COLOR is set or TERM=dumb; FORCE_COLOR forces it), always, never.")
    var color: Colour.Mode = .auto

    @Option(help: ArgumentHelp("Skip walked files matching GLOB (repeatable).", valueName: "GLOB"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp("Check only walked files matching GLOB (repeatable).", valueName: "GLOB"))
    var include: [String] = []

    @Option(name: .customLong("min-os"), help: ArgumentHelp(
        "The app's deployment target (default: the nearest project.pbxproj, else the plist's own keys, else every OS).",
        valueName: "OS[,OS…]"))
    var minOS: String?

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Files checked in parallel (default: the number of cores).")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let minOS, DeploymentTarget(minOS, source: "--min-os") == nil {
            throw ValidationError("--min-os expects OS versions such as ios15, macos12, tvos15, visionos1 (several joined by commas)")
        }
    }

    func run() throws {
        var runner = LintRunner(paths: paths)
        runner.minimumOS = minOS
        if let jobs { runner.jobs = jobs }
        runner.baseline = baseline
        runner.writeBaseline = writeBaseline
        runner.strict = strict
        runner.quiet = quiet
        runner.useConfig = !noConfig
        if let stdinPath { runner.stdinPath = stdinPath }
        runner.color = format == .text
            && Colour.enabled(color, isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
        runner.readStandardInput = { Array(FileHandle.standardInput.readDataToEndOfFile()) }
        runner.format = format
        runner.excludes = exclude.map(Glob.init)
        runner.includes = include.map(Glob.init)
        let status = runner.run(sink: StandardStreams())
        if status != 0 { throw ExitCode(status) }
    }
}

extension LintRunner.Format: ExpressibleByArgument {}
extension Colour.Mode: ExpressibleByArgument {}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the migrations in the order they run.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "text or json")
    var format: Format = .text

    @Option(help: ArgumentHelp("Also list the passes of this recipe file (repeatable).", valueName: "FILE"))
    var recipe: [String] = []

    struct Entry: Codable {
        var id: String
        var version: Int
        var name: String
        var impact: String
        var title: String
        var rationale: String
        var intent: String
    }

    /// `list --format json`: `{ "schemaVersion": 1, "migrations": [Entry] }`.
    struct Document: Codable {
        var schemaVersion = 1
        var migrations: [Entry]
    }

    func run() throws {
        let passes = MigrationRegistry.all + (try Migrate.loadRecipes(recipe).sorted { $0.version < $1.version } as [any Migration])
        let entries = passes.map {
            Entry(id: $0.id, version: $0.version, name: $0.name, impact: $0.impact.rawValue, title: $0.title,
                  rationale: $0.rationale, intent: $0.intent.rawValue)
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(Document(migrations: entries)), as: UTF8.self))
        case .text:
            let rows = entries.map { [$0.id, String($0.version), $0.name, $0.impact, $0.title] }
            let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                let padded = (0..<4).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                print((padded + [row[4]]).joined(separator: "  "))
            }
        }
    }
}

extension RunOptions.Format: ExpressibleByArgument {}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Run PlistBuddy commands on one plist, changing only the bytes they change.",
        discussion: """
            Takes PlistBuddy's Print, Set, Add and Delete, with its entry syntax (:Key:Sub:0, a \
            trailing : appends to an array) and types (string, array, dict, bool, real, integer, \
            date, data). The commands run in order; if one fails, nothing is written. Exit status: \
            0 fine, 1 --check found a change to make, 2 a command or the file failed, 64 a usage error.
            """)

    @Argument(help: "The plist file.")
    var file: String

    @Option(name: .customShort("c"), help: ArgumentHelp("A PlistBuddy command, e.g. \"Set :CFBundleVersion 42\" (repeatable).", valueName: "COMMAND"))
    var commands: [String] = []

    @Flag(help: "Print the diff and write nothing.")
    var dryRun = false

    @Flag(help: "Write nothing; exit 1 if the commands would change the file (the diff is printed).")
    var check = false

    func validate() throws {
        if commands.isEmpty { throw ValidationError("give at least one -c COMMAND") }
        for command in commands {
            do {
                _ = try BuddyCommand(parsing: command)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() throws {
        let parsed = try commands.map { try BuddyCommand(parsing: $0) }
        let path = FileDiscovery.displayPath(file)
        func fail(_ error: FileError) -> ExitCode {
            FileHandle.standardError.write(Data((error.line(path: path) + "\n").utf8))
            return ExitCode(2)
        }
        let bytes: [UInt8], fingerprint: FileFingerprint
        do {
            (bytes, fingerprint) = try FileIO.load(file)
        } catch {
            throw fail(error)
        }
        let outcome: PlistEditor.Outcome
        do {
            outcome = try PlistEditor.run(parsed, on: bytes)
        } catch {
            throw fail(error)
        }
        for text in outcome.printed { print(text) }
        guard outcome.output != bytes else { return }
        if dryRun || check {
            if let diff = UnifiedDiff.make(from: bytes, to: outcome.output, path: path) { print(diff, terminator: "") }
            if check { throw ExitCode(1) }
            return
        }
        do {
            try FileIO.replace(file, with: outcome.output, expected: fingerprint, original: bytes)
        } catch {
            throw fail(error)
        }
    }
}

final class StandardStreams: OutputSink {
    func standardOutput(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
