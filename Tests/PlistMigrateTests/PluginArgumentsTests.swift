import Testing

/// The command plugins' reading of a command line (`PluginArguments.swift`, the plugins' own
/// file, linked here): what the read-only verb refuses as writing, and where the package's
/// directory is added. `PluginConsumerTests` runs a few of these through SwiftPM; these are the
/// rest of the rules, one command line each.
@Suite struct PluginArgumentsTests {
    @Test(arguments: [
        (["--write", "Sources/Demo/Info.plist"], "--write"),
        (["-w"], "-w"),
        (["-qw", "."], "-qw"),
        (["--write=true"], "--write"),
        (["lint", "--output", "lint.txt"], "--output"),
        (["lint", "--output=lint.txt"], "--output"),
        (["lint", "--write-baseline", "baseline.json"], "--write-baseline"),
        (["report", "--output", "page.html", "report.json"], "--output"),
        (["edit", "Sources/Demo/Info.plist"], "edit (without --dry-run or --check)"),
        (["edit", "Info.plist", "--command", "Set :A 1"], "edit (without --dry-run or --check)"),
    ])
    func writingCommandLinesAreRefused(_ arguments: [String], _ writing: String) {
        #expect(PluginArguments(arguments).writingArgument == writing, "\(arguments)")
    }

    @Test(arguments: [
        ["lint", "--format", "json"], ["--check"], ["list"], ["explain", "Info.plist", "--host", "example.com"],
        ["edit", "--dry-run", "Info.plist"], ["edit", "--check", "Info.plist"], ["--format", "patch", "."],
        ["--", "--write"], ["-q"], ["lint", "--baseline", "baseline.json"],
    ])
    func readOnlyCommandLinesRun(_ arguments: [String]) {
        #expect(PluginArguments(arguments).writingArgument == nil, "\(arguments)")
    }

    @Test(arguments: [
        // Walking subcommands with no path get the package's directory…
        (["lint", "--format", "json"], true), (["--check"], true), ([], true), (["migrate"], true),
        (["--format=json"], true), (["-j", "2"], true), (["-j2", "--only", "ATS001"], true),
        (["--exclude", "Vendor/**", "--config", "ci.json"], true), (["lint", "--"], true),
        // …and not where a path is named, or the subcommand walks nothing.
        (["lint", "App/Info.plist"], false), (["--check", "."], false), (["-j", "2", "App"], false),
        (["--", "--odd-name.plist"], false), (["-"], false), (["list"], false), (["rules", "--format", "json"], false),
        (["explain", "--os", "ios17"], false),
        // `edit --command VALUE` names its file, and the command is no path.
        (["edit", "--dry-run", "--command", "Set :A 1", "Info.plist"], false),
    ])
    func thePackageIsWalkedWhereNoPathIsNamed(_ arguments: [String], _ added: Bool) {
        let run = PluginArguments(arguments).toolArguments(packageDirectory: "/pkg")
        #expect(run == (added ? arguments + ["/pkg"] : arguments), "\(arguments)")
    }
}
