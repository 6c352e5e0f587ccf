import Foundation
import Testing
@testable import PlistMigrate

/// Every input the fuzzer ever found a problem with (Fuzz/regressions/) keeps the invariants,
/// and so do the corpus and fixtures it was seeded with.
@Suite struct FuzzRegressionTests {
    @Test func regressionInputsKeepTheInvariants() throws {
        let folder = Paths.repository.appendingPathComponent("Fuzz/regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in names {
            let data = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(Invariants.violation(in: data) == nil, "\(name)")
            #expect(Invariants.writeViolation(in: data, directory: directory.path) == nil, "\(name)")
        }
    }

    @Test func acceptedAndRefusedInputsBothKeepTheInvariants() throws {
        #expect(Invariants.violation(in: Array("<plist><dict/></plist>".utf8)) == nil)
        #expect(Invariants.violation(in: Array("<plist><dict>".utf8)) == nil, "a refused input is not a violation")
        let demo = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("demo/ShopApp/Info.plist")))
        #expect(Invariants.violation(in: demo) == nil)
    }
}

extension FuzzRegressionTests {
    /// Found by the fuzzer: a duplicated NSThirdParty… key in a domain dict made ATS001 rename
    /// one copy per run, so a second run changed the output again.
    @Test func duplicateDeprecatedKeyIsAConflictNotARunByRunRename() throws {
        let url = Paths.repository.appendingPathComponent("Fuzz/regressions/idempotency-1.plist")
        let bytes = Array(try Data(contentsOf: url))
        let result = FileMigrator(plan: try MigrationPlan(allowPolicyChange: true)).migrate(bytes, path: "x", skipIfNotApplicable: false)
        #expect(result.output == bytes)
        #expect(result.diagnostics.map(\.location.line) == [72])
        #expect(result.diagnostics.first?.message.hasPrefix("duplicate key \"NSThirdPartyExceptionRequiresForwardSecrecy\" (first at line 70)") == true)
    }
}

extension FuzzRegressionTests {
    /// The write target's check can fail: a file the migration changes, written for real, must
    /// hold exactly the migrated bytes, and the demo app does need changes.
    @Test func theWriteTargetWritesTheMigratedBytes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("demo/ShopApp/Info.plist")))
        #expect(Invariants.writeViolation(in: demo, directory: directory.path) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the check cleans up after itself")
        try Data("stray".utf8).write(to: directory.appendingPathComponent("left-behind"))
        #expect(Invariants.writeViolation(in: demo, directory: directory.path)?.hasPrefix("the write left files behind") == true)
    }
}
