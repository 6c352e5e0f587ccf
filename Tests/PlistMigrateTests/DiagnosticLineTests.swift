import Foundation
import Testing
@testable import PlistMigrate

/// A conflict's `path:line:column` is where the key it names is in the file as it is on disk,
/// whatever passes ran before it, held back or not. After a held-back pass the engine used to
/// parse the bytes of that moment again, so later conflicts named lines of a text that exists
/// nowhere: all 34 conflicts of the corpus and the benchmark tree under `--allow-policy-change`
/// were two lines off. Now the tree is restored as it was before the pass.
@Suite struct DiagnosticLineTests {
    @Test func everyConflictPointsAtItsKeyInTheFileOnDisk() throws {
        let files = CorpusMigrationTests.corpusFiles()
        guard !files.isEmpty else {
            print("../shared/corpus is not beside the repository: conflict lines are not checked")
            return
        }
        for allowPolicyChange in [false, true] {
            let migrator = FileMigrator(plan: try MigrationPlan(allowPolicyChange: allowPolicyChange))
            var checked = 0
            for file in files {
                let input = Array(try Data(contentsOf: file))
                let result = migrator.migrate(input, path: file.lastPathComponent, skipIfNotApplicable: false)
                let lines = String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                for diagnostic in result.diagnostics where diagnostic.message.hasPrefix("conflict: ") {
                    let key = String(diagnostic.message.dropFirst("conflict: ".count).prefix { $0 != " " })
                    let line = diagnostic.location.line
                    #expect(line >= 1 && line <= lines.count && lines[line - 1].contains(key),
                            "\(file.lastPathComponent):\(line): \(key) is not there (allow policy change: \(allowPolicyChange))")
                    checked += 1
                }
            }
            #expect(checked >= 5, "the corpus has conflicts to check: \(checked)")
        }
    }
}
