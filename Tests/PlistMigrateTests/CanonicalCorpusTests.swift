import Foundation
import Testing
import Migrations
@testable import PlistMigrate

/// A file that is exactly what Apple's serializer writes (sorted keys: Xcode's
/// order) stays so after every migration, so the next save in Xcode changes nothing. The
/// oracle is Python's plistlib (Tests/oracle/canonical_oracle.py), which writes the same bytes.
@Suite struct CanonicalCorpusTests {
    static func canonical(_ paths: [String], in directory: URL) throws -> [Bool] {
        let list = directory.appendingPathComponent("paths-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: paths).write(to: list)
        let oracle = Paths.repository.appendingPathComponent("Tests/oracle/canonical_oracle.py")
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", oracle.path, list.path], in: directory)
        guard result.status == 0, let flags = try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [Bool],
            flags.count == paths.count
        else { throw OracleFailure(message: result.stderr + result.text) }
        return flags
    }

    struct OracleFailure: Error { var message: String }

    @Test func canonicalCorpusFilesStayCanonicalAfterEveryPass() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = CorpusEditTests.corpusFiles()
        let flags = try Self.canonical(corpus.map(\.path), in: directory)
        let inputs = zip(corpus, flags).filter(\.1).map(\.0)
        // Every pass alone (naming it opts in to its policy change), the default run, and all
        // passes with --allow-policy-change.
        var plans: [(name: String, plan: MigrationPlan)] = try MigrationRegistry.all.map { ($0.id, try MigrationPlan(only: [$0.id])) }
        plans.append(("default", try MigrationPlan()))
        plans.append(("--allow-policy-change", try MigrationPlan(allowPolicyChange: true)))
        var outputs: [(what: String, path: String)] = []
        var changedFiles: Set<String> = []
        for (name, plan) in plans {
            let migrator = FileMigrator(plan: plan)
            for url in inputs {
                let result = migrator.migrate(Array(try Data(contentsOf: url)), path: url.lastPathComponent, skipIfNotApplicable: false)
                guard result.status == .changed else { continue }
                let output = directory.appendingPathComponent("\(outputs.count).plist")
                try Data(result.output).write(to: output)
                outputs.append(("\(url.lastPathComponent) after \(name)", output.path))
                changedFiles.insert(url.path)
            }
        }
        let after = try Self.canonical(outputs.map(\.path), in: directory)
        let broken = zip(outputs, after).filter { !$0.1 }.map(\.0.what)
        #expect(broken.isEmpty, "no longer canonical: \(broken.prefix(10))")
        // Not vacuous: the corpus holds such files and the passes change many of them.
        #expect(inputs.count > 80, "canonical corpus files: \(inputs.count)")
        #expect(changedFiles.count > 50, "canonical files the passes change: \(changedFiles.count)")
        print("canonical corpus files: \(inputs.count); changed by some run: \(changedFiles.count); outputs checked: \(outputs.count)")
    }
}
