import Foundation
import Testing
import Migrations
@testable import PlistMigrate

/// A pass's declared impact must agree with what the policy engine computes for every fixture:
/// a `spelling` pass never changes policy; the passes that do change policy show it on their
/// main fixtures.
@Suite struct PolicyImpactTests {
    static let fixtures: [(id: String, name: String)] = MigrationRegistry.all.flatMap { migration in
        let folder = Paths.fixtures.appendingPathComponent(migration.id)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".before.plist") }.sorted().map { (migration.id, String($0.dropLast(13))) }
    }

    @Test(arguments: fixtures.map { "\($0.id)/\($0.name)" })
    func declaredImpactAgreesWithComputedDelta(_ fixture: String) throws {
        let id = String(fixture.prefix(6))
        let migration = try #require(MigrationRegistry.migration(id: id))
        let bytes = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("\(fixture).before.plist")))
        let result = FileMigrator(plan: try MigrationPlan(only: [id])).migrate(bytes, path: "Info.plist", skipIfNotApplicable: false)
        guard let pass = result.passes.first else { return }  // nothing changed: nothing to agree on
        let unchanged = pass.policyDelta == ["no policy change"]
        switch migration.impact {
        case .spelling:
            #expect(unchanged, "\(fixture): a spelling pass changed policy: \(pass.policyDelta)")
        case .activatesIntent, .changesPolicy:
            if fixture.hasSuffix("/tabs") {
                #expect(!unchanged, "\(fixture): a \(migration.impact) pass should change policy on its main fixture")
            }
        }
    }
}
