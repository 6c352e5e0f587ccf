import Foundation
import Testing

/// Issue #44 §1: `--output` never names a file the run reads, and the report replaces the old
/// one only once the run has reported.
@Suite struct OutputSafetyTests {
    func workspace() throws -> (URL, Data) {
        let directory = try temporaryDirectory()
        let file = try copyFixture("demo/ShopApp/Info.plist", to: directory, as: "App/Info.plist")
        return (directory, try Data(contentsOf: file))
    }

    @Test(arguments: [
        ["--output", "App/Info.plist", "App/Info.plist"],
        ["--output", "App/../App/Info.plist", "App/Info.plist"],
        ["--output", "link.plist", "App/Info.plist"],
        ["--output", "App/Info.plist", "."],
        ["lint", "--output", "App/Info.plist", "App/Info.plist"],
        ["--write", "--output", "App/Info.plist", "App"],
    ])
    func anOutputTheRunReadsIsRefusedBeforeAnythingIsOpened(_ arguments: [String]) throws {
        let (directory, original) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.plist").path, withDestinationPath: "App/Info.plist")
        let result = try tool(arguments, in: directory)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("which this run"), "\(result.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("App/Info.plist")) == original, "the input is untouched")
    }

    @Test func aFailedRunKeepsTheOldReportAndLeavesNoTemporaryFile() throws {
        let (directory, _) = try workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json")
        try Data("old report\n".utf8).write(to: report)
        // A config that cannot be read stops the run before it reports anything.
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("App/.plist-migrate.json"))
        let failed = try tool(["--format", "json", "--output", "report.json", "App"], in: directory)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(try String(contentsOf: report, encoding: .utf8) == "old report\n")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.contains("plist-migrate-") }, "\(names)")
        // A run that completes replaces it.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("App/.plist-migrate.json"))
        let done = try tool(["--format", "json", "--output", "report.json", "App"], in: directory)
        #expect(done.status == 0, "\(done.stderr)")
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: report)) as? [String: Any]
        #expect((json?["files"] as? [Any])?.count == 1)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: directory.path)).contains { $0.contains("plist-migrate-") })
    }
}
