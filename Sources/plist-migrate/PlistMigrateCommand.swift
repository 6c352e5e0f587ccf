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
        subcommands: [Migrate.self, List.self, Explain.self, Lint.self, Edit.self, Rules.self, Report.self, Targets.self],
        defaultSubcommand: Migrate.self)

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
        do {
            var command = try parseAsRoot(Edit.takingCommands(from: arguments))
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
