import Foundation
import Testing
import Migrations
import PlistDOM
@testable import PlistMigrate
@testable import FileAccess

/// Recipes and `edit` held to the standard of plists: bounded, never
/// garbled, every refusal at its place, and "internal error" only for real bugs.
@Suite struct HardenedRecipeTests {
    static let header = "id: H1\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n"

    static func load(_ bytes: [UInt8]) throws -> [RecipePass] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("r.yml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            return try RecipeLoader.load([path])
        } catch {
            // The file's directory is random: compare from the file name on.
            throw RecipeError(path: "r.yml", line: error.line, column: error.column, message: error.message)
        }
    }

    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try load(bytes)
            return nil
        } catch let error as RecipeError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    static func refusal(_ text: String) -> String? { refusal(Array(text.utf8)) }

    @Test func billionLaughsIsRefusedAtTheFirstAnchorWithoutExpandingIt() {
        var yaml = Self.header + "  - set: Foo\n    value:\n      x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            yaml += "      x\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(Self.refusal(yaml)
            == "r.yml:8:11: error: YAML anchors and aliases (&a0, *a0) are not supported in recipes; write the value out")
    }

    @Test func aScalarAliasIsRefusedToo() {
        #expect(Self.refusal(Self.header + "  - set: &k Foo\n    value: *k\n")?.hasPrefix("r.yml:6:10: error: YAML anchors") == true)
    }

    @Test func bytesThatAreNotUTF8AreRefusedAtTheirPosition() {
        #expect(Self.refusal(Array((Self.header + "  - set: F").utf8) + [0xFF, 0xFE] + Array("oo\n    value: 1\n".utf8))
            == "r.yml:6:11: error: not valid UTF-8; save the recipe file as UTF-8")
        let utf16: [UInt8] = [0xFF, 0xFE] + Self.header.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(Self.refusal(utf16) == "r.yml:1:1: error: the recipe file is UTF-16 or UTF-32; save it as UTF-8")
        #expect(Self.refusal(Array("id: H1\0".utf8))?.hasPrefix("r.yml:1:7: error: NUL byte") == true)
    }

    @Test func readerErrorsArePlacedWhereTheyAre() {
        #expect(Self.refusal(Self.header + "  - set: Foo\n    value: a\u{01}b\n")
            == "r.yml:7:13: error: not valid YAML: control characters are not allowed")
    }

    @Test func tagsThatMeanNothingAreRefused() {
        #expect(Self.refusal(Self.header + "  - set: !!python/name:os.system Foo\n    value: 1\n")
            == "r.yml:6:10: error: unexpected tag tag:yaml.org,2002:python/name:os.system here: this is plain text")
        #expect(Self.refusal("id: !!binary SDE=\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - remove: A\n")?
            .hasPrefix("r.yml:1:5: error: unexpected tag") == true)
    }

    @Test func charactersNoPlistCanHoldAreRefusedAtTheirValue() {
        #expect(Self.refusal(Self.header + "  - set: Foo\n    value: \"a\\x01b\"\n")
            == "r.yml:7:12: error: U+0001 cannot be written in a plist (XML 1.0 does not allow it)")
        #expect(Self.refusal(Self.header + "  - set: Foo\n    value: {\"k\\uFFFE\": 1}\n")
            == "r.yml:7:13: error: U+FFFE cannot be written in a plist (XML 1.0 does not allow it)")
        #expect(Self.refusal(Self.header + "  - rename: \"A\\x02\"\n    to: B\n")
            == "r.yml:6:13: error: U+0002 cannot be written in a plist (XML 1.0 does not allow it)")
    }

    @Test func aValueTooDeepForLibxml2IsRefusedUpFront() {
        let deep = String(repeating: "[", count: 300) + "1" + String(repeating: "]", count: 300)
        #expect(Self.refusal(Self.header + "  - set: Foo\n    value: \(deep)\n")?
            .contains("would be nested 258 levels deep in the plist") == true)
        // One level less is written and reads back.
        let fits = String(repeating: "[", count: 254) + "1" + String(repeating: "]", count: 254)
        #expect(Self.refusal(Self.header + "  - set: Foo\n    value: \(fits)\n") == nil)
    }

    @Test func limitsAreNamedWhenExceeded() {
        let keys = (0...RecipeLoader.Limits.valueNodes).map { "k\($0): 1" }.joined(separator: ", ")
        #expect(Self.refusal(Self.header + "  - set: Foo\n    value: {\(keys)}\n")?
            .contains("more than \(RecipeLoader.Limits.valueNodes) items and entries") == true)
        let steps = String(repeating: "  - remove: A\n", count: RecipeLoader.Limits.stepsPerFile + 1)
        #expect(Self.refusal(Self.header + steps)?.contains("a pass is limited to \(RecipeLoader.Limits.stepsPerFile)") == true)
        #expect(Self.refusal(Array(repeating: UInt8(ascii: "#"), count: RecipeLoader.Limits.fileBytes + 1))?
            .contains("recipes are limited to") == true)
    }

    /// What took seconds to minutes (quadratic) runs at the limits: a value with 100,000 keys, a
    /// flat list of 40,000 items, 10,000 steps. Checked by what they produce, not by a clock;
    /// Benchmarks/recipes.sh times them.
    @Test func largeRecipesAtTheLimitsLoadAndApply() throws {
        let keys = (0..<RecipeLoader.Limits.valueNodes).map { "k\($0): \($0)" }.joined(separator: ", ")
        let map = try #require(try Self.load(Array((Self.header + "  - set: Foo\n    value: {\(keys)}\n").utf8)).first)
        guard case .set(.dict(let entries), _) = map.steps[0].action else { Issue.record("not a dict"); return }
        #expect(entries.count == RecipeLoader.Limits.valueNodes)

        let items = (0..<40_000).map(String.init).joined(separator: ", ")
        let list = try #require(try Self.load(Array((Self.header + "  - set: Foo\n    value: [\(items)]\n").utf8)).first)
        let steps = (0..<RecipeLoader.Limits.stepsPerFile).map { "  - set: K\($0)\n    value: \($0)\n" }.joined()
        let many = try #require(try Self.load(Array((Self.header.replacingOccurrences(of: "H1", with: "H2") + steps).utf8)).first)
        let plan = try MigrationPlan(skip: MigrationRegistry.all.map(\.id), recipes: [list, many])
        let result = FileMigrator(plan: plan).migrate(RecipeTests.plist(""), path: "Info.plist", skipIfNotApplicable: false)
        #expect(result.error == nil)
        let parsed = try PlistDocument(parsing: result.output)
        #expect(parsed.rootValue[key: "Foo"]?.children.count == 40_000)
        #expect(parsed.rootValue.entries.count == RecipeLoader.Limits.stepsPerFile + 1)
    }
}

/// `plist-migrate edit`: PlistBuddy's grammar, or a usage error (exit 64), never a garbled value.
@Suite struct HardenedEditTests {
    static let input = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>Foo</key>
        \t<string>x</string>
        </dict>
        </plist>

        """.utf8)

    static func refusal(_ line: String) -> String? {
        do {
            _ = try BuddyCommand(parsing: line)
            return nil
        } catch {
            return error.message
        }
    }

    /// The table of cases in docs/edit.md.
    @Test(arguments: [
        ("Set :Foo My App", "My App"),
        ("Set :Foo a   b", "a   b"),
        ("Set :Foo a\tb", "a\tb"),
        ("Set :Foo   padded  ", "padded"),
        ("Set :Foo \"  kept  \"", "  kept  "),
        ("Set :Foo 'it''s'", "its"),
        ("Set :Foo a\\ \\ b", "a  b"),
        ("Set :Foo back\\\\slash", "back\\slash"),
    ])
    func setValuesAreTheRestOfTheLineExactly(_ line: String, _ value: String) throws {
        guard case .set(_, let parsed) = try BuddyCommand(parsing: line) else { Issue.record("not a Set"); return }
        #expect(parsed == value)
    }

    @Test(arguments: [
        ("Set :Foo abc\\", "ends with a backslash"),
        ("Set :Foo \"abc", "unterminated \" quote"),
        ("Set :Foo 'abc", "unterminated ' quote"),
        ("Set :Foo a\u{01}b", "U+0001 cannot be written in a plist"),
        ("Set :Foo a\u{FFFE}b", "U+FFFE cannot be written in a plist"),
        ("Add :K\u{0B} string x", "U+000B cannot be written in a plist"),
    ])
    func whatCannotBeWrittenIsRefused(_ line: String, _ message: String) {
        #expect(Self.refusal(line)?.contains(message) == true, "\(String(describing: Self.refusal(line)))")
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        // As the executable reads an argument: each stray byte becomes one escape scalar.
        let line = PathBytes.string(Array("Set :Foo caf".utf8) + [0xE9])
        #expect(Self.refusal(line) == "not valid UTF-8 (byte \\xE9 at byte 13); give text as UTF-8")
        let surrogate = PathBytes.string(Array("Set :Foo ".utf8) + [0xED, 0xA0, 0x80])
        #expect(Self.refusal(surrogate)?.hasPrefix("not valid UTF-8 (byte \\xED") == true)
    }

    @Test func nestingBeyondLibxml2IsAUsageErrorAndTheDeepestAllowedWorks() throws {
        var path = ""
        var commands: [BuddyCommand] = []
        for level in 1...255 {
            path += ":d\(level)"
            commands.append(try BuddyCommand(parsing: "Add \(path) dict"))
        }
        let outcome = try PlistEditor.run(commands, on: Self.input)
        #expect((try? PlistDocument(parsing: outcome.output)) != nil)
        #expect(Self.refusal("Add \(path):d256 dict")?.contains("nested 258 levels deep") == true)
    }

    @Test func theExecutableExitsWith64AndLeavesTheFileAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Info.plist")
        try Data(Self.input).write(to: file)
        for command in ["Set :Foo abc\\", "Set :Foo \"abc", "Set :Foo a\u{01}b"] {
            let result = try tool(["edit", "Info.plist", "-c", command], in: directory)
            #expect(result.status == 64, "\(command): \(result.stderr)")
        }
        #expect(Array(try Data(contentsOf: file)) == Self.input)
    }

    @Test func joinedShortJobsIsAccepted() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("ATS001/tabs.before.plist", to: directory, as: "Info.plist")
        #expect(try tool(["-j2", "--no-config", "Info.plist"], in: directory).status == 0)
        #expect(try tool(["lint", "-j2", "--no-config", "Info.plist"], in: directory).status != 64)
    }
}
