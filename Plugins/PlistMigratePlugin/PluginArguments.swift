/// A command plugin's command line read as the tool reads it: the subcommand, the argument that
/// makes it write files, and whether it names a path. Plain Swift, no PackagePlugin: the write
/// plugin and the tests compile this same file (symbolic links to it), so the tests check the
/// rules the plugins run without a SwiftPM invocation per command line.
struct PluginArguments {
    /// Options that take a value: their values are not paths.
    static let valueOptions: Set<String> = [
        "format", "only", "skip", "to", "min-os", "jobs", "exclude", "include", "files-from", "shard", "color", "recipe",
        "output", "baseline", "write-baseline", "rules", "accept", "stdin-path", "os", "host", "kind", "config", "command",
    ]
    /// Short options that take a value (`-j 2`, `-j2`; `edit -c COMMAND`).
    static let shortValueOptions: Set<Character> = ["j", "c"]
    static let subcommands: Set<String> = ["migrate", "list", "explain", "lint", "edit", "rules", "report"]
    /// The subcommands that walk paths, and so get the package's directory when given none.
    static let walking: Set<String> = ["migrate", "lint"]

    let arguments: [String]

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The subcommand named first, else the default one.
    var subcommand: String { arguments.first.flatMap { Self.subcommands.contains($0) ? $0 : nil } ?? "migrate" }

    /// The options, up to a `--` (what follows it is paths).
    private var options: ArraySlice<String> { arguments.prefix { $0 != "--" } }

    /// The argument that makes the command line write a file (`--write`, `-w` alone or among
    /// short flags, `--write-baseline`, `--output`, or `edit` without `--dry-run`/`--check`), or `nil`.
    var writingArgument: String? {
        for argument in options {
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if ["--write", "-w", "--write-baseline", "--output"].contains(name) { return name }
            if argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.dropFirst().contains("w") { return argument }
        }
        if subcommand == "edit", !options.contains("--dry-run"), !options.contains("--check") { return "edit (without --dry-run or --check)" }
        return nil
    }

    /// Whether the command line names a path: an argument that is no option, no option's value
    /// and not the subcommand, or anything after `--`.
    var namesAPath: Bool {
        var index = arguments.first == subcommand ? 1 : 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return index < arguments.count }
            if argument.hasPrefix("--") {
                if Self.valueOptions.contains(String(argument.dropFirst(2))) { index += 1 }
            } else if argument.hasPrefix("-"), argument.count > 1 {
                // `-j 2` takes the next argument; `-j2` and flags like `-q` do not.
                if argument.count == 2, let short = argument.last, Self.shortValueOptions.contains(short) { index += 1 }
            } else {
                return true
            }
        }
        return false
    }

    /// The tool's arguments: the package's directory added where a walking subcommand names no path.
    func toolArguments(packageDirectory: String) -> [String] {
        Self.walking.contains(subcommand) && !namesAPath ? arguments + [packageDirectory] : arguments
    }
}
