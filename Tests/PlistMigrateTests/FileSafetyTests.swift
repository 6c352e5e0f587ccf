import Foundation
import Testing

/// Odd files on disk: each gets a clear error or is left alone, and nothing hangs.
@Suite struct FileSafetyTests {
    @Test func symlinkTargetIsWrittenAndTheLinkStaysALink() throws {
        let dir = try temporaryDirectory(onDisk: true)
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
        let dir = try temporaryDirectory(onDisk: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "outside/Info.plist")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("repo"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("repo/linked").path, withDestinationPath: "../outside")
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("repo/Linked.plist").path, withDestinationPath: "../outside/Info.plist")
        let result = try tool(["repo"], in: dir)
        // The link named like a plist is not followed, and the summary says so.
        #expect(result.stderr.contains("1 file scanned, 0 would change, 0 unchanged, 1 skipped (1 symbolic link not followed)"), "\(result.stderr)")
    }

    @Test func fifoAndDirectoryNamedPlistAreErrorsNotHangs() throws {
        let dir = try temporaryDirectory(onDisk: true)
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

    /// A file this user may not write is refused, by the real permission: where this process
    /// may write a 0444 file (root) an immutable one (`chattr +i`), elsewhere a 0444 one. The
    /// other files still go.
    @Test func aFileThisUserMayNotWriteIsReportedAndTheRestGoOn() throws {
        let dir = try temporaryDirectory(onDisk: true)
        let locked = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "A/Info.plist")
        let open = try copyFixture("ATS002/spaces.before.plist", to: dir, as: "B/Info.plist")
        let chattr = URL(fileURLWithPath: "/usr/bin/chattr")
        if Self.mayWriteAReadOnlyModeFile {
            try #require(try run(chattr, ["+i", locked.path], in: dir).status == 0, "chattr +i is needed to make root's file unwritable")
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: locked.path)
        }
        defer {
            _ = try? run(chattr, ["-i", locked.path], in: dir)
            try? FileManager.default.removeItem(at: dir)
        }
        let before = try Data(contentsOf: locked)
        let result = try tool(["--write", "."], in: dir)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("A/Info.plist: error: not writable by this user ("), "\(result.stderr)")
        #expect(try Data(contentsOf: locked) == before)
        #expect(try Data(contentsOf: open) == Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS002/spaces.after.plist")))
    }

    /// Mode bits are not the permission: root may replace a 0444 file (as `sed -i` would), and
    /// the file keeps its 0444 mode. Whether this process may is asked of the kernel, not of
    /// the user id: root without CAP_DAC_OVERRIDE (a container that drops it) may not.
    @Test(.enabled(if: Self.mayWriteAReadOnlyModeFile, "this process may not write a 0444 file (not root, or root without CAP_DAC_OVERRIDE)"))
    func rootMigratesAReadOnlyModeFileAndKeepsTheMode() throws {
        let dir = try temporaryDirectory(onDisk: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "Info.plist")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file.path)
        let result = try tool(["--write", "Info.plist"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: file) == Data(contentsOf: Paths.fixtures.appendingPathComponent("ATS002/tabs.after.plist")))
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o444)
    }

    /// The kernel's answer: can this process open a 0444 file of its own for writing?
    static let mayWriteAReadOnlyModeFile: Bool = {
        guard let directory = try? temporaryDirectory(onDisk: true) else { return false }
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("probe").path
        guard FileManager.default.createFile(atPath: path, contents: Data(), attributes: [.posixPermissions: 0o444]) else { return false }
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }()
}
