import Foundation
import Testing
import PlistDOM
@testable import Migrations
@testable import PlistMigrate

/// At the documented limits the work stays linear: a pass looks names up in a
/// dict through an index, not by walking the dict once per step, and `edit` takes thousands of
/// `-c` commands. (How long it takes is measured by `Benchmarks/limits.sh`, not here.)
@Suite struct LinearLimitsTests {
    static func plist(_ keys: Range<Int>) -> [UInt8] {
        let body = keys.map { "\t<key>K\($0)</key>\n\t<string>old</string>\n" }.joined()
        return Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)</dict>\n</plist>\n".utf8)
    }

    @Test func tenThousandSetStepsWalkTheDictAtMostTwice() throws {
        let limit = RecipeLoader.Limits.stepsPerFile
        // Half the steps change keys that exist, half add new ones.
        let steps = (0..<limit).map { "      - set: K\($0)\n        value: v\($0)\n" }.joined()
        let yaml = "passes:\n  - id: BIG001\n    version: 1\n    title: many\n    impact: spelling\n    steps:\n" + steps
        let pass = try #require(try RecipeLoader.parse(yaml, path: "r.yml").map(\.0).first)
        let document = try PlistDocument(parsing: Self.plist(0..<(limit / 2)))
        let session = MigrationSession(document: document, migration: pass)
        pass.apply(to: session)
        #expect(session.diagnostics.isEmpty)
        #expect(session.editCount == limit)
        #expect(session.dictWalks <= 2, "one walk, then the index: \(session.dictWalks) walks for \(limit) steps")
        let after = try PlistDocument(parsing: document.bytes)
        for index in [0, 1, limit / 2 - 1, limit / 2, limit - 1] {
            #expect(after.rootValue[key: "K\(index)"]?.text == "v\(index)", "K\(index)")
        }
        #expect(after.rootValue.entries.count == limit)
    }

    @Test func aDuplicateKeyIsStillFoundInDocumentOrder() throws {
        let yaml = "passes:\n  - id: DUP001\n    version: 1\n    title: dup\n    impact: spelling\n    steps:\n"
            + "      - set: Other\n        value: x\n      - set: A\n        value: new\n"
        let pass = try #require(try RecipeLoader.parse(yaml, path: "r.yml").map(\.0).first)
        let text = "<plist version=\"1.0\">\n<dict>\n\t<key>A</key>\n\t<string>1</string>\n\t<key>A</key>\n\t<string>2</string>\n</dict>\n</plist>\n"
        let document = try PlistDocument(parsing: Array(text.utf8))
        let session = MigrationSession(document: document, migration: pass)
        pass.apply(to: session)
        let conflict = try #require(session.diagnostics.first)
        #expect(conflict.location.line == 5 && conflict.message.contains("first at line 3"), "\(conflict)")
    }

    /// Thousands of `-c` are taken in one pass over the arguments, in order, with the parser
    /// still reading everything else.
    @Test func editTakesThousandsOfCommandsInOrder() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.plist(0..<1)).write(to: directory.appendingPathComponent("Info.plist"))
        let count = 5_000
        var arguments = ["edit"]
        for index in 0..<count { arguments += ["-c", "Add :E\(index) string v\(index)"] }
        arguments += ["-c", "Set :E7 seven", "--dry-run", "-c", "Print :E7", "Info.plist"]
        let result = try tool(arguments, in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.hasPrefix("seven\n"), "Set ran after the Adds, Print after the Set")
        #expect(result.text.split(separator: "\n").filter { $0.hasPrefix("+\t<key>E") }.count == count)
        #expect(try Data(contentsOf: directory.appendingPathComponent("Info.plist")) == Data(Self.plist(0..<1)), "--dry-run writes nothing")
        // A value that starts with "-" is left to the parser, which names the problem.
        let odd = try tool(["edit", "-c", "Add :A string x", "-c", "-x", "Info.plist"], in: directory)
        #expect(odd.status == 64, "\(odd.stderr)")
        // After "--", a "-c" is a file name.
        let dashes = try tool(["edit", "-c", "Print :K0", "--", "-c"], in: directory)
        #expect(dashes.status == 2 && dashes.stderr.contains("-c: error: cannot open: no such file"), "\(dashes.stderr)")
    }
}
