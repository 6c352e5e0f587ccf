import Foundation
import PackagePlugin

/// A build-tool plugin: `plist-migrate lint` over a target's plists on every build. Findings are
/// printed as `path:line:column: severity: …` with absolute paths, which Xcode shows in its issue
/// navigator and `swift build` prints; an error-severity finding fails the build, as with
/// SwiftLint's plugin. The command declares no output: SwiftPM would make any output file a
/// resource of the target (and give it a resource bundle).
///
/// It runs on every build, so warnings stay in view: a command with no outputs is still skipped
/// while its inputs are unchanged (from the third build on), so one of its inputs is
/// a stamp file the command itself rewrites each time it runs (`lint --build-stamp`). The
/// build system reads its inputs before running it, so the next build finds the stamp changed.
@main
struct PlistLintPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let directory: URL
        let sources: [URL]
        switch target {
        case let swift as SwiftSourceModuleTarget: (directory, sources) = (swift.directoryURL, swift.sourceFiles.map(\.url))
        case let clang as ClangSourceModuleTarget: (directory, sources) = (clang.directoryURL, clang.sourceFiles.map(\.url))
        default: return []
        }
        let plists = Self.plists(under: directory)
        guard !plists.isEmpty else { return [] }
        return [try Self.command(tool: context.tool(named: "plist-migrate").url, name: target.name, plists: plists, sources: sources,
                                 stamp: Self.stamp(in: context.pluginWorkDirectoryURL, for: target.name))]
    }

    /// The stamp file, made empty the first time (a missing input would stop the build).
    static func stamp(in directory: URL, for name: String) -> URL {
        let stamp = directory.appendingPathComponent("lint-\(name).stamp")
        if !FileManager.default.fileExists(atPath: stamp.path) {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: stamp.path, contents: Data())
        }
        return stamp
    }

    /// The target's sources are inputs too, as SwiftLint's plugin does: with the plists alone, a
    /// build after a change to a Swift file only did not run the command, and the warnings were
    /// gone from that build.
    static func command(tool: URL, name: String, plists: [URL], sources: [URL], stamp: URL) -> Command {
        .buildCommand(
            displayName: "plist-migrate lint \(name) (\(plists.count) plist\(plists.count == 1 ? "" : "s"))",
            executable: tool,
            arguments: ["lint", "--format", "xcode", "--quiet", "--build-stamp", stamp.path] + plists.map(\.path),
            inputFiles: plists + sources + [stamp],
            outputFiles: [])
    }

    /// The `.plist` files below `directory` (build folders and packages left out). The configs
    /// that apply to them are read by `lint` itself; with no output declared, the command runs
    /// on every build whatever its inputs.
    static func plists(under directory: URL) -> [URL] {
        var plists: [URL] = []
        let skipped: Set<String> = [".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules"]
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isDirectoryKey]) else { return plists }
        for case let url as URL in walker {
            if skipped.contains(url.lastPathComponent) { walker.skipDescendants(); continue }
            if url.pathExtension == "plist" { plists.append(url) }
        }
        return plists.sorted { $0.path < $1.path }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// In an Xcode project: the target's plists among its input files, else the project's folder
/// (a target's Info.plist is a build setting, not an input file).
extension PlistLintPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        var plists = target.inputFiles.map(\.url).filter { $0.pathExtension == "plist" }
        if plists.isEmpty { plists = Self.plists(under: context.xcodeProject.directoryURL) }
        guard !plists.isEmpty else { return [] }
        return [try Self.command(tool: context.tool(named: "plist-migrate").url, name: target.displayName, plists: plists,
                                 sources: target.inputFiles.map(\.url),
                                 stamp: Self.stamp(in: context.pluginWorkDirectoryURL, for: target.displayName))]
    }
}
#endif
