import Foundation
import Testing
@testable import PlistMigrate

@Suite struct DiscoveryTests {
    /// A git repository with an ignored build folder, a dependency folder, a nested app and a
    /// non-plist file.
    func repository() throws -> URL {
        let dir = try temporaryDirectory()
        for path in ["App/Info.plist", "App/Ignored/Info.plist", "Pods/Lib/Info.plist", "Legacy/Old/Info.plist",
                     "Widget/Info.plist", "Widget/Info.plist.orig", "DerivedData/X/Info.plist"] {
            _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: path)
        }
        try Data("App/Ignored/\n".utf8).write(to: dir.appendingPathComponent(".gitignore"))
        _ = try git(["init", "-q"], in: dir)
        return dir
    }

    func paths(_ arguments: [String], in dir: URL) throws -> [String] {
        let result = try tool(["--format", "json"] + arguments, in: dir)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return (report["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
    }

    @Test func gitWorkTreesHonourGitignoreAndSkipDependencyFolders() throws {
        let dir = try repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try paths(["."], in: dir) == ["App/Info.plist", "Legacy/Old/Info.plist", "Widget/Info.plist"])
    }

    @Test func plainWalkOutsideGitStillSkipsDependencyFolders() throws {
        let dir = try repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.removeItem(at: dir.appendingPathComponent(".git"))
        #expect(try paths(["."], in: dir) == ["App/Ignored/Info.plist", "App/Info.plist", "Legacy/Old/Info.plist", "Widget/Info.plist"])
    }

    /// A symbolic link named like a plist is not followed by a walk (nor by git's listing), and
    /// the summary counts it as skipped, as it counts every other skip; its target is untouched.
    @Test(arguments: [true, false])
    func symbolicLinksAWalkFindsAreCountedAsSkipped(_ inGit: Bool) throws {
        let dir = try repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        if !inGit { try FileManager.default.removeItem(at: dir.appendingPathComponent(".git")) }
        let outside = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: outside) }
        let target = try copyFixture("ATS001/comments.before.plist", to: outside, as: "Target.plist")
        let original = try Data(contentsOf: target)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("Widget/Linked.plist").path, withDestinationPath: target.path)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("App/Again.plist").path, withDestinationPath: "Info.plist")
        if inGit { _ = try git(["add", "-A"], in: dir) }
        let result = try tool(["--write", "--no-config", "."], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("2 symbolic links not followed"), "\(result.stderr)")
        #expect(try Data(contentsOf: target) == original, "the link's target is not written")
        let json = try tool(["--format", "json", "--no-config", "."], in: dir)
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let skipped = (report["files"] as? [[String: Any]] ?? []).filter { ($0["skipReason"] as? String) == "symbolic link not followed" }
        #expect(Set(skipped.compactMap { $0["path"] as? String }) == ["App/Again.plist", "Widget/Linked.plist"])
    }

    /// No path is the current directory, as for `lint`: the dry run shows what `--write`
    /// (also without a path) then writes.
    @Test func noPathIsTheCurrentDirectory() throws {
        let dir = try repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dry = try tool(["--no-config"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.text.contains("+++ b/App/Info.plist") && dry.stderr.contains("3 files scanned, 3 would change"), "\(dry.stderr)")
        let written = try tool(["--write", "--no-config"], in: dir)
        #expect(written.status == 0 && written.stderr.contains("3 changed"), "\(written.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("App/Info.plist"))
            == Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS002/tabs.after.plist")))
    }

    @Test func excludeAndIncludeGlobs() throws {
        let dir = try repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try paths(["--exclude", "Legacy", "."], in: dir) == ["App/Info.plist", "Widget/Info.plist"])
        #expect(try paths(["--exclude", "**/Old/*", "--exclude", "Widget/*", "."], in: dir) == ["App/Info.plist"])
        #expect(try paths(["--include", "App/**", "."], in: dir) == ["App/Info.plist"])
        #expect(try paths(["--exclude", "App", "App/Info.plist"], in: dir) == ["App/Info.plist"], "named files are never filtered")
    }

    @Test func filesFromReadsOnePathPerLine() throws {
        let dir = try repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("Widget/Info.plist\nApp/Info.plist\n\n".utf8).write(to: dir.appendingPathComponent("list.txt"))
        #expect(try paths(["--files-from", "list.txt"], in: dir) == ["App/Info.plist", "Widget/Info.plist"])
        let viaStdin = try tool(["--format", "json", "--files-from", "-"], in: dir, input: Data("Widget/Info.plist\n".utf8))
        #expect(viaStdin.text.contains("\"path\" : \"Widget/Info.plist\""))
    }

    /// The list is split as bytes; it must keep the lines a grapheme split (the reading before)
    /// keeps, whatever mix of `\r`, `\n`, blanks, combining marks and invalid UTF-8 it holds.
    @Test func filesFromListSplitsAsGraphemesWould() {
        func byGraphemes(_ bytes: [UInt8]) -> [String] {
            String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
                .filter { line in line.contains { $0 != " " && $0 != "\t" } }.map(String.init)
        }
        let pieces: [[UInt8]] = [[0x61], [0x2F], [0x20], [0x09], [0x0D], [0x0A], [0x0D, 0x0A], [0xCC, 0x81], [0xFF], [0xE2], [0xC3, 0xA9]]
        var generator = SystemRandomNumberGenerator()
        var differing = 0
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...24, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! }
            if RunOptions.listedPaths(in: bytes) != byGraphemes(bytes) { differing += 1 }
        }
        #expect(differing == 0)
        #expect(RunOptions.listedPaths(in: Array("a\r\n \t\n\nb/c\r\r\nd".utf8)) == ["a", "b/c\r", "d"])
    }

    @Test func shardsPartitionTheFilesExactlyOnce() throws {
        let all = (0..<500).map { "Apps/App\($0)/Info.plist" }
        for count in [1, 2, 3, 7] {
            var seen: [String: Int] = [:]
            for index in 1...count {
                let shard = try #require(Shard("\(index)/\(count)"))
                for path in all where shard.contains(path) { seen[path, default: 0] += 1 }
            }
            #expect(seen.count == all.count && seen.values.allSatisfy { $0 == 1 }, "\(count) shards")
        }
        // Stable across machines and runs: a fixed path always lands in the same shard.
        #expect(Shard("2/4")!.contains("Apps/App1/Info.plist") == Shard("2/4")!.contains("Apps/App1/Info.plist"))
        #expect(Shard("0/4") == nil && Shard("5/4") == nil && Shard("x") == nil)
    }

    @Test func shardFlagSplitsARealRun() throws {
        let dir = try repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try paths(["."], in: dir)
        let parts = try (1...3).flatMap { try paths(["--shard", "\($0)/3", "."], in: dir) }
        #expect(parts.sorted() == whole)
    }

    @Test func outputIsIdenticalWhateverTheNumberOfJobs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sources = ["ATS001/tabs", "ATS002/crlf", "ATS004/spaces", "ATS004/conflict", "ATS003/tabs"]
        for index in 0..<300 {
            _ = try copyFixture("\(sources[index % sources.count]).before.plist", to: dir, as: "A\(index % 17)/B\(index)/Info.plist")
        }
        let one = try tool(["--jobs", "1", "--allow-policy-change", "."], in: dir)
        let four = try tool(["--jobs", "4", "--allow-policy-change", "."], in: dir)
        #expect(one.status == 2)
        #expect(one.stdout == four.stdout)
        #expect(one.stderr == four.stderr)
        let jsonOne = try tool(["--jobs", "1", "--format", "json", "."], in: dir)
        let jsonFour = try tool(["--jobs", "4", "--format", "json", "."], in: dir)
        #expect(withoutRunTime(jsonOne.stdout) == withoutRunTime(jsonFour.stdout))
    }
}

extension DiscoveryTests {
    /// Walked files whose bytes cannot spell the ATS key are skipped without any parse, broken
    /// or not; the files the tool may edit, or is told to read, get the full validation.
    @Test func walkedFilesWithoutATSAreNotParsed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("errors/bad-date.plist", to: dir, as: "Settings/Root.plist")
        _ = try copyFixture("errors/mismatched-tag.plist", to: dir, as: "Broken/Root.plist")
        _ = try copyFixture("hostile/billion-laughs.plist", to: dir, as: "Evil/Root.plist")
        _ = try copyFixture("errors/utf16-le.plist", to: dir, as: "Wide/Root.plist")
        let brokenATS = "<plist><dict><key>NSAppTransportSecurity</key><dict></array></dict></plist>\n"
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Data(brokenATS.utf8).write(to: dir.appendingPathComponent("App/Info.plist"))
        let walked = try tool(["."], in: dir)
        #expect(walked.status == 2)
        #expect(walked.stderr.contains("App/Info.plist:1:61: error: Opening and ending tag mismatch: dict line 1 and array"), "\(walked.stderr)")
        #expect(!walked.stderr.contains("Wide/Root.plist"), "UTF-16 without the key: skipped with its reason")
        for quiet in ["Settings/Root.plist", "Broken/Root.plist", "Evil/Root.plist"] {
            #expect(!walked.stderr.contains(quiet), "\(quiet) cannot hold the ATS key: not parsed")
        }
        #expect(walked.stderr.contains(
            "5 files scanned, 0 would change, 0 unchanged, 4 skipped (1 UTF-16 text, none of the keys the passes edit, 3 no NSAppTransportSecurity), 1 error"),
            "\(walked.stderr)")
        for (named, message) in [
            ("Settings/Root.plist", "Settings/Root.plist:6:2: error: invalid <date> \"yesterday\""),
            ("Broken/Root.plist", "Broken/Root.plist:7:9: error: Opening and ending tag mismatch"),
            ("Evil/Root.plist", "Evil/Root.plist:3:21: error: entity declarations are not allowed"),
        ] {
            let result = try tool([named], in: dir)
            #expect(result.status == 2)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }

    @Test func walkedFilesWithATSGetFullValidation() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try String(contentsOf: Paths.fixtures.appendingPathComponent("ATS002/tabs.before.plist"), encoding: .utf8)
            .replacingOccurrences(of: "<string>Demo</string>", with: "<integer>12abc</integer>")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: dir.appendingPathComponent("App/Info.plist"))
        let walked = try tool(["."], in: dir)
        #expect(walked.status == 2)
        #expect(walked.stderr.contains("App/Info.plist:6:2: error: invalid <integer> \"12abc\""))
    }
}

/// With several jobs, the walk and the files' work run on several threads; what they do must be
/// exactly what one thread does, and nothing may be written before every config is known to
/// be valid.
extension DiscoveryTests {
    /// File `index` of a mixed tree is a copy of this fixture.
    static func mixedSource(_ index: Int) -> String {
        ["ATS001/tabs", "ATS002/crlf", "ATS004/spaces", "ATS003/tabs", "ATS010/tabs"][index % 5] + ".before.plist"
    }

    /// 240 files under nested configs that pin a version, exclude files, skip a pass and set a
    /// deployment target.
    func treeWithConfigs() throws -> URL {
        let dir = try temporaryDirectory()
        for index in 0..<240 {
            _ = try copyFixture(Self.mixedSource(index), to: dir, as: "A\(index % 6)/B\(index)/Info.plist")
        }
        let configs = ["A1": #"{ "to": 3 }"#, "A2": #"{ "exclude": ["B1*/**"] }"#, "A3": #"{ "skip": ["ATS002"] }"#,
                       "A4": #"{ "minimumOS": "ios15" }"#, "A5/B5": #"{ "allowPolicyChange": true }"#]
        for (folder, json) in configs {
            try Data(json.utf8).write(to: dir.appendingPathComponent("\(folder)/.plist-migrate.json"))
        }
        return dir
    }

    @Test func writesAreTheSameWhateverTheNumberOfJobs() throws {
        let one = try treeWithConfigs(), four = try treeWithConfigs()
        defer {
            try? FileManager.default.removeItem(at: one)
            try? FileManager.default.removeItem(at: four)
        }
        for format in ["text", "patch", "json"] {
            let serial = try tool(["--jobs", "1", "--format", format, "."], in: one)
            let parallel = try tool(["--jobs", "4", "--format", format, "."], in: four)
            #expect(withoutRunTime(serial.stdout) == withoutRunTime(parallel.stdout), "\(format)")
            #expect(serial.stderr == parallel.stderr, "\(format)")
        }
        let serial = try tool(["--jobs", "1", "--write", "."], in: one)
        let parallel = try tool(["--jobs", "4", "--write", "."], in: four)
        #expect(serial.status == parallel.status)
        #expect(serial.stderr == parallel.stderr)
        var written = 0
        for index in 0..<240 {
            let path = "A\(index % 6)/B\(index)/Info.plist"
            let before = try Data(contentsOf: Paths.fixtures.appendingPathComponent(Self.mixedSource(index)))
            let a = try Data(contentsOf: one.appendingPathComponent(path)), b = try Data(contentsOf: four.appendingPathComponent(path))
            #expect(a == b, "\(path)")
            if a != before { written += 1 }
        }
        #expect(written > 100, "the run wrote most files")
        #expect(try tool(["--jobs", "4", "--check", "."], in: four).status == 0, "one run leaves nothing for the next")
    }

    @Test func lintIsTheSameWhateverTheNumberOfJobs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for index in 0..<240 { _ = try copyFixture(Self.mixedSource(index), to: dir, as: "B\(index)/Info.plist") }
        // One config for every file: whichever thread lints a file, it needs the config.
        let config = #"{ "exclude": ["B1*/**"], "lint": { "disable": ["ATS001", "L005"], "severity": { "ATS004": "note" } } }"#
        try Data(config.utf8).write(to: dir.appendingPathComponent(".plist-migrate.json"))
        for format in ["text", "json"] {
            let serial = try tool(["lint", "--jobs", "1", "--format", format, "."], in: dir)
            let parallel = try tool(["lint", "--jobs", "4", "--format", format, "."], in: dir)
            #expect(!serial.stdout.isEmpty)
            #expect(serial.stdout == parallel.stdout, "\(format)")
            #expect(serial.stderr == parallel.stderr, "\(format)")
        }
    }

    @Test func anInvalidConfigStopsEverythingWhateverTheNumberOfJobs() throws {
        let dir = try treeWithConfigs()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{ "to": "four" }"#.utf8).write(to: dir.appendingPathComponent("A5/B239/.plist-migrate.json"))
        let snapshot = try (0..<240).map { try Data(contentsOf: dir.appendingPathComponent("A\($0 % 6)/B\($0)/Info.plist")) }
        for jobs in ["1", "4"] {
            let result = try tool(["--jobs", jobs, "--write", "."], in: dir)
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("A5/B239/.plist-migrate.json"))
        }
        let after = try (0..<240).map { try Data(contentsOf: dir.appendingPathComponent("A\($0 % 6)/B\($0)/Info.plist")) }
        #expect(after == snapshot, "nothing is written")
    }
}
