import ArgumentParser
import Foundation
import PlistMigrate

/// `plist-migrate rules`: every lint rule with its id, severity, whether it is enabled where
/// PATH is (by the config that applies there), and what it checks.
struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the lint rules: id, severity, enabled, what each checks.",
        discussion: "Exit status: 0 fine, 2 the config that applies cannot be read, 64 a usage error.")

    @Option(help: ArgumentHelp("text or json", valueName: "FORMAT"))
    var format: List.Format = .text

    @Argument(help: "Where the listing applies: the config there decides enabled and severity (default: the working directory).")
    var path: String = "."

    @OptionGroup var configOptions: ConfigOptions

    struct Entry: Codable {
        var id: String
        var name: String
        var severity: String
        var group: String
        var enabled: Bool
        var summary: String
    }

    /// `rules --format json`: `{ "schemaVersion": 1, "rules": [Entry] }`.
    struct Document: Codable {
        var schemaVersion = 1
        /// The nearest config (or the last `--config`).
        var config: String?
        /// Every config merged, parents first.
        var configs: [String]
        var rules: [Entry]
    }

    func run() throws {
        var config: Config?
        if let resolver = try configOptions.resolver() {
            // A config applies to the files below its folder: ask as for a file in PATH.
            let probe = FileManager.default.fileExists(atPath: path + "/.") ? path + "/Info.plist" : path
            switch resolver.config(forFile: probe) {
            case .failure(let error):
                FileHandle.standardError.write(Data((error.line + "\n").utf8))
                throw ExitCode(2)
            case .success(let found):
                config = found
            }
        }
        let skipped = Set((config?.selection.skip ?? []).map { $0.uppercased() })
        let entries = LintRule.all.map { rule in
            Entry(id: rule.id, name: rule.name, severity: (config?.lint.severity[rule.id] ?? rule.severity).rawValue, group: rule.group,
                  enabled: !(config?.lint.disable.contains(rule.id) ?? false) && !skipped.contains(rule.id), summary: rule.summary)
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(Document(config: config?.path, configs: config?.sources ?? [], rules: entries)), as: UTF8.self))
        case .text:
            TextTable.print(entries.map { [$0.id, $0.severity, $0.enabled ? "enabled" : "disabled", $0.group, $0.name, $0.summary] })
        }
    }
}
