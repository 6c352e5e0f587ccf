import Testing
import Migrations

@Suite struct RegistryTests {
    @Test func idsAreUniqueAndVersionsRunInStrictOrder() {
        let all = MigrationRegistry.all
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(all.map(\.version) == all.map(\.version).sorted())
        #expect(Set(all.map(\.version)).count == all.count)
    }

    @Test func eachMigrationDescribesItself() {
        for migration in MigrationRegistry.all {
            #expect(migration.id.wholeMatch(of: /ATS\d{3}/) != nil, "\(migration.id)")
            #expect(migration.name.wholeMatch(of: /[a-z0-9]+(-[a-z0-9]+)*/) != nil, "\(migration.name)")
            #expect(!migration.title.isEmpty && !migration.title.contains("\n"))
            #expect(migration.rationale.contains("Apple"), "\(migration.id) rationale must cite Apple's rule")
        }
    }

    @Test func theFourCoreMigrationsKeepTheirIdentity() {
        let expected: [(String, Int, String, Impact)] = [
            ("ATS001", 1, "third-party-exception-keys", .activatesIntent),
            ("ATS002", 2, "arbitrary-loads-for-media", .activatesIntent),
            ("ATS003", 3, "local-networking-with-arbitrary-loads", .changesPolicy),
            ("ATS004", 4, "normalize-exception-domains", .activatesIntent),
        ]
        for (id, version, name, impact) in expected {
            let migration = MigrationRegistry.migration(id: id)
            #expect(migration?.version == version)
            #expect(migration?.name == name)
            #expect(migration?.impact == impact)
        }
    }
}
