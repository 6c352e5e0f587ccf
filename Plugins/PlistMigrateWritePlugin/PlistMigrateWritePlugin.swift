import PackagePlugin

/// `swift package --allow-writing-to-package-directory plist-migrate-write [ARGUMENTS…]`:
/// the same commands, allowed to write (`--write`, `edit`, `--output`, `--write-baseline`).
/// The permission is declared in Package.swift, so SwiftPM asks for it before the plugin runs.
@main
struct PlistMigrateWritePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try PluginRun.perform(context: context, arguments: arguments, mayWrite: true)
    }
}
