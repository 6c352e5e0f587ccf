import Foundation
import Testing
@testable import PlistMigrate

/// A run of added or removed lines reads as whole entries: it starts at a `<key>` line where
/// equal lines let it, never inside one entry to end inside the next (`+<true/>` then
/// `+<key>NSAllowsLocalNetworking</key>`).
@Suite struct EntryAlignedDiffTests {
    /// Runs of `+` (or `-`) lines in a diff that start on a line other than a key and hold a
    /// key later: they begin inside one entry and end inside the next.
    static func runsAcrossEntries(_ diff: String) -> Int {
        var count = 0
        var run: [Substring] = []
        var kind: Character?
        func close() {
            if let first = run.first, !UnifiedDiff.isKey(ArraySlice(first.utf8)), run.dropFirst().contains(where: { UnifiedDiff.isKey(ArraySlice($0.utf8)) }) {
                count += 1
            }
            run = []
        }
        for line in diff.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let sign = line.first, sign == "+" || sign == "-", !line.hasPrefix("+++ "), !line.hasPrefix("--- ") else {
                close()
                kind = nil
                continue
            }
            if sign != kind { close() }
            kind = sign
            run.append(line.dropFirst())
        }
        close()
        return count
    }

    @Test func aNewEntryAfterOneThatEndsAlikeIsOneRun() throws {
        let old = Array("<dict>\n\t<key>A</key>\n\t<true/>\n</dict>\n".utf8)
        let new = Array("<dict>\n\t<key>A</key>\n\t<true/>\n\t<key>B</key>\n\t<true/>\n</dict>\n".utf8)
        let diff = try #require(UnifiedDiff.make(from: old, to: new, path: "Info.plist"))
        #expect(diff.contains("+\t<key>B</key>\n+\t<true/>\n"), "\(diff)")
        #expect(Self.runsAcrossEntries(diff) == 0)
        let back = try #require(UnifiedDiff.make(from: new, to: old, path: "Info.plist"))
        #expect(back.contains("-\t<key>B</key>\n-\t<true/>\n"), "\(back)")
    }

    /// Every pass diff of the corpus's real plists: no run crosses an entry, and each diff
    /// still applies (the pass diff tests apply them; here the runs are counted).
    @Test func noPassDiffOfTheCorpusStartsInsideAnEntry() throws {
        let folder = Paths.corpus.appendingPathComponent("real")
        let migrator = FileMigrator(plan: try MigrationPlan(allowPolicyChange: true))
        var runs = 0, across = 0, diffs = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".plist") {
            let result = migrator.migrate(Array(try Data(contentsOf: folder.appendingPathComponent(name))), path: name, skipIfNotApplicable: true)
            for pass in result.passes where !pass.diff.isEmpty {
                diffs += 1
                across += Self.runsAcrossEntries(pass.diff)
                runs += pass.diff.split(separator: "\n").count
            }
        }
        print("entry-aligned diffs: \(diffs) pass diffs of corpus/real, \(across) runs across entries")
        #expect(diffs > 100)
        #expect(across == 0)
    }
}
