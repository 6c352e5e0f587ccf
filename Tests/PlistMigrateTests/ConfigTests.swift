import Foundation
import Testing
@testable import PlistMigrate

@Suite struct ConfigTests {
    func write(_ json: String, to dir: URL, _ relative: String = ".plist-migrate.json") throws {
        let url = dir.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: url)
    }

    @Test func nearestConfigWinsAndFlagsOverrideIt() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try git(["init", "-q"], in: dir)
        _ = try copyFixture("ATS004/tabs.before.plist", to: dir, as: "Pinned/App/Info.plist")
        _ = try copyFixture("ATS004/tabs.before.plist", to: dir, as: "Free/Info.plist")
        try write(#"{ "to": 3 }"#, to: dir, "Pinned/.plist-migrate.json")
        try write(#"{ "skip": ["ATS001"] }"#, to: dir)
        let result = try tool(["."], in: dir)
        #expect(result.text.contains("--- a/Free/Info.plist"))
        #expect(!result.text.contains("Pinned/App/Info.plist"), "Pinned/ pins version 3, so ATS004 does not run there")
        let overridden = try tool(["--to", "4", "."], in: dir)
        #expect(overridden.text.contains("--- a/Pinned/App/Info.plist"))
        let ignored = try tool(["--no-config", "."], in: dir)
        #expect(ignored.text.contains("--- a/Pinned/App/Info.plist"))
    }

    @Test func lookupStopsAtTheGitRoot() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(#"{ "to": 1 }"#, to: dir)
        _ = try git(["init", "-q"], in: dir.appendingPathComponent("repo").creatingDirectory())
        _ = try copyFixture("ATS004/tabs.before.plist", to: dir, as: "repo/Info.plist")
        let result = try tool(["."], in: dir.appendingPathComponent("repo"))
        #expect(result.text.contains("# ATS004"), "the config above the repository root does not apply")
    }

    @Test func configExcludeIsRelativeToTheConfig() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "mono/Legacy/Info.plist")
        _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "mono/App/Info.plist")
        try write(#"{ "exclude": ["Legacy/**"] }"#, to: dir, "mono/.plist-migrate.json")
        let result = try tool(["mono"], in: dir)
        #expect(result.text.contains("--- a/mono/App/Info.plist"))
        #expect(!result.text.contains("Legacy"))
    }

    @Test(arguments: [
        (#"{ "to": "4" }"#, #"error: "to" must be an integer"#),
        (#"{ "allowPolicyChange": 1 }"#, #"error: "allowPolicyChange" must be true or false"#),
        (#"{ "only": "ATS001" }"#, #"error: "only" must be an array of strings"#),
        (#"{ "exclude": [1] }"#, #"error: "exclude" must be an array of strings"#),
        (#"{ "colour": true }"#, #"error: unknown key "colour""#),
        (#"{ "only": ["ATS999"] }"#, #"error: unknown migration "ATS999""#),
        (#"[1, 2]"#, "error: expected a JSON object at the top level"),
        (#"{ "to": 4,"#, "error: not valid JSON"),
    ])
    func invalidConfigsNameTheFileAndKey(_ json: String, _ message: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "App/Info.plist")
        try write(json, to: dir, "App/.plist-migrate.json")
        let before = try Data(contentsOf: dir.appendingPathComponent("App/Info.plist"))
        let result = try tool(["--write", "."], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("App/.plist-migrate.json: \(message)"), "\(result.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("App/Info.plist")) == before)
    }
}

extension URL {
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
