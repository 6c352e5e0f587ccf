import Foundation
import Testing

/// A dry run's summary is followed by what to run next: how to write what it showed, and how to
/// include what it held back for its policy change. A run that writes, checks or is quiet says
/// neither.
@Suite struct NextStepTests {
    static let write = "plist-migrate: to write this file, run the same command with --write"
    static let heldBack = "plist-migrate: 1 file has a pass held back because it would change what the app may load; "
        + "review it (the note above names it), then add --allow-policy-change to include it"

    @Test func aDryRunNamesTheNextCommands() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try copyFixture("demo/ShopApp/Info.plist", to: root, as: "App/Info.plist")
        _ = try copyFixture("demo/ShopApp-Dev/Info.plist", to: root, as: "Dev/Info.plist")
        let dry = try tool(["--no-config", "."], in: root)
        let lines = dry.stderr.split(separator: "\n").map(String.init)
        #expect(lines.suffix(2) == [Self.write, Self.heldBack], "\(dry.stderr)")
        // Following the advice: with --allow-policy-change nothing is held back, two files change.
        let all = try tool(["--no-config", "--allow-policy-change", "."], in: root)
        #expect(all.stderr.split(separator: "\n").last == "plist-migrate: to write these 2 files, run the same command with --write", "\(all.stderr)")
        for arguments in [["--check"], ["--quiet"], ["--write"]] {
            let result = try tool(["--no-config"] + arguments + ["."], in: root)
            #expect(!result.stderr.contains("to write") && !result.stderr.contains("add --allow-policy-change to include them"), "\(arguments): \(result.stderr)")
        }
        let done = try tool(["--no-config", "."], in: root)
        #expect(!done.stderr.contains("to write"), "nothing left to write: \(done.stderr)")
    }
}

/// A project whose CocoaPods configuration files are not there yet (a fresh clone, before
/// `pod install`): one sentence per target saying so, why, and what it means for the result,
/// not a list of every missing file.
@Suite struct CocoaPodsNoteTests {
    @Test func missingPodsSettingsAreOneSentence() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("project-conditions/universal-monorepo"), to: root.appendingPathComponent("app"))
        let result = try tool(["--no-config", "app"], in: root)
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("CocoaPods") }
        #expect(notes.count == 2, "one per target's Info.plist: \(result.stderr)")
        #expect(notes.allSatisfy { $0.contains("its CocoaPods settings are not here (2 configuration files under Pods/Target Support Files/, which `pod install` makes)") }, "\(notes)")
        #expect(!result.stderr.contains(".debug.xcconfig cannot be read"), "the files are not listed one by one: \(result.stderr)")
        #expect(notes.allSatisfy { $0.count < 400 }, "shorter than the list of files it replaces: \(notes.map(\.count))")
    }
}
