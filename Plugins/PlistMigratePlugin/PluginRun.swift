import Foundation
import PackagePlugin

/// What both command plugins do: run plist-migrate in the package's directory, on the package
/// itself when no path is given. `plist-migrate` declares no permission and refuses a command
/// line that writes files; `plist-migrate-write` declares the permission to write to the
/// package directory, so SwiftPM asks for it (`--allow-writing-to-package-directory`), on
/// Linux too, where plugins run without a sandbox and the declaration is the only guard.
/// (The write plugin's copy of this file is a symbolic link to this one.)
enum PluginRun {
    static func perform(context: PluginContext, arguments: [String], mayWrite: Bool) throws {
        let tool = try context.tool(named: "plist-migrate")
        let commandLine = PluginArguments(arguments)
        if !mayWrite, let writing = commandLine.writingArgument {
            throw PluginFailure(message: "\(writing) writes files in the package; run it as `swift package --allow-writing-to-package-directory plist-migrate-write …`")
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = commandLine.toolArguments(packageDirectory: context.package.directoryURL.path)
        process.currentDirectoryURL = context.package.directoryURL
        // Told by the termination handler: `waitUntilExit()` polls in 50 ms steps on Linux.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        exited.wait()
        // The tool has said what went wrong; the failure is reported once, by its status.
        guard process.terminationStatus == 0 else { throw PluginFailure(message: "plist-migrate exited with status \(process.terminationStatus)") }
    }

    struct PluginFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
