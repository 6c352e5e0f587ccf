import Foundation
import PackagePlugin

/// `swift package plist-migrate [SUBCOMMAND] [ARGUMENTS…]`: runs plist-migrate in the package's
/// directory, on the package itself when no path is given. Read-only commands need no
/// permission; `--write` needs `swift package --allow-writing-to-package-directory …`.
@main
struct PlistMigratePlugin: CommandPlugin {
    /// Options that take a value: their values are not paths.
    static let valueOptions = [
        "format", "only", "skip", "to", "min-os", "jobs", "exclude", "include", "files-from", "shard", "color", "recipe",
        "output", "baseline", "write-baseline", "rules", "accept", "stdin-path", "os", "host", "kind", "config",
    ]
    static let subcommands = ["migrate", "list", "explain", "lint", "edit", "rules", "report"]
    /// The subcommands that walk paths, and so get the package's directory when given none.
    static let walking: Set<String> = ["migrate", "lint"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "plist-migrate")
        let subcommand = arguments.first.flatMap { Self.subcommands.contains($0) ? $0 : nil } ?? "migrate"
        var extractor = ArgumentExtractor(Array(arguments.dropFirst(arguments.first == subcommand ? 1 : 0)))
        for option in Self.valueOptions { _ = extractor.extractOption(named: option) }
        _ = extractor.extractOption(named: "j")
        _ = extractor.extractOption(named: "c")
        let paths = extractor.remainingArguments.filter { !$0.hasPrefix("-") }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = Self.walking.contains(subcommand) && paths.isEmpty ? arguments + [context.package.directoryURL.path] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // The tool has said what went wrong; the failure is reported once, by its status.
        guard process.terminationStatus == 0 else { throw PluginFailure(status: process.terminationStatus) }
    }

    struct PluginFailure: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "plist-migrate exited with status \(status)" }
    }
}
