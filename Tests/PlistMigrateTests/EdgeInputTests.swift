import Foundation
import Testing
import Migrations
import PlistDOM
@testable import PlistMigrate
@testable import FileAccess

/// Input bounded everywhere, and `report` never crashes on a report it did
/// not write.
@Suite struct BoundedInputTests {
    func shell(_ script: String, in directory: URL) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: directory)
    }

    @Test(arguments: [["-"], ["lint", "-"], ["explain", "-"]])
    func standardInputStopsAtTheLimit(_ arguments: [String]) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let command = ([Paths.executable.path] + arguments).joined(separator: " ")
        let result = try shell("head -c 40000000 /dev/zero | /usr/bin/env time -f 'maxrss=%M' \(command) 2>&1; echo \"exit=${PIPESTATUS[1]}\"", in: directory)
        #expect(result.text.contains("input too large (more than 32 MiB, the limit)"), "\(result.text.suffix(500))")
        #expect(result.text.contains("exit=2"))
        if let kb = result.text.split(separator: "\n").first(where: { $0.hasPrefix("maxrss=") }).flatMap({ Int($0.dropFirst(7)) }) {
            #expect(kb < 200 * 1024, "stopped reading: \(kb) KB")
        }
    }

    @Test(arguments: [
        ("--files-from missing.txt", "missing.txt: error: cannot read the list: No such file or directory"),
        ("--files-from .", ".: error: cannot read the list: it is a directory"),
        ("--files-from /dev/zero", "/dev/zero:1:1: error: a NUL byte in a path"),
        ("--files-from <(yes x | head -c 100000 | tr -d '\\n')", "error: a line longer than 4096 bytes is no path"),
    ])
    func aListThatIsNoListIsOneLineAndExit2(_ option: String, _ message: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try shell("\(Paths.executable.path) \(option)", in: directory)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.utf8.count < 300, "one short line, nothing echoed")
    }

    @Test func aListFromAPipeIsRead() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("demo/ShopApp/Info.plist", to: directory, as: "A/Info.plist")
        let result = try shell("\(Paths.executable.path) --files-from <(printf 'A/Info.plist\\r\\n\\n')", in: directory)
        #expect(result.status == 0 && result.stderr.contains("1 file scanned"), "\(result.stderr)")
    }
}

@Suite struct ReportNeverCrashesTests {
    /// A real report of one changed file, as JSON to edit.
    func report(in directory: URL) throws -> [String: Any] {
        _ = try copyFixture("demo/ShopApp/Info.plist", to: directory, as: "A/Info.plist")
        let output = try tool(["--format", "json", "A"], in: directory)
        return try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
    }

    func merge(_ documents: [[String: Any]], in directory: URL) throws -> ProcessResult {
        var names: [String] = []
        for (index, document) in documents.enumerated() {
            let name = "r\(index).json"
            try JSONSerialization.data(withJSONObject: document).write(to: directory.appendingPathComponent(name))
            names.append(name)
        }
        return try tool(["report", "--format", "text"] + names, in: directory)
    }

    @Test func aRepositoryIndexOutsideTheListIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var document = try report(in: directory)
        var files = try #require(document["files"] as? [[String: Any]])
        files[0]["repository"] = -1
        document["files"] = files
        let result = try merge([document], in: directory)
        #expect(result.status == 2 && result.stderr.contains("names repository -1, which the report does not list"), "\(result.status) \(result.stderr)")
    }

    /// A text field longer than any run writes is refused when the report is read, saying the
    /// bound: a 1 MB `base` was joined to every file's path (300 files: 9.6 s and 324 MB).
    @Test(arguments: [("base", ReportMerge.maximumPathLength), ("path", 4 * ReportMerge.maximumPathLength),
                      ("generatedAt", ReportMerge.maximumShortText)])
    func aFieldLongerThanAnyRunWritesIsRefusedWithItsBound(_ field: String, _ limit: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try report(in: directory)
        var document = original
        let long = "/" + String(repeating: "a", count: 1 << 20)
        if field == "path" {
            var files = try #require(document["files"] as? [[String: Any]])
            files[0]["path"] = long
            document["files"] = files
        } else {
            document[field] = long
        }
        let result = try merge([document], in: directory)
        #expect(result.status == 2, "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains("is \(long.utf8.count) bytes, more than the \(limit) any run writes"), "\(result.stderr.prefix(300))")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.utf8.count < 300, "one short line, nothing echoed")
        // At the bound, it is read.
        document = original
        if field == "base" { document["base"] = "/" + String(repeating: "b", count: limit - 1) }
        let atBound = try merge([document], in: directory)
        #expect(atBound.status == 0, "\(atBound.stderr.prefix(300))")
    }

    @Test func countsAreWorkedOutFromTheFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var document = try report(in: directory)
        var summary = try #require(document["summary"] as? [String: Any])
        summary["scanned"] = -5
        summary["changed"] = Int.max
        document["summary"] = summary
        let result = try merge([document], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.hasPrefix("plist-migrate report: 1 report, 1 file scanned, 1 would change, 0 errors"), "\(result.text)")
        // Plurals right everywhere: one of anything is singular.
        for wrong in ["1 reports", "1 files", "1 items", "1 item need ", "1 kinds", "1 edits", "(1 files)"] {
            #expect(!result.text.contains(wrong), "\(wrong): \(result.text)")
        }
    }

    /// Every number in a report is input. An edit count no run could make (more
    /// edits than the largest file the tool reads has bytes, or negative) is refused when the
    /// report is read, in every format: before, three passes of 5·10¹⁸ edits each passed the
    /// per-pass sums and stopped the process (signal 4) adding them up for the review page.
    @Test(arguments: [Int.max, 5_000_000_000_000_000_000, FileIO.maximumSize + 1, -1])
    func editCountsNoRunCouldMakeAreRefused(_ count: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var document = try report(in: directory)
        var files = try #require(document["files"] as? [[String: Any]])
        var passes = try #require(files[0]["passes"] as? [[String: Any]])
        #expect(passes.count > 1, "several passes, so the page adds their counts")
        for index in passes.indices { passes[index]["editCount"] = count }
        files[0]["passes"] = passes
        document["files"] = files
        try JSONSerialization.data(withJSONObject: document).write(to: directory.appendingPathComponent("r.json"))
        for format in ReportMerge.Format.allCases {
            let result = try tool(["report", "--format", format.rawValue, "r.json"], in: directory)
            #expect(result.status == 2, "\(format): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("edit count of \(count)"), "\(format): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(format): \(result.stderr)")
        }
        // The largest count a run could make is read, added and shown in every format.
        for index in passes.indices { passes[index]["editCount"] = FileIO.maximumSize }
        files[0]["passes"] = passes
        document["files"] = files
        try JSONSerialization.data(withJSONObject: document).write(to: directory.appendingPathComponent("r.json"))
        for format in ReportMerge.Format.allCases {
            let result = try tool(["report", "--format", format.rawValue, "r.json"], in: directory)
            #expect(result.status == 0, "\(format): \(result.stderr)")
        }
    }

    /// One file listing the same pass twice in one round was counted twice.
    @Test func aFileListingAPassTwiceInARoundIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var document = try report(in: directory)
        var files = try #require(document["files"] as? [[String: Any]])
        let passes = try #require(files[0]["passes"] as? [[String: Any]])
        files[0]["passes"] = passes + [passes[0]]
        document["files"] = files
        let result = try merge([document], in: directory)
        #expect(result.status == 2 && result.stderr.contains("twice in round"), "\(result.status) \(result.stderr)")
        // The same pass in two rounds is a run's own record: read as before.
        var second = passes[0]
        second["round"] = 2
        files[0]["passes"] = passes + [second]
        document["files"] = files
        let accepted = try merge([document], in: directory)
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test func aPassListedTwiceIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var document = try report(in: directory)
        let passes = try #require(document["passes"] as? [[String: Any]])
        document["passes"] = passes + [passes[0]]
        let result = try merge([document], in: directory)
        #expect(result.status == 2 && result.stderr.contains("lists a pass twice"), "\(result.status) \(result.stderr)")
    }
}

/// Small things said instead of silently taken.
@Suite struct SaidNotTakenTests {
    @Test func aConfigThatSaysAKeyTwiceOrAnImpossibleVersionIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("demo/ShopApp/Info.plist", to: directory, as: "A/Info.plist")
        try Data("{ \"skip\": [\"ATS001\"],\n  \"skip\": [] }".utf8).write(to: directory.appendingPathComponent("A/.plist-migrate.json"))
        let twice = try tool(["A"], in: directory)
        #expect(twice.status == 2 && twice.stderr.contains("\"skip\" is given twice (line 2)"), "\(twice.stderr)")
        try Data("{ \"minimumOS\": \"ios15.99999999999999999999\" }".utf8).write(to: directory.appendingPathComponent("A/.plist-migrate.json"))
        let version = try tool(["A"], in: directory)
        #expect(version.status == 2 && version.stderr.contains("is not a deployment target"), "\(version.stderr)")
    }

    @Test(arguments: [["--to", "0"], ["--to=-3"], ["--skip", "ATS001,ATS002,ATS003,ATS004,ATS005,ATS006,ATS007,ATS008,ATS009,ATS010"]])
    func optionsThatSelectNoPassSaySo(_ options: [String]) throws {
        let result = try tool(options + ["Fixtures/demo"], in: Paths.repository)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("no pass"), "\(result.stderr)")
    }

    /// A decision naming a kind this run does not have — under `accepted` or
    /// `rejected` — is an error (exit 2; with `--write` found before anything is written),
    /// unless `--decision-spans-runs` says it covers several runs; `--check` only warns (an
    /// applied kind is no longer the run's). A field the schema does not allow, or an id that is
    /// no kind id, is refused.
    @Test func decisionsNamingKindsTheRunDoesNotHaveFail() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = try copyFixture("demo/ShopApp/Info.plist", to: directory, as: "A/Info.plist")
        let original = try Data(contentsOf: plist)
        let report = try JSONSerialization.jsonObject(with: try tool(["--format", "json", "A"], in: directory).stdout) as? [String: Any]
        let group = try #require(((report?["files"] as? [[String: Any]])?.first?["passes"] as? [[String: Any]])?.first?["group"] as? String)
        func decide(_ fields: [String: Any], as name: String = "decision.json") throws {
            var decision: [String: Any] = ["schemaVersion": 1, "toolVersion": ToolVersion.current, "accepted": [group], "rejected": []]
            decision.merge(fields) { $1 }
            try JSONSerialization.data(withJSONObject: decision).write(to: directory.appendingPathComponent(name))
        }
        for field in ["accepted", "rejected"] {
            try decide(field == "accepted" ? ["accepted": [group, "ATS009-000000000000"]] : ["rejected": ["ATS009-000000000000"]])
            let dry = try tool(["--accept", "decision.json", "A"], in: directory)
            #expect(dry.status == 2, "\(field): \(dry.stderr)")
            #expect(dry.stderr.contains("error: the review decision names 1 kind of change this run does not have: ATS009-000000000000 "
                + "(a decision made for several runs needs --decision-spans-runs)"), "\(dry.stderr)")
            #expect(!dry.stderr.contains(group + ","), "the run's own kind is not listed")
            let write = try tool(["--write", "--accept", "decision.json", "A"], in: directory)
            #expect(write.status == 2 && write.stderr.contains("; nothing was written"), "\(write.stderr)")
            #expect(try Data(contentsOf: plist) == original)
            let check = try tool(["--check", "--accept", "decision.json", "A"], in: directory)
            #expect(check.stderr.contains("warning: the review decision names 1 kind"), "\(check.stderr)")
            #expect(check.status == 1, "the accepted kind is pending")
        }
        let spanning = try tool(["--write", "--accept", "decision.json", "--decision-spans-runs", "A"], in: directory)
        #expect(spanning.status == 0 && spanning.stderr.contains("warning: the review decision names 1 kind"), "\(spanning.stderr)")
        #expect(try Data(contentsOf: plist) != original, "with the flag the accepted kind is written")

        try decide(["rejectd": []], as: "extra.json")
        let extra = try tool(["--accept", "extra.json", "A"], in: directory)
        #expect(extra.status == 2 && extra.stderr == "extra.json: error: review decision has a field \"rejectd\" that is not schemaVersion, toolVersion, accepted, rejected, undecidedPrerequisites, reviewed, runs, repositories or files\n", "\(extra.stderr)")
        try decide(["accepted": ["ATS001 878d34d2c8c1"]], as: "id.json")
        let id = try tool(["--accept", "id.json", "A"], in: directory)
        #expect(id.status == 2 && id.stderr.hasPrefix("id.json: error: \"ATS001 878d34d2c8c1\" is not a kind of change id"), "\(id.stderr)")
    }
}

/// Values written as written.
@Suite struct ValuesAsWrittenTests {
    static func recipe(_ value: String) -> String {
        "id: T001\nversion: 1\ntitle: test\nimpact: spelling\nsteps:\n  - set: A\n    value: \(value)\n"
    }

    @Test(arguments: [("!!str 42", "<string>42</string>"), ("!!str true", "<string>true</string>"), ("42", "<integer>42</integer>"),
                      ("1.5", "<real>1.5</real>")])
    func anExplicitTagDecidesTheType(_ value: String, _ written: String) throws {
        let pass = try #require(try RecipeLoader.parse(Self.recipe(value), path: "r.yml").first?.0)
        let plan = try MigrationPlan(skip: MigrationRegistry.all.map(\.id), recipes: [pass])
        let result = FileMigrator(plan: plan).migrate(RecipeTests.plist(""), path: "Info.plist", skipIfNotApplicable: false)
        #expect(String(decoding: result.output, as: UTF8.self).contains("<key>A</key>\n\t" + written) || String(decoding: result.output, as: UTF8.self).contains(written),
                "\(String(decoding: result.output, as: UTF8.self))")
    }

    @Test(arguments: [
        ("9223372036854775808", "r.yml:7:12: error: 9223372036854775808 is out of range for a plist integer"),
        ("1e400", "r.yml:7:12: error: 1e400 is too large for a plist real"),
        ("!!float .inf", "r.yml:7:12: error: !!float takes a finite number"),
        ("!date 2026-13-45T99:99:99Z", "r.yml:7:12: error: !date takes a date that exists"),
        ("!date 2026-02-30T12:00:00Z", "r.yml:7:12: error: !date takes a date that exists"),
        ("!date 2026-01-01T24:00:00Z", "r.yml:7:12: error: !date takes a date that exists"),
        ("!date 2026-01-01T12:00:60Z", "r.yml:7:12: error: !date takes a date that exists"),
        ("!evil [1, 2]", "r.yml:7:12: error: unexpected tag !evil on a list"),
        ("!!python/object:os.system {a: 1}", "r.yml:7:12: error: unexpected tag tag:yaml.org,2002:python/object:os.system on a mapping"),
        ("!!omap [{a: 1}]", "r.yml:7:12: error: unexpected tag tag:yaml.org,2002:omap on a list"),
        ("{<<: {a: 1}, b: 2}", "r.yml:7:13: error: a YAML merge key (<<) is not a plist key"),
    ])
    func valuesNoPlistHoldsAreErrorsAtTheirPlace(_ value: String, _ message: String) {
        do {
            _ = try RecipeLoader.parse(Self.recipe(value), path: "r.yml")
            Issue.record("\(value) was taken")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test(arguments: ["2026-13-45T99:99:99Z", "2026-02-30T12:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T12:00:60Z", "2023-02-29T00:00:00Z"])
    func editRefusesADateThatDoesNotExist(_ date: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Info.plist")
        try Data(RecipeTests.plist("")).write(to: file)
        let result = try tool(["edit", "Info.plist", "-c", "Add :D date \(date)"], in: directory)
        #expect(result.status != 0 && result.stderr.contains("a date that exists"), "\(result.stderr)")
        #expect(try Data(contentsOf: file) == Data(RecipeTests.plist("")))
        #expect(PlistDate.isValid("2024-02-29T23:59:59Z") && !PlistDate.isValid(date))
    }

    /// The write check reads dates as plistlib does: a plist holding one that does not exist is refused.
    @Test func aDateThatDoesNotExistIsNoValidPlist() {
        #expect(throws: ParseError.self) { try PlistDocument(parsing: RecipeTests.plist("<key>D</key><date>2026-02-30T12:00:00Z</date>\n")) }
    }
}

/// `report` knows a file by where it is, not by how a run spelled it.
@Suite struct ReportPlacesTests {
    @Test func theSameFilesFromAnotherWorkingDirectoryOverlap() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let repository = directory.appendingPathComponent("repoA")
        _ = try copyFixture("demo/ShopApp/Info.plist", to: repository, as: "App/Info.plist")
        _ = try git(["init", "-q"], in: repository)
        try tool(["--format", "json", "repoA"], in: directory).stdout.write(to: directory.appendingPathComponent("outside.json"))
        try tool(["--format", "json", "."], in: repository).stdout.write(to: directory.appendingPathComponent("inside.json"))
        let merged = try tool(["report", "--format", "text", "outside.json", "inside.json"], in: directory)
        #expect(merged.status == 2 && merged.stderr.contains("the reports overlap"), "\(merged.status) \(merged.stderr) \(merged.text)")
    }

    /// Reports made in different directories: the merged base is the directory above them all,
    /// and each path is relative to it (with no base, the page lost every link).
    @Test func aMergedReportsBaseIsTheDirectoryItsReportsShare() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["one", "two"] {
            let folder = directory.appendingPathComponent(name)
            _ = try copyFixture("demo/ShopApp/Info.plist", to: folder, as: "App/Info.plist")
            try tool(["--format", "json", "."], in: folder).stdout.write(to: directory.appendingPathComponent("\(name).json"))
        }
        let merged = try tool(["report", "--format", "json", "one.json", "two.json"], in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: merged.stdout) as? [String: Any], "\(merged.stderr)")
        let base = try #require(json["base"] as? String)
        #expect(FileIO.absolute(directory.path).hasSuffix(base) || base == directory.resolvingSymlinksInPath().path, "\(base)")
        #expect((json["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["one/App/Info.plist", "two/App/Info.plist"])
        let single = try tool(["report", "--format", "json", "one.json"], in: directory)
        #expect((try JSONSerialization.jsonObject(with: single.stdout) as? [String: Any])?["base"] as? String != nil)
    }

    @Test func aPathOutsideItsRepositoryIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let repository = directory.appendingPathComponent("repoA")
        _ = try copyFixture("demo/ShopApp/Info.plist", to: repository, as: "App/Info.plist")
        _ = try git(["init", "-q"], in: repository)
        var document = try #require(try JSONSerialization.jsonObject(with: try tool(["--format", "json", "."], in: repository).stdout) as? [String: Any])
        var files = try #require(document["files"] as? [[String: Any]])
        files[0]["path"] = "../../etc/Info.plist"
        document["files"] = files
        try JSONSerialization.data(withJSONObject: document).write(to: directory.appendingPathComponent("r.json"))
        let merged = try tool(["report", "--format", "text", "r.json"], in: directory)
        #expect(merged.status == 2 && merged.stderr.contains("lies outside its repository"), "\(merged.stderr)")
    }
}
