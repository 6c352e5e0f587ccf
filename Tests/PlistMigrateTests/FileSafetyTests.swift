import Foundation
import Testing

/// Odd files on disk: each gets a clear error or is left alone, and nothing hangs.
@Suite struct FileSafetyTests {
    @Test func symlinkTargetIsWrittenAndTheLinkStaysALink() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "real/Info.plist")
        let link = dir.appendingPathComponent("Info.plist")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real/Info.plist")
        let result = try tool(["--write", "Info.plist"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real/Info.plist")
        #expect(try Data(contentsOf: target) == Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS002/tabs.after.plist")))
    }

    @Test func walkingDoesNotFollowSymlinks() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "outside/Info.plist")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("repo"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("repo/linked").path, withDestinationPath: "../outside")
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("repo/Linked.plist").path, withDestinationPath: "../outside/Info.plist")
        let result = try tool(["repo"], in: dir)
        #expect(result.stderr.contains("0 files scanned"), "\(result.stderr)")
    }

    @Test func fifoAndDirectoryNamedPlistAreErrorsNotHangs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("pipe.plist").path, 0o644) == 0)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("x.plist"), withIntermediateDirectories: true)
        let named = try tool(["pipe.plist"], in: dir)
        #expect(named.status == 2)
        #expect(named.stderr.contains("pipe.plist: error: not a regular file"))
        let walked = try tool(["."], in: dir)
        #expect(walked.status == 2)
        #expect(walked.stderr.contains("pipe.plist: error: not a regular file"))
        let directory = try tool(["x.plist"], in: dir)
        #expect(directory.status == 2)
        #expect(directory.stderr.hasPrefix("x.plist: error: is a directory, not a plist file\n"))
    }

    @Test func readOnlyFileIsReportedAndTheRestGoOn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let locked = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "A/Info.plist")
        let open = try copyFixture("ATS002/spaces.before.plist", to: dir, as: "B/Info.plist")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: locked.path)
        let before = try Data(contentsOf: locked)
        let result = try tool(["--write", "."], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("A/Info.plist: error: file is read-only; not overwritten"))
        #expect(try Data(contentsOf: locked) == before)
        #expect(try Data(contentsOf: open) == Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS002/spaces.after.plist")))
    }
}
