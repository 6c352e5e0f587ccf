import Testing
import Migrations
import PlistDOM

/// One test drives every pass from its fixtures: exact output bytes, expected diagnostics,
/// idempotency, and an output that parses.
@Suite struct PassFixtureTests {
    static let fixtures = PassFixture.all(ids: MigrationRegistry.all.map(\.id))

    static func run(_ migration: any Migration, on bytes: [UInt8]) throws -> (output: [UInt8], diagnostics: [Diagnostic]) {
        let document = try PlistDocument(parsing: bytes)
        let session = MigrationSession(document: document, migration: migration)
        migration.apply(to: session)
        return (document.bytes, session.diagnostics)
    }

    @Test(arguments: fixtures)
    func passTurnsBeforeIntoAfter(_ fixture: PassFixture) throws {
        let migration = try #require(MigrationRegistry.migration(id: fixture.migrationID))
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
        let required = ["tabs", "spaces", "crlf", "one-line", "comments", "already-migrated", "outside-ats"]
        for migration in MigrationRegistry.all {
            let names = Set(Self.fixtures.filter { $0.migrationID == migration.id }.map(\.name))
            for name in required {
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
