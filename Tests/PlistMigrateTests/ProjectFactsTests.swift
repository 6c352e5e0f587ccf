import ATSPolicy
import Foundation
import Testing
@testable import PlistMigrate
@testable import Project
@testable import FileAccess

/// What `targets` and a run say of a project is so: a fact the project leaves open is said
/// unknown, with what left it open, never a default in its place; what is known is given with
/// where it comes from.
@Suite struct ProjectFactsTests {
    /// One target of the generated project: its `isa`, build settings and base configuration.
    struct Target {
        var name: String
        var isa = "PBXNativeTarget"
        var settings = ""
        var base: String? = nil
    }

    static let targets: [Target] = [
        Target(name: "CatalystOld", settings: "IPHONEOS_DEPLOYMENT_TARGET = 12.0; SUPPORTS_MACCATALYST = YES;"),
        Target(name: "CatalystForMac", settings: #"IPHONEOS_DEPLOYMENT_TARGET = 13.0; "IPHONEOS_DEPLOYMENT_TARGET[sdk=macosx*]" = 14.0; SUPPORTS_MACCATALYST = YES;"#),
        Target(name: "Undecided", settings: #"IPHONEOS_DEPLOYMENT_TARGET = 15.0; "IPHONEOS_DEPLOYMENT_TARGET[sdk=iphoneos17*]" = 12.0;"#),
        Target(name: "Driver", settings: "SDKROOT = driverkit; DRIVERKIT_DEPLOYMENT_TARGET = 20.0;"),
        Target(name: "Aggregate", isa: "PBXAggregateTarget"),
        Target(name: "Legacy", isa: "PBXLegacyTarget"),
        Target(name: "MissingBase", settings: "INFOPLIST_FILE = B/Info.plist;", base: "FMISSING"),
        Target(name: "LargeBase", settings: "INFOPLIST_FILE = C/Info.plist;", base: "FLARGE"),
        Target(name: "GroupBase", settings: "IPHONEOS_DEPLOYMENT_TARGET = 15.0;", base: "G1"),
        Target(name: "DefaultOnly", settings: "INFOPLIST_FILE = D/Info.plist;"),
        Target(name: "Nested", settings: #"INFOPLIST_FILE = "$(UNSET:default=$($(WHICH)))/Info.plist"; IPHONEOS_DEPLOYMENT_TARGET = 15.0;"#),
    ]

    /// A folder holding `App.xcodeproj` with `targets` (the project's SDK is iOS), a spec named
    /// `test_project.yml`, and `Large.xcconfig` past the size the tool reads.
    static func workspace() throws -> URL {
        let root = try temporaryDirectory()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        var objects: [String] = []
        for (index, target) in targets.enumerated() {
            objects.append(#"T\#(index) = {isa = \#(target.isa); buildConfigurationList = L\#(index); name = "\#(target.name)"; productType = "com.apple.product-type.application"; };"#)
            objects.append("L\(index) = {isa = XCConfigurationList; buildConfigurations = (C\(index)); };")
            objects.append("C\(index) = {isa = XCBuildConfiguration;\(target.base.map { " baseConfigurationReference = \($0);" } ?? "") "
                + "buildSettings = { \(target.settings) }; name = Release; };")
        }
        objects += [
            #"FMISSING = {isa = PBXFileReference; path = Shared.xcconfig; sourceTree = "<group>"; };"#,
            #"FLARGE = {isa = PBXFileReference; path = Large.xcconfig; sourceTree = "<group>"; };"#,
            #"G1 = {isa = PBXGroup; children = (G1); sourceTree = "<group>"; };"#,
            "PL = {isa = XCConfigurationList; buildConfigurations = (PC); };",
            "PC = {isa = XCBuildConfiguration; buildSettings = { SDKROOT = iphoneos; }; name = Release; };",
            "P1 = {isa = PBXProject; buildConfigurationList = PL; mainGroup = G0; targets = (\(targets.indices.map { "T\($0)" }.joined(separator: ", "))); };",
            #"G0 = {isa = PBXGroup; children = (FMISSING, FLARGE); sourceTree = "<group>"; };"#,
        ]
        try Data(("// !$*UTF8*$!\n{ archiveVersion = 1; objectVersion = 56; objects = {\n" + objects.joined(separator: "\n") + "\n}; rootObject = P1; }\n").utf8)
            .write(to: root.appendingPathComponent("App.xcodeproj/project.pbxproj"))
        // Past the 32 MiB read limit, without writing 32 MiB: a sparse file.
        let large = root.appendingPathComponent("Large.xcconfig")
        _ = FileManager.default.createFile(atPath: large.path, contents: nil)
        let handle = try FileHandle(forWritingTo: large)
        try handle.truncate(atOffset: UInt64(FileIO.maximumSize + 1))
        try handle.close()
        try Data("name: Spec\ntargets:\n  Tool:\n    type: application\n    platform: iOS\n    deploymentTarget: \"16.0\"\n".utf8)
            .write(to: root.appendingPathComponent("test_project.yml"))
        return root
    }

    static func read(_ root: URL) throws -> [String: ProjectTarget] {
        let read = try XcodeProjectReader.targets(pbxproj: root.appendingPathComponent("App.xcodeproj/project.pbxproj").path, display: { $0 })
        return Dictionary(uniqueKeysWithValues: read.map { ($0.name, $0) })
    }

    @Test func eachFactIsSaidAsTheProjectLeavesIt() throws {
        let root = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let targets = try Self.read(root)
        // Mac Catalyst below iOS 13 builds for Mac Catalyst's first macOS, said.
        let old = try #require(targets["CatalystOld"]?.deploymentTarget)
        #expect(old.platforms == ["ios12.0", "macos10.15"])
        #expect(targets["CatalystOld"]?.configurations.first?.platforms.contains { $0.from.contains("Mac Catalyst's first macOS") } == true)
        // The Mac build reads the iOS version with the macOS SDK: `[sdk=macosx*]` counts, cited.
        #expect(targets["CatalystForMac"]?.deploymentTarget?.platforms == ["ios13.0", "macos11.0"])
        #expect(targets["CatalystForMac"]?.configurations.first?.platforms.contains {
            $0.from.contains("IPHONEOS_DEPLOYMENT_TARGET[sdk=macosx*] = 14.0")
        } == true, "\(targets["CatalystForMac"]?.configurations.first?.platforms ?? [])")
        // A condition on the SDK's version: the lowest over both readings is known.
        #expect(targets["Undecided"]?.deploymentTarget?.platforms == ["ios12.0"])
        #expect(targets["Undecided"]?.unresolved.isEmpty == true, "\(targets["Undecided"]?.unresolved ?? [])")
        #expect(targets["Undecided"]?.configurations.first?.chain.first?.contains("also IPHONEOS_DEPLOYMENT_TARGET = 15.0") == true)
        // DriverKit: unknown, and why.
        #expect(targets["Driver"]?.deploymentTarget == nil)
        #expect(targets["Driver"]?.unresolved.contains { $0.contains("DRIVERKIT_DEPLOYMENT_TARGET") && $0.contains("= 20.0: a DriverKit driver") } == true)
        // Targets that build no product are listed, without an Info.plist.
        #expect(targets["Aggregate"]?.productType == "aggregate" && targets["Aggregate"]?.infoPlists == [])
        #expect(targets["Legacy"]?.productType == "external build")
        // A base configuration that cannot be read could set the version: unknown, naming it, not
        // the SDK's default; counted from the platform's first version, the lowest it can be.
        let missing = try #require(targets["MissingBase"]?.configurations.first?.platforms.first)
        #expect(missing.os == "ios" && missing.from.hasPrefix("unknown: no IPHONEOS_DEPLOYMENT_TARGET in the settings read, and ")
            && missing.from.hasSuffix("Shared.xcconfig, which could set it, cannot be read; counted from iOS 9.0"), "\(missing)")
        #expect(targets["MissingBase"]?.deploymentTarget?.platforms == ["ios9.0"])
        #expect(targets["LargeBase"]?.configurations.first?.platforms.first?.from.contains("Large.xcconfig, which could set it") == true)
        #expect(targets["LargeBase"]?.unresolved.contains { $0.contains("Large.xcconfig cannot be read (file too large") } == true,
                "\(targets["LargeBase"]?.unresolved ?? [])")
        // A base configuration reference that names a group says so, not "base configuration file".
        #expect(targets["GroupBase"]?.unresolved.contains { $0.contains("baseConfigurationReference (G1) is a PBXGroup, not a file reference") } == true,
                "\(targets["GroupBase"]?.unresolved ?? [])")
        #expect(targets["GroupBase"]?.unresolved.contains { $0.contains("base configuration file") } == false)
        // Nothing unreadable: the SDK's default.
        #expect(targets["DefaultOnly"]?.deploymentTarget?.platforms == ["ios9.0"])
        #expect(targets["DefaultOnly"]?.configurations.first?.platforms.first?.from.hasPrefix("the SDK's default") == true)
        // A nested reference is named whole.
        #expect(targets["Nested"]?.unresolved.contains { $0.contains("$(UNSET:default=$($(WHICH)))") } == true, "\(targets["Nested"]?.unresolved ?? [])")
    }

    /// `targets` in text: the SDK's default is said for a one-platform configuration as JSON says
    /// it, and a YAML file named is read as the XcodeGen spec it is.
    @Test func targetsSaysWhatItRead() throws {
        let root = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = try tool(["targets", "App.xcodeproj"], in: root).text
        #expect(text.contains("  DefaultOnly: application, ios\n    Info.plist: D/Info.plist\n    Release: ios from the SDK's default (no IPHONEOS_DEPLOYMENT_TARGET; "),
                "\(text)")
        #expect(text.contains("  Aggregate: aggregate\n    Info.plist: none (it builds no product of its own)\n"), "\(text)")
        let spec = try tool(["targets", "test_project.yml"], in: root).text
        #expect(spec.hasPrefix("test_project.yml (xcodegen)\n  Tool: application, ios\n"), "\(spec)")
        #expect(!spec.contains("App.xcodeproj"), "\(spec)")
    }
}
