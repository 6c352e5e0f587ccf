import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate
import FileAccess

@main
struct PlistMigrateCommand: ParsableCommand {
    static var configuration: CommandConfiguration { namesItsSubcommand ? withoutDefault : withDefault }

    /// `plist-migrate PATH…` runs `migrate`.
    private static let withDefault = CommandConfiguration(
        commandName: "plist-migrate",
        abstract: "Upgrade App Transport Security settings in Info.plist files, changing only the bytes that must change.",
        version: ToolVersion.current,
        subcommands: [Migrate.self, Apply.self, List.self, Explain.self, Lint.self, Edit.self, Rules.self, Report.self, Targets.self],
        defaultSubcommand: Migrate.self)

    /// For a command line that starts with a subcommand's name, the same tree without the
    /// default: swift-argument-parser would otherwise build `migrate`'s whole argument set
    /// (twice, with its debug-only checks in a debug build) to learn whether it takes
    /// passthrough arguments, which it does not, before it parses another subcommand. The
    /// parse is otherwise the same: the default is looked for only when no subcommand is named,
    /// and `help` (whose page marks the default) is not one of these names.
    private static let withoutDefault = {
        var configuration = withDefault
        configuration.defaultSubcommand = nil
        return configuration
    }()

    /// `migrate`, `list`, …: the words that name a subcommand.
    static let subcommandNames = withDefault.subcommands.map { $0._commandName }

    /// Set once in `main`, before parsing, and never changed after.
    nonisolated(unsafe) private static var namesItsSubcommand = false

    /// Arguments are taken as bytes: a file name that is not valid UTF-8 still names that file.
    static func main() {
        // A closed pipe is a write error (EPIPE) the command reports with exit 2, not a signal.
        signal(SIGPIPE, SIG_IGN)
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            PathBytes.string(UnsafeRawBufferPointer(start: CommandLine.unsafeArgv[index], count: strlen(CommandLine.unsafeArgv[index]!)))
        }
        if let hint = CommandLineTypos.otherToolOption(in: arguments) {
            FileHandle.standardError.write(Data("Error: \(hint)\n".utf8))
            exit(withError: ExitCode(64))
        }
        if let script = Completions.script(for: arguments) {
            print(script, terminator: "")
            exit(withError: (try? flushStandardOutput()) == nil ? ExitCode(2) : ExitCode.success)
        }
        let commandLine = Edit.takingCommands(from: arguments)
        namesItsSubcommand = commandLine.first.map(subcommandNames.contains) ?? false
        do {
            var command = try parseAsRoot(commandLine)
            try command.run()
            try flushStandardOutput()
        } catch {
            // Help, the version and the help dump: printed here so that a full disk or a closed
            // standard output is exit 2 with a message, not a silent success.
            if !(error is ExitCode), exitCode(for: error) == .success {
                let text = HelpExamples.appended(to: fullMessage(for: error))
                if let failure = ReportFile.writeAll(Array((text + "\n").utf8), to: STDOUT_FILENO) {
                    StandardStreams.writeError("error: cannot write to standard output (\(ReportFile.errorText(failure)))\n")
                    Foundation.exit(2)
                }
                Foundation.exit(0)
            }
            exit(withError: error)
        }
    }

    /// What `print` buffered (`list`, `explain`, `rules`) reaches standard output, or the run
    /// ends with exit 2 and says why: a full disk or a closed pipe never passes for success.
    static func flushStandardOutput() throws {
        errno = 0
        // Every stream (standard output is the only one buffered): EOF when a write failed.
        guard fflush(nil) != 0 else { return }
        let reason = errno == 0 ? "write error" : String(cString: strerror(errno))
        StandardStreams.writeError("error: cannot write to standard output (\(reason))\n")
        throw ExitCode(2)
    }
}
