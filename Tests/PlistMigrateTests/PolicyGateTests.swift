import Foundation
import Testing
@testable import PlistMigrate

/// A pass may only do what it declares: each `Fixtures/gate/NAME.before.plist`
/// migrated with the default passes gives `NAME.after.plist`, and the passes whose delta went
/// beyond their intent are held back with the reasons in `NAME.heldback` (none when absent).
@Suite struct PolicyGateTests {
    static let folder = Paths.fixtures.appendingPathComponent("gate")
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".before.plist") }.map { String($0.dropLast(".before.plist".count)) }.sorted()

    static func bytes(_ name: String, _ suffix: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent("\(name).\(suffix)")))
    }

    @Test func thereAreGateFixtures() {
        #expect(Self.names.count >= 5)
    }

    @Test(arguments: names)
    func defaultRunHoldsBackWhatExceedsItsIntent(_ name: String) throws {
        let input = try Self.bytes(name, "before.plist")
        let result = FileMigrator(plan: try MigrationPlan()).migrate(input, path: "Info.plist", skipIfNotApplicable: false)
        #expect(result.output == (try Self.bytes(name, "after.plist")))
        let expected = (try? String(contentsOf: Self.folder.appendingPathComponent("\(name).heldback"), encoding: .utf8)) ?? ""
        let gated = result.heldBack.filter { $0 != "ATS003" }.map { "\($0) held back: \(result.heldBackReasons[$0] ?? "")" }
        #expect(gated == expected.split(separator: "\n").map(String.init))
        for id in result.heldBack where id != "ATS003" {
            #expect(!result.passes.contains { $0.id == id }, "a held-back pass prints no diff")
            if id == "ATS010" {
                // provablyNoPolicyChange: no flag includes it where the policy would change.
                let allowed = FileMigrator(plan: try MigrationPlan(allowPolicyChange: true)).migrate(input, path: "Info.plist", skipIfNotApplicable: false)
                #expect(allowed.heldBack.contains(id) && !allowed.passes.contains { $0.id == id })
                continue
            }
            // Opting in, by --allow-policy-change or by naming the pass, includes it.
            let allowed = FileMigrator(plan: try MigrationPlan(allowPolicyChange: true)).migrate(input, path: "Info.plist", skipIfNotApplicable: false)
            #expect(allowed.passes.contains { $0.id == id } && !allowed.heldBack.contains(id))
            let named = FileMigrator(plan: try MigrationPlan(only: [id])).migrate(input, path: "Info.plist", skipIfNotApplicable: false)
            #expect(named.passes.map(\.id) == [id])
            #expect(named.passes.first?.policyDelta != ["no policy change"], "the diff then shows the delta")
        }
    }

    @Test func aHeldBackPassIsANoteNotPendingForCheck() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(try Self.bytes("ATS002-arbitrary-loads-ignored", "before.plist")).write(to: directory.appendingPathComponent("Info.plist"))
        let check = try tool(["--check", "Info.plist"], in: directory)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.isEmpty)
        #expect(check.stderr.contains("Info.plist: note: ATS002 held back: would also change iOS 10+/macOS 10.12+: HTTP to any other host (urlSession, webView): allowed → blocked"))
        #expect(check.stderr.contains("--allow-policy-change includes it\n"))
        let json = try tool(["--format", "json", "Info.plist"], in: directory)
        let report = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        let file = (report?["files"] as? [[String: Any]])?.first
        #expect((file?["heldBack"] as? [String])?.contains("ATS002") == true)
        #expect(((file?["heldBackReasons"] as? [String: String])?["ATS002"])?.hasPrefix("would also change") == true)
        #expect(file?["status"] as? String == "unchanged")
    }
}
