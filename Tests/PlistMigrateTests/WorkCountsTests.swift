import Foundation
import Testing

/// The counts the instruction gate prints beside each workload.
@Suite struct WorkCountsTests {
    /// With `PLIST_MIGRATE_COUNTS` (the instruction gate sets it) a run says how often it read
    /// and compared ATS settings; without it, nothing. One plist of one pass reads its settings
    /// before and after that pass, and compares them once at least.
    @Test func aRunCountsItsReadingsForTheGate() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try copyFixture("ATS002/spaces.before.plist", to: root, as: "Info.plist")
        var environment = ProcessInfo.processInfo.environment
        environment["PLIST_MIGRATE_COUNTS"] = "1"
        let counted = try run(Paths.executable, ["--no-config", "--only", "ATS002", "Info.plist"], in: root, environment: environment)
        let line = try #require(counted.stderr.split(separator: "\n").first { $0.hasPrefix("plist-migrate: work: ") }, "\(counted.stderr)")
        let numbers = line.matches(of: /(readings|deltas) (\d+)/).reduce(into: [String: Int]()) { $0[String($1.output.1)] = Int($1.output.2) }
        #expect((numbers["readings"] ?? 0) >= 2 && (numbers["deltas"] ?? 0) >= 1, "\(line)")
        #expect(!(try tool(["--no-config", "Info.plist"], in: root)).stderr.contains("plist-migrate: work:"))
    }
}
