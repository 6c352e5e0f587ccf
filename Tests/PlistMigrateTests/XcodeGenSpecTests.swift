import Foundation
import Testing
@testable import PlistMigrate
@testable import Project
@testable import FileAccess

/// What decides a target's Info.plist and deployment target follows XcodeGen —
/// each feature on a spec of its own, the expected values worked out from XcodeGen's rules.
@Suite struct XcodeGenSpecTests {
    func read(_ files: [String: String]) throws -> [String: ProjectTarget] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let targets = try XcodeGenReader.targets(projectYML: directory.appendingPathComponent("project.yml").path) {
            $0.hasPrefix(directory.path + "/") ? String($0.dropFirst(directory.path.count + 1)) : $0
        }
        return Dictionary(uniqueKeysWithValues: targets.map { target in
            var copy = target
            copy.infoPlists = target.infoPlists.map { $0.hasPrefix(directory.path + "/") ? String($0.dropFirst(directory.path.count + 1)) : $0 }
            return (target.name, copy)
        })
    }

    @Test func includesWithRelativePathsAndTemplatesWithTheirTargetName() throws {
        let targets = try read([
            "project.yml": """
                name: Messenger
                include: [Targets/app.yml, {path: Targets/ext.yml, relativePaths: false}]
                options: {deploymentTarget: {iOS: "14.0"}}
                """,
            "Targets/app.yml": """
                targets:
                  Messenger:
                    type: application
                    platform: iOS
                    info: {path: App/Info.plist}
                """,
            "Targets/ext.yml": """
                targetTemplates:
                  Extension:
                    type: app-extension
                    platform: iOS
                    deploymentTarget: "15.0"
                    info: {path: "Extensions/${target_name}/Info.plist"}
                targets:
                  Share: {templates: [Extension]}
                  Notify: {templates: [Extension], deploymentTarget: "16.0"}
                """,
        ])
        #expect(targets["Messenger"]?.infoPlists == ["Targets/App/Info.plist"], "paths in an included file are relative to it")
        #expect(targets["Messenger"]?.deploymentTarget?.platforms == ["ios14.0"], "options.deploymentTarget")
        #expect(targets["Share"]?.infoPlists == ["Extensions/Share/Info.plist"], "relativePaths: false, ${target_name}")
        #expect(targets["Share"]?.deploymentTarget?.platforms == ["ios15.0"])
        #expect(targets["Notify"]?.deploymentTarget?.platforms == ["ios16.0"], "the target wins over its template")
        #expect(targets["Messenger"]?.productType == "application" && targets["Share"]?.productType == "app-extension")
    }

    @Test func settingGroupsConfigVariantsAndConfigFiles() throws {
        let targets = try read([
            "project.yml": """
                name: App
                configs: {Debug: debug, Release: release, Beta Release: release}
                configFiles: {Debug: Config/Project.xcconfig}
                settingGroups:
                  legacy: {IPHONEOS_DEPLOYMENT_TARGET: "12.0"}
                targets:
                  App:
                    type: application
                    platform: iOS
                    configFiles: {Release: Config/App-Release.xcconfig}
                    settings:
                      groups: [legacy]
                      base: {INFOPLIST_FILE: App/Info.plist}
                      configs:
                        beta: {IPHONEOS_DEPLOYMENT_TARGET: "11.0"}
                """,
            "Config/Project.xcconfig": "IPHONEOS_DEPLOYMENT_TARGET = 9.0\n",
            "Config/App-Release.xcconfig": "INFOPLIST_FILE = Release/Info.plist\n",
        ])
        let app = try #require(targets["App"])
        let configurations = Dictionary(uniqueKeysWithValues: app.configurations.map { ($0.name, $0) })
        #expect(configurations["Debug"]?.deploymentTarget == "ios12.0", "the group over the project's config file")
        #expect(configurations["Beta Release"]?.deploymentTarget == "ios11.0", "a variant the configuration's name contains")
        #expect(configurations["Release"]?.deploymentTarget == "ios12.0")
        #expect(configurations["Release"]?.infoPlist == "App/Info.plist", "the target's setting over its config file")
        #expect(app.deploymentTarget?.platforms == ["ios11.0"], "the lowest configuration")
    }

    @Test func multiplatformTargetsAndSupportedDestinations() throws {
        let targets = try read([
            "project.yml": """
                name: Kit
                targets:
                  Kit:
                    type: framework
                    platform: [iOS, macOS]
                    deploymentTarget: {iOS: "13.0", macOS: "11.0"}
                    info: {path: "Kit/${platform}/Info.plist"}
                  Universal:
                    type: application
                    supportedDestinations: [iOS, macOS]
                    deploymentTarget: "15.0"
                    sources: [Universal]
                """,
            "Universal/Sources/Info.plist": "<plist/>",
        ])
        #expect(targets["Kit_iOS"]?.infoPlists == ["Kit/iOS/Info.plist"] && targets["Kit_iOS"]?.deploymentTarget?.platforms == ["ios13.0"])
        #expect(targets["Kit_macOS"]?.infoPlists == ["Kit/macOS/Info.plist"] && targets["Kit_macOS"]?.deploymentTarget?.platforms == ["macos11.0"])
        #expect(targets["Kit_macOS"]?.platform == "macos")
        #expect(targets["Universal"]?.infoPlists == ["Universal/Sources/Info.plist"], "found among the sources")
        #expect(Set(targets["Universal"]?.deploymentTarget?.platforms ?? []) == ["ios15.0", "macos15.0"], "one per destination")
    }

    @Test func anchorsAndMergeKeysAreRead() throws {
        let targets = try read([
            "project.yml": """
                name: App
                x-base: &base {type: application, platform: iOS, deploymentTarget: "14.0"}
                targets:
                  App:
                    <<: *base
                    info: {path: App/Info.plist}
                """,
        ])
        #expect(targets["App"]?.deploymentTarget?.platforms == ["ios14.0"] && targets["App"]?.infoPlists == ["App/Info.plist"])
    }

    @Test func duplicateKeysAndMissingIncludesAreSaid() throws {
        #expect(throws: FileError.self) {
            try read(["project.yml": "name: A\ntargets:\n  App: {type: application}\n  App: {type: framework}\n"])
        }
        let targets = try read([
            "project.yml": "name: A\ninclude: [missing.yml]\ntargets:\n  App: {type: application, platform: iOS, info: {path: A/Info.plist}}\n",
        ])
        #expect(targets["App"]?.unresolved.contains { $0.hasPrefix("include: ") && $0.contains("missing.yml cannot be read") } == true, "\(targets["App"]?.unresolved ?? [])")
    }
}
