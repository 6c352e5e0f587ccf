import Foundation
import Testing
import Migrations
import PlistDOM
import PlistMigrate

/// One test drives every pass from its fixtures, the built-in ones and those of the recipes
/// shipped in `Recipes/`: exact output bytes, expected diagnostics, idempotency, and an output
/// that parses.
@Suite struct PassFixtureTests {
    static let shippedRecipes: [any Migration] = {
        let folder = PassFixture.root.deletingLastPathComponent().appendingPathComponent("Recipes")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".yml") }.sorted().map { folder.appendingPathComponent($0).path }
        return (try? RecipeLoader.load(files)) ?? []
    }()
    static let passes: [any Migration] = MigrationRegistry.all + shippedRecipes
    static let fixtures = PassFixture.all(ids: passes.map(\.id))

    static func migration(id: String) -> (any Migration)? {
        passes.first { $0.id == id }
    }

    @Test func theShippedRecipesLoad() throws {
        #expect(Self.shippedRecipes.map(\.id).sorted() == ["CAP001", "ENC001", "PRV001"])
    }

    static func run(_ migration: any Migration, on bytes: [UInt8]) throws -> (output: [UInt8], diagnostics: [Diagnostic]) {
        let document = try PlistDocument(parsing: bytes)
        let session = MigrationSession(document: document, migration: migration)
        migration.apply(to: session)
        return (document.bytes, session.diagnostics)
    }

    @Test(arguments: fixtures)
    func passTurnsBeforeIntoAfter(_ fixture: PassFixture) throws {
        let migration = try #require(Self.migration(id: fixture.migrationID))
        let (output, diagnostics) = try Self.run(migration, on: try fixture.bytes("before.plist"))
        #expect(output == (try fixture.bytes("after.plist")), "output differs from \(fixture.name).after.plist")

        let expected = (fixture.text("diagnostics") ?? "").split(separator: "\n").map(String.init)
        let actual = diagnostics.map { "\($0.location): \($0.migrationID): \($0.message)" }
        #expect(actual == expected)

        let reparsed = try PlistDocument(parsing: output)
        #expect(reparsed.bytes == output)
        let (again, _) = try Self.run(migration, on: output)
        #expect(again == output, "second run changed the output: not idempotent")
    }

    @Test func everyPassHasTheRequiredKindsOfFixture() {
        let required = ["tabs", "spaces", "crlf", "one-line", "comments", "already-migrated"]
        for migration in Self.passes {
            let names = Set(Self.fixtures.filter { $0.migrationID == migration.id }.map(\.name))
            // A built-in pass also shows it leaves look-alikes outside the ATS dict alone.
            for name in required + (migration is RecipePass ? [] : ["outside-ats"]) {
                #expect(names.contains(name), "\(migration.id) lacks a \(name) fixture")
            }
        }
    }

    @Test func fixturesExerciseChangesAndLeaveLookAlikesAlone() throws {
        for fixture in Self.fixtures {
            let before = try fixture.bytes("before.plist")
            let after = try fixture.bytes("after.plist")
            if fixture.name == "already-migrated" || fixture.name == "outside-ats" {
                #expect(before == after, "\(fixture.testDescription) should be left as it is")
            } else if ["tabs", "spaces", "crlf", "one-line", "comments"].contains(fixture.name) {
                #expect(before != after, "\(fixture.testDescription) should change")
            }
        }
    }
}
