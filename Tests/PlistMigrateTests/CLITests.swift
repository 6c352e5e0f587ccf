import Foundation
import Testing
import PlistMigrate

/// The CLI contract, exercised through the built `plist-migrate` executable.
@Suite struct CLITests {
    /// A temp directory holding `App/Info.plist` (needs ATS001 + ATS004, and ATS003 if allowed)
    /// and `Clean/Info.plist` (needs nothing).
    func workspace() throws -> URL {
        try temporaryDirectory(holding: ["App/Info.plist": "ATS001/tabs.before.plist", "Dev/Info.plist": "ATS003/tabs.before.plist",
                                         "Clean/Info.plist": "ATS003/already-migrated.before.plist"])
    }

    func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    @Test func dryRunPrintsLabelledPerPassDiffsAndWritesNothing() throws {
        let dir = try workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = dir.appendingPathComponent("App/Info.plist")
        let before = try bytes(app)
        let modified = try FileManager.default.attributesOfItem(atPath: app.path)[.modificationDate] as? Date
        let result = try tool(["."], in: dir)
        #expect(result.status == 0)
        // Apple's open reader never reads NSThirdParty… keys: the delta shows both readings.
        #expect(result.text.hasPrefix("""
            # ATS001 third-party-exception-keys (activatesIntent)
            # policy: no policy change if the OS reads NSThirdParty…/NSTemporary… keys as their NSException… twins
            # policy: if it ignores them, as Apple's open reader does: iOS 9+/macOS 10.11+: HTTP to api.example.com (all loads): blocked → allowed; \
            minimum TLS: TLSv1.2 → TLSv1.0; forward secrecy: required → not required
            --- a/App/Info.plist
            +++ b/App/Info.plist
            @@ 
            """), "\(result.text)")
        #expect(!result.text.contains("Dev/Info.plist"), "ATS003 is held back, so Dev/ shows no diff")
        #expect(result.stderr.contains("Dev/Info.plist: note: ATS003 local-networking-with-arbitrary-loads (changesPolicy) held back; add --allow-policy-change to include it"))
        #expect(result.stderr.contains("3 files scanned, 1 would change, 2 unchanged, 0 errors"))
        #expect(try bytes(app) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: app.path)[.modificationDate] as? Date == modified)
    }

    @Test func writeAppliesExactlyWhatTheDryRunShowed() throws {
        let dir = try workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dry = try tool(["--allow-policy-change", "."], in: dir)
        let cleanBefore = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("Clean/Info.plist").path)
        let write = try tool(["--write", "--allow-policy-change", "."], in: dir)
        #expect(write.status == 0)
        #expect(write.text == dry.text, "dry run and --write report the same changes")
        #expect(try bytes(dir.appendingPathComponent("App/Info.plist")) == bytes(Paths.fixtures.appendingPathComponent("ATS001/tabs.after.plist")))
        #expect(try bytes(dir.appendingPathComponent("Dev/Info.plist")) == bytes(Paths.fixtures.appendingPathComponent("ATS003/tabs.after.plist")))
        let cleanAfter = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("Clean/Info.plist").path)
        #expect(cleanAfter[.modificationDate] as? Date == cleanBefore[.modificationDate] as? Date, "an unchanged file is never written")
        let check = try tool(["--check", "--allow-policy-change", "."], in: dir)
        #expect(check.status == 0)
        #expect(check.stdout.isEmpty)
    }

    @Test func writeKeepsTheFileMode() throws {
        let dir = try workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = dir.appendingPathComponent("App/Info.plist")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: app.path)
        #expect(try tool(["--write", "App/Info.plist"], in: dir).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: app.path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: app.deletingLastPathComponent().path)
        #expect(leftovers == ["Info.plist"])
    }

    @Test func checkExitsOneWhenChangesArePendingAndPrintsThem() throws {
        let dir = try workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try tool(["--check", "."], in: dir)
        #expect(result.status == 1)
        #expect(result.text.contains("+\t\t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>"))
        let clean = try tool(["--check", "Clean"], in: dir)
        #expect(clean.status == 0)
    }

    @Test func heldBackPassesNeverCountAsPendingForCheck() throws {
        let dir = try workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try tool(["--check", "Dev"], in: dir)
        #expect(result.status == 0)
        #expect(result.stderr.contains("note: ATS003"))
        let optedIn = try tool(["--check", "--only", "ATS003", "Dev"], in: dir)
        #expect(optedIn.status == 1, "naming a changesPolicy pass opts in to it")
    }

    @Test func toAndSkipChooseThePasses() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS004/tabs.before.plist", to: dir, as: "Info.plist")
        #expect(try tool(["--to", "3", "Info.plist"], in: dir).stdout.isEmpty)
        #expect(try tool(["--skip", "ATS004", "Info.plist"], in: dir).stdout.isEmpty)
        #expect(try tool(["--to", "4", "Info.plist"], in: dir).text.hasPrefix("# ATS004"))
    }

    @Test func standardInputWithWriteEmitsTheMigratedFile() throws {
        let input = try bytes(Paths.fixtures.appendingPathComponent("ATS002/crlf.before.plist"))
        let result = try tool(["--write", "-"], in: FileManager.default.temporaryDirectory, input: input)
        #expect(result.status == 0)
        #expect(result.stdout == (try bytes(Paths.fixtures.appendingPathComponent("ATS002/crlf.after.plist"))))
        let dry = try tool(["-"], in: FileManager.default.temporaryDirectory, input: input)
        #expect(dry.text.hasPrefix("# ATS002 arbitrary-loads-for-media (activatesIntent)\n# policy: "))
        #expect(dry.text.contains("# policy: iOS 10+/macOS 10.12+: HTTP to any other host (media): blocked → allowed"))
        #expect(dry.text.contains("\n--- a/-\n+++ b/-\n"))
    }

    @Test func jsonReportIsTheSameInDryRunAndWrite() throws {
        let dir = try workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        func report(_ extra: [String]) throws -> [String: Any] {
            let result = try tool(["--format", "json"] + extra + ["."], in: dir)
            return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        }
        let dry = try report([])
        #expect(dry["schemaVersion"] as? Int == 1)
        #expect(dry["mode"] as? String == "dry-run")
        let files = try #require(dry["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == ["App/Info.plist", "Clean/Info.plist", "Dev/Info.plist"])
        let app = files[0]
        #expect(app["status"] as? String == "changed")
        let passes = try #require(app["passes"] as? [[String: Any]])
        #expect(passes.map { $0["id"] as? String } == ["ATS001"])
        #expect(passes.first?["editCount"] as? Int == 3)
        #expect(passes.first?["impact"] as? String == "activatesIntent")
        #expect((passes.first?["diff"] as? String)?.hasPrefix("--- a/App/Info.plist") == true)
        #expect(files[2]["heldBack"] as? [String] == ["ATS003"])
        let summary = try #require(dry["summary"] as? [String: Any])
        #expect(summary["changed"] as? Int == 1)
        #expect((summary["editsPerPass"] as? [String: Int]) == ["ATS001": 3])

        let written = try report(["--write"])
        #expect(written["mode"] as? String == "write")
        let writtenFiles = try #require(written["files"] as? [[String: Any]])
        #expect((writtenFiles[0]["passes"] as? [[String: Any]])?.first?["diff"] as? String == passes.first?["diff"] as? String)
        #expect(writtenFiles[0]["written"] as? Bool == true)
    }

    @Test func patchFormatAppliesWithGitAndPatch() throws {
        let dir = try workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS004/crlf.before.plist", to: dir, as: "Win/Info.plist")
        _ = try copyFixture("roundtrip/no-final-newline.plist", to: dir, as: "Tail/Info.plist")
        _ = try git(["init", "-q"], in: dir)
        _ = try git(["add", "-A"], in: dir)
        _ = try git(["commit", "-qm", "init"], in: dir)
        let patch = try tool(["--format", "patch", "--allow-policy-change", "."], in: dir)
        #expect(patch.status == 0)
        try patch.stdout.write(to: dir.appendingPathComponent("../\(dir.lastPathComponent).patch"))
        let patchFile = dir.deletingLastPathComponent().appendingPathComponent("\(dir.lastPathComponent).patch")
        defer { try? FileManager.default.removeItem(at: patchFile) }
        #expect(try git(["apply", "--check", patchFile.path], in: dir).status == 0)
        let applied = try git(["apply", patchFile.path], in: dir)
        #expect(applied.status == 0, "\(applied.stderr)")
        let check = try tool(["--check", "--allow-policy-change", "."], in: dir)
        #expect(check.status == 0, "after applying the patch nothing is pending: \(check.text)")
        _ = try git(["checkout", "--", "."], in: dir)
        let gnu = try run(URL(fileURLWithPath: "/usr/bin/env"), ["patch", "-p1", "--dry-run", "-i", patchFile.path], in: dir)
        #expect(gnu.status == 0, "\(gnu.text)")
    }

    @Test func badFilesAreReportedOneLineEachAndTheRestStillRun() throws {
        let dir = try workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("errors/mismatched-tag-in-ats.plist", to: dir, as: "Broken/Info.plist")
        let before = try bytes(dir.appendingPathComponent("Broken/Info.plist"))
        let result = try tool(["--write", "."], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Broken/Info.plist:9:10: error: Opening and ending tag mismatch: dict line 6 and array\n"))
        #expect(try bytes(dir.appendingPathComponent("Broken/Info.plist")) == before)
        #expect(try bytes(dir.appendingPathComponent("App/Info.plist")) == bytes(Paths.fixtures.appendingPathComponent("ATS001/tabs.after.plist")))
    }

    @Test func conflictsExitTwoAndTheRestOfTheFileMigrates() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS001/conflict.before.plist", to: dir, as: "Info.plist")
        let result = try tool(["--write", "Info.plist"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Info.plist:15:5: error: ATS001: conflict: NSThirdPartyExceptionMinimumTLSVersion"))
        #expect(try bytes(dir.appendingPathComponent("Info.plist")) == bytes(Paths.fixtures.appendingPathComponent("ATS001/conflict.after.plist")))
    }

    @Test func walkingSkipsNonPlistsButNamedOnesAreErrors() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("errors/binary.plist", to: dir, as: "Assets/binary.plist")
        _ = try copyFixture("errors/json.plist", to: dir, as: "Assets/data.plist")
        _ = try copyFixture("roundtrip/all-types.plist", to: dir, as: "Settings.plist")
        _ = try copyFixture("ATS001/tabs.before.plist", to: dir, as: "Pods/Lib/Info.plist")
        let walked = try tool(["."], in: dir)
        #expect(walked.status == 0)
        #expect(walked.stderr.contains("3 files scanned, 0 would change, 0 unchanged, 3 skipped (2 no NSAppTransportSecurity, 1 not an XML property list), 0 errors"))
        let named = try tool(["Assets/binary.plist"], in: dir)
        #expect(named.status == 2)
        #expect(named.stderr.contains("Assets/binary.plist:1:1: error: binary property list: not supported, convert with `plutil -convert xml1 FILE`"))
        let missing = try tool(["nope.plist"], in: dir)
        #expect(missing.status == 64, "a path that does not exist is a usage error: nothing runs")
        #expect(missing.stderr.contains("nope.plist: no such file or directory. Nothing was run."), "\(missing.stderr)")
    }

    /// A diagnostic quoting a value with a line break is one line, as lint's findings are.
    @Test func aDiagnosticIsOneLine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>NSAppTransportSecurity</key>\n\t<dict>\n"
            + "\t\t<key>NSExceptionDomains</key>\n\t\t<dict>\n\t\t\t<key>example.com</key>\n\t\t\t<dict>\n"
            + "\t\t\t\t<key>NSThirdPartyExceptionMinimumTLSVersion</key>\n\t\t\t\t<string>TLSv1.2\r\nsecond line</string>\n"
            + "\t\t\t\t<key>NSExceptionMinimumTLSVersion</key>\n\t\t\t\t<string>TLSv1.0</string>\n\t\t\t</dict>\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n"
        try Data(plist.utf8).write(to: dir.appendingPathComponent("Info.plist"))
        let result = try tool(["--no-config", "Info.plist"], in: dir)
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "the conflict and the summary: \(result.stderr)")
        #expect(lines.first?.contains("\"TLSv1.2\\nsecond line\"") == true, "\(result.stderr)")
    }

    /// A recipe pass out of scope for a file named on the command line says so in text; for
    /// walked files it stays quiet (most plists are not an app's Info.plist).
    @Test func aRecipeOutOfScopeForANamedFileSaysSo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS001/tabs.before.plist", to: dir, as: "App/Info.plist")
        let recipe = Paths.repository.appendingPathComponent("Recipes/export-compliance.yml").path
        let named = try tool(["--no-config", "--recipe", recipe, "--only", "ENC001", "App/Info.plist"], in: dir)
        #expect(named.stderr.contains("App/Info.plist: note: ENC001 not applied to this file: not the Info.plist of an application target"), "\(named.stderr)")
        let walked = try tool(["--no-config", "--recipe", recipe, "--only", "ENC001", "App"], in: dir)
        #expect(!walked.stderr.contains("not applied"), "\(walked.stderr)")
    }

    /// `SOURCE_DATE_EPOCH` makes two identical runs give identical JSON and HTML.
    @Test func sourceDateEpochMakesReportsReproducible() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS001/tabs.before.plist", to: dir, as: "App/Info.plist")
        let formats = ["json", "html"]
        var outputs: [[Data]] = []
        // One pause for both formats: each runs once before it and once after.
        for pause in [false, true] {
            if pause { Thread.sleep(forTimeInterval: 1.1) }
            outputs.append(try formats.map { format in
                let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["SOURCE_DATE_EPOCH=1700000000", Paths.executable.path, "--no-config", "--format", format, "App"], in: dir)
                #expect(result.status == 0, "\(result.stderr)")
                return result.stdout
            })
        }
        for (index, format) in formats.enumerated() {
            #expect(outputs[0][index] == outputs[1][index], "\(format): two runs a second apart are identical")
            #expect(String(decoding: outputs[0][index], as: UTF8.self).contains("2023-11-14T22:13:20Z"), "\(format)")
        }
    }

    /// `--force-exclude` (pre-commit's mode) treats named files as the walk does, and a file a
    /// config excludes is not counted as checked.
    @Test func forceExcludeTreatsNamedFilesAsTheWalkDoes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("#ifdef DEBUG\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n#endif\n<plist version=\"1.0\">\n<dict>\n<key>NSAppTransportSecurity</key><dict/>\n</dict>\n</plist>\n".utf8)
            .write(to: dir.appendingPathComponent("Preprocessed.plist"))
        try Data("{ CFBundleName = x; }\n".utf8).write(to: dir.appendingPathComponent("OpenStep.plist"))
        let names = ["Preprocessed.plist", "OpenStep.plist"]
        let walked = try tool(["--no-config", "."], in: dir)
        #expect(walked.status == 0 && walked.stderr.contains("2 skipped"), "\(walked.stderr)")
        let hook = try tool(["--no-config", "--force-exclude"] + names, in: dir)
        #expect(hook.status == 0 && hook.stderr.contains("2 skipped (1 no NSAppTransportSecurity, 1 not an XML property list)"), "\(hook.stderr)")
        #expect(try tool(["--no-config"] + names, in: dir).status == 2, "named without --force-exclude, they are errors")
        #expect(try tool(["lint", "--no-config", "--force-exclude"] + names, in: dir).status == 0)

        _ = try copyFixture("ATS005/tabs.before.plist", to: dir, as: "Pods/Info.plist")
        try Data(#"{"exclude": ["Pods/**"]}"#.utf8).write(to: dir.appendingPathComponent(".plist-migrate.json"))
        let lint = try tool(["lint", "--force-exclude", "Pods/Info.plist"], in: dir)
        #expect(lint.status == 0 && lint.stderr.contains("0 files checked, 0 errors, 0 warnings, 0 notes; 1 excluded by config"), "\(lint.stderr)")
        let migrate = try tool(["--force-exclude", "Pods/Info.plist"], in: dir)
        #expect(migrate.status == 0 && migrate.stderr.contains("0 files scanned"), "\(migrate.stderr)")
    }

    /// A typo never runs, let alone writes.
    @Test func aTypoNeverRuns() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let widget = try copyFixture("ATS001/tabs.before.plist", to: dir, as: "Widget/Info.plist")
        let before = try Data(contentsOf: widget)
        for (typo, near) in [("lnt", "lint"), ("lsit", "list"), ("expalin", "explain"), ("rport", "report"), ("targts", "targets")] {
            let result = try tool([typo, "--write", "Widget"], in: dir)
            #expect(result.status == 64, "\(typo): \(result.stderr)")
            #expect(result.stderr.contains("\(typo): no such file or directory; did you mean the subcommand `\(near)`?"), "\(result.stderr)")
            #expect(result.stdout.isEmpty, "nothing ran")
            #expect(try Data(contentsOf: widget) == before, "\(typo): nothing was written")
        }
        let far = try tool(["Widgte", "--write", "Widget"], in: dir)
        #expect(far.status == 64 && !far.stderr.contains("did you mean"), "\(far.stderr)")
        #expect(try Data(contentsOf: widget) == before)
        // SwiftLint's spellings get ours.
        for (option, hint) in [("--reporter", "--format"), ("--use-stdin", "give - as the path"), ("--fix", "--write"), ("--path", "give paths as arguments")] {
            let result = try tool([option, "Widget"], in: dir)
            #expect(result.status == 64 && result.stderr.contains("unknown option '\(option)'") && result.stderr.contains(hint), "\(result.stderr)")
        }
        #expect(try tool(["lint", "--reporter=json", "Widget"], in: dir).status == 64)
        #expect(try Data(contentsOf: widget) == before)
        // The hint names every format there is (github, xcode and markdown were once missing).
        let reporter = try tool(["--reporter", "Widget"], in: dir).stderr
        for format in RunOptions.Format.allCases.map(\.rawValue) + LintRunner.Format.allCases.map(\.rawValue) {
            #expect(reporter.contains(format), "\(format): \(reporter)")
        }
    }

    @Test func usageErrorsUseArgumentParsersCode() throws {
        let result = try tool(["--only", "ATS999", "."], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown migration \"ATS999\""))
    }

    /// A command line that names its subcommand is parsed without the default (it is not
    /// needed there): the main help still marks the default, and naming `migrate` or leaving
    /// it out gives the same output, errors included.
    @Test func migrateIsTheDefaultWhetherNamedOrNot() throws {
        let dir = try workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        for help in [["--help"], ["help"]] {
            let text = try tool(help, in: dir)
            #expect(text.status == 0)
            #expect(text.text.contains("  migrate (default)"), "\(help): \(text.text)")
        }
        for arguments in [["--no-config", "App"], ["--format", "patch", "App"], ["--jobs", "x"], ["--bogus", "App"], ["App", "Dev"]] {
            let left = try tool(arguments, in: dir), named = try tool(["migrate"] + arguments, in: dir)
            #expect(left.status == named.status, "\(arguments)")
            #expect(left.stderr == named.stderr, "\(arguments)")
            #expect(left.stdout == named.stdout, "\(arguments)")
        }
    }

    @Test func listShowsEveryMigrationInOrder() throws {
        let text = try tool(["list"], in: FileManager.default.temporaryDirectory)
        #expect(text.status == 0)
        #expect(text.text.split(separator: "\n").map { String($0.prefix(6)) } == (1...10).map { $0 < 10 ? "ATS00\($0)" : "ATS0\($0)" })
        let json = try tool(["list", "--format", "json"], in: FileManager.default.temporaryDirectory)
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        let entries = try #require(document["migrations"] as? [[String: Any]])
        #expect(entries.last?["intent"] as? String == "provablyNoPolicyChange")
        #expect(entries.map { $0["version"] as? Int } == Array(1...10))
        #expect(entries[2]["impact"] as? String == "changesPolicy")
        #expect(entries.allSatisfy { ($0["title"] as? String)?.isEmpty == false && $0["name"] != nil })
    }
}

extension CLITests {
    @Test func duplicateKeysWhereMigrationsWorkAreConflictsAndTheFileIsLeftAlone() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try copyFixture("engine/duplicate-ats.plist", to: dir, as: "Info.plist")
        let before = try Data(contentsOf: file)
        let result = try tool(["--write", "Info.plist"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Info.plist:9:2: error: plist-migrate: duplicate key \"NSAppTransportSecurity\" (first at line 4)"))
        #expect(result.stderr.contains("Info.plist:15:4: error: plist-migrate: duplicate key \"Example.com\" (first at line 13)"))
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: file) == before)
    }
}

extension CLITests {
    /// ATS005 and ATS009 together: a misspelled alias next to a correctly spelled one must settle
    /// in one run (from the corpus: real/0098.plist).
    @Test func aMisspelledAliasBesideItsTwinSettlesInOneRun() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("engine/misspelled-deprecated-twin.plist", to: dir, as: "Info.plist")
        let first = try tool(["--write", "Info.plist"], in: dir)
        #expect(first.status == 2)
        #expect(first.stderr.contains("Info.plist:10:5: error: ATS005: conflict: NSTemporaryExceptionAllowsInsecureHTTPSLoads looks like a misspelling"))
        let second = try tool(["--check", "Info.plist"], in: dir)
        #expect(second.stdout.isEmpty, "the second run must change nothing")
    }
}

extension CLITests {
    /// One source of truth: `--version` prints `ToolVersion.current`, which is the newest
    /// released version in CHANGELOG.md.
    @Test func versionIsTheNewestReleaseInTheChangelog() throws {
        let changelog = try String(contentsOf: Paths.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let released = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let version = try #require(released.flatMap { $0.dropFirst(4).split(separator: "]").first }.map(String.init))
        let result = try tool(["--version"], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0)
        #expect(result.text == version + "\n")
    }
}
