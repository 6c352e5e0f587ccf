import Foundation
import Testing
import PlistMigrate

/// Real history as oracle (issue #50): each `Fixtures/replay/<name>/` holds a plist before and
/// after a person's commit in a public app repository (`SOURCE` names it and its licence) and
/// the PlistBuddy commands of the change (as `Benchmarks/replay.py` derives them). Run by
/// `edit`, the commands give the person's bytes exactly: sorted placement, items inserted in a
/// row, a dict emptied as Xcode writes it, quotes spelled as the file spells them.
@Suite struct ReplayFixtureTests {
    static let root = Paths.fixtures.appendingPathComponent("replay")
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()

    @Test func thereAreReplayFixtures() {
        #expect(Self.names.count >= 4)
    }

    @Test(arguments: names)
    func commandsGiveThePersonsBytes(_ name: String) throws {
        let folder = Self.root.appendingPathComponent(name)
        let before = Array(try Data(contentsOf: folder.appendingPathComponent("before.plist")))
        let after = Array(try Data(contentsOf: folder.appendingPathComponent("after.plist")))
        let lines = try String(contentsOf: folder.appendingPathComponent("commands"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("SOURCE").path))
        let commands = try lines.map { try BuddyCommand(parsing: $0) }
        let outcome = try PlistEditor.run(commands, on: before)
        #expect(outcome.output == after, "\(name): the output is not the person's file")
    }
}
