import Foundation
import Testing

/// What a team used to SwiftLint types first. Rules by name as well as by id (in a
/// config and in a suppression comment), `lint` with no path lints the current directory, and
/// every run says how many plists it left out, by `--exclude`/`--include` as well as by config.
@Suite struct SwiftLintHabitsTests {
    func workspace() throws -> URL {
        try temporaryDirectory(holding: ["App/Info.plist": "lint/everything.plist", "Vendor/Info.plist": "ATS001/tabs.before.plist",
                                         "Generated/Lib/Info.plist": "ATS001/tabs.before.plist"])
    }

    @Test func aRuleIsNamedByItsIdOrItsName() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try tool(["lint", "App"], in: directory)
        #expect(before.text.contains("[L005]") && before.text.contains("error: [L007]"), "\(before.text)")
        try Data(#"{ "lint": { "disable": ["arbitrary-loads"], "severity": { "pinned-identities": "warning" } } }"#.utf8)
            .write(to: directory.appendingPathComponent(".plist-migrate.json"))
        let named = try tool(["lint", "App"], in: directory)
        #expect(named.status != 2, "\(named.stderr)")
        #expect(!named.text.contains("[L005]") && named.text.contains("warning: [L007]") && !named.text.contains("error: [L007]"), "\(named.text)")
        try Data(#"{ "lint": { "disable": ["arbitrary-load"] } }"#.utf8).write(to: directory.appendingPathComponent(".plist-migrate.json"))
        let unknown = try tool(["lint", "App"], in: directory)
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown rule \"arbitrary-load\""), "\(unknown.stderr)")

        // In a suppression comment too.
        let plist = """
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
            <!-- plist-migrate:disable-next-line arbitrary-loads -->
            <key>NSAllowsArbitraryLoads</key><true/>
            </dict></dict></plist>

            """
        try Data(plist.utf8).write(to: directory.appendingPathComponent("Suppressed.plist"))
        let suppressed = try tool(["lint", "--no-config", "--rules", "checks", "Suppressed.plist"], in: directory)
        #expect(!suppressed.text.contains("[L005]") && !suppressed.text.contains("[L011]"), "\(suppressed.text)")
    }

    @Test func lintWithNoPathLintsTheCurrentDirectory() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bare = try tool(["lint"], in: directory)
        let dot = try tool(["lint", "."], in: directory)
        #expect(bare.status == dot.status && bare.text == dot.text, "\(bare.stderr)")
        #expect(bare.text.contains("App/Info.plist") && bare.stderr.contains("3 files checked"), "\(bare.stderr)")
    }

    @Test func everyRunSaysWhatItLeftOut() throws {
        let directory = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lint = try tool(["lint", "--exclude", "Vendor/**", "."], in: directory)
        #expect(lint.stderr.contains("2 files checked") && lint.stderr.contains("; 1 excluded by --exclude/--include"), "\(lint.stderr)")
        let migrate = try tool(["--exclude", "Vendor/**", "."], in: directory)
        #expect(migrate.stderr.contains("; 1 excluded by --exclude/--include"), "\(migrate.stderr)")
        let included = try tool(["--include", "App/**", "."], in: directory)
        #expect(included.stderr.contains("; 2 excluded by --exclude/--include"), "\(included.stderr)")

        try Data(#"{ "exclude": ["Generated/**"] }"#.utf8).write(to: directory.appendingPathComponent(".plist-migrate.json"))
        let both = try tool(["lint", "--exclude", "Vendor/**", "."], in: directory)
        #expect(both.stderr.contains("1 file checked") && both.stderr.contains("; 2 excluded (1 by --exclude/--include, 1 by config)"), "\(both.stderr)")
        let migrateBoth = try tool(["--exclude", "Vendor/**", "."], in: directory)
        #expect(migrateBoth.stderr.contains("1 file scanned") && migrateBoth.stderr.contains("; 2 excluded (1 by --exclude/--include, 1 by config)"), "\(migrateBoth.stderr)")
        // Nothing left out: nothing said.
        #expect(!(try tool(["--no-config", "."], in: directory)).stderr.contains("excluded"))
    }
}
