import Foundation
import PlistDOM
import Testing
@testable import PlistMigrate
@testable import Project

/// Xcconfig files read as Xcode 10 and later reads them, and nothing dropped silently.
@Suite struct XCConfigAssignmentsTests {
    func read(_ files: [String: String], _ name: String = "main.xcconfig") throws -> (BuildSettings, [String]) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (file, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(file)) }
        var problems: [String] = []
        let level = XCConfig.read(directory.appendingPathComponent(name).path, display: { ($0 as NSString).lastPathComponent }, problems: &problems)
        return (BuildSettings(levels: [level], builtIns: [:]), problems)
    }

    /// A later assignment's `$(inherited)` is the value of an earlier one, in an included file
    /// or in the same file; `$(NAME)` of itself too (it was a "reference cycle").
    @Test func aLaterAssignmentInheritsTheEarlierOne() throws {
        let (included, _) = try read(["b.xcconfig": "IPHONEOS_DEPLOYMENT_TARGET = 13.0\n",
                                      "main.xcconfig": "#include \"b.xcconfig\"\nIPHONEOS_DEPLOYMENT_TARGET = $(inherited)\n"])
        #expect(included.value("IPHONEOS_DEPLOYMENT_TARGET")?.value == "13.0")
        #expect(included.value("IPHONEOS_DEPLOYMENT_TARGET")?.unresolved.isEmpty == true)
        let (same, _) = try read(["main.xcconfig": "X = 13.0\nX = $(X)\nFLAGS = -a\nFLAGS = ${inherited} -b\n"])
        #expect(same.value("X")?.value == "13.0" && same.value("X")?.unresolved.isEmpty == true)
        #expect(same.value("FLAGS")?.value == "-a -b")
        // Every spelling of the reference, in one line, each replaced once.
        let (mixed, _) = try read(["main.xcconfig": "X = a$\nX = $(inherited)-${inherited}-$(X)-${X}-$(Y)\n"])
        #expect(mixed.value("X")?.value == "a$-a$-a$-a$-" && mixed.value("X")?.unresolved.count == 1, "\(String(describing: mixed.value("X")))")
    }

    /// A chain that doubles its value on every line gives the right value while it is short,
    /// and says it is too long past the limit, never a wrong value.
    @Test func aDoublingChainIsRightOrSaidTooLong() throws {
        let short = "X = ab\n" + String(repeating: "X = $(X)$(X)\n", count: 3)
        let (settings, _) = try read(["main.xcconfig": short])
        #expect(settings.value("X")?.value == String(repeating: "ab", count: 8))
        let long = "X = ab\n" + String(repeating: "X = $(X)$(X)\n", count: 40)
        let (huge, _) = try read(["main.xcconfig": long])
        #expect(huge.value("X")?.value == "" && huge.value("X")?.unresolved.contains { $0.contains("longer than") } == true)
    }

    /// A base configuration file in groups that contain each other: said, not silently lost.
    @Test func aGroupCycleIsSaid() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Paths.fixtures.appendingPathComponent("project")
        try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent("project"))
        let pbxproj = directory.appendingPathComponent("project/App.xcodeproj/project.pbxproj")
        let text = try String(contentsOf: pbxproj, encoding: .utf8)
        // The Config group lists the main group among its children: each contains the other.
        let cyclic = text.replacingOccurrences(of: "\t\t\t\tF1000000000000000000002 /* Widget.xcconfig */,\n",
                                               with: "\t\t\t\tF1000000000000000000002 /* Widget.xcconfig */,\n\t\t\t\tG1000000000000000000001,\n")
        try #require(cyclic != text)
        try cyclic.write(to: pbxproj, atomically: true, encoding: .utf8)
        let targets = try XcodeProjectReader.targets(pbxproj: pbxproj.path, display: { $0 })
        let notes = targets.flatMap(\.unresolved)
        #expect(notes.contains { $0.contains("lies in groups that contain each other (a cycle)") }, "\(notes)")
    }

    /// element-ios (element-hq/element-ios, `Riot/Common.xcconfig`): `#include
    /// "Config/AppIdentifiers.xcconfig"` names a file at the project's root, not beside the
    /// includer; Xcode finds it there. Missing in both places, it is said.
    @Test func anIncludeNotBesideItsIncluderIsFoundInTheProjectsFolder() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for folder in ["Riot", "Config"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data("BASE_BUNDLE_IDENTIFIER = im.vector.app\n".utf8).write(to: directory.appendingPathComponent("Config/AppIdentifiers.xcconfig"))
        try Data("#include \"Config/AppIdentifiers.xcconfig\"\n#include \"Config/Missing.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = $(BASE_BUNDLE_IDENTIFIER)\n".utf8)
            .write(to: directory.appendingPathComponent("Riot/Common.xcconfig"))
        var problems: [String] = []
        let level = XCConfig.read(directory.appendingPathComponent("Riot/Common.xcconfig").path, display: { ($0 as NSString).lastPathComponent },
                                  problems: &problems, projectDir: directory.path)
        #expect(BuildSettings(levels: [level], builtIns: [:]).value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "im.vector.app")
        #expect(problems == ["Missing.xcconfig cannot be read"], "\(problems)")
    }

    /// Sources name files as they are: no `./` or `../` steps (NetNewsWire's
    /// `xcconfig/./NetNewsWire_project.xcconfig`).
    @Test func sourcesNameFilesWithoutDotSteps() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("xcconfig/App"), withIntermediateDirectories: true)
        try Data("SDKROOT = iphoneos\n".utf8).write(to: directory.appendingPathComponent("xcconfig/Common.xcconfig"))
        try Data("#include \"../Common.xcconfig\"\nX = 1\n".utf8).write(to: directory.appendingPathComponent("xcconfig/App/App.xcconfig"))
        var problems: [String] = []
        let level = XCConfig.read(directory.path + "/xcconfig/./App/App.xcconfig", display: { $0 }, problems: &problems)
        #expect(level.values["X"]?.source == directory.standardizedFileURL.path + "/xcconfig/App/App.xcconfig:2")
        #expect(level.values["SDKROOT"]?.source == directory.standardizedFileURL.path + "/xcconfig/Common.xcconfig:1")
    }

    /// Two settings on one line of a `project.pbxproj` both cite that line (the second cited
    /// another line before).
    @Test func settingsSharingALineCiteIt() {
        let text = """
            // !$*UTF8*$!
            {
            \tobjects = {
            \t\tC1 /* Release */ = {
            \t\t\tisa = XCBuildConfiguration;
            \t\t\tbuildSettings = {
            \t\t\t\tSDKROOT = iphoneos;
            \t\t\t\tINFOPLIST_FILE = "App/Info;plist"; IPHONEOS_DEPLOYMENT_TARGET = 15.0; SWIFT_VERSION = 5.0;
            \t\t\t};
            \t\t\tname = Release;
            \t\t};
            \t};
            }
            """
        let lines = PbxprojLines(Array(text.utf8))
        #expect(lines.line(of: "SDKROOT", inObject: "C1") == 7)
        #expect(lines.line(of: "INFOPLIST_FILE", inObject: "C1") == 8)
        #expect(lines.line(of: "IPHONEOS_DEPLOYMENT_TARGET", inObject: "C1") == 8)
        #expect(lines.line(of: "SWIFT_VERSION", inObject: "C1") == 8)
        #expect(lines.line(of: "name", inObject: "C1") == 10)
    }
}

/// A large project is read lean: the objects the reader never looks into are left
/// out of the parse, which still reads and checks every byte of them.
@Suite struct LeanProjectReadTests {
    static let text = """
        // !$*UTF8*$!
        { objects = {
          B1 = {isa = PBXBuildFile; fileRef = F1; };
          F1 = {isa = PBXFileReference; path = A.swift; sourceTree = "<group>"; };
          S1 = {isa = PBXSourcesBuildPhase; files = (B1); };
        }; rootObject = P1; }
        """

    @Test func droppedObjectsAreLeftOutAndTheRestKept() throws {
        let whole = try OpenStepValue(parsing: Array(Self.text.utf8))
        let lean = try OpenStepValue(parsing: Array(Self.text.utf8), dropping: XcodeProjectReader.unread)
        #expect(whole["objects"]?.dictEntries?.map(\.key) == ["B1", "F1", "S1"])
        #expect(lean["objects"]?.dictEntries?.map(\.key) == ["F1"])
        #expect(lean["objects"]?["F1"] == whole["objects"]?["F1"])
        #expect(lean["rootObject"]?.string == "P1")
    }

    @Test func anErrorInADroppedObjectIsStillAnError() {
        let broken = Self.text.replacingOccurrences(of: "fileRef = F1; };", with: "fileRef = F1 };")
        #expect(throws: ParseError.self) { try OpenStepValue(parsing: Array(broken.utf8), dropping: XcodeProjectReader.unread) }
    }

    /// The fixtures read the same either way: every target, Info.plist, deployment target and source.
    @Test func theFixtureProjectsReadAlike() throws {
        for relative in ["project/App.xcodeproj/project.pbxproj", "project-xcode16/Reader.xcodeproj/project.pbxproj",
                         "xcodegen-oracle/TestProject/Project.xcodeproj/project.pbxproj"] {
            let path = Paths.fixtures.appendingPathComponent(relative).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let targets = try XcodeProjectReader.targets(pbxproj: path, display: { $0 })
            #expect(!targets.isEmpty, "\(relative)")
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let whole = try OpenStepValue(parsing: bytes)
            let lean = try OpenStepValue(parsing: bytes, dropping: XcodeProjectReader.unread)
            let kept = Set(lean["objects"]?.dictEntries?.map(\.key) ?? [])
            for (id, object) in whole["objects"]?.dictEntries ?? [] {
                let isa = object["isa"]?.string ?? ""
                #expect(kept.contains(id) != XcodeProjectReader.unread.contains(isa), "\(relative) \(id) \(isa)")
            }
        }
    }
}
