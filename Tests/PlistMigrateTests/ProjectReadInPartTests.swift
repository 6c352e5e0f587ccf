import Foundation
import Testing
import PlistDOM
@testable import PlistMigrate

/// Never silently wrong. Where the project model cannot read what decides a
/// file's targets or deployment target, the file says so (text and JSON), the summary counts
/// it, conditional settings are evaluated as Xcode does or said, and a project that does not
/// parse is not used at all.
@Suite struct ProjectReadInPartTests {
    static func pbxproj(_ settings: String, projectSettings: String = "") -> String {
        """
        // !$*UTF8*$!
        { archiveVersion = 1; objectVersion = 56; objects = {
          G1 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
          T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = App; productName = App; productType = "com.apple.product-type.application"; };
          P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; projectDirPath = ""; targets = (T1); };
          L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
          L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
          C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; \(projectSettings) }; };
          C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { \(settings) }; };
        }; rootObject = P1; }
        """
    }

    func workspace(_ pbxproj: String, plist: String = "App/Info.plist") throws -> URL {
        let directory = try temporaryDirectory()
        _ = try copyFixture("project/App/Info.plist", to: directory, as: plist)
        let project = directory.appendingPathComponent("App.xcodeproj")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data(pbxproj.utf8).write(to: project.appendingPathComponent("project.pbxproj"))
        return directory
    }

    func report(_ directory: URL) throws -> (file: [String: Any], summary: [String: Any], stderr: String) {
        let result = try tool(["--no-config", "--format", "json", "."], in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        let file = try #require((json["files"] as? [[String: Any]])?.first)
        return (file, json["summary"] as? [String: Any] ?? [:], result.stderr)
    }

    @Test func conditionalSettingsAreEvaluatedForTheDeviceSDK() throws {
        let directory = try workspace(Self.pbxproj("""
            INFOPLIST_FILE = App/Info.plist; IPHONEOS_DEPLOYMENT_TARGET = 12.0;
            "IPHONEOS_DEPLOYMENT_TARGET[sdk=iphoneos*]" = 15.0; "IPHONEOS_DEPLOYMENT_TARGET[sdk=iphonesimulator*]" = 11.0;
            """))
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, _, stderr) = try report(directory)
        #expect((file["deploymentTarget"] as? [String: Any])?["minimumOS"] as? String == "ios15.0", "\(file) \(stderr)")
        #expect(file["projectNotes"] == nil)
    }

    /// Configuration conditions are evaluated; a deployment target with `[arch=…]` values is the
    /// lowest over its architectures (a build for every architecture runs there); an
    /// architecture condition on another setting is undecided, and said.
    @Test func conditionsOnConfigurationAreEvaluatedAndUnknownOnesAreSaid() throws {
        let directory = try workspace(Self.pbxproj("INFOPLIST_FILE = App/Info.plist; IPHONEOS_DEPLOYMENT_TARGET = 12.0; "
            + "\"IPHONEOS_DEPLOYMENT_TARGET[config=Rel*]\" = 14.0; \"IPHONEOS_DEPLOYMENT_TARGET[config=Debug]\" = 10.0;"))
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect((try report(directory).file["deploymentTarget"] as? [String: Any])?["minimumOS"] as? String == "ios14.0")

        let lowest = try workspace(Self.pbxproj("INFOPLIST_FILE = App/Info.plist; IPHONEOS_DEPLOYMENT_TARGET = 12.0; "
            + "\"IPHONEOS_DEPLOYMENT_TARGET[arch=x86_64]\" = 16.0; \"IPHONEOS_DEPLOYMENT_TARGET[arch=arm64]\" = 13.0;"))
        defer { try? FileManager.default.removeItem(at: lowest) }
        let read = try report(lowest)
        let target = try #require(read.file["deploymentTarget"] as? [String: Any], "\(read.file)")
        #expect(target["minimumOS"] as? String == "ios12.0" && read.file["projectNotes"] == nil, "\(read.file)")

        let arch = try workspace(Self.pbxproj("INFOPLIST_FILE = App/Info.plist; IPHONEOS_DEPLOYMENT_TARGET = 12.0; "
            + "\"INFOPLIST_FILE[arch=x86_64]\" = App/Other.plist;"))
        defer { try? FileManager.default.removeItem(at: arch) }
        let (file, summary, stderr) = try report(arch)
        let notes = file["projectNotes"] as? [String] ?? []
        #expect(notes.contains { $0.contains("INFOPLIST_FILE[arch=x86_64] (App.xcodeproj/project.pbxproj:9) not evaluated") }, "\(notes)")
        #expect(summary["projectsReadInPart"] as? Int == 1)
        #expect(stderr.contains("App/Info.plist: note: ") && stderr.contains("INFOPLIST_FILE[arch=x86_64] (App.xcodeproj/project.pbxproj:9) not evaluated"), "\(stderr)")
    }

    /// One target for iOS, macOS and tvOS whose tvOS build reads its own Info.plist
    /// (`"INFOPLIST_FILE[sdk=appletvos*]"`): both files are the target's, each with the
    /// deployment target of its own SDKs (iOS 18 and macOS 15; tvOS 18), and `targets` shows
    /// which SDK reads which. Without a condition per SDK the target claimed neither file.
    @Test func eachSDKReadsItsOwnInfoPlist() throws {
        let directory = try workspace(Self.pbxproj("""
            SDKROOT = auto; SUPPORTED_PLATFORMS = "iphoneos iphonesimulator macosx appletvos appletvsimulator";
            IPHONEOS_DEPLOYMENT_TARGET = 18.0; MACOSX_DEPLOYMENT_TARGET = 15.0; TVOS_DEPLOYMENT_TARGET = 18.0;
            INFOPLIST_FILE = App/Info.plist; "INFOPLIST_FILE[sdk=appletvos*]" = "App/Info-tvOS.plist";
            """))
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("project/App/Info.plist", to: directory, as: "App/Info-tvOS.plist")
        let result = try tool(["--no-config", "--format", "json", "."], in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        var minimum: [String: String] = [:]
        for file in json["files"] as? [[String: Any]] ?? [] {
            minimum[file["path"] as? String ?? ""] = (file["deploymentTarget"] as? [String: Any])?["minimumOS"] as? String
        }
        #expect(minimum["App/Info.plist"] == "ios18.0,macos15.0", "\(minimum) \(result.stderr)")
        #expect(minimum["App/Info-tvOS.plist"] == "tvos18.0", "\(minimum) \(result.stderr)")
        let targets = try tool(["targets", "."], in: directory)
        #expect(targets.text.contains("[sdk=iphoneos,macosx] App/Info.plist from App.xcodeproj/project.pbxproj:11: ios18.0,macos15.0"), "\(targets.text)")
        #expect(targets.text.contains("[sdk=appletvos] App/Info-tvOS.plist from App.xcodeproj/project.pbxproj:11: tvos18.0"), "\(targets.text)")
        #expect(!targets.text.contains("not understood"), "\(targets.text)")
    }

    /// `INFOPLIST_FILE = "app/Supporting Files/Info.plist"` where the folder is `App/`: a Mac's
    /// file system ignores case by default and Xcode finds the file, so the target claims it,
    /// with a note; `targets` says the match. Before, no target named the file and the run fell
    /// back to the lowest deployment target around it.
    @Test func anInfoPlistNamedInAnotherCaseIsClaimedWithANote() throws {
        let directory = try workspace(Self.pbxproj("INFOPLIST_FILE = \"app/Supporting Files/Info.plist\"; IPHONEOS_DEPLOYMENT_TARGET = 16.0;"),
                                      plist: "App/Supporting Files/Info.plist")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, _, stderr) = try report(directory)
        #expect((file["deploymentTarget"] as? [String: Any])?["minimumOS"] as? String == "ios16.0", "\(file) \(stderr)")
        let source = (file["deploymentTarget"] as? [String: Any])?["source"] as? String ?? ""
        #expect(source.contains("its INFOPLIST_FILE names app/Supporting Files/Info.plist, which is this file in another case"), "\(file)")
        #expect(file["projectNotes"] == nil, "\(file)")
        let text = try tool(["--no-config", "."], in: directory)
        #expect(text.stderr.contains("note: target App (App.xcodeproj/project.pbxproj): its INFOPLIST_FILE names app/Supporting Files/Info.plist"), "\(text.stderr)")
        let targets = try tool(["targets", "."], in: directory)
        #expect(targets.text.contains("app/Supporting Files/Info.plist (not on disk as written; App/Supporting Files/Info.plist matches it case-insensitively"),
                "\(targets.text)")
        // JSON keeps the path as written, and names the match beside it.
        let json = try tool(["targets", "--format", "json", "."], in: directory)
        let record = try #require(((try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])?["projects"] as? [[String: Any]])?
            .first?["targets"] as? [[String: Any]])
        #expect(record.first?["infoPlists"] as? [String] == ["app/Supporting Files/Info.plist"], "\(record)")
        #expect(record.first?["caseInsensitiveMatches"] as? [String: String] == ["app/Supporting Files/Info.plist": "App/Supporting Files/Info.plist"], "\(record)")
    }

    /// A plist no target of an XcodeGen spec claims takes the spec's lowest deployment target,
    /// and the summary counts it from `project.yml` (it said "from Info.plist").
    @Test func aDeploymentTargetFromAnXcodeGenSpecIsCountedFromIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("name: App\ntargets:\n  Ext:\n    type: app-extension\n    platform: iOS\n    deploymentTarget: \"15.0\"\n    info:\n      path: Ext/Info.plist\n".utf8)
            .write(to: directory.appendingPathComponent("project.yml"))
        _ = try copyFixture("project/App/Info.plist", to: directory, as: "Other/Info.plist")
        let result = try tool(["--no-config", "--format", "json", "."], in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        let sources = (json["summary"] as? [String: Any])?["deploymentTargetSources"] as? [String: Int]
        #expect(sources == ["project.yml": 1], "\(String(describing: sources)) \(result.stderr)")
        let text = try tool(["--no-config", "."], in: directory)
        #expect(text.stderr.contains("deployment target: 1 from project.yml"), "\(text.stderr)")
    }

    @Test func xcconfigConditionsAndLinesAreRead() throws {
        let directory = try workspace("""
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 56; objects = {
              F1 = {isa = PBXFileReference; path = App.xcconfig; sourceTree = "<group>"; };
              G1 = {isa = PBXGroup; children = (F1); sourceTree = "<group>"; };
              T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = App; productName = App; productType = "com.apple.product-type.application"; };
              P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; projectDirPath = ""; targets = (T1); };
              L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
              L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
              C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; }; };
              C2 = {isa = XCBuildConfiguration; name = Release; baseConfigurationReference = F1; buildSettings = { INFOPLIST_FILE = App/Info.plist; }; };
            }; rootObject = P1; }
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("// App\nIPHONEOS_DEPLOYMENT_TARGET = 12.0\nIPHONEOS_DEPLOYMENT_TARGET[sdk=iphoneos*] = 16.0\n".utf8)
            .write(to: directory.appendingPathComponent("App.xcconfig"))
        let target = try report(directory).file["deploymentTarget"] as? [String: Any]
        #expect(target?["minimumOS"] as? String == "ios16.0")
        #expect(target?["source"] as? String == "App (App.xcconfig:3)", "\(String(describing: target))")
    }

    @Test func aFileNoTargetClaimsSaysWhy() throws {
        let directory = try workspace(Self.pbxproj("INFOPLIST_FILE = Other/Info.plist; IPHONEOS_DEPLOYMENT_TARGET = 12.0;"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, summary, stderr) = try report(directory)
        #expect((file["projectNotes"] as? [String]) == ["no target of App.xcodeproj/project.pbxproj names this file as its Info.plist"])
        #expect(summary["projectsReadInPart"] as? Int == 1)
        let text = try tool(["--no-config", "."], in: directory)
        #expect(text.stderr.contains("1 file in projects read only in part"), "\(text.stderr)")
        _ = stderr
    }

    @Test func anUnresolvedInfoPlistFileIsNamed() throws {
        let directory = try workspace(Self.pbxproj("INFOPLIST_FILE = \"$(APP_DIR)/Info.plist\"; IPHONEOS_DEPLOYMENT_TARGET = 12.0;"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = try report(directory).file["projectNotes"] as? [String] ?? []
        #expect(notes == ["no target of App.xcodeproj/project.pbxproj is known to name this file; INFOPLIST_FILE not resolved for App: Release: INFOPLIST_FILE (App.xcodeproj/project.pbxproj:9): $(APP_DIR) unknown"],
                "\(notes)")
    }

    /// A project that does not parse gives nothing: before, a line scan of it gave iOS 15.
    @Test func aProjectThatDoesNotParseIsNotUsed() throws {
        let directory = try workspace("{ objects = { IPHONEOS_DEPLOYMENT_TARGET = 15.0; \n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, _, _) = try report(directory)
        #expect((file["deploymentTarget"] as? [String: Any])?["source"] as? String == "unknown", "\(file)")
        #expect((file["projectNotes"] as? [String])?.first?.hasPrefix("project not read: App.xcodeproj/project.pbxproj:") == true)
    }

    /// The nearest project's fallback comes from the model: its targets' resolved settings.
    @Test func theNearestProjectFallbackIsTheModels() throws {
        let directory = try workspace(Self.pbxproj("INFOPLIST_FILE = Other/Info.plist; IPHONEOS_DEPLOYMENT_TARGET = \"$(inherited)\";",
                                                   projectSettings: "IPHONEOS_DEPLOYMENT_TARGET = 13.0;"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = try report(directory).file["deploymentTarget"] as? [String: Any]
        #expect(target?["minimumOS"] as? String == "ios13.0" && target?["source"] as? String == "App.xcodeproj/project.pbxproj", "\(String(describing: target))")
    }

    /// An XcodeGen include that cannot be read is named on a file no target claims.
    @Test func aMissingIncludeIsSaidOnAnUnclaimedFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try copyFixture("project/App/Info.plist", to: directory, as: "App/Info.plist")
        try Data("name: App\ninclude: [Targets/app.yml, Targets/kit.yml]\n".utf8).write(to: directory.appendingPathComponent("project.yml"))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Targets"), withIntermediateDirectories: true)
        try Data("targets:\n  Kit: {type: framework, platform: iOS, info: {path: Kit/Info.plist}}\n".utf8)
            .write(to: directory.appendingPathComponent("Targets/kit.yml"))
        let notes = try report(directory).file["projectNotes"] as? [String] ?? []
        #expect(notes.count == 1 && notes[0].hasPrefix("no target of project.yml names this file as its Info.plist; project.yml read in part: include: "),
                "\(notes)")
        #expect(notes.first?.contains("Targets/app.yml cannot be read") == true)
        // With no target left at all, the spec is said unread.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Targets/kit.yml"))
        let unread = try report(directory).file["projectNotes"] as? [String] ?? []
        #expect(unread.first?.hasPrefix("project not read: project.yml: error: include: ") == true, "\(unread)")
    }

    @Test func anEscapedSurrogatePairIsOneCharacter() throws {
        let value = try OpenStepValue(parsing: Array("{ a = \"x\\UD83D\\UDE00y\"; }".utf8))
        #expect(value["a"] == .string("x😀y"))
        #expect(throws: ParseError.self) { try OpenStepValue(parsing: Array("{ b = \"\\UD83Dz\"; }".utf8)) }
    }
}
