import Foundation
import PackagePlugin

/// A build-tool plugin: `plist-migrate lint` over a target's plists on every build. Findings are
/// printed as `path:line:column: severity: …` with absolute paths, which Xcode shows in its issue
/// navigator and `swift build` prints; an error-severity finding fails the build, as with
/// SwiftLint's plugin. The command declares no output: SwiftPM would make any output file a
/// resource of the target (and give it a resource bundle), and with none the command runs on
/// every build, so warnings stay in view.
@main
struct PlistLintPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let directory: URL
        switch target {
        case let swift as SwiftSourceModuleTarget: directory = swift.directoryURL
        case let clang as ClangSourceModuleTarget: directory = clang.directoryURL
        default: return []
        }
        let found = Self.plists(under: directory)
        guard !found.plists.isEmpty else { return [] }
        return [try Self.command(tool: context.tool(named: "plist-migrate").url, name: target.name, files: found)]
    }

    struct Inputs {
        var plists: [URL] = []
        var configs: [URL] = []
    }

    static func command(tool: URL, name: String, files: Inputs) -> Command {
        .buildCommand(
            displayName: "plist-migrate lint \(name) (\(files.plists.count) plist\(files.plists.count == 1 ? "" : "s"))",
            executable: tool,
            arguments: ["lint", "--format", "xcode", "--quiet"] + files.plists.map(\.path),
            inputFiles: files.plists + files.configs,
            outputFiles: [])
    }

    /// The `.plist` files below `directory` (build folders and packages left out), and the
    /// configs that may apply to them.
    static func plists(under directory: URL) -> Inputs {
        var inputs = Inputs()
        let skipped: Set<String> = [".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules"]
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isDirectoryKey]) else { return inputs }
        for case let url as URL in walker {
            if skipped.contains(url.lastPathComponent) { walker.skipDescendants(); continue }
            if url.pathExtension == "plist" { inputs.plists.append(url) }
            if url.lastPathComponent == ".plist-migrate.json" { inputs.configs.append(url) }
        }
        inputs.plists.sort { $0.path < $1.path }
        return inputs
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// In an Xcode project: the target's plists among its input files, else the project's folder
/// (a target's Info.plist is a build setting, not an input file).
extension PlistLintPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        var found = Inputs(plists: target.inputFiles.map(\.url).filter { $0.pathExtension == "plist" })
        if found.plists.isEmpty { found = Self.plists(under: context.xcodeProject.directoryURL) }
        guard !found.plists.isEmpty else { return [] }
        return [try Self.command(tool: context.tool(named: "plist-migrate").url, name: target.displayName, files: found)]
    }
}
#endif
