import Foundation
import Testing
@testable import PlistMigrate

/// What a directory holds, read by a listing (a folder without subfolders and one with them)
/// and recorded from a walk: all must agree, and a run that reads no config must not be told a
/// directory holds one.
@Suite struct DirectoryFactsTests {
    /// `leaf/` holds `.git` (a file, as in a worktree), the config and both project specs;
    /// `parent/` holds the same, `App.xcodeproj/` and the leaf.
    static func tree() throws -> URL {
        let directory = try temporaryDirectory()
        let files = FileManager.default
        for dir in ["parent/leaf", "parent/App.xcodeproj"] {
            try files.createDirectory(at: directory.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        for file in ["parent/leaf/.git", "parent/leaf/\(Config.fileName)", "parent/.git", "parent/\(Config.fileName)",
                     "parent/leaf/project.yml", "parent/leaf/Project.swift", "parent/project.yml", "parent/Project.swift"] {
            try Data("{}".utf8).write(to: directory.appendingPathComponent(file))
        }
        return directory
    }

    @Test(arguments: [true, false])
    func lookUpsListingsAndWalksAgree(looksForConfig: Bool) throws {
        let directory = try Self.tree()
        defer { try? FileManager.default.removeItem(at: directory) }
        let leaf = directory.appendingPathComponent("parent/leaf").path
        let parent = directory.appendingPathComponent("parent").path
        let facts = DirectoryFacts(looksForConfig: looksForConfig)
        for path in [leaf, parent] {
            let read = facts.facts(of: path)
            #expect(read.hasGit, "\(path)")
            #expect(read.hasConfig == looksForConfig, "\(path)")
            #expect(read.projects == (path == parent ? ["App.xcodeproj"] : []), "\(path)")
            #expect(read.specs.sorted() == ["Project.swift", "project.yml"], "\(path)")
            let walked = DirectoryFacts(looksForConfig: looksForConfig)
            walked.record([(path, try FileManager.default.contentsOfDirectory(atPath: path))])
            let recorded = walked.facts(of: path)
            #expect((recorded.hasGit, recorded.hasConfig, recorded.projects) == (read.hasGit, read.hasConfig, read.projects), "\(path)")
            #expect(recorded.specs.sorted() == read.specs.sorted(), "\(path)")
        }
    }
}
