import PackagePlugin

/// `swift package plist-migrate [SUBCOMMAND] [ARGUMENTS…]`: the read-only commands (dry runs,
/// `--check`, `lint`, `list`, `explain`, `report` to standard output); no permission asked, and
/// a command line that would write a file is refused with the `plist-migrate-write` form.
@main
struct PlistMigratePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try PluginRun.perform(context: context, arguments: arguments, mayWrite: false)
    }
}
