import Foundation
import Testing
import PlistDOM
@testable import PlistMigrate
@testable import FileAccess

/// `plist-migrate edit`: PlistBuddy's commands and entry syntax, every other byte kept, and
/// nothing written when a command fails.
@Suite struct EditCommandTests {
    static let input = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleVersion</key>
        \t<string>41</string> <!-- CI bumps this -->
        \t<key>Build</key>
        \t<integer>7</integer>
        \t<key>UIRequiredDeviceCapabilities</key>
        \t<array>
        \t\t<string>armv7</string>
        \t\t<string>metal</string>
        \t</array>
        \t<key>a:b</key>
        \t<true/>
        </dict>
        </plist>

        """.utf8)

    static func edit(_ commands: [String]) throws -> PlistEditor.Outcome {
        try PlistEditor.run(try commands.map { try BuddyCommand(parsing: $0) }, on: input)
    }

    @Test(arguments: [
        ("Print", BuddyCommand.print(BuddyEntry(components: []))),
        ("Set :CFBundleName My App", .set(BuddyEntry(components: ["CFBundleName"]), "My App")),
        ("Add :CFBundleDocumentTypes: dict", .add(BuddyEntry(parsing: ":CFBundleDocumentTypes:"), .dict, nil)),
        ("add :X string \"App version 1.0.1\"", .add(BuddyEntry(components: ["X"]), .string, "App version 1.0.1")),
        ("Delete :CFBundleDocumentTypes:0 dict", .delete(BuddyEntry(components: ["CFBundleDocumentTypes", "0"]))),
        ("Print ':New item:a\\:b'", .print(BuddyEntry(components: ["New item", "a:b"]))),
    ])
    func commandsParseAsPlistBuddyWritesThem(_ line: String, _ expected: BuddyCommand) throws {
        #expect(try BuddyCommand(parsing: line) == expected)
    }

    @Test func appendingEntriesEndWithAColon() {
        #expect(BuddyEntry(parsing: ":A:").appends && BuddyEntry(parsing: ":A:").components == ["A"])
        #expect(!BuddyEntry(parsing: ":").appends && BuddyEntry(parsing: ":").components.isEmpty)
        #expect(!BuddyEntry(parsing: ":a\\:").appends && BuddyEntry(parsing: ":a\\:").components == ["a:"])
    }

    @Test(arguments: ["Frob :X", "Set :X", "Add :X strang", "Add :X dict {}", "Delete :A :B", ""])
    func malformedCommandsAreRejected(_ line: String) {
        #expect(throws: BuddyCommand.SyntaxError.self) { try BuddyCommand(parsing: line) }
    }

    @Test func setKeepsTheTypeAndEveryOtherByte() throws {
        let outcome = try Self.edit(["Set :CFBundleVersion 42", "Set :Build 8", "Set :a\\:b NO"])
        let expected = String(decoding: Self.input, as: UTF8.self)
            .replacingOccurrences(of: "<string>41</string>", with: "<string>42</string>")
            .replacingOccurrences(of: "<integer>7</integer>", with: "<integer>8</integer>")
            .replacingOccurrences(of: "<true/>", with: "<false/>")
        #expect(String(decoding: outcome.output, as: UTF8.self) == expected)
        #expect(outcome.editCount == 3)
    }

    /// A key written twice (a real app's theme plist had one): Delete removes every copy, as
    /// PlistBuddy leaves the file, and every other byte stays; it was an internal error.
    @Test func deleteRemovesEveryCopyOfAKeyWrittenTwice() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
            + "\t<key>a</key>\n\t<string>first</string>\n\t<key>b</key>\n\t<true/>\n"
            + "\t<key>a</key>\n\t<string>second</string>\n</dict>\n</plist>\n"
        let file = directory.appendingPathComponent("Theme.plist")
        try Data(text.utf8).write(to: file)
        let result = try tool(["edit", "Theme.plist", "-c", "Delete :a"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("internal error"), "\(result.stderr)")
        let expected = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
            + "\t<key>b</key>\n\t<true/>\n</dict>\n</plist>\n"
        #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self) == expected)
    }

    /// `--command` is `-c`'s long form (the one SwiftPM's command plugin passes on), in both
    /// spellings, in order with `-c`.
    @Test func theLongFormOfDashCIsCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.input).write(to: directory.appendingPathComponent("Info.plist"))
        let result = try tool(["edit", "Info.plist", "--command", "Set :Build 8", "-c", "Set :Build 9", "--command=Set :CFBundleVersion 42"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let written = String(decoding: try Data(contentsOf: directory.appendingPathComponent("Info.plist")), as: UTF8.self)
        #expect(written.contains("<integer>9</integer>") && written.contains("<string>42</string>"), "\(written)")
        // A dry run by the long form: the diff, nothing written.
        let parsed = try tool(["edit", "Info.plist", "--dry-run", "--command", "Set :Build -1"], in: directory)
        #expect(parsed.status == 0, "\(parsed.stderr)")
        #expect(parsed.text.contains("+\t<integer>-1</integer>"), "\(parsed.text)")
    }

    @Test func addAndDeleteWorkOnArraysByPositionAndAtTheEnd() throws {
        let outcome = try Self.edit([
            "Delete :UIRequiredDeviceCapabilities:0", "Add :UIRequiredDeviceCapabilities: string arm64",
            "Add :UIRequiredDeviceCapabilities:0 string gamekit", "Add :Extra dict", "Add :Extra:When date 2026-01-31T12:00:00Z",
            "Print :UIRequiredDeviceCapabilities", "Print :Extra",
        ])
        #expect(try PlistDocument(parsing: outcome.output).value == .dict([
            "CFBundleVersion": .string("41"), "Build": .integer(7), "a:b": .bool(true),
            "UIRequiredDeviceCapabilities": .array([.string("gamekit"), .string("metal"), .string("arm64")]),
            "Extra": .dict(["When": .date("2026-01-31T12:00:00Z")]),
        ]))
        #expect(outcome.printed == ["Array {\n    gamekit\n    metal\n    arm64\n}", "Dict {\n    When = 2026-01-31T12:00:00Z\n}"])
        #expect(String(decoding: outcome.output, as: UTF8.self).contains(
            "\t<array>\n\t\t<string>gamekit</string>\n\t\t<string>metal</string>\n\t\t<string>arm64</string>\n\t</array>\n"))
    }

    @Test(arguments: [
        ("Set :Missing 1", "Set :Missing: Missing does not exist in :", 3),
        ("Set :UIRequiredDeviceCapabilities x", "Set :UIRequiredDeviceCapabilities: cannot set an array; Delete it and Add it again", 9),
        ("Set :Build seven", "Set :Build: \"seven\" is not an integer", 7),
        ("Add :Build integer 1", "Add :Build: the entry already exists", 6),
        ("Add :UIRequiredDeviceCapabilities:5 string x", "Add :UIRequiredDeviceCapabilities:5: :UIRequiredDeviceCapabilities is an array of 2 items; give a position from 0 to 2, or end with :", 9),
        ("Delete :Build:0", "Delete :Build:0: :Build is an integer, not a dict or array", 7),
        ("Add :When date tomorrow", "Add :When: \"tomorrow\" is not a date that exists (ISO 8601 UTC, e.g. 2026-01-31T12:00:00Z)", 3),
    ])
    func aCommandThatCannotRunSaysWhereAndStopsEverything(_ command: String, _ message: String, _ line: Int) throws {
        do {
            _ = try Self.edit(["Set :CFBundleVersion 42", command])
            Issue.record("accepted \(command)")
        } catch let error as FileError {
            #expect(error.message == message)
            #expect(error.location?.line == line)
        }
    }

    @Test func theCommandWritesAtomicallyShowsTheDiffOnADryRunAndWritesNothingOnFailure() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Info.plist")
        try Data(Self.input).write(to: file)
        let dry = try tool(["edit", "Info.plist", "--dry-run", "-c", "Set :CFBundleVersion 42"], in: directory)
        #expect(dry.status == 0)
        #expect(dry.text.contains("-\t<string>41</string> <!-- CI bumps this -->\n+\t<string>42</string> <!-- CI bumps this -->\n"))
        #expect(Array(try Data(contentsOf: file)) == Self.input)
        let check = try tool(["edit", "Info.plist", "--check", "-c", "Set :CFBundleVersion 42"], in: directory)
        #expect(check.status == 1)

        let failed = try tool(["edit", "Info.plist", "-c", "Set :CFBundleVersion 42", "-c", "Delete :Nope"], in: directory)
        #expect(failed.status == 2)
        #expect(failed.stderr == "Info.plist:3:1: error: Delete :Nope: Nope does not exist in :\n")
        #expect(Array(try Data(contentsOf: file)) == Self.input)

        let written = try tool(["edit", "Info.plist", "-c", "Set :CFBundleVersion 42", "-c", "Print :CFBundleVersion"], in: directory)
        #expect(written.status == 0)
        #expect(written.text == "42\n")
        #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self)
            == String(decoding: Self.input, as: UTF8.self).replacingOccurrences(of: ">41<", with: ">42<"))
        #expect(try tool(["edit", "Info.plist", "-c", "Frob"], in: directory).status == 64)
    }
}
