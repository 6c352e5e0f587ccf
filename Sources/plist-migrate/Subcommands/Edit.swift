import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate

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
        for text in outcome.printed { print(text) }
        guard outcome.output != bytes else { return }
        if dryRun || check {
            if let diff = UnifiedDiff.make(from: bytes, to: outcome.output, path: name) { print(diff, terminator: "") }
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
