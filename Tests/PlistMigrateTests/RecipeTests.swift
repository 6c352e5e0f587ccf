import Foundation
import Testing
import Migrations
import PlistDOM
@testable import PlistMigrate

/// Recipe files: what is wrong with one is named at its line and column; what a step does is
/// the edit it names and nothing else; recipe passes run through the same engine (policy gate,
/// write check, one diff per pass) as the built-in ones.
@Suite struct RecipeTests {
    static func passes(_ yaml: String) throws -> [RecipePass] {
        try RecipeLoader.parse(yaml, path: "r.yml").map(\.0)
    }

    static func pass(_ steps: String, impact: String = "spelling") throws -> RecipePass {
        try #require(try passes("""
            id: T001
            version: 1
            title: test
            impact: \(impact)
            steps:
            \(steps)
            """).first)
    }

    static func plist(_ body: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)</dict>\n</plist>\n".utf8)
    }

    /// The engine's result of running `pass` alone on `body` (the built-in passes skipped, not
    /// left out with `--only`, which would opt the pass out of the policy check).
    static func migrate(_ pass: RecipePass, _ body: String, allowPolicyChange: Bool = false) throws -> FileResult {
        let plan = try MigrationPlan(skip: MigrationRegistry.all.map(\.id), allowPolicyChange: allowPolicyChange, recipes: [pass])
        return FileMigrator(plan: plan).migrate(plist(body), path: "Info.plist", skipIfNotApplicable: false)
    }

    static func output(_ result: FileResult) -> String { String(decoding: result.output, as: UTF8.self) }

    @Test(arguments: [
        ("", "r.yml:1:1: error: the recipe file is empty"),
        ("id: [", "r.yml:2:1: error: not valid YAML: did not find expected node content"),
        ("id: X1\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - frobnicate: A\n",
         "r.yml:6:5: error: a step has exactly one of rename, set, remove, replace, move"),
        ("id: X1\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - rename: A\n    to: B\n    when: always\n",
         "r.yml:8:5: error: unknown key \"when\" (known here: rename, to)"),
        ("id: X1\nversion: one\ntitle: t\nimpact: spelling\nsteps:\n  - remove: A\n",
         "r.yml:2:10: error: \"version\" must be a whole number (the order recipe passes run in)"),
        ("id: X1\nversion: 1\ntitle: t\nimpact: cosmetic\nsteps:\n  - remove: A\n",
         "r.yml:4:9: error: \"impact\" must be one of spelling, activatesIntent, changesPolicy"),
        ("id: X1\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - rename: A:*\n    to: B\n",
         "r.yml:6:13: error: \"rename\" needs a key at the end of its path, not *"),
        ("id: X1\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - remove: A::B\n",
         "r.yml:6:13: error: the path has an empty key (two : in a row?)"),
        ("id: X1\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - set: A\n",
         "r.yml:6:5: error: \"set\" needs \"value\""),
        ("id: X1\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - set: A\n    value: ~\n",
         "r.yml:7:12: error: a plist has no null: give a value"),
        ("id: X1\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - set: A\n    value: !date yesterday\n",
         "r.yml:7:12: error: !date takes a date that exists, in ISO 8601 UTC such as 2026-01-31T12:00:00Z"),
        ("id: X1\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - move: A\n    to: B:*\n",
         "r.yml:7:9: error: \"to\" must name one dict: no * or [] in it"),
        ("passes:\n  - {id: X1, version: 1, title: t, impact: spelling, steps: [{remove: A}]}\n"
            + "  - {id: x1, version: 2, title: t, impact: spelling, steps: [{remove: B}]}\n",
         "r.yml:3:10: error: duplicate id \"x1\" (first at line 2)"),
        ("{\"id\": \"X1\", \"version\": 1, \"title\": \"t\", \"impact\": \"spelling\", \"steps\": [{\"remove\": \"A\", \"equals\": null}]}",
         "r.yml:1:100: error: a plist has no null: give a value"),
    ])
    func badRecipesNameTheFileLineAndColumn(_ yaml: String, _ expected: String) {
        do {
            _ = try Self.passes(yaml)
            Issue.record("accepted: \(yaml)")
        } catch let error as RecipeError {
            #expect(error.description == expected)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func anIdOfABuiltInPassIsADuplicate() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("r.yml")
        try Data("id: ats004\nversion: 1\ntitle: t\nimpact: spelling\nsteps: [{remove: A}]\n".utf8).write(to: file)
        #expect(throws: RecipeError(path: file.path, line: 1, column: 5, message: "duplicate id \"ats004\" (also a built-in pass)")) {
            try RecipeLoader.load([file.path])
        }
    }

    @Test func valuesAreTypedLikeYAMLAndQuotedTextStaysText() throws {
        let pass = try Self.pass("""
              - set: Values
                value: {flag: true, count: 42, ratio: 1.5, text: "42", plain: armv7, list: [1, "a"], when: !date 2026-01-31T12:00:00Z, blob: !data aGk=}
            """)
        let result = try Self.migrate(pass, "\t<key>Values</key>\n\t<string>old</string>\n")
        let value = try PlistDocument(parsing: result.output).value
        #expect(value == .dict(["Values": .dict([
            "flag": .bool(true), "count": .integer(42), "ratio": .real(1.5), "text": .string("42"), "plain": .string("armv7"),
            "list": .array([.integer(1), .string("a")]), "when": .date("2026-01-31T12:00:00Z"), "blob": .data(Array("hi".utf8)),
        ])]))
        // Entries keep the recipe's order and the file's indentation.
        #expect(Self.output(result).contains("\t<key>Values</key>\n\t<dict>\n\t\t<key>flag</key>\n\t\t<true/>\n\t\t<key>count</key>\n\t\t<integer>42</integer>\n"))
    }

    @Test func setHonoursWhen() throws {
        let body = "\t<key>A</key>\n\t<string>old</string>\n"
        for (when, hasA, hasB) in [("always", "new", "new"), ("ifAbsent", "old", "new"), ("ifPresent", "new", nil)] as [(String, String, String?)] {
            let pass = try Self.pass("  - set: A\n    value: new\n    when: \(when)\n  - set: B\n    value: new\n    when: \(when)\n")
            let value = try PlistDocument(parsing: try Self.migrate(pass, body).output).value
            var expected: [String: PlistValue] = ["A": .string(hasA)]
            if let hasB { expected["B"] = .string(hasB) }
            #expect(value == .dict(expected), "when: \(when)")
        }
    }

    @Test func wildcardsReachEveryKeyAndEveryItemAndDigitsPickAnItem() throws {
        let body = """
            \t<key>Domains</key>
            \t<dict>
            \t\t<key>a.example</key>
            \t\t<dict><key>TLS</key><string>TLSv1.0</string></dict>
            \t\t<key>b.example</key>
            \t\t<dict><key>TLS</key><string>TLSv1.2</string></dict>
            \t</dict>
            \t<key>Schemes</key>
            \t<array>
            \t\t<dict><key>Names</key><array><string>old</string><string>keep</string></array></dict>
            \t\t<dict><key>Names</key><array><string>old</string></array></dict>
            \t</array>

            """
        let pass = try Self.pass("""
              - replace: Domains:*:TLS
                equals: TLSv1.0
                with: TLSv1.2
              - replace: Schemes:[]:Names:[]
                equals: old
                with: new
              - remove: Schemes:1:Names:0
            """)
        let result = try Self.migrate(pass, body)
        #expect(result.status == .changed)
        let value = try PlistDocument(parsing: result.output).value
        let tls = PlistValue.dict(["TLS": .string("TLSv1.2")])
        #expect(value == .dict([
            "Domains": .dict(["a.example": tls, "b.example": tls]),
            "Schemes": .array([.dict(["Names": .array([.string("new"), .string("keep")])]), .dict(["Names": .array([])])]),
        ]))
        #expect(result.passes.count == 1 && result.passes[0].editCount == 4)
    }

    @Test func moveTakesTheEntryToTheOtherDictOnceAndReportsADifferentTwin() throws {
        let pass = try Self.pass("  - move: Legacy:Timeout\n    to: Network\n")
        let body = "\t<key>Legacy</key>\n\t<dict>\n\t\t<key>Timeout</key>\n\t\t<integer>30</integer>\n\t</dict>\n\t<key>Network</key>\n\t<dict/>\n"
        let moved = try Self.migrate(pass, body)
        #expect(try PlistDocument(parsing: moved.output).value
            == .dict(["Legacy": .dict([:]), "Network": .dict(["Timeout": .integer(30)])]))
        #expect(try Self.migrate(pass, Self.output(moved).components(separatedBy: "<dict>\n").dropFirst().joined(separator: "<dict>\n")
            .components(separatedBy: "</dict>\n</plist>").first ?? "").status == .unchanged)
        let twin = try Self.migrate(pass, body.replacingOccurrences(of: "<dict/>", with: "<dict><key>Timeout</key><integer>60</integer></dict>"))
        #expect(twin.status == .unchanged)
        #expect(twin.diagnostics.map(\.message) == [
            "conflict: \"Timeout\" moves to Network, which already holds it with a different value (line 10); both left as they are",
        ])
    }

    @Test func aRecipeThatChangesTheATSPolicyBeyondItsImpactIsHeldBack() throws {
        let body = "\t<key>NSAppTransportSecurity</key>\n\t<dict>\n\t\t<key>NSAllowsArbitraryLoads</key>\n\t\t<false/>\n\t</dict>\n"
        let steps = "  - set: NSAppTransportSecurity:NSAllowsArbitraryLoads\n    value: true\n"
        let spelling = try Self.migrate(try Self.pass(steps), body)
        #expect(spelling.status == .unchanged)
        #expect(spelling.heldBack == ["T001"])
        #expect(spelling.heldBackReasons["T001"]?.hasPrefix("would also change") == true)
        // Declared as a policy change it is held back unless asked for, and then it runs.
        let declared = try Self.pass(steps, impact: "changesPolicy")
        let plan = try MigrationPlan(skip: MigrationRegistry.all.map(\.id), recipes: [declared])
        #expect(plan.heldBack.map(\.id) == ["T001"])
        let allowed = try Self.migrate(declared, body, allowPolicyChange: true)
        #expect(allowed.status == .changed)
        #expect(allowed.passes.first?.policyDelta.contains("no policy change") == false)
    }

    @Test func recipePassesRunAfterTheBuiltInOnesInVersionOrder() throws {
        let late = try Self.pass("  - remove: A\n")
        let early = try #require(try Self.passes("id: T000\nversion: 0\ntitle: t\nimpact: spelling\nsteps: [{remove: B}]\n").first)
        let plan = try MigrationPlan(recipes: [late, early])
        #expect(plan.selected.map(\.id).suffix(2) == ["T000", "T001"])
        #expect(plan.selected.prefix(MigrationRegistry.all.count - plan.heldBack.count).allSatisfy { !($0 is RecipePass) })
    }

    @Test func aFileWithoutTheRecipesKeysIsSkippedUnparsedButASetWhereAbsentReadsEveryFile() throws {
        let remove = try Self.pass("  - remove: UIRequiredDeviceCapabilities:[]\n    equals: armv7\n")
        let broken = Array("<plist><dict><key>Other</key><string></dict></plist>".utf8)
        let skipped = FileMigrator(plan: try MigrationPlan(only: ["T001"], recipes: [remove]))
            .migrate(broken, path: "x.plist", skipIfNotApplicable: true)
        #expect(skipped.status == .skipped)
        #expect(skipped.skipReason == "no UIRequiredDeviceCapabilities")
        let set = try Self.pass("  - set: ITSAppUsesNonExemptEncryption\n    value: false\n    when: ifAbsent\n")
        let parsed = FileMigrator(plan: try MigrationPlan(only: ["T001"], recipes: [set]))
            .migrate(broken, path: "x.plist", skipIfNotApplicable: true)
        #expect(parsed.status == .error)
    }

    @Test func theCommandLineAndConfigsTakeRecipesAndAnErrorStopsEverything() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("recipes"), withIntermediateDirectories: true)
        try Data(Self.plist("\t<key>CFBundleName</key>\n\t<string>Demo</string>\n")).write(to: app.appendingPathComponent("Info.plist"))
        try Data("id: ENC900\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - set: ITSAppUsesNonExemptEncryption\n    value: false\n    when: ifAbsent\n".utf8)
            .write(to: app.appendingPathComponent("recipes/enc.yml"))
        try Data(#"{"recipes": ["recipes/enc.yml"]}"#.utf8).write(to: app.appendingPathComponent(".plist-migrate.json"))
        let viaConfig = try tool(["--format", "json", "App"], in: directory)
        #expect(viaConfig.status == 0, "\(viaConfig.stderr)")
        #expect(viaConfig.text.contains("\"id\" : \"ENC900\""))

        try Data("id: ENC901\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - sett: X\n".utf8).write(to: directory.appendingPathComponent("bad.yml"))
        let bad = try tool(["--write", "--recipe", "bad.yml", "App"], in: directory)
        #expect(bad.status == 2)
        #expect(bad.stderr == "bad.yml:6:5: error: a step has exactly one of rename, set, remove, replace, move\n")
        #expect(!String(decoding: try Data(contentsOf: app.appendingPathComponent("Info.plist")), as: UTF8.self).contains("ITSApp"))

        // The same recipe from the config and the command line is one pass.
        let both = try tool(["--format", "json", "--recipe", "./App/recipes/enc.yml", "App"], in: directory)
        #expect(both.status == 0, "\(both.stderr)")
        let report = try JSONSerialization.jsonObject(with: both.stdout) as? [String: Any]
        let applied = ((report?["files"] as? [[String: Any]]) ?? []).flatMap { ($0["passes"] as? [[String: Any]]) ?? [] }
        #expect(applied.filter { $0["id"] as? String == "ENC900" }.count == 1, "applied once")
        #expect(((report?["passes"] as? [[String: Any]]) ?? []).filter { $0["id"] as? String == "ENC900" }.count == 1, "listed once")

        // An error in a config's recipe names the recipe's line and the config, and stops the run.
        try Data("id: ENC902\nversion: x\ntitle: t\nimpact: spelling\nsteps: [{remove: A}]\n".utf8)
            .write(to: app.appendingPathComponent("recipes/enc.yml"))
        let broken = try tool(["--write", "App"], in: directory)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("App/recipes/enc.yml:2:10: error: \"version\" must be a whole number (the order recipe passes run in) (a recipe of App/.plist-migrate.json)"),
                "\(broken.stderr)")
        #expect(!String(decoding: try Data(contentsOf: app.appendingPathComponent("Info.plist")), as: UTF8.self).contains("ITSApp"))
        try Data("id: ENC900\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n  - set: ITSAppUsesNonExemptEncryption\n    value: false\n    when: ifAbsent\n".utf8)
            .write(to: app.appendingPathComponent("recipes/enc.yml"))

        let written = try tool(["--write", "--no-config", "--recipe", "App/recipes/enc.yml", "--only", "ENC900", "App"], in: directory)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(String(decoding: try Data(contentsOf: app.appendingPathComponent("Info.plist")), as: UTF8.self)
            .contains("\t<key>ITSAppUsesNonExemptEncryption</key>\n\t<false/>\n</dict>"))
        let again = try tool(["--check", "--no-config", "--recipe", "App/recipes/enc.yml", "--only", "ENC900", "App"], in: directory)
        #expect(again.status == 0, "a second run must have nothing to do: \(again.text)")
    }

    @Test func theDocumentedRecipeLoadsAndRuns() throws {
        let readme = try String(contentsOf: Paths.repository.appendingPathComponent("docs/recipes.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```yaml\n# plist-recipes.yml\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let passes = try RecipeLoader.parse(String(readme[start.upperBound..<end.lowerBound]), path: "docs/recipes.md").map(\.0)
        #expect(passes.map(\.id) == ["ORG001"])
        #expect(passes.first?.steps.count == 5)
        let body = "\t<key>NSBluetoothPeripheralUsageDescription</key>\n\t<string>Bluetooth</string>\n"
            + "\t<key>UIRequiredDeviceCapabilities</key>\n\t<array>\n\t\t<string>armv7</string>\n\t</array>\n"
        let result = try Self.migrate(try #require(passes.first), body)
        #expect(try PlistDocument(parsing: result.output).value == .dict([
            "NSBluetoothAlwaysUsageDescription": .string("Bluetooth"), "UIRequiredDeviceCapabilities": .array([]),
            "ITSAppUsesNonExemptEncryption": .bool(false),
        ]))
    }
}
