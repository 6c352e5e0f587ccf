import Migrations
import PlistDOM
import FileAccess

extension Invariants {
    /// A plist with something for every kind of step and command to reach.
    static let recipeTarget = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>A</key>
        \t<string>a &amp; b</string>
        \t<key>B</key>
        \t<dict>
        \t\t<key>C</key>
        \t\t<array>
        \t\t\t<string>armv7</string>
        \t\t\t<integer>1</integer>
        \t\t</array>
        \t\t<!-- note -->
        \t\t<key>D</key>
        \t\t<true/>
        \t</dict>
        \t<key>E</key>
        \t<array/>
        </dict>
        </plist>

        """.utf8)

    /// A recipe file's bytes: the first byte chooses raw bytes (even) or a recipe generated from
    /// a grammar of steps, paths and values (odd), so that both the reader's refusals and the
    /// engine's edits are reached. A recipe that loads runs on `recipeTarget`: the run must never
    /// be an internal error, its output must parse, and a second run must change nothing.
    public static func recipeViolation(in data: [UInt8]) -> String? {
        guard let text = recipeBytes(for: data) else { return nil }
        guard let source = try? RecipeLoader.text(of: text, path: "fuzz.yml"),
            let passes = try? RecipeLoader.parse(source, path: "fuzz.yml").map(\.0),
            let plan = try? MigrationPlan(skip: MigrationRegistry.all.map(\.id), allowPolicyChange: true, recipes: passes)
        else { return nil }
        return runViolation(recipeTarget, FileMigrator(plan: plan))
    }

    /// The recipe file a fuzz input stands for.
    public static func recipeBytes(for data: [UInt8]) -> [UInt8]? {
        guard let mode = data.first else { return nil }
        guard mode & 1 == 1 else { return Array(data.dropFirst()) }
        var grammar = RecipeGrammar(Array(data.dropFirst()))
        return Array(grammar.recipe().utf8)
    }

    /// `edit`'s commands, one a line, run on `recipeTarget`: parsing refuses or accepts, never
    /// crashes; running never reports an internal error; what it writes parses.
    public static func editViolation(in data: [UInt8]) -> String? {
        let lines = PathBytes.string(data).split(separator: "\n", omittingEmptySubsequences: true).prefix(64)
        var commands: [BuddyCommand] = []
        for line in lines {
            guard let command = try? BuddyCommand(parsing: String(line)) else { return nil }
            commands.append(command)
        }
        do {
            let outcome = try PlistEditor.run(commands, on: recipeTarget)
            if outcome.output != recipeTarget, (try? PlistDocument(parsing: outcome.output)) == nil {
                return "edited output does not parse"
            }
        } catch {
            if error.message.contains("internal error") { return "edit refused its own output: \(error.message)" }
        }
        return nil
    }
}

/// Builds a recipe from fuzz bytes, each byte a choice: steps of every kind, paths with keys,
/// `*`, `[]` and positions, values of every type (nested, quoted, tagged, odd characters).
struct RecipeGrammar {
    private var bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func next(_ count: Int) -> Int {
        guard index < bytes.count, count > 0 else { return 0 }
        defer { index += 1 }
        return Int(bytes[index]) % count
    }

    private static let keys = ["A", "B", "C", "D", "E", "F", "armv7", "\"a b\"", "'x:y'", "\"\\u00e9\"", "\"\\x01\"", "\"\\uFFFE\""]
    private static let scalars = ["1", "-2", "2.5", "true", "false", "armv7", "\"a & b\"", "'<x>'", "!date 2026-01-31T12:00:00Z",
                                  "!data aGk=", "!!str 1", "\"\\t\"", "~", "\"\\x7f\"", "''"]

    mutating func recipe() -> String {
        var text = "id: FZ\(next(10))\nversion: 1\ntitle: t\nimpact: \(["spelling", "activatesIntent", "changesPolicy"][next(3)])\nsteps:\n"
        for _ in 0...next(6) { text += step() }
        return text
    }

    private mutating func step() -> String {
        let path = self.path()
        switch next(5) {
        case 0: return "  - rename: \(path)\n    to: \(Self.keys[next(Self.keys.count)])\n"
        case 1: return "  - set: \(path)\n    value: \(value(depth: 0))\n" + (next(2) == 0 ? "" : "    when: \(["always", "ifAbsent", "ifPresent"][next(3)])\n")
        case 2: return "  - remove: \(path)\n" + (next(2) == 0 ? "" : "    equals: \(value(depth: 0))\n")
        case 3: return "  - replace: \(path)\n    equals: \(value(depth: 0))\n    with: \(value(depth: 0))\n"
        default: return "  - move: \(path)\n    to: \(["B", "B:C", "E", "\"\""][next(4)])\n"
        }
    }

    private mutating func path() -> String {
        var components: [String] = []
        for _ in 0...next(3) {
            switch next(6) {
            case 0: components.append("\"*\"")
            case 1: components.append("\"[]\"")
            case 2: components.append(String(next(3)))
            default: components.append(Self.keys[next(Self.keys.count)])
            }
        }
        return "[" + components.joined(separator: ", ") + "]"
    }

    private mutating func value(depth: Int) -> String {
        switch depth < 4 ? next(4) : 0 {
        case 1: return "[" + (0..<next(4)).map { _ in value(depth: depth + 1) }.joined(separator: ", ") + "]"
        case 2: return "{" + (0..<next(4)).map { _ in "\(Self.keys[next(Self.keys.count)]): \(value(depth: depth + 1))" }.joined(separator: ", ") + "}"
        default: return Self.scalars[next(Self.scalars.count)]
        }
    }
}
