import Foundation
import PackagePlugin

/// `swift package plist-migrate [ARGUMENTS…]`: runs plist-migrate in the package's directory
/// (on the package itself when no path is given). `--write` needs
/// `--allow-writing-to-package-directory`, which SwiftPM asks for.
@main
struct PlistMigratePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "plist-migrate")
        let givesPath = arguments.contains { !$0.hasPrefix("-") && !["list", "explain", "lint", "migrate"].contains($0) }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = givesPath ? arguments : arguments + [context.package.directoryURL.path]
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("plist-migrate exited with status \(process.terminationStatus)")
            throw PluginFailure(status: process.terminationStatus)
        }
    }

    struct PluginFailure: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "plist-migrate exited with status \(status)" }
    }
}
