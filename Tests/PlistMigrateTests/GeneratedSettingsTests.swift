import Foundation
import Migrations
import PlistDOM
import Testing
import Yams
@testable import PlistMigrate
@testable import FileAccess

/// ATS settings migrated where a generator keeps them (XcodeGen's `project.yml`, Expo's
/// `app.json`): the same passes, a diff of the file per pass, every other byte kept, and what
/// cannot be edited so refused with a note.
@Suite struct GeneratedSettingsTests {
    static func folder(copying fixture: String) throws -> URL {
        let root = try temporaryDirectory()
        try FileManager.default.removeItem(at: root)
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent(fixture), to: root)
        return root
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// The lines of `after` that differ from `before`'s, which have the same count.
    static func changedLines(_ before: String, _ after: String) -> [(String, String)] {
        let old = before.split(separator: "\n", omittingEmptySubsequences: false), new = after.split(separator: "\n", omittingEmptySubsequences: false)
        guard old.count == new.count else { return [("line count", "\(old.count) → \(new.count)")] }
        return zip(old, new).filter { $0 != $1 }.map { (String($0), String($1)) }
    }

    /// KiedyBus (OneBusAway's white-label app): the settings in `project.yml` and the plist
    /// `xcodegen generate` writes from them are migrated in one run, each with its diff; the spec
    /// keeps its comments and every other byte; a second run finds nothing.
    @Test func anXcodeGenSpecAndItsGeneratedPlistMigrateTogether() throws {
        let root = try Self.folder(copying: "generators/xcodegen-kiedybus")
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = root.appendingPathComponent("project.yml"), plist = root.appendingPathComponent("Apps/KiedyBus/Info.plist")
        let (specBefore, plistBefore) = (try Self.text(spec), try Self.text(plist))
        let dryRun = try tool(["--no-config", "."], in: root)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.text.contains("--- a/project.yml\n+++ b/project.yml\n"), "\(dryRun.text)")
        #expect(dryRun.text.contains("--- a/Apps/KiedyBus/Info.plist\n"))
        #expect(dryRun.text.contains("# note: in targets.App.info.properties (line 31); NSAppTransportSecurity of Apps/KiedyBus/Info.plist is written from here"))
        #expect(dryRun.stderr.contains("Apps/KiedyBus/Info.plist: note: xcodegen generate writes this file from project.yml (targets.App.info.properties)"),
                "the generated plist names its source: \(dryRun.stderr)")
        // The deployment target of the spec's target (iOS 18.0, from the included spec) decides the eras.
        #expect(dryRun.stderr.contains("deployment target: 2 from the targets using them"), "\(dryRun.stderr)")
        #expect(!dryRun.text.contains("iOS 9"), "only the eras of iOS 18.0 and later are weighed")
        let written = try tool(["--no-config", "--write", "."], in: root)
        #expect(written.status == 0 && written.stderr.contains("2 changed"), "\(written.stderr)")
        let changed = Self.changedLines(specBefore, try Self.text(spec))
        #expect(changed.map(\.0) == Array(repeating: "              NSTemporaryExceptionAllowsInsecureHTTPLoads: true", count: 3))
        #expect(changed.map(\.1) == Array(repeating: "              NSExceptionAllowsInsecureHTTPLoads: true", count: 3))
        #expect(try Self.text(plist) != plistBefore)
        let check = try tool(["--no-config", "--check", "."], in: root)
        #expect(check.status == 0 && check.text.isEmpty, "\(check.text)")
    }

    /// Settings a spec takes from a spec it includes are migrated in that file, with the
    /// including spec's target and its deployment target.
    @Test func settingsInAnIncludedSpecAreMigratedThere() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("name: Demo\ninclude:\n  - path: shared/ats.yml\ntargets:\n  App:\n    type: application\n    platform: iOS\n    deploymentTarget: \"16.0\"\n".utf8)
            .write(to: root.appendingPathComponent("project.yml"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("shared"), withIntermediateDirectories: true)
        let included = root.appendingPathComponent("shared/ats.yml")
        try Data("targets:\n  App:\n    info:\n      properties:\n        NSAppTransportSecurity:\n          NSAllowsArbitraryLoadsInMedia: true # media from any CDN\n".utf8)
            .write(to: included)
        let run = try tool(["--no-config", "--write", "."], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.text(included) == "targets:\n  App:\n    info:\n      properties:\n        NSAppTransportSecurity:\n          NSAllowsArbitraryLoadsForMedia: true # media from any CDN\n")
        #expect(run.stderr.contains("from the targets using them"), "the target's iOS 16.0 counts: \(run.stderr)")
    }

    /// Expo's `app.json`: without an `ios/` folder (continuous native generation) the settings
    /// are only there; with one, its Info.plist is migrated in the same run.
    @Test(arguments: [false, true])
    func expoAppJSON(withNativeFolder: Bool) throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let json = """
            {
              "expo": {
                "name": "crawler",
                "ios": {
                  "bundleIdentifier": "com.example.crawler",
                  "infoPlist": {
                    "NSAppTransportSecurity": {
                      "NSAllowsArbitraryLoads": false,
                      "NSExceptionDomains": {
                        "API.Example.com": { "NSTemporaryExceptionAllowsInsecureHTTPLoads": true }
                      }
                    }
                  }
                }
              }
            }

            """
        let app = root.appendingPathComponent("app.json")
        try Data(json.utf8).write(to: app)
        if withNativeFolder {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("ios/crawler"), withIntermediateDirectories: true)
            try Data(("<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><false/><key>NSExceptionDomains</key><dict>"
                + "<key>API.Example.com</key><dict><key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict></dict></dict></plist>\n").utf8)
                .write(to: root.appendingPathComponent("ios/crawler/Info.plist"))
        }
        let run = try tool(["--no-config", "--write", "."], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains(withNativeFolder ? "2 changed" : "1 changed"), "\(run.stderr)")
        let after = try Self.text(app)
        #expect(Self.changedLines(json, after).map(\.1) == [#"            "api.example.com": { "NSExceptionAllowsInsecureHTTPLoads": true }"#], "\(after)")
        #expect(try JSONSerialization.jsonObject(with: Data(after.utf8)) is [String: Any])
    }

    /// An Expo app's deployment target, where `expo-build-properties` sets it, decides the eras
    /// its settings are weighed for, as a project's does for a plist.
    @Test func expoBuildPropertiesGiveTheDeploymentTarget() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(#"{"expo": {"plugins": [["expo-build-properties", {"ios": {"deploymentTarget": "15.1"}}]], "ios": {"infoPlist": {"NSAppTransportSecurity": {"NSAllowsArbitraryLoadsInMedia": true}}}}}"#.utf8)
            .write(to: root.appendingPathComponent("app.json"))
        let run = try tool(["--no-config", "--format", "json", "."], in: root)
        #expect(run.text.contains("\"minimumOS\" : \"ios15.1\""), "\(run.text)")
        #expect(run.text.contains("app.json (expo-build-properties ios.deploymentTarget)"), "\(run.text)")
    }

    /// What an edit could not keep is refused, the file left as it is, with a note: an anchor
    /// in the settings, an edit inside a flow mapping. A walked `.json` other than `app.json` and
    /// a named one that is no Expo configuration are not read; invalid JSON is an error with its place.
    @Test func whatCannotBeEditedLosslesslyIsRefused() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let anchored = "targets:\n  App:\n    info:\n      properties:\n        NSAppTransportSecurity: &ats\n          NSAllowsArbitraryLoadsInMedia: true\n"
        let flow = "targets:\n  App:\n    info:\n      properties:\n        NSAppTransportSecurity: {NSAllowsArbitraryLoadsInMedia: true}\n"
        for (folder, yaml) in [("anchored", anchored), ("flow", flow)] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Data(yaml.utf8).write(to: root.appendingPathComponent("\(folder)/project.yml"))
        }
        try Data(#"{"expo": {"ios": {"infoPlist": {"NSAppTransportSecurity": {"NSAllowsArbitraryLoadsInMedia": true,}}}}}"#.utf8)
            .write(to: root.appendingPathComponent("app.json"))
        try Data(#"{"NSAppTransportSecurity": {"NSAllowsArbitraryLoadsInMedia": true}}"#.utf8).write(to: root.appendingPathComponent("other.json"))
        let run = try tool(["--no-config", "--write", "."], in: root)
        #expect(try Self.text(root.appendingPathComponent("anchored/project.yml")) == anchored)
        #expect(try Self.text(root.appendingPathComponent("flow/project.yml")) == flow)
        #expect(run.stderr.contains("anchored/project.yml: note: targets.App.info.properties.NSAppTransportSecurity left as it is: an anchor, alias, tag or merge key (line 5)"),
                "\(run.stderr)")
        #expect(run.stderr.contains("flow/project.yml: note: targets.App.info.properties.NSAppTransportSecurity: ATS002 left out: a mapping in flow style"),
                "\(run.stderr)")
        #expect(run.stderr.contains("app.json:1:98: error: not valid JSON: a key in quotes was expected"), "\(run.stderr)")
        #expect(run.status == 2)
        #expect(!run.stderr.contains("other.json") && !run.text.contains("other.json"))
        let named = try tool(["--no-config", "other.json"], in: root)
        #expect(named.status == 0 && named.text.isEmpty, "\(named.stderr)")
    }

    /// A review of a generator's file is a plan like a plist's: its kinds are the file's own
    /// diffs; `apply` lands exactly the accepted ones (the same bytes as `--write`), a rejected
    /// first kind holds back what follows it, and `--accept` takes only accepted kinds.
    @Test func aReviewedSpecLandsAsReviewed() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        func repository(_ name: String) throws -> URL {
            let repository = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
            try Data(("targets:\n  App:\n    type: application\n    platform: iOS\n    deploymentTarget: \"15.0\"\n    info:\n      properties:\n"
                + "        NSAppTransportSecurity:\n          NSAllowsArbitraryLoadsInMedia: true\n          NSExceptionDomains:\n"
                + "            Example.com:\n              NSTemporaryExceptionAllowsInsecureHTTPLoads: true\n").utf8)
                .write(to: repository.appendingPathComponent("project.yml"))
            #expect(try git(["init", "-q"], in: repository).status == 0)
            _ = try git(["add", "-A"], in: repository)
            _ = try git(["-c", "user.email=a@example.com", "-c", "user.name=A", "commit", "-qm", "init"], in: repository)
            return repository
        }
        let reviewed = try repository("reviewed"), twin = try repository("twin"), partly = try repository("partly")
        let all = root.appendingPathComponent("all.json"), some = root.appendingPathComponent("some.json")
        try ReviewPlanTests.write(try ReviewPlanTests.review(["."], in: reviewed) { _ in "accept" }, to: all)
        let kinds = try #require((try ReviewPlanTests.review(["."], in: reviewed) { _ in nil })["reviewed"] as? [String])
        #expect(kinds.map { String($0.prefix(6)) } == ["ATS002", "ATS004", "ATS009"], "\(kinds)")
        // The page shows the spec's kinds with the YAML diff a reviewer decides on.
        let page = try tool(ReviewPlanTests.reviewOptions + ["--format", "html", "."], in: reviewed).text
        #expect(page.contains("project.yml") && page.contains("NSAllowsArbitraryLoadsForMedia: true"), "the page shows the spec's diff")
        let applied = try tool(["apply", all.path], in: reviewed)
        #expect(applied.status == 0 && applied.stderr.contains("1 changed"), "\(applied.stderr)")
        #expect(try tool(ReviewPlanTests.reviewOptions + ["--write", "."], in: twin).status == 0)
        #expect(try Self.text(reviewed.appendingPathComponent("project.yml")) == (try Self.text(twin.appendingPathComponent("project.yml"))))
        // The second kind rejected: the first lands, the rest are held back.
        try ReviewPlanTests.write(try ReviewPlanTests.review(["."], in: partly) { $0.hasPrefix("ATS004") ? "reject" : "accept" }, to: some)
        let held = try tool(["apply", some.path], in: partly)
        #expect(held.status == 0 && held.stderr.contains("ATS004 held back") && held.stderr.contains("ATS009 held back"), "\(held.stderr)")
        let after = try Self.text(partly.appendingPathComponent("project.yml"))
        #expect(after.contains("NSAllowsArbitraryLoadsForMedia: true") && after.contains("Example.com:") && after.contains("NSTemporaryException"), "\(after)")
    }

    /// Settings in code (Tuist's manifest, Expo's `app.config.js`) are not rewritten: each key
    /// the passes would rename is reported at its line and column with the exact change, and
    /// `--check` exits 1 while one remains. A committed plist generated from such code is
    /// migrated with a note that its source must change too.
    @Test func settingsInCodeAreReportedWhereTheyAreWritten() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let manifest = """
            import ProjectDescription

            let infoPlist = InfoPlist.extendingDefault(with: [
                "NSAppTransportSecurity": [
                    "NSExceptionDomains": ["example.com": ["NSTemporaryExceptionAllowsInsecureHTTPLoads": true]],
                    "NSAllowsArbitraryLoadsInMedia": true,
                ],
            ])

            """
        try FileManager.default.createDirectory(at: root.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Data(manifest.utf8).write(to: root.appendingPathComponent("App/Project.swift"))
        let config = "export default { ios: { infoPlist: { NSAppTransportSecurity: { NSAllowsArbitraryLoadsInMedia: true } } } };\n"
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mobile/ios/Crawler"), withIntermediateDirectories: true)
        try Data(config.utf8).write(to: root.appendingPathComponent("mobile/app.config.ts"))
        try Data("<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoadsInMedia</key><true/></dict></dict></plist>\n".utf8)
            .write(to: root.appendingPathComponent("mobile/ios/Crawler/Info.plist"))
        let run = try tool(["--no-config", "."], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("App/Project.swift:5:49: change: NSTemporaryExceptionAllowsInsecureHTTPLoads → NSExceptionAllowsInsecureHTTPLoads, "
            + "value kept (ATS009 temporary-exception-keys); Tuist writes the Info.plist from this code"), "\(run.stderr)")
        #expect(run.stderr.contains("App/Project.swift:6:10: change: NSAllowsArbitraryLoadsInMedia → NSAllowsArbitraryLoadsForMedia"), "\(run.stderr)")
        #expect(run.stderr.contains("mobile/app.config.ts:1:64: change: NSAllowsArbitraryLoadsInMedia → NSAllowsArbitraryLoadsForMedia"), "\(run.stderr)")
        #expect(run.stderr.contains("mobile/ios/Crawler/Info.plist: note: expo prebuild writes this file from mobile/app.config.ts, code the tool does not rewrite"),
                "\(run.stderr)")
        #expect(run.stderr.contains("2 files of generator code to change by hand"), "\(run.stderr)")
        let check = try tool(["--no-config", "--check", "."], in: root)
        #expect(check.status == 1)
        #expect(try Self.text(root.appendingPathComponent("App/Project.swift")) == manifest)
        let json = try ReviewTests.json(try tool(["--no-config", "--format", "json", "App/Project.swift"], in: root).stdout)
        let changes = ((json["files"] as? [[String: Any]])?.first?["sourceChanges"] as? [[String: Any]]) ?? []
        #expect(changes.map { $0["to"] as? String } == ["NSExceptionAllowsInsecureHTTPLoads", "NSAllowsArbitraryLoadsForMedia"], "\(changes)")
    }

    /// `lint` reads the same files: each finding at the spec's own line (and SARIF region), the
    /// code's keys at theirs; `targets` says which spec line writes a target's Info.plist.
    @Test func lintAndTargetsReadTheSameSources() throws {
        let root = try Self.folder(copying: "generators/xcodegen-kiedybus")
        defer { try? FileManager.default.removeItem(at: root) }
        let lint = try tool(["lint", "--no-config", "project.yml"], in: root)
        for line in [35, 38, 41] {
            #expect(lint.text.contains("project.yml:\(line):1: error: [ATS009] NSTemporaryExceptionAllowsInsecureHTTPLoads should be NSExceptionAllowsInsecureHTTPLoads"),
                    "\(lint.text)")
        }
        #expect(lint.text.contains("(NSTemporaryExceptionAllowsInsecureHTTPLoads line 35)"), "posture findings cite the spec's lines: \(lint.text)")
        let sarif = try tool(["lint", "--no-config", "--format", "sarif", "project.yml"], in: root).text
        #expect(sarif.contains("\"startLine\" : 35") || sarif.contains("\"startLine\":35"), "\(sarif.prefix(400))")
        let targets = try tool(["targets", "."], in: root).text
        #expect(targets.contains("Info.plist: Apps/KiedyBus/Info.plist (xcodegen generate writes it from project.yml:26 (targets.App.info))"), "\(targets)")
        let json = try tool(["targets", "--format", "json", "."], in: root).text
        #expect(json.contains("\"infoPlistGeneratedFrom\" : \"project.yml:26 (targets.App.info)\""), "\(json)")
    }

    /// The bounds a project's spec has hold for the generators' files a run now reads: nested
    /// aliases in a spec that holds the settings, JSON nested 100,000 deep, an `app.json` past the
    /// size limit. Each is one line with its place, exit 2 for that file, nothing written, quickly.
    @Test func hostileGeneratorFilesAreRefusedQuickly() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let laughs = (["a: &a [x, x, x, x, x, x, x, x, x]"] + zip("bcdefghi", "abcdefgh").map { "\($0): &\($0) [" + Array(repeating: "*\($1)", count: 9).joined(separator: ", ") + "]" })
            .joined(separator: "\n")
        let files = [
            "bomb/project.yml": laughs + "\ntargets:\n  App:\n    info:\n      properties:\n        NSAppTransportSecurity:\n          NSAllowsArbitraryLoadsInMedia: true\n",
            "deep/app.json": "{\"expo\": {\"ios\": {\"infoPlist\": {\"NSAppTransportSecurity\": " + String(repeating: "[", count: 100_000) + "}}}}",
        ]
        for (name, text) in files {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("large"), withIntermediateDirectories: true)
        let large = root.appendingPathComponent("large/app.json")
        _ = FileManager.default.createFile(atPath: large.path, contents: nil)
        let handle = try FileHandle(forWritingTo: large)
        try handle.truncate(atOffset: UInt64(FileIO.maximumSize + 1))
        try handle.close()
        let started = Date()
        let run = try tool(["--no-config", "--write", "."], in: root)
        #expect(Date().timeIntervalSince(started) < 20, "bounded work")
        #expect(run.status == 2)
        #expect(run.stderr.contains("bomb/project.yml: error: its aliases expand to more than 1000000 nodes: not read"), "\(run.stderr)")
        #expect(run.stderr.contains("deep/app.json:1:") && run.stderr.contains("nested deeper than 256"), "\(run.stderr)")
        #expect(run.stderr.contains("large/app.json: error: cannot") || run.stderr.contains("large/app.json: error: file too large"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").allSatisfy { $0.count < 2_000 }, "one line each")
        #expect(try String(contentsOf: root.appendingPathComponent("bomb/project.yml"), encoding: .utf8).hasSuffix("NSAllowsArbitraryLoadsInMedia: true\n"))
    }

    /// The oracle is the plist run itself: every real ATS dict of the corpus, written as
    /// XcodeGen's YAML and as Expo's JSON, migrates to the same values as the plist does (the
    /// passes and their gates are the same; only the bytes they edit differ), and the YAML and
    /// JSON keep every byte outside the settings.
    @Test func yamlAndJSONMigrateToWhatThePlistMigratesTo() throws {
        let corpus = Paths.corpus.appendingPathComponent("real")
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".plist") }.sorted()
        try #require(!files.isEmpty, "the shared corpus is beside the repository")
        let migrator = FileMigrator(plan: try MigrationPlan(allowPolicyChange: true))
        var compared = 0, mismatches: [String] = []
        for name in files {
            let bytes = Array(try Data(contentsOf: corpus.appendingPathComponent(name)))
            guard let document = try? PlistDocument(parsing: bytes), let ats = document.rootValue[key: ATSKey.appTransportSecurity],
                ats.name == "dict", Self.representable(PlistValue(ats))
            else { continue }
            let plistRun = migrator.migrate(bytes, path: "Info.plist", skipIfNotApplicable: false)
            guard plistRun.status != .error, plistRun.diagnostics.isEmpty, let out = try? PlistDocument(parsing: plistRun.output),
                let expected = out.rootValue[key: ATSKey.appTransportSecurity].map(PlistValue.init)
            else { continue }
            let any = Self.any(PlistValue(ats))
            let yaml = "# spec\nname: App\ntargets:\n  App:\n    info:\n      properties:\n" + (try Yams.dump(object: [ATSKey.appTransportSecurity: any], indent: 2))
                .split(separator: "\n").map { "        " + $0 }.joined(separator: "\n") + "\n"
            let json = String(decoding: try JSONSerialization.data(withJSONObject: ["expo": ["ios": ["infoPlist": [ATSKey.appTransportSecurity: any]]]],
                                                                    options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
            for (format, text, path) in [(SourceEdits.Format.yaml, yaml, "project.yml"), (.json, json, "app.json")] {
                // The plist's own deployment target, which the generator's file would have from its project.
                let context = FileContext(path: path, skipIfNotApplicable: false, deploymentTarget: FileMigrator.deploymentTarget(declaredIn: document),
                                          lookups: NoLookups())
                let result = GeneratedSettings.migrate(Array(text.utf8), context,
                                                       file: nil, migrator: migrator, format: format)
                let units = try GeneratedSettings.units(in: result.output, format: format)
                let read = try units.first.flatMap { try GeneratedSettings.settings(at: $0.properties + [.key(ATSKey.appTransportSecurity)], in: result.output, format: format) }
                if result.status == .error || read?.value.plistValue != expected {
                    mismatches.append("\(name) \(path): \(result.error?.message ?? "values differ") \(result.notes)")
                }
            }
            compared += 1
        }
        #expect(compared > 50, "\(compared) ATS dicts compared")
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(5))")
    }

    /// YAML and JSON hold strings, numbers, Booleans, dicts and arrays only.
    static func representable(_ value: PlistValue) -> Bool {
        switch value {
        case .string, .integer, .bool: true
        case .real(let number): number.isFinite
        case .date, .data: false
        case .array(let items): items.allSatisfy(representable)
        case .dict(let entries): entries.values.allSatisfy(representable)
        }
    }

    static func any(_ value: PlistValue) -> Any {
        switch value {
        case .string(let text): text
        case .integer(let number): Int(number)
        case .real(let number): number
        case .bool(let flag): flag
        case .date(let text): text
        case .data(let bytes): Data(bytes).base64EncodedString()
        case .array(let items): items.map(any)
        case .dict(let entries): entries.mapValues(any)
        }
    }
}
