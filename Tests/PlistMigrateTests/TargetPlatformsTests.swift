import ATSPolicy
import Foundation
import Testing
@testable import PlistMigrate
@testable import Project
@testable import FileAccess

/// Every platform a target builds for, with its version. `Fixtures/project-platforms`
/// holds the settings of real targets (its README names each source).
@Suite struct TargetPlatformsTests {
    static let targets: [String: ProjectTarget] = {
        let path = Paths.fixtures.appendingPathComponent("project-platforms/Platforms.xcodeproj/project.pbxproj").path
        let read = (try? XcodeProjectReader.targets(pbxproj: path, display: { $0 })) ?? []
        return Dictionary(uniqueKeysWithValues: read.map { ($0.name, $0) })
    }()

    /// sushitrain: SUPPORTED_PLATFORMS adds macOS 15.0 to iOS, whatever SDKROOT says.
    @Test func supportedPlatformsAddMacOS() {
        let target = Self.targets["Synctrain"]
        #expect(target?.deploymentTarget?.platforms == ["ios12.0", "macos15.0"])
        #expect(target?.platform == "ios, macos")
    }

    /// vlc-ios: a visionOS target under an iOS project is visionOS 1.0 only, not iOS 12.0.
    @Test func aVisionOSTargetIsNotReadAsIOS() {
        let target = Self.targets["VLC-visionOS"]
        #expect(target?.deploymentTarget?.platforms == ["visionos1.0"])
        #expect(target?.deploymentTarget?.minimumEra == .ios17)
        #expect(target?.platform == "visionos")
    }

    /// Pocket Casts' watch app: watchOS 8.0 is known (it was "unknown" with no note), in the
    /// iOS 14 era (watchOS 7–9 shipped with iOS 14–16).
    @Test func aWatchAppHasItsWatchOSVersion() {
        let target = Self.targets["WatchApp"]
        #expect(target?.deploymentTarget?.platforms == ["watchos8.0"])
        #expect(target?.deploymentTarget?.minimumEra == .ios14)
        #expect(target?.unresolved.isEmpty == true)
    }

    /// SUPPORTS_MACCATALYST = YES: macOS from the iOS deployment target through Xcode's version
    /// map (the macOS SDK's SDKSettings.json), minors included; a version past the map is said.
    @Test func macCatalystDerivesMacOSFromIOS() {
        #expect(Self.targets["CatalystApp"]?.deploymentTarget?.platforms == ["ios16.0", "macos13.0"])
        #expect(Self.targets["CatalystApp185"]?.deploymentTarget?.platforms == ["ios18.5", "macos15.5"], "macOS 15.5, not 15.0")
        let next = Self.targets["CatalystAppNext"]
        #expect(next?.deploymentTarget?.platforms == ["ios27.0"])
        #expect(next?.unresolved.contains { $0.contains("Mac Catalyst at iOS 27.0 is past the tool's version map") } == true, "\(next?.unresolved ?? [])")
    }

    /// The map's rows as the SDK gives them (each pair read in Xcode's SDKSettings.json), the
    /// nearest earlier row for a version it does not list, and its reverse.
    @Test(arguments: [("13.1", "10.15"), ("13.4", "10.15.4"), ("14.1", "11.0"), ("15.1", "12.0"), ("15.6", "12.5"), ("16.4", "13.3"),
                      ("17.2", "14.2"), ("17.5", "14.5"), ("18.5", "15.5"), ("26.1", "26.1"), ("26.1.1", "26.1")])
    func theVersionMapGivesXcodesMacOS(_ ios: String, _ macOS: String) {
        #expect(ProjectSettings.catalystMacOS(ofIOS: ios) == macOS, "\(ios)")
    }

    @Test func theVersionMapSaysWhatItDoesNotKnow() {
        #expect(ProjectSettings.catalystMacOS(ofIOS: "12.4") == nil, "no Mac Catalyst before iOS 13")
        #expect(ProjectSettings.catalystMacOS(ofIOS: "26.2") == nil && ProjectSettings.catalystMacOS(ofIOS: "27.0") == nil, "past the map")
        #expect(CatalystVersionMap.iOS(ofMacOS: "15.5") == "18.5" && CatalystVersionMap.iOS(ofMacOS: "11.0") == "14.2")
        #expect(CatalystVersionMap.iOSToMacOS.count == 43 && CatalystVersionMap.macOSToIOS.count == 42, "every row of the data file is read")
    }

    /// watchOS versions and their eras: Apple's CT payload page lists watchOS 5.1.1 beside
    /// iOS 12.1.1; the other boundaries are the iOS each watchOS shipped with.
    @Test(arguments: [("watchos2", OSEra.ios9), ("watchos4.3", .ios10), ("watchos5.1", .ios10), ("watchos5.1.1", .ios12),
                      ("watchos6.2", .ios12), ("watchos7", .ios14), ("watchos9.6", .ios14), ("watchos10", .ios17), ("watchos26", .ios17)])
    func watchOSVersionsMapToEras(_ os: String, _ era: OSEra) {
        #expect(OSEra(os: os) == era, "\(os)")
    }

    @Test func watchOSBeforeATSCountsAsTheFirstEra() {
        #expect(DeploymentTarget("watchos1.0", source: "t")?.minimumEra == .ios9)
        #expect(OSEra(os: "watchos") == nil)
    }

    /// XcodeGen's legacy targets (a build tool, no product type) are named "legacy", not "".
    @Test func aLegacyTargetIsNamedSo() throws {
        let spec = Paths.fixtures.appendingPathComponent("xcodegen-oracle/TestProject/AnotherProject/project.yml").path
        let targets = try XcodeGenReader.targets(projectYML: spec, display: { $0 })
        #expect(targets.first { $0.name == "IncludedLegacy" }?.productType == "legacy")
    }

    /// A value from an included spec names that file, not project.yml.
    @Test func aValueFromAnIncludedSpecNamesThatFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("options:\n  deploymentTarget:\n    iOS: \"14.0\"\n".utf8).write(to: directory.appendingPathComponent("base.yml"))
        try Data("include: [base.yml]\nname: App\ntargets:\n  App:\n    type: application\n    platform: iOS\n    info: {path: App/Info.plist}\n".utf8)
            .write(to: directory.appendingPathComponent("project.yml"))
        let targets = try XcodeGenReader.targets(projectYML: directory.appendingPathComponent("project.yml").path, display: { ($0 as NSString).lastPathComponent })
        let target = try #require(targets.first)
        #expect(target.deploymentTarget?.platforms == ["ios14.0"])
        #expect(target.deploymentTarget?.source == "App (base.yml (options.deploymentTarget))", "\(target.deploymentTarget?.source ?? "")")
        #expect(target.configurations.first?.infoPlist != nil)
    }

    /// A multi-platform target's values cite the key path the spec has (`targets.App.…`), not
    /// the name it expands to (`targets.App_iOS.…`).
    @Test func aMultiPlatformTargetCitesItsSpecKeyPath() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("""
            name: App
            targets:
              App:
                type: application
                platform: [iOS, tvOS]
                deploymentTarget: {iOS: "15.0", tvOS: "16.0"}
                info: {path: App/Info.plist}

            """.utf8).write(to: directory.appendingPathComponent("project.yml"))
        let targets = try XcodeGenReader.targets(projectYML: directory.appendingPathComponent("project.yml").path, display: { ($0 as NSString).lastPathComponent })
        let ios = try #require(targets.first { $0.name == "App_iOS" })
        #expect(ios.deploymentTarget?.platforms == ["ios15.0"])
        #expect(ios.deploymentTarget?.source == "App_iOS (project.yml (targets.App.deploymentTarget))", "\(ios.deploymentTarget?.source ?? "")")
    }

    /// A project in a folder whose name is not UTF-8 is found and read, and named as every
    /// report names such a path (quoted, its bytes in octal).
    @Test func aFolderWhoseNameIsNotUTF8IsRead() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = PathBytes.string([0x50, 0x72, 0x6F, 0x6A, 0xFF])
        let folder = directory.path + "/" + name
        #expect(mkdir(PathBytes.c(folder), 0o755) == 0)
        #expect(try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "cp -R \"$0\"/. \"$(printf 'Proj\\377')\"", Paths.fixtures.appendingPathComponent("project").path],
                        in: directory).status == 0)
        let text = try tool(["targets", "."], in: directory).text
        #expect(text.contains("\"Proj\\377/App.xcodeproj/project.pbxproj\" (xcodeproj)"), "\(text)")
        #expect(text.contains("Debug: ios13.5 from \"Proj\\377/App.xcodeproj/project.pbxproj\":"), "\(text)")
        #expect(text.contains("Info.plist: \"Proj\\377/App/Info.plist\""), "\(text)")
    }

    /// `targets` lists each platform with its version and the setting it came from.
    @Test func targetsShowsWhereEachPlatformCameFrom() throws {
        let text = try tool(["targets", "Fixtures/project-platforms"], in: Paths.repository).text
        #expect(text.contains("  Synctrain: application, ios, macos\n"), "\(text)")
        #expect(text.contains("Release: ios12.0 from Fixtures/project-platforms/Platforms.xcodeproj/project.pbxproj:75; "
            + "macos15.0 from Fixtures/project-platforms/Platforms.xcodeproj/project.pbxproj:84"), "\(text)")
        #expect(text.contains("macos13.0 from SUPPORTS_MACCATALYST (Fixtures/project-platforms/Platforms.xcodeproj/project.pbxproj:117) (macOS 13.0 from iOS 16.0)"))
        let json = try JSONSerialization.jsonObject(with: try tool(["targets", "--format", "json", "Fixtures/project-platforms"], in: Paths.repository).stdout) as? [String: Any]
        let targets = ((json?["projects"] as? [[String: Any]])?.first?["targets"] as? [[String: Any]]) ?? []
        let platforms = (targets.first { $0["name"] as? String == "Synctrain" }?["configurations"] as? [[String: Any]])?.first?["platforms"] as? [[String: Any]]
        #expect(platforms?.compactMap { $0["os"] as? String } == ["ios12.0", "macos15.0"])
    }
}

/// IINA's `MACOSX_DEPLOYMENT_TARGET = 10.15` with `[arch=arm64] = 12` (Fixtures/project-conditions/iina,
/// see its SOURCE.md): the deployment target is the lowest over the architectures, each cited.
@Suite struct ArchitectureConditionTests {
    @Test func theDeploymentTargetIsTheLowestOverItsArchitectures() throws {
        let pbxproj = Paths.fixtures.appendingPathComponent("project-conditions/iina/iina.xcodeproj/project.pbxproj").path
        let targets = try XcodeProjectReader.targets(pbxproj: pbxproj, display: { ($0 as NSString).lastPathComponent })
        let app = try #require(targets.first { $0.name == "iina" })
        #expect(app.deploymentTarget?.platforms == ["macos10.15"], "\(String(describing: app.deploymentTarget)) \(app.unresolved)")
        #expect(app.unresolved.isEmpty, "\(app.unresolved)")
        for configuration in app.configurations {
            #expect(configuration.chain.first?.contains("also [arch=arm64] 12 at Deployment.xcconfig:13") == true, "\(configuration.chain)")
        }
        #expect(app.infoPlists.map { ($0 as NSString).lastPathComponent } == ["Info.plist"])
    }

    /// The same file read for one architecture, and for a build no condition holds for.
    @Test func eachArchitectureReadsItsOwnValue() throws {
        var level = SettingsLevel()
        level.set("MACOSX_DEPLOYMENT_TARGET", "10.15", source: "a:1")
        level.set("MACOSX_DEPLOYMENT_TARGET[arch=arm64]", "12", source: "a:2")
        var settings = BuildSettings(levels: [level], builtIns: [:])
        #expect(settings.architectures(of: "MACOSX_DEPLOYMENT_TARGET") == ["arm64"])
        #expect(settings.value("MACOSX_DEPLOYMENT_TARGET")?.unresolved.isEmpty == false, "undecided without an architecture")
        settings.arch = "arm64"
        #expect(settings.value("MACOSX_DEPLOYMENT_TARGET")?.value == "12")
        settings.arch = "x86_64"
        #expect(settings.value("MACOSX_DEPLOYMENT_TARGET")?.value == "10.15")
        settings.arch = ""
        #expect(settings.value("MACOSX_DEPLOYMENT_TARGET")?.value == "10.15")
    }
}

/// Ice Cubes (Fixtures/project-conditions/IceCubesApp, see its SOURCE.md) lists visionOS in
/// `SUPPORTED_PLATFORMS` and sets no `XROS_DEPLOYMENT_TARGET`: visionOS is listed with its SDK's
/// default, beside iOS 18.5 and Mac Catalyst's macOS 15.5, never dropped.
@Suite struct SDKDefaultPlatformTests {
    @Test func aPlatformWithoutItsDeploymentTargetIsListedWithTheSDKsDefault() throws {
        let pbxproj = Paths.fixtures.appendingPathComponent("project-conditions/IceCubesApp/IceCubesApp.xcodeproj/project.pbxproj").path
        let targets = try XcodeProjectReader.targets(pbxproj: pbxproj, display: { $0 })
        for name in ["IceCubesApp", "IceCubesNotifications"] {
            let target = try #require(targets.first { $0.name == name })
            #expect(target.deploymentTarget?.platforms == ["ios18.5", "macos15.5", "visionos1.0"], "\(name): \(String(describing: target.deploymentTarget))")
            for configuration in target.configurations {
                let visionOS = configuration.platforms.first { $0.os == "visionos" }
                if configuration.name == "Debug" {
                    // Debug's base configuration, IceCubesApp.xcconfig, is made by each developer and
                    // not in the repository: it could set the version, so it is not the SDK's default.
                    #expect(visionOS?.from.hasPrefix("unknown: no XROS_DEPLOYMENT_TARGET in the settings read, and ") == true
                        && visionOS?.from.hasSuffix("IceCubesApp/IceCubesApp.xcconfig, which could set it, cannot be read; counted from visionOS 1.0") == true,
                        "\(configuration.platforms)")
                } else {
                    #expect(visionOS?.from == "the SDK's default (no XROS_DEPLOYMENT_TARGET; unknown, counted from visionOS 1.0)", "\(configuration.platforms)")
                }
            }
        }
        // The share extension lists iOS only: no visionOS is made up for it.
        let share = try #require(targets.first { $0.name == "IceCubesShareExtension" })
        #expect(share.deploymentTarget?.platforms == ["ios18.5", "macos15.5"])
    }
}

/// TidyFlow (Fixtures/project-conditions/TidyFlow, see its SOURCE.md): one target for iOS and
/// macOS whose iOS builds read `"INFOPLIST_FILE[sdk=iphone*]"`. `iphone*` holds for both iOS
/// SDKs, so each file is the target's, with its own SDK's deployment target. Before, a pattern
/// other than `NAME*` was left undecided and the target claimed neither file.
@Suite struct SDKConditionFixtureTests {
    @Test func eachSDKReadsTheInfoPlistItsPatternNames() throws {
        let result = try tool(["--no-config", "--format", "json", "Fixtures/project-conditions/TidyFlow"], in: Paths.repository)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        var minimum: [String: String] = [:]
        for file in json["files"] as? [[String: Any]] ?? [] {
            minimum[file["path"] as? String ?? ""] = (file["deploymentTarget"] as? [String: Any])?["minimumOS"] as? String
        }
        let folder = "Fixtures/project-conditions/TidyFlow/"
        #expect(minimum[folder + "TidyFlow-iOS/Info.plist"] == "ios18.0", "\(minimum) \(result.stderr)")
        #expect(minimum[folder + "TidyFlow/Info.plist"] == "macos15.0", "\(minimum) \(result.stderr)")
        #expect(!result.stderr.contains("no target"), "\(result.stderr)")
        let targets = try tool(["targets", folder], in: Paths.repository)
        #expect(targets.text.contains("[sdk=iphoneos] \(folder)TidyFlow-iOS/Info.plist from \(folder)TidyFlow.xcodeproj/project.pbxproj:2036: ios18.0"),
                "\(targets.text)")
        #expect(targets.text.contains("[sdk=macosx] \(folder)TidyFlow/Info.plist from \(folder)TidyFlow.xcodeproj/project.pbxproj:2035: macos15.0"),
                "\(targets.text)")
        #expect(!targets.text.contains("not understood"), "\(targets.text)")
    }

    /// Xcode matches `sdk=` as a shell pattern against the SDK's name and version: without the
    /// version, what every version matches holds, what no version can match does not, the rest
    /// is undecided.
    @Test func sdkPatternsAreDecidedWithoutTheSDKsVersion() {
        #expect(ConditionalSetting.sdkPattern("iphone*", matches: "iphoneos") == .yes)
        #expect(ConditionalSetting.sdkPattern("iphoneos*", matches: "iphoneos") == .yes)
        #expect(ConditionalSetting.sdkPattern("*", matches: "macosx") == .yes)
        #expect(ConditionalSetting.sdkPattern("iphone*", matches: "macosx") == .no)
        #expect(ConditionalSetting.sdkPattern("iphonesimulator*", matches: "iphoneos") == .no)
        #expect(ConditionalSetting.sdkPattern("appletv*", matches: "iphoneos") == .no)
        #expect(ConditionalSetting.sdkPattern("iphoneos17*", matches: "iphoneos") == .unknown)
        #expect(ConditionalSetting.sdkPattern("iphoneos", matches: "iphoneos") == .unknown)
    }
}

/// A React Native monorepo's macOS target names `reactnativeuniversalproject-macos/Info.plist`
/// where the folder is `…-macOS/` (Fixtures/project-conditions/universal-monorepo, see its
/// SOURCE.md; the project fixed the case a commit later). The file is that target's, found as
/// APFS finds it, with a note; before, no target named it.
@Suite struct CaseInsensitivePathFixtureTests {
    @Test func anInfoPlistNamedInAnotherCaseIsItsTargets() throws {
        let folder = "Fixtures/project-conditions/universal-monorepo/"
        let result = try tool(["--no-config", "--format", "json", folder], in: Paths.repository)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        let files = json["files"] as? [[String: Any]] ?? []
        let macOS = try #require(files.first { ($0["path"] as? String)?.hasSuffix("-macOS/Info.plist") == true }, "\(files)")
        let target = macOS["deploymentTarget"] as? [String: Any]
        #expect(target?["minimumOS"] as? String == "macos10.13", "\(macOS) \(result.stderr)")
        #expect((target?["source"] as? String)?.contains("which is this file in another case") == true, "\(macOS)")
        #expect(!result.stderr.contains("no target"), "\(result.stderr)")
        let targets = try tool(["targets", folder], in: Paths.repository)
        #expect(targets.text.contains("\(folder)reactnativeuniversalproject-macos/Info.plist (not on disk as written; "
                                      + "\(folder)reactnativeuniversalproject-macOS/Info.plist matches it case-insensitively"), "\(targets.text)")
    }
}
