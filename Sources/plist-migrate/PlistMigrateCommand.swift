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
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            PathBytes.string(UnsafeRawBufferPointer(start: CommandLine.unsafeArgv[index], count: strlen(CommandLine.unsafeArgv[index]!)))
        }
        if let hint = CommandLineTypos.otherToolOption(in: arguments) {
            FileHandle.standardError.write(Data("Error: \(hint)\n".utf8))
            exit(withError: ExitCode(64))
        }
        do {
            var command = try parseAsRoot(Edit.takingCommands(from: arguments))
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
