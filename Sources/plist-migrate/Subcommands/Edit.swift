import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate
import FileAccess

/// `plist-migrate edit FILE -c COMMAND…`: PlistBuddy's commands, lossless.
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

    @Option(name: [.customShort("c"), .customLong("command")],
            help: ArgumentHelp("A PlistBuddy command, e.g. \"Set :CFBundleVersion 42\" (repeatable; --command is the long form, which SwiftPM's command plugin passes on).", valueName: "COMMAND"))
    var commands: [String] = []

    @Flag(help: "Print the diff and write nothing.")
    var dryRun = false

    @Flag(help: "Write nothing; exit 1 if the commands would change the file (the diff is printed).")
    var check = false

    /// The `-c` values `takingCommands(from:)` took out of the arguments, in order.
    nonisolated(unsafe) static var taken: [String] = []

    /// Takes every `-c COMMAND` (or `--command COMMAND`, `--command=COMMAND`) of an `edit`
    /// command line out of the arguments in one pass
    ///: the argument parser handles a repeated option in time that grows with
    /// the square of its count (10,000 `-c` took 7.9 s, 20,000 about 45 s). Arguments after `--`
    /// are left to the parser, and so is every `-c` when one's value starts with `-`.
    static func takingCommands(from arguments: [String]) -> [String] {
        guard arguments.first == "edit" else { return arguments }
        var rest: [String] = [], index = 0
        rest.reserveCapacity(arguments.count)
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                rest += arguments[index...]
                break
            }
            if argument.hasPrefix("--command=") {
                taken.append(String(argument.dropFirst("--command=".count)))
                index += 1
                continue
            }
            if argument == "-c" || argument == "--command" {
                // A value the parser might read otherwise: leave every -c to it, to keep the order.
                guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") else {
                    taken = []
                    return arguments
                }
                taken.append(arguments[index + 1])
                index += 2
                continue
            }
            rest.append(argument)
            index += 1
        }
        return rest
    }

    /// The commands, in the order given.
    var allCommands: [String] { Self.taken + commands }

    /// The long options `edit` takes: another one typed is named, with the nearest of these.
    static let longOptions = ["--command", "--dry-run", "--check", "--help"]

    func validate() throws {
        // An option edit does not know, said as such (the parser would first say that no -c was
        // given when the misspelt one was meant to be it).
        let typed = CommandLine.arguments.dropFirst().prefix { $0 != "--" }
        if let unknown = typed.first(where: { $0.hasPrefix("--") && !Self.longOptions.contains(String($0.split(separator: "=", maxSplits: 1)[0])) }) {
            let name = String(unknown.split(separator: "=", maxSplits: 1)[0])
            let near = NearestName.nearest(to: name, among: Self.longOptions)
            throw ValidationError("unknown option \(name)" + (near.map { " (did you mean \($0)?)" } ?? ""))
        }
        if allCommands.isEmpty { throw ValidationError("give at least one -c COMMAND") }
        for command in allCommands {
            do {
                _ = try BuddyCommand(parsing: command)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() throws {
        let parsed = try allCommands.map { try BuddyCommand(parsing: $0) }
        let name = ReportPaths.current.name(FileDiscovery.displayPath(file))
        let path = PathBytes.display(name)
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
        // Written without stdio's buffer, so that a failed write (a full disk, a closed pipe) is
        // exit 2 instead of output lost with exit 0.
        for text in outcome.printed { try StandardStreams.standardOutputOrExit(Array((text + "\n").utf8)) }
        guard outcome.output != bytes else { return }
        if dryRun || check {
            if let diff = UnifiedDiff.make(from: bytes, to: outcome.output, path: name) {
                try StandardStreams.standardOutputOrExit(Array(diff.utf8))
            }
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
