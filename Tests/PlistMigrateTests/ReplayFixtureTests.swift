import Foundation
import Testing
import PlistMigrate

/// Real history as oracle: each `Fixtures/replay/<name>/` holds a plist before and
/// after a person's commit in a public app repository (`SOURCE` names it and its licence) and
/// the PlistBuddy commands of the change (as `Benchmarks/replay.py` derives them). Run by
/// `edit`, the commands give the person's bytes exactly: sorted placement, items inserted in a
/// row, a dict emptied as Xcode writes it, quotes spelled as the file spells them, a key put
/// between its sorted neighbours in a nearly sorted dict, a new dict's keys in the order given,
/// a value whose type changes keeping its place.
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
        let written = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let theirs = String(decoding: after, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(written.count, theirs.count)).first { written[$0] != theirs[$0] } ?? min(written.count, theirs.count)
        let exact = outcome.output == after  // compared here: the bytes themselves would fill the log
        #expect(exact, """
            \(name): the output is not the person's file; first different line \(line + 1): \
            ours \(line < written.count ? String(written[line]) : "(end)"), theirs \(line < theirs.count ? String(theirs[line]) : "(end)")
            """)
    }
}
