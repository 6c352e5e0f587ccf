import Foundation
import Testing
import PlistDOM
@testable import PlistMigrate

/// Every pass over the whole shared corpus: output parses, a second run changes nothing (the
/// whole run, with the default passes and with every pass: no diff, the same conflicts), and
/// nothing outside the root ATS entry moves by a byte.
@Suite struct CorpusMigrationTests {
    static func corpusFiles() -> [URL] {
        ["real", "wild"].flatMap { set -> [URL] in
            let folder = Paths.corpus.appendingPathComponent(set)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(".plist") }.sorted().map { folder.appendingPathComponent($0) }
        }
    }

    /// Shards of the corpus, worked on side by side (one loop over 2,130 files was the last
    /// test to finish).
    static let shards = 0..<8

    @Test(arguments: shards) func everyPassOverTheCorpusIsSafeAndIdempotent(shard: Int) throws {
        let all = Self.corpusFiles()
        #expect(all.count > 2000, "the shared corpus is missing at \(Paths.corpus.path)")
        let files = all.enumerated().filter { $0.offset % Self.shards.count == shard }.map(\.element)
        let migrator = FileMigrator(plan: try MigrationPlan(allowPolicyChange: true))
        var changed = 0, refused = 0, conflicts = 0
        for file in files {
            let input = Array(try Data(contentsOf: file))
            // The invariants run every pass twice (the second run must change nothing, with the
            // same conflicts): their first run is the one checked further here.
            var everyPass: FileResult?
            let violation = Invariants.violation(in: input) { everyPass = $0 }
            #expect(violation == nil, "\(file.path): \(violation ?? "")")
            let first = everyPass ?? migrator.migrate(input, path: file.lastPathComponent, skipIfNotApplicable: false)
            if first.status == .error {
                #expect(first.error?.location != nil, "\(file.path): an unparseable file must say where")
                #expect(first.error?.message.contains("internal error") == false, "\(file.path): \(first.error!.message)")
                refused += 1
                continue
            }
            if first.hasConflict { conflicts += 1 }
            guard first.output != input else { continue }
            changed += 1
            #expect(throws: Never.self) { try PlistDocument(parsing: first.output) }
            #expect(FileMigrator.verifyBytesOutsideATS(original: input, output: first.output) == nil)
            let prefixLength = zip(input, first.output).prefix { $0 == $1 }.count
            let document = try PlistDocument(parsing: input)
            let ats = try #require(document.rootValue[key: "NSAppTransportSecurity"])
            let atsRange = try #require(document.byteRange(of: ats))
            #expect(prefixLength >= atsRange.lowerBound, "\(file.path): a byte before the ATS dict changed")
        }
        print("corpus migration, shard \(shard): \(files.count) files, \(changed) changed, \(conflicts) with conflicts, \(refused) refused")
        #expect(changed > 500 / Self.shards.count, "shard \(shard): \(changed) changed")
    }
}
