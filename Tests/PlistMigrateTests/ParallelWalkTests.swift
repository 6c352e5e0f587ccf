import Foundation
import Testing
@testable import PlistMigrate

/// The walk on several threads (each directory a task any thread takes) finds exactly what the
/// walk on one thread finds, records the same directory facts, and closes every directory.
@Suite struct ParallelWalkTests {
    static func tree(_ paths: [String]) throws -> URL {
        let root = try temporaryDirectory()
        for path in paths {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        return root
    }

    @Test func walkingOnThreadsFindsTheSameFiles() throws {
        let root = try Self.tree([
            "a/Info.plist", "a/b/c/d.plist", "b-c/x.plist", "b/y.plist", "c/.git/z.plist", "c/node_modules/n.plist",
            "top.plist", "only/one/level/deep.plist", "e/f.txt", "e/g/h/i/j.plist",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let serial = FileDiscovery.walk(root.path)
        #expect(serial.count == 8, "skipped directories are not entered")
        for jobs in [2, 3, 8] {
            #expect(FileDiscovery.walk(root.path, jobs: jobs).sorted() == serial.sorted(), "\(jobs) jobs")
        }
    }

    /// Nearly everything under one subdirectory, and one chain deeper than the threads are
    /// many: the shape the old walk (one thread per first-level subdirectory) ran on one thread.
    @Test func aLopsidedTreeIsWalkedWhole() throws {
        var paths = (0..<300).map { "big/app\($0)/Info.plist" } + ["small/Info.plist"]
        paths.append((0..<40).map { "d\($0)" }.joined(separator: "/") + "/deep.plist")
        let root = try Self.tree(paths)
        defer { try? FileManager.default.removeItem(at: root) }
        let serial = FileDiscovery.walk(root.path)
        #expect(Set(serial) == Set(paths))
        for jobs in [2, 4] {
            let parallel = FileDiscovery.walk(root.path, jobs: jobs)
            #expect(parallel.count == serial.count, "no file twice")
            #expect(Set(parallel) == Set(paths), "\(jobs) jobs")
        }
    }

    @Test func theDirectoryFactsAreTheSame() throws {
        var paths = (0..<50).map { "big/app\($0)/Info.plist" }
        paths += ["big/app3/.git", "big/app7/\(Config.fileName)", "big/app9/App.xcodeproj/project.pbxproj", "x/y/\(Config.fileName)"]
        let root = try Self.tree(paths)
        defer { try? FileManager.default.removeItem(at: root) }
        let one = DirectoryFacts(looksForConfig: true), two = DirectoryFacts(looksForConfig: true)
        _ = FileDiscovery.walk(root.path, recordingInto: one)
        _ = FileDiscovery.walk(root.path, recordingInto: two, jobs: 3)
        // Gone now: only a fact the walk recorded still names them.
        for notable in ["big/app3/.git", "big/app7/\(Config.fileName)", "big/app9/App.xcodeproj", "x/y/\(Config.fileName)"] {
            try FileManager.default.removeItem(at: root.appendingPathComponent(notable))
        }
        let directories = Set(paths.map { ($0 as NSString).deletingLastPathComponent }).union(["big", "x"])
        for directory in directories {
            let path = root.appendingPathComponent(directory).path
            let a = one.facts(of: path), b = two.facts(of: path)
            #expect((a.hasGit, a.hasConfig, a.projects) == (b.hasGit, b.hasConfig, b.projects), "\(directory)")
        }
        #expect(two.facts(of: root.appendingPathComponent("big/app3").path).hasGit)
        #expect(two.facts(of: root.appendingPathComponent("big/app7").path).hasConfig)
        #expect(two.facts(of: root.appendingPathComponent("big/app9").path).projects == ["App.xcodeproj"])
        #expect(two.facts(of: root.appendingPathComponent("x/y").path).hasConfig)
    }

    /// Each directory stays open only while a subdirectory of it waits: none is left open.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func everyDirectoryIsClosed() throws {
        let root = try Self.tree((0..<200).map { "a\($0 % 7)/b\($0)/c/Info.plist" })
        defer { try? FileManager.default.removeItem(at: root) }
        let before = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        for jobs in [1, 2, 5] { #expect(FileDiscovery.walk(root.path, jobs: jobs).count == 200) }
        // Each walk opens 407 directories, so a leak leaves hundreds open; other suites run at
        // the same time and hold a few descriptors (pipes to the tool) too.
        let after = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        #expect(after < before + 100, "\(after - before) more descriptors open")
    }
}
