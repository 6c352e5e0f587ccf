import Foundation
import Testing
import Migrations
@testable import PlistMigrate

/// Each pass's diff, as the engine prints it, equals the fixture's golden `.diff`, and that diff
/// turns the `before` file into the `after` file under `git apply`.
@Suite struct PassDiffTests {
    static let shippedRecipes: [RecipePass] = {
        let folder = Paths.fixtures.deletingLastPathComponent().appendingPathComponent("Recipes")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".yml") }.sorted().map { folder.appendingPathComponent($0).path }
        // Their steps, on fixtures that belong to no project: the scopes are tested in ProjectModelTests.
        return ((try? RecipeLoader.load(files)) ?? []).map(\.withoutScope)
    }()
    static let passes: [any Migration] = MigrationRegistry.all + shippedRecipes

    static let goldens: [(id: String, name: String)] = passes.flatMap { migration in
        let folder = Paths.fixtures.appendingPathComponent(migration.id)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".diff") }.sorted().map { (migration.id, String($0.dropLast(5))) }
    }

    @Test func everyChangingFixtureHasAGolden() throws {
        let goldens = Set(Self.goldens.map { "\($0.id)/\($0.name)" })
        for migration in Self.passes {
            let folder = Paths.fixtures.appendingPathComponent(migration.id)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".before.plist") {
                let name = String(file.dropLast(".before.plist".count))
                let before = try Data(contentsOf: folder.appendingPathComponent(file))
                let after = try Data(contentsOf: folder.appendingPathComponent("\(name).after.plist"))
                #expect(goldens.contains("\(migration.id)/\(name)") == (before != after), "\(migration.id)/\(name)")
            }
        }
    }

    @Test(arguments: goldens.map { "\($0.id)/\($0.name)" })
    func engineDiffMatchesGoldenAndApplies(_ fixture: String) throws {
        let id = String(fixture.prefix(6))
        let before = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("\(fixture).before.plist")))
        let after = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("\(fixture).after.plist")))
        let golden = try String(contentsOf: Paths.fixtures.appendingPathComponent("\(fixture).diff"), encoding: .utf8)

        let plan = try MigrationPlan(only: [id], recipes: Self.shippedRecipes)
        let result = FileMigrator(plan: plan).migrate(before, path: "Info.plist", skipIfNotApplicable: false)
        #expect(result.passes.map(\.id) == [id])
        #expect(result.passes.first?.diff == golden)
        #expect(result.output == after)

        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(before).write(to: directory.appendingPathComponent("Info.plist"))
        try Data(golden.utf8).write(to: directory.appendingPathComponent("pass.diff"))
        _ = try git(["init", "-q"], in: directory)
        let applied = try git(["apply", "pass.diff"], in: directory)
        #expect(applied.status == 0, "git apply: \(applied.stderr)")
        #expect(Array(try Data(contentsOf: directory.appendingPathComponent("Info.plist"))) == after)
    }
}
