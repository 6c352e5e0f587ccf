import Foundation
import Testing

/// The names a user types for passes: an id or the name every diff header shows, and a
/// suggestion for a near miss, on the command line and in a config alike.
@Suite struct PassNamesTests {
    @Test(arguments: [("--only", "ATS01", "ATS001"), ("--skip", "ats0002", "ATS002"), ("--only", "third-party-exception-key", "third-party-exception-keys")])
    func aNearMissGetsASuggestionAndMigratesUsage(option: String, typed: String, suggested: String) throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try copyFixture("demo/ShopApp/Info.plist", to: root, as: "App/Info.plist")
        let result = try tool(["--no-config", option, typed, "App"], in: root)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: unknown migration \"\(typed)\" (did you mean \"\(suggested)\"?)\nUsage: plist-migrate migrate "), "\(result.stderr)")
        try Data("{ \"\(option.dropFirst(2))\": [\"\(typed)\"] }".utf8).write(to: root.appendingPathComponent("App/.plist-migrate.json"))
        let config = try tool(["App"], in: root)
        #expect(config.status == 2 && config.stderr.contains("did you mean \"\(suggested)\"?"), "\(config.stderr)")
    }

    /// A pass's name, as the diff header shows it, selects the same passes as its id.
    @Test(arguments: [("--only", "third-party-exception-keys", "ATS001"), ("--skip", "arbitrary-loads-for-media", "ATS002")])
    func aPassNameMeansItsID(option: String, name: String, id: String) throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try copyFixture("demo/ShopApp/Info.plist", to: root, as: "App/Info.plist")
        let byName = try tool(["--no-config", option, name, "App"], in: root)
        let byID = try tool(["--no-config", option, id, "App"], in: root)
        #expect(byName.status == 0 && byName.stdout == byID.stdout && !byName.stdout.isEmpty, "\(byName.stderr)")
    }
}

/// `edit`'s names: an option it does not know is named as such, with the nearest, and so is a
/// command one or two letters from one of PlistBuddy's.
@Suite struct EditNamesTests {
    @Test(arguments: [(["--comand", "Print :A"], "unknown option --comand (did you mean --command?)"),
                      (["--dryrun", "-c", "Print :A"], "unknown option --dryrun (did you mean --dry-run?)"),
                      (["-c", "Sett :A x"], "unknown command \"Sett\" (did you mean \"Set\"?"),
                      (["-c", "Delet :A"], "unknown command \"Delet\" (did you mean \"Delete\"?"),
                      (["-c", "Frobnicate :A"], "unknown command \"Frobnicate\" (edit knows Print, Set, Add and Delete)")])
    func aMisspeltNameIsSaidWithTheNearestOne(arguments: [String], message: String) throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try copyFixture("demo/ShopApp/Info.plist", to: root, as: "Info.plist")
        let before = try Data(contentsOf: file)
        let result = try tool(["edit", "Info.plist"] + arguments, in: root)
        #expect(result.status == 64 && result.stderr.contains(message), "\(result.stderr)")
        #expect(try Data(contentsOf: file) == before)
    }
}
