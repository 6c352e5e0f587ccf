import Foundation
import Testing
import ATSPolicy
import PlistDOM
import Migrations
@testable import PlistMigrate
@testable import Project

/// Projects read as what they are, each Info.plist with its targets and their real
/// deployment target, and recipes that say which files they are for.
@Suite struct OpenStepParserTests {
    @Test func readsEveryFormProjectFilesUse() throws {
        let text = """
            // !$*UTF8*$!
            { /* c */ a = bare_value.1/2:x-y$; "quoted key" = "tab\\tquote\\" \\U00e9 \\101";
              list = ( one, "two", ); empty = (); data = <0fA1 b2>; nested = { k = v; }; }
            """
        let value = try OpenStepValue(parsing: Array(text.utf8))
        #expect(value["a"] == .string("bare_value.1/2:x-y$"))
        #expect(value["quoted key"] == .string("tab\tquote\" é A"))
        #expect(value["list"] == .array([.string("one"), .string("two")]))
        #expect(value["empty"] == .array([]))
        #expect(value["data"] == .data([0x0F, 0xA1, 0xB2]))
        #expect(value["nested"]?["k"] == .string("v"))
    }

    @Test(arguments: [
        ("{ a = b }", "1:9: expected \";\" after the value of \"a\""),
        ("{\n  a = \"open;\n}", "2:7: unterminated string (opened here)"),
        ("{ a = (x y); }", "1:10: expected \",\" or \")\" in an array"),
        ("{ a = <0g>; }", "1:9: \"g\" in <hex data>"),
        ("{ a = b; } x", "1:12: unexpected \"x\" after the value"),
        ("{ a = b; /* never closed", "1:10: unterminated /* comment"),
    ])
    func errorsNameLineAndColumn(_ text: String, _ expected: String) {
        do {
            _ = try OpenStepValue(parsing: Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error.location.line):\(error.location.column): \(error.message)" == expected)
        }
    }

    @Test func theFixtureProjectReadsWhole() throws {
        let pbxproj = Paths.fixtures.appendingPathComponent("project/App.xcodeproj/project.pbxproj")
        let value = try OpenStepValue(parsing: Array(try Data(contentsOf: pbxproj)))
        #expect(value["rootObject"]?.string == "P1000000000000000000001")
        #expect(value["objects"]?.dictEntries?.count == 24)
    }
}

@Suite struct ProjectModelTests {
    static let project = Paths.fixtures.appendingPathComponent("project")

    static func targets(_ relative: String) throws -> [String: ProjectTarget] {
        let path = Paths.fixtures.appendingPathComponent(relative).path
        let targets = relative.hasSuffix(".yml")
            ? try XcodeGenReader.targets(projectYML: path, display: { $0 })
            : try XcodeProjectReader.targets(pbxproj: path, display: { $0 })
        return Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
    }

    @Test func nativeTargetsWithTheirInfoPlistsAndDeploymentTargets() throws {
        let targets = try Self.targets("project/App.xcodeproj/project.pbxproj")
        #expect(targets.keys.sorted() == ["App", "AppTests", "Kit", "Widget"])
        #expect(targets.mapValues(\.productType) == ["App": "application", "AppTests": "unit-test", "Kit": "framework", "Widget": "app-extension"])
        let root = Self.project.standardizedFileURL.path
        // Plain relative, $(SRCROOT), $(PROJECT_DIR)/$(PRODUCT_NAME), and $(SRCROOT)/$(TARGET_NAME) from an xcconfig.
        #expect(targets["App"]?.infoPlists == [root + "/App/Info.plist"])
        #expect(targets["Kit"]?.infoPlists == [root + "/Kit/Info.plist"])
        #expect(targets["Widget"]?.infoPlists == [root + "/Widget/Info.plist"])
        // The lowest over the configurations, not the project's 8.0; the xcconfig chain counts.
        #expect(targets["App"]?.deploymentTarget?.platforms == ["ios13.5"])
        #expect(targets["Widget"]?.deploymentTarget?.platforms == ["ios11.4"])
        #expect(targets["Widget"]?.deploymentTarget?.source.hasSuffix("Fixtures/project/Config/Shared.xcconfig:2)") == true)
        #expect(targets["AppTests"]?.deploymentTarget?.platforms == ["ios8.0"], "inherited from the project level")
        // An unknown variable in one configuration: said, and no target guessed.
        #expect(targets["Kit"]?.deploymentTarget == nil)
        #expect(targets["Kit"]?.unresolved.count == 1)
        #expect(targets["Kit"]?.unresolved.first?.hasPrefix("Debug: IPHONEOS_DEPLOYMENT_TARGET (") == true)
        #expect(targets["Kit"]?.unresolved.first?.hasSuffix("Fixtures/project/App.xcodeproj/project.pbxproj:134): $(KIT_MINIMUM_OS) unknown") == true,
                "where the setting is written: \(targets["Kit"]?.unresolved ?? [])")
    }

    @Test func xcodeGenSpecs() throws {
        let targets = try Self.targets("project-xcodegen/project.yml")
        #expect(targets["App"]?.productType == "application" && targets["App"]?.deploymentTarget?.platforms == ["ios13.0"])
        #expect(targets["ShareExtension"]?.deploymentTarget?.platforms == ["ios9.0"], "options.deploymentTarget")
        #expect(targets["ShareExtension"]?.infoPlists.first?.hasSuffix("project-xcodegen/Share/Info.plist") == true)
    }

    static func report(_ arguments: [String]) throws -> [String: [String: Any]] {
        let result = try tool(["--no-config", "--format", "json"] + arguments, in: Paths.repository)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: files.map { ($0["path"] as! String, $0) })
    }

    @Test func eachInfoPlistGetsItsTargetsDeploymentTargetAndATS010RunsWhereItMay() throws {
        let files = try Self.report(["Fixtures/project"])
        let app = try #require(files["Fixtures/project/App/Info.plist"])
        #expect((app["deploymentTarget"] as? [String: String])?["source"] == "App (Fixtures/project/App.xcodeproj/project.pbxproj:103)")
        #expect((app["targets"] as? [[String: String]]) == [["name": "App", "productType": "application", "project": "Fixtures/project/App.xcodeproj/project.pbxproj"]])
        #expect((app["passes"] as? [[String: Any]])?.map { $0["id"] as? String } == ["ATS010"])
        let tests = try #require(files["Fixtures/project/Tests/Info.plist"])
        #expect((tests["heldBack"] as? [String]) == ["ATS010"], "iOS 8 reads the key")
        let kit = try #require(files["Fixtures/project/Kit/Info.plist"])
        #expect((kit["deploymentTarget"] as? [String: String])?["source"] == "unknown")
        // --min-os still comes first.
        let given = try Self.report(["--min-os", "ios15", "Fixtures/project/Tests/Info.plist"])
        #expect((given["Fixtures/project/Tests/Info.plist"]?["deploymentTarget"] as? [String: String])?["source"] == "--min-os")
    }

    @Test func shippedRecipesTouchOnlyTheFilesTheyAreFor() throws {
        func run(_ recipe: String, _ id: String) throws -> [String: [String: Any]] {
            try Self.report(["--recipe", "Recipes/\(recipe)", "--only", id, "Fixtures/project", "Fixtures/project-xcodegen"])
        }
        func changed(_ files: [String: [String: Any]]) -> [String] {
            files.filter { $0.value["status"] as? String == "changed" }.keys.sorted()
        }
        let enc = try run("export-compliance.yml", "ENC001")
        #expect(changed(enc) == ["Fixtures/project-xcodegen/App/Info.plist", "Fixtures/project/App/Info.plist"])
        #expect((enc["Fixtures/project/App/GoogleService-Info.plist"]?["outOfScope"] as? [String: String])?["ENC001"]
            == "not the Info.plist of an application target: no project target uses it")
        #expect((enc["Fixtures/project/Widget/Info.plist"]?["outOfScope"] as? [String: String])?["ENC001"]
            == "not the Info.plist of an application target: it belongs to Widget (app-extension)")
        let prv = try run("privacy-usage-keys.yml", "PRV001")
        #expect(changed(prv) == ["Fixtures/project-xcodegen/App/Info.plist", "Fixtures/project/App/Info.plist"])
        #expect((prv["Fixtures/project/Widget/Info.plist"]?["heldBackReasons"] as? [String: String])?["PRV001"]?
            .hasPrefix("for deployment targets ios13 or later; this file's is ios11.4") == true)
        #expect((prv["Fixtures/project/Kit/Info.plist"]?["heldBackReasons"] as? [String: String])?["PRV001"]?.contains("unknown") == true)
        let cap = try run("drop-armv7.yml", "CAP001")
        #expect(!changed(cap).contains("Fixtures/project/App/GoogleService-Info.plist"))
        #expect(changed(cap).contains("Fixtures/project/Kit/Info.plist"))
    }

    @Test func scopeKeysAreCheckedWhenTheRecipeLoads() throws {
        let yaml = "id: S1\nversion: 1\ntitle: t\nimpact: spelling\ninfoPlistOf: [application, gizmo]\nsteps:\n  - remove: A\n"
        #expect(throws: RecipeError.self) { try RecipeLoader.parse(yaml, path: "s.yml") }
        let bad = "id: S1\nversion: 1\ntitle: t\nimpact: spelling\nminimumOS: thirteen\nsteps:\n  - remove: A\n"
        #expect(throws: RecipeError.self) { try RecipeLoader.parse(bad, path: "s.yml") }
        let good = "id: S1\nversion: 1\ntitle: t\nimpact: spelling\nfiles: App/**\nminimumOS: ios13\nsteps:\n  - remove: A\n"
        #expect(try RecipeLoader.parse(good, path: "s.yml").first?.0.scope == RecipeScope(files: ["App/**"], minimumOS: "ios13"))
    }

    @Test func filesGlobsAreRelativeToTheRepositoryRoot() {
        let scope = RecipeScope(files: ["App/**"])
        #expect(FileMigrator.verdict(scope, path: "App/Info.plist", targets: [], target: nil) == nil)
        #expect(FileMigrator.verdict(scope, path: "Kit/Info.plist", targets: [], target: nil) == .outside("not among its files (App/**)"))
    }

    @Test func explainAndLintUseTheSameTarget() throws {
        let explain = try tool(["explain", "Fixtures/project/Widget/Info.plist"], in: Paths.repository)
        #expect(explain.text.contains("deployment target ios11.4 (from Widget (Fixtures/project/Config/Shared.xcconfig:2))"), "\(explain.text)")
        let lint = try tool(["lint", "--no-config", "Fixtures/project"], in: Paths.repository)
        #expect(lint.text.contains("Fixtures/project/Widget/Info.plist:15:3: warning: [ATS010]"), "\(lint.text)")
        #expect(!lint.text.contains("Fixtures/project/Tests/Info.plist:15:3: warning: [ATS010]"), "iOS 8 reads the key")
    }

    @Test func whatCannotBeReadIsSaidNotGuessed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("project/App/Info.plist", to: directory, as: "App/Info.plist")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Broken.xcodeproj"), withIntermediateDirectories: true)
        try Data("{ objects = { a = b; }\n".utf8).write(to: directory.appendingPathComponent("Broken.xcodeproj/project.pbxproj"))
        try Data("import ProjectDescription\n".utf8).write(to: directory.appendingPathComponent("Project.swift"))
        let result = try tool(["--no-config", "."], in: directory)
        #expect(result.stderr.contains("App/Info.plist: note: project not read: Broken.xcodeproj/project.pbxproj:2:1: error: expected \";\" after the value of \"objects\""), "\(result.stderr)")
        #expect(result.stderr.contains("App/Info.plist: note: Project.swift (Tuist) is not read: the targets it defines are unknown"))
        #expect(result.stderr.contains("1 from none known (every OS counted)"))
    }

    /// Each project is read once per run, whatever the number of plists asking, from any thread.
    @Test func eachProjectIsReadOncePerRun() {
        let index = ProjectIndex(directories: DirectoryFacts())
        let plists = ["App", "Widget", "Kit", "Tests"].map { Self.project.appendingPathComponent("\($0)/Info.plist").path }
        let claims = parallelMap(count: 400, jobs: 4) { index.targets(claiming: plists[$0 % plists.count]).map(\.name) }
        #expect(Set(claims.map { $0.joined() }) == ["App", "Widget", "Kit", "AppTests"])
        #expect(index.projectsRead == 1)
    }
}
