import Foundation
import Testing
import PlistMigrate

/// Every subcommand's `--help` ends with two or three examples that run as shown, and the two
/// longest helps stay short: rarely used options are listed by `--help-hidden` and their page.
@Suite struct HelpExamplesTests {
    static let commands = ["", "migrate", "list", "explain", "lint", "edit", "rules", "report", "targets"]

    /// The example command lines at the end of a help text (after `EXAMPLES:`).
    static func examples(in help: String) -> [String] {
        guard let section = help.components(separatedBy: "\nEXAMPLES:\n").dropFirst().first else { return [] }
        return section.split(separator: "\n").filter { $0.hasPrefix("  plist-migrate") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test(arguments: commands) func everyHelpEndsWithExamplesThatRun(command: String) throws {
        let home = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let help = try tool(command.isEmpty ? ["--help"] : [command, "--help"], in: home)
        #expect(help.status == 0)
        let examples = Self.examples(in: help.text)
        #expect((2...3).contains(examples.count), "\(command): \(examples)")
        #expect(help.text.hasSuffix("\n") && !help.text.hasSuffix("\n\n"), "the examples end the help")
        if let last = help.text.split(separator: "\n").last {
            #expect(last.hasPrefix("      "), "the last line describes the last example: \(last)")
        }
        // A workspace holding what the examples name: an app's plist, a repository under ~/src,
        // two runs' reports and a recipe.
        _ = try copyFixture("ENC001/comments.before.plist", to: home, as: "App/Info.plist")
        _ = try copyFixture("demo/ShopApp/Info.plist", to: home, as: "src/repoA/App/Info.plist")
        _ = try copyFixture("demo/ShopApp-Dev/Info.plist", to: home, as: "src/repoB/App/Info.plist")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Recipes"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Paths.repository.appendingPathComponent("Recipes/drop-armv7.yml"),
                                         to: home.appendingPathComponent("Recipes/drop-armv7.yml"))
        for repository in ["repoA", "repoB"] {
            let report = try tool(["--format", "json", "--output", "\(repository).json", "src/\(repository)"], in: home)
            #expect(report.status <= 1, "\(report.stderr)")
        }
        for example in examples {
            let shell = "export HOME='\(home.path)' PATH='\(Paths.executable.deletingLastPathComponent().path)':\"$PATH\"; " + example
            let result = try run(URL(fileURLWithPath: "/bin/bash"), ["-c", shell], in: home)
            #expect(result.status <= 1, "\(example): exit \(result.status): \(result.stderr)")
        }
    }

    @Test func theLongHelpsAreShort() throws {
        for command in ["migrate", "lint"] {
            let help = try tool([command, "--help"], in: FileManager.default.temporaryDirectory).text
            let options = help.components(separatedBy: "\nEXAMPLES:\n").first?.split(separator: "\n", omittingEmptySubsequences: false).count ?? 0
            #expect(options <= 50, "\(command) --help has \(options) lines before its examples")
            #expect(help.contains("--help-hidden"), "\(command): says where the other options are")
            let hidden = try tool([command, "--help-hidden"], in: FileManager.default.temporaryDirectory).text
            let optionRow = { (text: String) in text.split(separator: "\n").contains { $0.hasPrefix("  --force-exclude") } }
            #expect(optionRow(hidden) && !optionRow(help), "\(command): rarely used options are listed by --help-hidden only")
        }
    }
}
