import ArgumentParser
import Foundation
import ATSPolicy
import Migrations
import PlistDOM
import PlistMigrate

/// `plist-migrate list`: the migrations (and recipe passes) with id, version, impact, title.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the migrations in the order they run.",
        discussion: "Exit status: 0 fine, 2 a recipe file cannot be read, 64 a usage error.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: ArgumentHelp("text or json", valueName: "FORMAT"))
    var format: Format = .text

    @Option(help: ArgumentHelp("Also list the passes of this recipe file (repeatable).", valueName: "FILE"))
    var recipe: [String] = []

    struct Entry: Codable {
        var id: String
        var version: Int
        var name: String
        var impact: String
        var title: String
        var rationale: String
        var intent: String
    }

    /// `list --format json`: `{ "schemaVersion": 1, "migrations": [Entry] }`.
    struct Document: Codable {
        var schemaVersion = 1
        var migrations: [Entry]
    }

    func run() throws {
        let passes = MigrationRegistry.all + (try Migrate.loadRecipes(recipe).sorted { $0.version < $1.version } as [any Migration])
        let entries = passes.map {
            Entry(id: $0.id, version: $0.version, name: $0.name, impact: $0.impact.rawValue, title: $0.title,
                  rationale: $0.rationale, intent: $0.intent.rawValue)
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(Document(migrations: entries)), as: UTF8.self))
        case .text:
            TextTable.print(entries.map { [$0.id, String($0.version), $0.name, $0.impact, $0.title] })
        }
    }
}

extension RunOptions.Format: ExpressibleByArgument {}
