import Foundation
import Testing

/// `plist-migrate targets` shows the model a fleet run will rely on.
@Suite struct TargetsCommandTests {
    @Test func eachTargetWithItsInfoPlistAndDeploymentTargetPerConfiguration() throws {
        let result = try tool(["targets", "Fixtures/project"], in: Paths.repository)
        #expect(result.status == 0)
        let text = result.text
        #expect(text.contains("Fixtures/project/App.xcodeproj/project.pbxproj (xcodeproj)\n"))
        #expect(text.contains("  Widget: app-extension, ios\n    Info.plist: Fixtures/project/Widget/Info.plist\n"
            + "    Debug: ios11.4 from Fixtures/project/Config/Shared.xcconfig:2\n"), "\(text)")
        #expect(text.contains("    Debug: deployment target unknown\n"))
        #expect(text.contains("    not understood: Debug: IPHONEOS_DEPLOYMENT_TARGET (Fixtures/project/App.xcodeproj/project.pbxproj:134): $(KIT_MINIMUM_OS) unknown\n"))
        #expect(text.hasSuffix("plist-migrate targets: 1 project, 4 targets, 1 read only in part\n"), "\(text)")
    }

    @Test func theChainOfInheritedSettingsIsShown() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let project = directory.appendingPathComponent("App.xcodeproj")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data("""
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 56; objects = {
              F1 = {isa = PBXFileReference; path = Widget.xcconfig; sourceTree = "<group>"; };
              G1 = {isa = PBXGroup; children = (F1); sourceTree = "<group>"; };
              T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = Widget; productType = "com.apple.product-type.app-extension"; };
              P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; projectDirPath = ""; targets = (T1); };
              L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
              L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
              C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; }; };
              C2 = {isa = XCBuildConfiguration; name = Release; baseConfigurationReference = F1; buildSettings = { INFOPLIST_FILE = Widget/Info.plist; }; };
            }; rootObject = P1; }
            """.utf8).write(to: project.appendingPathComponent("project.pbxproj"))
        try Data("#include \"Base.xcconfig\"\n// the widget\nIPHONEOS_DEPLOYMENT_TARGET = $(BASE_OS)\n".utf8)
            .write(to: directory.appendingPathComponent("Widget.xcconfig"))
        try Data("// shared\n\n\n\n\n\nBASE_OS = 15.0\n".utf8).write(to: directory.appendingPathComponent("Base.xcconfig"))
        try Data("{ objects = {\n".utf8).write(to: directory.appendingPathComponent("project.yml"))
        let text = try tool(["targets", "."], in: directory)
        #expect(text.status == 0, "a project that cannot be read is said, not a failure")
        #expect(text.text.contains("    Release: ios15.0 from Widget.xcconfig:3 ← Base.xcconfig:7\n"), "\(text.text)")
        #expect(text.text.contains("project.yml (xcodegen)\n  not read: project.yml"), "\(text.text)")
        let json = try #require(try JSONSerialization.jsonObject(with: try tool(["targets", "--format", "json", "."], in: directory).stdout) as? [String: Any])
        let projects = try #require(json["projects"] as? [[String: Any]])
        let widget = try #require((projects.first?["targets"] as? [[String: Any]])?.first)
        #expect(widget["platform"] as? String == "ios" && widget["deploymentTarget"] as? String == "ios15.0")
        #expect(((widget["configurations"] as? [[String: Any]])?.first?["from"] as? [String]) == ["Widget.xcconfig:3", "Base.xcconfig:7"])
        #expect(projects.last?["notRead"] is String)
    }

    @Test func aPlistNamesTheProjectsAroundIt() throws {
        let result = try tool(["targets", "--format", "json", "Fixtures/project/Widget/Info.plist"], in: Paths.repository)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect((json["projects"] as? [[String: Any]])?.map { $0["path"] as? String } == ["Fixtures/project/App.xcodeproj/project.pbxproj"])
    }
}
