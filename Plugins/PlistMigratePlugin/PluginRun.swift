import Foundation
import PackagePlugin

/// What both command plugins do: run plist-migrate in the package's directory, on the package
/// itself when no path is given. `plist-migrate` declares no permission and refuses a command
/// line that writes files; `plist-migrate-write` declares the permission to write to the
/// package directory, so SwiftPM asks for it (`--allow-writing-to-package-directory`), on
/// Linux too, where plugins run without a sandbox and the declaration is the only guard.
/// (The write plugin's copy of this file is a symbolic link to this one.)
enum PluginRun {
    /// Options that take a value: their values are not paths.
    static let valueOptions = [
        "format", "only", "skip", "to", "min-os", "jobs", "exclude", "include", "files-from", "shard", "color", "recipe",
        "output", "baseline", "write-baseline", "rules", "accept", "stdin-path", "os", "host", "kind", "config",
    ]
    static let subcommands = ["migrate", "list", "explain", "lint", "edit", "rules", "report"]
    /// The subcommands that walk paths, and so get the package's directory when given none.
    static let walking: Set<String> = ["migrate", "lint"]

    static func perform(context: PluginContext, arguments: [String], mayWrite: Bool) throws {
        let tool = try context.tool(named: "plist-migrate")
        let subcommand = arguments.first.flatMap { subcommands.contains($0) ? $0 : nil } ?? "migrate"
        if !mayWrite, let writing = writingArgument(arguments, subcommand: subcommand) {
            throw PluginFailure(message: "\(writing) writes files in the package; run it as `swift package --allow-writing-to-package-directory plist-migrate-write …`")
        }
        var extractor = ArgumentExtractor(Array(arguments.dropFirst(arguments.first == subcommand ? 1 : 0)))
        for option in valueOptions { _ = extractor.extractOption(named: option) }
        _ = extractor.extractOption(named: "j")
        _ = extractor.extractOption(named: "c")
        let paths = extractor.remainingArguments.filter { !$0.hasPrefix("-") }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = walking.contains(subcommand) && paths.isEmpty ? arguments + [context.package.directoryURL.path] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        // Told by the termination handler: `waitUntilExit()` polls in 50 ms steps on Linux.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        exited.wait()
        // The tool has said what went wrong; the failure is reported once, by its status.
        guard process.terminationStatus == 0 else { throw PluginFailure(message: "plist-migrate exited with status \(process.terminationStatus)") }
    }

    /// The argument that makes the command line write a file (`--write`, `--write-baseline`,
    /// `--output`, or `edit` without `--dry-run`/`--check`), or `nil`.
    static func writingArgument(_ arguments: [String], subcommand: String) -> String? {
        let options = arguments.prefix { $0 != "--" }
        for argument in options {
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if ["--write", "-w", "--write-baseline", "--output"].contains(name) { return name }
            if argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.dropFirst().contains("w") { return argument }
        }
        if subcommand == "edit", !options.contains("--dry-run"), !options.contains("--check") { return "edit (without --dry-run or --check)" }
        return nil
    }

    struct PluginFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
