import Foundation
import Testing

/// `--write` killed with SIGKILL at random moments: no file is ever half-written.
@Suite struct KillTests {
    static let sources = ["ATS001/tabs", "ATS002/crlf", "ATS004/spaces", "ATS001/one-line", "ATS004/comments",
                          "ATS003/already-migrated", "ATS002/outside-ats"]

    @Test func everyFileIsOldOrNewAfterEveryKill() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tree = dir.appendingPathComponent("tree")
        let reference = dir.appendingPathComponent("reference")
        var old: [String: Data] = [:]
        for index in 0..<1000 {
            let relative = "d\(index / 100)/f\(index).plist"
            old[relative] = try Data(contentsOf: Paths.fixtures.appendingPathComponent("\(Self.sources[index % Self.sources.count]).before.plist"))
        }
        func reset(_ root: URL, only relatives: some Sequence<String>) throws {
            for relative in relatives {
                let url = root.appendingPathComponent(relative)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try old[relative]!.write(to: url)
            }
        }
        func reset(_ root: URL) throws { try reset(root, only: old.keys) }
        // What a complete run produces.
        try reset(reference)
        let start = Date()
        #expect(try tool(["--write", "."], in: reference).status == 0)
        let fullRun = Date().timeIntervalSince(start)
        var new: [String: Data] = [:]
        for relative in old.keys { new[relative] = try Data(contentsOf: reference.appendingPathComponent(relative)) }
        #expect(new.filter { old[$0.key] != $0.value }.count > 500, "most files must change for the test to mean anything")

        var rng = SystemRandomNumberGenerator()
        var interrupted = 0
        // After a kill only the files that changed need their old bytes back (every file is
        // read and checked each round, so this checks the same with fewer writes).
        var changed = Array(old.keys)
        var neither: [String] = []
        // A run that ended before its kill was too quick for the estimate (the reference run may
        // have met a busier machine): the next kill comes sooner. At least 12 rounds, and more,
        // up to 24, until 6 runs were killed mid-way.
        var estimate = fullRun
        var rounds = 0
        while rounds < 12 || (interrupted < 6 && rounds < 24) {
            rounds += 1
            try reset(tree, only: changed)
            let ran = try run(Paths.executable, ["--write", "--jobs", "2", "."], in: tree,
                              killAfter: Double.random(in: 0...(estimate * 0.9), using: &rng))
            if ran.wasSignalled { interrupted += 1 } else { estimate *= 0.6 }
            changed = []
            for (relative, before) in old {
                let now = try Data(contentsOf: tree.appendingPathComponent(relative))
                if now != before { changed.append(relative) }
                if now != before && now != new[relative] { neither.append(relative) }
            }
        }
        // One expectation for the 12,000 or more comparisons: each was its own #expect before.
        #expect(neither.isEmpty, "neither their old nor their new bytes: \(neither.prefix(10))")
        #expect(interrupted >= 6, "most runs must actually be killed mid-way")

        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: tree.path).filter { $0.hasSuffix(".plist-migrate-tmp") }
        let finish = try tool(["--write", "."], in: tree)
        #expect(finish.status == 0)
        // Leftover temp files are not processed as plists: each is only said to be removed.
        let said = finish.stderr.split(separator: "\n").filter { $0.contains("plist-migrate-tmp") }
        #expect(said.count == leftovers.count && said.allSatisfy { $0.hasSuffix(": note: removed the temporary file a killed plist-migrate run left") },
                "\(said.prefix(3))")
        for (relative, after) in new {
            #expect(try Data(contentsOf: tree.appendingPathComponent(relative)) == after)
        }
        let remaining = try FileManager.default.subpathsOfDirectory(atPath: tree.path).filter { $0.hasSuffix(".plist-migrate-tmp") }
        #expect(remaining.isEmpty, "--write cleans up the \(leftovers.count) leftover temp files")
    }
}

extension KillTests {
    @Test func writeRemovesTempFilesOfDeadRunsOnlyAndNeverProcessesThem() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try copyFixture("ATS002/tabs.before.plist", to: dir, as: "App/Info.plist")
        // A pid that is not running: the highest pid is far below Int32.max.
        let dead = dir.appendingPathComponent("App/.Info.plist.2147483000.77.plist-migrate-tmp")
        let live = dir.appendingPathComponent("App/.Info.plist.1.78.plist-migrate-tmp")
        try Data("<plist><true/>".utf8).write(to: dead)
        try Data("<plist><true/>".utf8).write(to: live)
        // A dry run and lint name the dead run's file and how to remove it; the live one's is
        // none of their business.
        for arguments in [["."], ["lint", "."]] {
            let run = try tool(arguments, in: dir)
            #expect(FileManager.default.fileExists(atPath: dead.path), "\(arguments) never deletes anything")
            #expect(run.stderr.contains("App/.Info.plist.2147483000.77.plist-migrate-tmp: note: a temporary file a killed plist-migrate run left; "
                + "plist-migrate --write removes it"), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains(".Info.plist.1.78"), "\(run.stderr)")
        }
        let write = try tool(["--write", "."], in: dir)
        #expect(write.status == 0)
        #expect(write.stderr.contains("App/.Info.plist.2147483000.77.plist-migrate-tmp: note: removed the temporary file"), "\(write.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: live.path), "pid 1 is alive: its temp file is not ours to remove")
    }
}
