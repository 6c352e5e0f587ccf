/// The examples every `--help` ends with: two or three command lines a user can run as shown,
/// each with what it does. swift-argument-parser has no section for them, so the help printer
/// (`PlistMigrateCommand.main`) adds them after the generated text.
enum HelpExamples {
    /// Examples by subcommand name; `""` is the tool's own help.
    static let byCommand: [String: [(command: String, does: String)]] = [
        "": [
            ("plist-migrate App/", "show the diffs the migrations would make, writing nothing"),
            ("plist-migrate --write App/", "apply them"),
            ("plist-migrate lint App/", "report what is wrong with the ATS settings"),
        ],
        "migrate": [
            ("plist-migrate App/Info.plist", "a dry run: one diff per pass"),
            ("plist-migrate --check --format patch --output ats.patch .", "a CI gate that also writes a patch for git apply"),
            ("plist-migrate --format json --output repoA.json ~/src/repoA", "a report to merge with plist-migrate report"),
        ],
        "apply": [
            ("plist-migrate apply ~/Downloads/plist-migrate-decision.json", "write what the review accepted, in the repository here"),
            ("plist-migrate apply --check ~/Downloads/plist-migrate-decision.json", "exit 1 while accepted kinds are not yet written"),
        ],
        "list": [
            ("plist-migrate list", "the passes, in the order they run"),
            ("plist-migrate list --recipe Recipes/drop-armv7.yml --format json", "with a recipe's passes, as JSON"),
        ],
        "explain": [
            ("plist-migrate explain App/Info.plist", "the policy per OS era for every listed domain"),
            ("plist-migrate explain App/Info.plist --host api.example.com --os ios17", "one host's decision and the keys behind it"),
        ],
        "lint": [
            ("plist-migrate lint", "lint the current directory"),
            ("plist-migrate lint --format sarif --output ats.sarif .", "SARIF for GitHub code scanning"),
            ("plist-migrate lint --write-baseline ats-baseline.json .", "record today's findings; later runs pass --baseline ats-baseline.json"),
        ],
        "edit": [
            ("plist-migrate edit App/Info.plist -c \"Set :CFBundleVersion 42\"", "set one value, every other byte kept"),
            ("plist-migrate edit App/Info.plist --dry-run -c \"Add :NSAppTransportSecurity dict\" -c \"Add :NSAppTransportSecurity:NSAllowsLocalNetworking bool true\"",
             "show the diff of two commands, write nothing"),
        ],
        "rules": [
            ("plist-migrate rules", "every lint rule and whether the config here enables it"),
            ("plist-migrate rules --format json App/", "the same for App/'s config, as JSON"),
        ],
        "report": [
            ("plist-migrate report repoA.json repoB.json --output review.html", "one review page for several runs"),
            ("plist-migrate report --format text repoA.json repoB.json", "a text summary of them"),
        ],
        "targets": [
            ("plist-migrate targets", "the projects under the current directory as the tool reads them"),
            ("plist-migrate targets --format json App/Info.plist", "the targets that use one plist, as JSON"),
        ],
    ]

    /// Help options only `--help-hidden` lists, by subcommand (where each is documented).
    static let moreOptions: [String: String] = [
        "migrate": "More options (--files-from, --shard, --force-exclude, --color, --decision-spans-runs): "
            + "--help-hidden, and docs/usage.md.",
        "lint": "More options (--stdin-path, --force-exclude, --color): --help-hidden, and docs/lint.md.",
    ]

    /// `help` (swift-argument-parser's text) with the examples of the command it is for, found
    /// from its `USAGE:` line; any other text is returned as it is.
    static func appended(to help: String) -> String {
        guard let usage = help.range(of: "USAGE: plist-migrate") else { return help }
        let rest = help[usage.upperBound...].prefix { $0 != "\n" }.split(separator: " ")
        let name = rest.first.map(String.init).flatMap { byCommand[$0] != nil ? $0 : nil } ?? ""
        guard let examples = byCommand[name] else { return help }
        var text = help
        while text.hasSuffix("\n") { text.removeLast() }
        if let more = moreOptions[name] { text += "\n\n" + wrapped(more, indent: "") }
        text += "\n\nEXAMPLES:"
        for example in examples {
            text += "\n  " + example.command + "\n" + wrapped(example.does, indent: "      ")
        }
        return text
    }

    /// `text` cut at spaces into lines of at most 80 columns, each starting with `indent`.
    static func wrapped(_ text: String, indent: String) -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count, line.count + 1 + word.count > 80 {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
