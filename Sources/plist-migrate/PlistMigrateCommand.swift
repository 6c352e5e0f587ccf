import ArgumentParser
import Foundation
import Migrations
import PlistMigrate

@main
struct PlistMigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist-migrate",
        abstract: "Upgrade App Transport Security settings in Info.plist files, changing only the bytes that must change.",
        subcommands: [Migrate.self, List.self],
        defaultSubcommand: Migrate.self)
}

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show (default) or apply the migrations to plist files and directories.",
        discussion: """
            A dry run prints one unified diff per pass and writes nothing. Exit status: 0 fine, \
            1 --check found pending changes, 2 a file failed to parse, hit a conflict, or could \
            not be read or written.
            """)

    @Argument(help: "Plist files or directories to walk for *.plist; - reads standard input.")
    var paths: [String]

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

    @Option(help: "Output: text (per-pass diffs), json (report), or patch (one git-apply-able patch).")
    var format: RunOptions.Format = .text

    @Option(name: [.short, .long], help: "Files processed in parallel (default: the number of cores).")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if paths.contains("-") && paths.count > 1 { throw ValidationError("- (standard input) cannot be combined with other paths") }
    }

    func run() throws {
        let plan: MigrationPlan
        do {
            plan = try MigrationPlan(
                only: Self.ids(only), skip: Self.ids(skip), to: to, allowPolicyChange: allowPolicyChange)
        } catch {
            throw ValidationError(error.description)
        }
        var options = RunOptions(paths: paths, plan: plan)
        options.write = write
        options.check = check
        options.format = format
        options.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let status = Runner(options: options, sink: StandardStreams(), readStandardInput: {
            Array(FileHandle.standardInput.readDataToEndOfFile())
        }).run()
        if status != 0 { throw ExitCode(status) }
    }

    static func ids(_ list: String?) -> [String] {
        (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the migrations in the order they run.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "text or json")
    var format: Format = .text

    struct Entry: Codable {
        var id: String
        var version: Int
        var name: String
        var impact: String
        var title: String
        var rationale: String
    }

    func run() throws {
        let entries = MigrationRegistry.all.map {
            Entry(id: $0.id, version: $0.version, name: $0.name, impact: $0.impact.rawValue, title: $0.title, rationale: $0.rationale)
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(entries), as: UTF8.self))
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

final class StandardStreams: OutputSink {
    func standardOutput(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
