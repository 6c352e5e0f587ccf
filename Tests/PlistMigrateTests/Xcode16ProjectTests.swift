import Foundation
import Testing
@testable import PlistMigrate
@testable import Project

/// An Xcode 16 project (objectVersion 77) whose targets take their settings from
/// xcconfig files inside a synchronized folder (`baseConfigurationReferenceAnchor` +
/// `baseConfigurationReferenceRelativePath`), with exception sets, a target that generates its
/// Info.plist and one with a partial `INFOPLIST_FILE`: `Fixtures/project-xcode16/`, shaped on
/// XcodeProj's `Xcode16*` fixtures and Xcode 26's new-project template (26.1 at project level).
@Suite struct Xcode16ProjectTests {
    static let pbxproj = Paths.fixtures.appendingPathComponent("project-xcode16/Reader.xcodeproj/project.pbxproj")

    @Test func anchoredXcconfigsDecideTheTargets() throws {
        let targets = Dictionary(uniqueKeysWithValues: try XcodeProjectReader.targets(pbxproj: Self.pbxproj.path, display: { $0 }).map { ($0.name, $0) })
        let folder = Paths.fixtures.appendingPathComponent("project-xcode16").path
        #expect(targets["Reader"]?.infoPlists == [folder + "/Reader/Info.plist"])
        #expect(targets["Reader"]?.deploymentTarget?.platforms == ["ios15.0"], "the xcconfig's 15.0, not the project's 26.1")
        #expect(targets["Reader"]?.deploymentTarget?.source == "Reader (\(folder)/Reader/Config/Base.xcconfig:3)")
        #expect(targets["ShareExtension"]?.deploymentTarget?.platforms == ["ios16.0"])
        #expect(targets["ShareExtension"]?.synchronizedFolders == [folder + "/ShareExtension (except Info.plist)"])
        #expect(targets["Widget"]?.generatesInfoPlist == true && targets["Widget"]?.infoPlists == [])
        #expect(targets["Mac"]?.generatesInfoPlist == false && targets["Mac"]?.infoPlists == [folder + "/Mac/Info.plist"], "a partial Info.plist is claimed")
        #expect(targets["Mac"]?.platform == "macos" && targets["Mac"]?.deploymentTarget?.platforms == ["macos13.0"])
        #expect(targets.values.allSatisfy { $0.unresolved.isEmpty })
    }

    @Test func aRunClaimsEachInfoPlistAndSaysWhyTheWidgetsIsNone() throws {
        let result = try tool(["--no-config", "--format", "json", "Fixtures/project-xcode16"], in: Paths.repository)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        let files = (json["files"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) { $0[$1["path"] as? String ?? ""] = $1 }
        func target(_ path: String) -> String? { (files[path]?["deploymentTarget"] as? [String: Any])?["minimumOS"] as? String }
        #expect(target("Fixtures/project-xcode16/Reader/Info.plist") == "ios15.0")
        #expect(target("Fixtures/project-xcode16/ShareExtension/Info.plist") == "ios16.0")
        #expect(target("Fixtures/project-xcode16/Mac/Info.plist") == "macos13.0")
        let widget = files["Fixtures/project-xcode16/Widget/Info.plist"]?["projectNotes"] as? [String]
        #expect(widget == ["no target of Fixtures/project-xcode16/Reader.xcodeproj/project.pbxproj names this file as its Info.plist "
            + "(Widget generates its Info.plist at build time)"], "\(String(describing: widget))")
    }

    @Test func targetsShowsTheSynchronizedFolders() throws {
        let text = try tool(["targets", "Fixtures/project-xcode16"], in: Paths.repository).text
        #expect(text.contains("  Widget: app-extension, ios\n    Info.plist: generated at build time (GENERATE_INFOPLIST_FILE), no file\n"
            + "    synchronized folder: Fixtures/project-xcode16/Widget\n"), "\(text)")
        #expect(text.contains("    Debug: ios15.0 from Fixtures/project-xcode16/Reader/Config/Base.xcconfig:3\n"))
    }
}
