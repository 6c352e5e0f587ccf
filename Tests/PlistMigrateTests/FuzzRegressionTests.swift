import Foundation
import Testing
import Migrations
import PlistDOM
@testable import PlistMigrate

/// Every input the fuzzer ever found a problem with (Fuzz/regressions/) keeps the invariants,
/// and so do the corpus and fixtures it was seeded with.
@Suite struct FuzzRegressionTests {
    @Test func regressionInputsKeepTheInvariants() throws {
        let folder = Paths.repository.appendingPathComponent("Fuzz/regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") && $0.hasSuffix(".plist") }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in names {
            let data = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(Invariants.violation(in: data) == nil, "\(name)")
            #expect(Invariants.writeViolation(in: data, directory: directory.path) == nil, "\(name)")
        }
    }

    /// Fuzz/regressions/recipe/ and edit/: inputs of the recipe and edit targets.
    /// And project/: inputs of the project readers' target: the first found was
    /// a project.yml whose mapping key is a mapping, on which Yams' constructor stopped the process.
    @Test(arguments: ["recipe", "edit", "project"]) func recipeAndEditRegressionsKeepTheInvariants(_ target: String) throws {
        let folder = Paths.repository.appendingPathComponent("Fuzz/regressions/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(!names.isEmpty)
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for name in names {
            let data = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            let violation = switch target {
            case "recipe": Invariants.recipeViolation(in: data)
            case "edit": Invariants.editViolation(in: data)
            default: Invariants.projectViolation(in: data, directory: scratch.path)
            }
            #expect(violation == nil, "\(name): \(violation ?? "")")
        }
    }

    /// The output target on every place `--output` can name, every run status,
    /// finished or dropped, written whole or a byte at a time: the invariants hold on today's
    /// `ReportFile`, and nothing is left in its folder.
    /// (Its closed-stream half needs SIGPIPE ignored, which the fuzz process does; ignored here
    /// it would be ignored by every process the other tests start. OutputSafetyTests runs the
    /// tool into a closed pipe instead.)
    @Test func theOutputTargetHoldsOnEveryPlace() throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let report = Array("{\"files\":[]}\n".utf8)
        for place in Invariants.OutputPlace.allCases {
            for status: UInt8 in [0, 1, 2, 0x80, 0x82] {
                for cut: UInt8 in [1, 5, 255] {
                    let data = [place.rawValue, cut, status] + report
                    let violation = Invariants.outputViolation(in: data, directory: scratch.path)
                    #expect(violation == nil, "\(place) status \(status) cut \(cut): \(violation ?? "")")
                }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "the target cleans up after itself")
    }

    /// Found by the edit target: a carriage return in a value was written raw, and XML reads it
    /// back as a line feed.
    @Test func aCarriageReturnInAValueIsWrittenAsAReference() throws {
        let outcome = try PlistEditor.run([.set(BuddyEntry(components: ["A"]), "a\rb")], on: Invariants.recipeTarget)
        #expect(String(decoding: outcome.output, as: UTF8.self).contains("<string>a&#13;b</string>"))
        let value = try PlistDocument(parsing: outcome.output).rootValue[key: "A"]?.text
        #expect(value == "a\rb")
    }

    /// The engine's run of a recipe pass with `steps` alone on the recipe target's plist.
    static func runRecipe(_ id: String, steps: String) throws -> FileResult {
        let yaml = "id: \(id)\nversion: 1\ntitle: t\nimpact: spelling\nsteps:\n" + steps
        let pass = try #require(try RecipeLoader.parse(yaml, path: "r.yml").first?.0)
        let plan = try MigrationPlan(skip: MigrationRegistry.all.map(\.id), recipes: [pass])
        return FileMigrator(plan: plan).migrate(Invariants.recipeTarget, path: "x", skipIfNotApplicable: false)
    }

    /// Found by the recipe target: an entry inserted after one made by an edit had no
    /// indentation to copy, so a nested value made later was written flush left, and a second
    /// run rewrote the layout.
    @Test func anEntryAfterAMadeEntryCopiesItsIndentation() throws {
        let result = try Self.runRecipe("M1", steps: "  - set: \"*\"\n    value: [2]\n  - set: D\n    value: {}\n  - set: N\n    value: [[1]]\n")
        #expect(String(decoding: result.output, as: UTF8.self).contains("\t<key>N</key>\n\t<array>\n\t\t<array>\n\t\t\t<integer>1</integer>\n"))
    }

    /// Found by the edit target: a value with a line starting `=======` was written raw, and
    /// the file then read as an unresolved merge conflict.
    @Test func aValueLineThatLooksLikeAMergeMarkerIsEscaped() throws {
        let outcome = try PlistEditor.run([.set(BuddyEntry(components: ["A"]), "a\n======= b")], on: Invariants.recipeTarget)
        #expect(String(decoding: outcome.output, as: UTF8.self).contains("<string>a\n&#61;====== b</string>"))
        #expect(try PlistDocument(parsing: outcome.output).rootValue[key: "A"]?.text == "a\n======= b")
    }

    /// Found by the recipe target: a recipe whose steps undo one another never settles; that is
    /// the recipe's doing, said as such, not an internal error.
    @Test func aRecipeThatNeverSettlesIsAnErrorNamingIt() throws {
        let result = try Self.runRecipe("LOOP1", steps: "  - set: D\n    value: {x: 1}\n    when: ifAbsent\n  - rename: D\n    to: E\n  - set: \"*\"\n    value: true\n")
        #expect(result.status == .error && result.output == Invariants.recipeTarget)
        #expect(result.error?.message.hasPrefix("LOOP1 still changed the file after 8 rounds") == true, "\(String(describing: result.error))")
    }

    @Test func acceptedAndRefusedInputsBothKeepTheInvariants() throws {
        #expect(Invariants.violation(in: Array("<plist><dict/></plist>".utf8)) == nil)
        #expect(Invariants.violation(in: Array("<plist><dict>".utf8)) == nil, "a refused input is not a violation")
        let demo = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("demo/ShopApp/Info.plist")))
        #expect(Invariants.violation(in: demo) == nil)
    }
}

extension FuzzRegressionTests {
    /// Found by the fuzzer: a duplicated NSThirdParty… key in a domain dict made ATS001 rename
    /// one copy per run, so a second run changed the output again.
    @Test func duplicateDeprecatedKeyIsAConflictNotARunByRunRename() throws {
        let url = Paths.repository.appendingPathComponent("Fuzz/regressions/idempotency-1.plist")
        let bytes = Array(try Data(contentsOf: url))
        let result = FileMigrator(plan: try MigrationPlan(allowPolicyChange: true)).migrate(bytes, path: "x", skipIfNotApplicable: false)
        #expect(result.output == bytes)
        #expect(result.diagnostics.map(\.location.line) == [72])
        #expect(result.diagnostics.first?.message.hasPrefix("duplicate key \"NSThirdPartyExceptionRequiresForwardSecrecy\" (first at line 70)") == true)
    }
}

extension FuzzRegressionTests {
    /// The write target's check can fail: a file the migration changes, written for real, must
    /// hold exactly the migrated bytes, and the demo app does need changes.
    @Test func theWriteTargetWritesTheMigratedBytes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = Array(try Data(contentsOf: Paths.fixtures.appendingPathComponent("demo/ShopApp/Info.plist")))
        #expect(Invariants.writeViolation(in: demo, directory: directory.path) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the check cleans up after itself")
        try Data("stray".utf8).write(to: directory.appendingPathComponent("left-behind"))
        #expect(Invariants.writeViolation(in: demo, directory: directory.path)?.hasPrefix("the write left files behind") == true)
    }
}
