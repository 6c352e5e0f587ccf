// Module Project. What the tool knows of the projects around a file: Xcode projects
// (`project.pbxproj`, read as the OpenStep plist it is, with `.xcconfig` chains) and XcodeGen
// `project.yml`; their native targets, each target's Info.plist and deployment target. Reads
// files through FileAccess, PlistDOM's OpenStep parser and Yams; knows nothing of the run.
import ATSPolicy
import Foundation
import PlistDOM
import FileAccess

/// One native target of a project, with what a plist needs from it.
public struct ProjectTarget: Sendable, Hashable, Codable {
    /// Where CocoaPods' generated configuration files live (`pod install` makes them).
    public static let podsFolder = "Pods/Target Support Files/"
    public var name: String
    /// `application`, `app-extension`, `framework`, `unit-test`, `ui-test`, `watch-app`, … (the
    /// product type's last part, as XcodeGen writes it).
    public var productType: String
    /// The project file, as reports show paths.
    public var project: String
    /// XcodeGen writes the target's Info.plist (`info.path`): the spec file that says so (an
    /// included one where it does), absolute, and the target's name there.
    public var infoPlistSpec: SpecPlace? = nil

    public struct SpecPlace: Sendable, Hashable, Codable {
        public var file: String
        public var target: String
    }
    /// The resolved `INFOPLIST_FILE` of its build configurations (absolute paths).
    public var infoPlists: [String]
    /// Lowest over its build configurations; its source names the target and the file the
    /// setting came from: `App (App.xcodeproj/project.pbxproj)`, `App (Config/Shared.xcconfig)`.
    public var deploymentTarget: DeploymentTarget?
    /// What could not be resolved (unknown variables, missing xcconfig files), said not guessed.
    public var unresolved: [String]
    /// `ios`, `macos`, `tvos`, `visionos`, `watchos` (from SDKROOT or XcodeGen's `platform`).
    public var platform: String? = nil
    /// `GENERATE_INFOPLIST_FILE = YES` without `INFOPLIST_FILE`: Xcode writes the Info.plist at
    /// build time, so no file of the repository is it.
    public var generatesInfoPlist = false
    /// Xcode 16 synchronized folders of the target (as reports show paths), each with the files
    /// its exception sets take out of the target.
    public var synchronizedFolders: [String] = []
    /// Each build configuration as read, for `plist-migrate targets`.
    public var configurations: [TargetConfiguration] = []
    /// Where `[sdk=…]` conditions give SDKs their own Info.plist: each plist's deployment target
    /// (lowest over the configurations), the platforms of its SDKs only.
    public var deploymentTargetByInfoPlist: [String: DeploymentTarget] = [:]
    /// Set on a claim whose INFOPLIST_FILE names the file in another case (and nothing is
    /// written so): how it was matched, for the file's notes.
    public var caseInsensitiveMatch: String? = nil

    /// This target as the file `path` (absolute) sees it: its deployment target is that of the
    /// SDKs whose Info.plist it is, where conditions give SDKs their own.
    public func claiming(_ path: String) -> ProjectTarget {
        guard let own = deploymentTargetByInfoPlist[path] else { return self }
        var copy = self
        copy.deploymentTarget = own
        return copy
    }

    enum CodingKeys: String, CodingKey { case name, productType, project }

    public init(name: String, productType: String, project: String, infoPlists: [String], deploymentTarget: DeploymentTarget?,
                unresolved: [String]) {
        self.name = name
        self.productType = productType
        self.project = project
        self.infoPlists = infoPlists
        self.deploymentTarget = deploymentTarget
        self.unresolved = unresolved
    }

    /// As reports write it: name, product type, project.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(String.self, forKey: .name), productType: try container.decode(String.self, forKey: .productType),
                  project: try container.decode(String.self, forKey: .project), infoPlists: [], deploymentTarget: nil, unresolved: [])
    }

    /// Made once: a project of 200,000 targets asked 200,000 times.
    static let shortProductTypes: [String: String] = [
        "application": "application", "app-extension": "app-extension", "framework": "framework",
        "bundle.unit-test": "unit-test", "bundle.ui-testing": "ui-test", "application.watchapp": "watch-app",
        "application.watchapp2": "watch-app", "application.watchapp2-container": "watch-app",
        "watchkit-extension": "watch-extension", "watchkit2-extension": "watch-extension",
        "application.on-demand-install-capable": "app-clip", "library.static": "static-library",
        "library.dynamic": "dynamic-library", "tool": "tool", "bundle": "bundle", "extensionkit-extension": "app-extension",
        "application.messages": "application", "app-extension.messages": "app-extension",
        "tv-app-extension": "app-extension", "framework.static": "framework",
    ]

    /// `com.apple.product-type.app-extension` → `app-extension`.
    static func shortProductType(_ type: String) -> String {
        let suffix = type.hasPrefix("com.apple.product-type.") ? String(type.dropFirst("com.apple.product-type.".count)) : type
        return shortProductTypes[suffix] ?? suffix
    }

    /// `ios, macos`: the platforms of a deployment target, in its order, each once.
    static func platformNames(_ target: DeploymentTarget) -> String {
        var names: [String] = []
        for item in target.platforms {
            let name = DeploymentTarget.split(item).platform
            if !names.contains(name) { names.append(name) }
        }
        return names.joined(separator: ", ")
    }

    /// `iphoneos` → `ios`: the platform of a device SDK.
    static func platform(ofSDK sdk: String?) -> String? {
        sdk == "driverkit" ? "driverkit" : deploymentSettings.first { $0.sdk == sdk }?.platform
    }

    /// The SDK names a `[sdk=…]` condition can start with (device and simulator).
    static let deviceAndSimulatorSDKs = ["iphoneos", "iphonesimulator", "macosx", "appletvos", "appletvsimulator", "xros", "xrsimulator",
                                         "watchos", "watchsimulator", "driverkit"]

    /// The deployment-target build settings and the platform each names.
    static let deploymentSettings: [(name: String, platform: String, sdk: String)] = [
        ("IPHONEOS_DEPLOYMENT_TARGET", "ios", "iphoneos"), ("MACOSX_DEPLOYMENT_TARGET", "macos", "macosx"),
        ("TVOS_DEPLOYMENT_TARGET", "tvos", "appletvos"), ("XROS_DEPLOYMENT_TARGET", "visionos", "xros"),
        ("WATCHOS_DEPLOYMENT_TARGET", "watchos", "watchos"),
    ]
}

/// One build configuration of a target: its Info.plist, deployment target and where that came
/// from (`Config/Widget.xcconfig:3 ← Config/Base.xcconfig:7`).
public struct TargetConfiguration: Sendable, Hashable, Codable {
    public var name: String
    /// As reports show paths.
    public var infoPlist: String?
    /// `ios15.0` (several joined by commas).
    public var deploymentTarget: String?
    public var chain: [String]
    public var unresolved: [String]
    /// Each platform's version and the setting it came from (`macos15.0`, `…pbxproj:82`), where
    /// a target builds for several.
    public var platforms: [PlatformSource] = []
    /// Where `[sdk=…]` conditions give the target's SDKs different Info.plists: each one.
    public var infoPlistsBySDK: [SDKInfoPlist] = []
}

/// An Info.plist that `[sdk=…]` conditions give some of a target's SDKs (`INFOPLIST_FILE` and
/// `"INFOPLIST_FILE[sdk=appletvos*]"`), with the deployment target of those SDKs' platforms.
public struct SDKInfoPlist: Sendable, Hashable, Codable {
    /// Device SDKs: `iphoneos`, `macosx`, `appletvos`, `xros`, `watchos`.
    public var sdks: [String]
    /// Absolute in a `ProjectTarget`; as reports show paths in a `TargetConfiguration`.
    public var infoPlist: String
    /// The setting that names it for these SDKs (`…project.pbxproj:12`).
    public var from: String
    /// `tvos18.0` (several joined by commas), when known.
    public var deploymentTarget: String?
}

/// One platform of a configuration and where its version came from.
public struct PlatformSource: Sendable, Hashable, Codable {
    public var os: String
    public var from: String
}

/// Reads `project.pbxproj` into its native targets.
public enum XcodeProjectReader {
    /// Objects the reader never looks into: left out of the parse (a 30 MB
    /// project is mostly these).
    static let unread: Set<String> = [
        "PBXBuildFile", "PBXSourcesBuildPhase", "PBXResourcesBuildPhase", "PBXFrameworksBuildPhase", "PBXHeadersBuildPhase",
        "PBXCopyFilesBuildPhase", "PBXShellScriptBuildPhase", "PBXContainerItemProxy", "PBXTargetDependency", "PBXReferenceProxy",
        "XCRemoteSwiftPackageReference", "XCSwiftPackageProductDependency", "XCLocalSwiftPackageReference", "PBXBuildRule",
    ]

    /// The keys read of a file reference (`FileReferencePaths`, which asks no file reference
    /// its `isa`): the rest is left out of the parse, as file references are most of a large project.
    static let readKeys: [String: Set<String>] = ["PBXFileReference": ["path", "sourceTree"]]

    /// `pbxproj`: the `project.pbxproj` path; `display` turns paths into report paths.
    /// Target kinds that build no product of their own, as `targets` names them.
    public static let productlessTargets = ["PBXAggregateTarget": "aggregate", "PBXLegacyTarget": "external build"]

    public static func targets(pbxproj: String, display: (String) -> String) throws(FileError) -> [ProjectTarget] {
        var bytes = try FileIO.load(pbxproj).bytes
        var root: OpenStepValue
        do {
            root = try OpenStepValue(parsing: bytes, dropping: Self.unread, keeping: Self.readKeys)
        } catch {
            throw FileError(error.message, at: error.location)
        }
        guard let rootID = root["rootObject"]?.string, var objects = root["objects"]?.dictEntries else {
            throw FileError("not an Xcode project: no objects or rootObject")
        }
        // Lines are looked up for build configurations' settings only. Then the file's bytes
        // and the parsed tree are let go before the objects are indexed: a large project's
        // 30 MB of text and its tree are not held twice over.
        let lines = PbxprojLines(bytes, only: Set(objects.lazy.filter { $0.value["isa"]?.string == "XCBuildConfiguration" }.map(\.key)))
        bytes = []
        root = .string("")
        var byID: [String: OpenStepValue] = [:]
        byID.reserveCapacity(objects.count)
        for (id, object) in objects { byID[id] = object }
        objects = []
        guard let project = byID[rootID] else { throw FileError("not an Xcode project: rootObject \(rootID) is missing") }
        let xcodeproj = (pbxproj as NSString).deletingLastPathComponent
        var projectDir = (xcodeproj as NSString).deletingLastPathComponent
        if let dirPath = project["projectDirPath"]?.string, !dirPath.isEmpty {
            projectDir = dirPath.hasPrefix("/") ? dirPath : projectDir + "/" + dirPath
        }
        let paths = FileReferencePaths(byID: byID, projectDir: projectDir)
        let shownProject = display(pbxproj)

        // Each configuration list is read once, however many targets share it.
        typealias Configuration = (name: String, settings: SettingsLevel, base: String?, baseProblem: String?)
        var lists: [String: [Configuration]] = [:]
        func configurations(_ listID: String?) -> [Configuration] {
            guard let listID else { return [] }
            if let known = lists[listID] { return known }
            let read = readConfigurations(listID)
            lists[listID] = read
            return read
        }
        func readConfigurations(_ listID: String) -> [Configuration] {
            guard let ids = byID[listID]?["buildConfigurations"]?.array else { return [] }
            return ids.compactMap { id in id.string.flatMap { key in byID[key].map { (key, $0) } } }.map { id, configuration in
                var level = SettingsLevel()
                for (key, value) in configuration["buildSettings"]?.dictEntries ?? [] {
                    let text = value.string ?? value.array?.compactMap(\.string).joined(separator: " ") ?? ""
                    level.set(key, text, source: lines.line(of: key, inObject: id).map { "\(shownProject):\($0)" } ?? shownProject)
                }
                // Xcode 16 (objectVersion 77): an xcconfig inside a synchronized folder is named by
                // the folder (the anchor) and its path below it.
                let anchored = configuration["baseConfigurationReferenceAnchor"]?.string.flatMap(paths.path).flatMap { folder in
                    configuration["baseConfigurationReferenceRelativePath"]?.string.map { FileIO.absolute(folder + "/" + $0) }
                }
                let reference = configuration["baseConfigurationReference"]?.string
                let base = reference.flatMap(paths.path) ?? anchored
                let name = configuration["name"]?.string ?? ""
                let problem = base == nil ? reference.map { "\(name): its baseConfigurationReference (\($0)) \(paths.whyNoPath($0)): not read" } : nil
                return (name, level, base, problem)
            }
        }
        var problems: [String] = []
        // Each .xcconfig is read once per project, however many targets and configurations
        // use it; what it could not read is said for each target that uses it.
        var xcconfigs: [String: (level: SettingsLevel, problems: [String])] = [:]
        func xcconfig(_ path: String?) -> SettingsLevel {
            guard let path else { return SettingsLevel() }
            if xcconfigs[path] == nil {
                var found: [String] = []
                xcconfigs[path] = (XCConfig.read(path, display: display, problems: &found, projectDir: projectDir), found)
            }
            problems += xcconfigs[path]!.problems
            return xcconfigs[path]!.level
        }
        let projectConfigurations = configurations(project["buildConfigurationList"]?.string)
        let projectName = ((xcodeproj as NSString).lastPathComponent as NSString).deletingPathExtension
        var targets: [ProjectTarget] = []
        for targetID in project["targets"]?.array?.compactMap(\.string) ?? [] {
            guard let target = byID[targetID], let name = target["name"]?.string else { continue }
            // Targets that build no product of their own: listed, without an Info.plist.
            if let kind = Self.productlessTargets[target["isa"]?.string ?? ""] {
                targets.append(ProjectTarget(name: name, productType: kind, project: shownProject, infoPlists: [], deploymentTarget: nil, unresolved: []))
                continue
            }
            guard target["isa"]?.string == "PBXNativeTarget" else { continue }
            problems = []
            var infoPlists: [String] = []
            var found: [DeploymentTarget] = []
            var unknownTarget = false
            var platform: String?
            var generates = false
            var described: [TargetConfiguration] = []
            var byPlist: [String: [DeploymentTarget]] = [:]
            for configuration in configurations(target["buildConfigurationList"]?.string) {
                let projectLevel = projectConfigurations.first { $0.name == configuration.name }
                problems += [projectLevel?.baseProblem, configuration.baseProblem].compactMap { $0 }
                let settings = BuildSettings(
                    levels: [xcconfig(projectLevel?.base), projectLevel?.settings ?? SettingsLevel(), xcconfig(configuration.base), configuration.settings],
                    builtIns: ["SRCROOT": projectDir, "PROJECT_DIR": projectDir, "SOURCE_ROOT": projectDir, "TARGET_NAME": name,
                               "PRODUCT_NAME": target["productName"]?.string ?? name, "CONFIGURATION": configuration.name,
                               "PROJECT_NAME": projectName])
                let (plist, target, unresolved, chain, sdk, each, bySDK) = ProjectSettings.read(settings, projectDir: projectDir, targetName: name)
                if plist == nil, settings.value("GENERATE_INFOPLIST_FILE")?.value.uppercased() == "YES" { generates = true }
                if let plist, !infoPlists.contains(plist) { infoPlists.append(plist) }
                let shownBySDK = ProjectSettings.collect(bySDK, into: &infoPlists, &byPlist, display: display)
                if let target { found.append(target) }
                platform = platform ?? ProjectTarget.platform(ofSDK: sdk)
                described.append(TargetConfiguration(name: configuration.name, infoPlist: plist.map(display),
                                                     deploymentTarget: target?.platforms.joined(separator: ","), chain: chain, unresolved: unresolved,
                                                     platforms: each, infoPlistsBySDK: shownBySDK))
                if unresolved.contains(where: { $0.contains("_DEPLOYMENT_TARGET") }) { unknownTarget = true }
                problems += unresolved.map { "\(configuration.name): \($0)" }
            }
            var read = ProjectTarget(
                name: name, productType: ProjectTarget.shortProductType(target["productType"]?.string ?? ""), project: shownProject,
                // A configuration whose deployment target is unknown may be the lowest: none is claimed.
                infoPlists: infoPlists, deploymentTarget: unknownTarget ? nil : ProjectSettings.lowest(found, target: name),
                unresolved: { var seen = Set<String>(); return problems.filter { seen.insert($0).inserted } }())
            // Every platform it builds for, as its deployment targets name them
            // (`ios, macos` for an app whose SUPPORTED_PLATFORMS add macOS), else its SDK's.
            read.platform = read.deploymentTarget.map(ProjectTarget.platformNames) ?? platform
            read.configurations = described
            if !unknownTarget { read.deploymentTargetByInfoPlist = byPlist.compactMapValues { ProjectSettings.lowest($0, target: name) } }
            read.generatesInfoPlist = generates && infoPlists.isEmpty
            read.synchronizedFolders = (target["fileSystemSynchronizedGroups"]?.array ?? []).compactMap(\.string).compactMap { id in
                guard let folder = paths.path(id) else { return nil }
                // Exception sets of this folder for this target: files it leaves out.
                let excluded = (byID[id]?["exceptions"]?.array ?? []).compactMap { $0.string.flatMap { byID[$0] } }
                    .filter { $0["target"]?.string == targetID }
                    .flatMap { $0["membershipExceptions"]?.array?.compactMap(\.string) ?? [] }
                return display(folder) + (excluded.isEmpty ? "" : " (except \(excluded.joined(separator: ", ")))")
            }
            targets.append(read)
        }
        return targets
    }
}

/// What every project kind reads from a target's merged settings.
enum ProjectSettings {
    /// The Info.plist (absolute), the deployment target, what could not be resolved, where the
    /// deployment target came from, the device SDK, each platform's source, and, where
    /// `[sdk=…]` conditions give the target's SDKs different Info.plists, each of them.
    static func read(_ settings: BuildSettings, projectDir: String, targetName: String)
        -> (infoPlist: String?, target: DeploymentTarget?, unresolved: [String], chain: [String], sdk: String?, platforms: [PlatformSource],
            bySDK: [SDKInfoPlist])
    {
        var chain: [String] = []
        var unresolved: [String] = []
        var infoPlist: String?
        // Conditions are evaluated for the target's device SDK, known once SDKROOT is.
        var settings = settings
        let sdk = settings.value("SDKROOT")?.value.lowercased() ?? ""
        settings.sdk = ProjectTarget.deviceAndSimulatorSDKs.first { sdk.hasPrefix($0) } ?? (sdk.isEmpty ? nil : sdk)
        // The SDKs the target builds for, where it names several: each reads its own
        // `INFOPLIST_FILE[sdk=…]` (Mac Catalyst builds with the macOS SDK).
        let supported = settings.value("SUPPORTED_PLATFORMS").flatMap { $0.unresolved.isEmpty ? $0.value : nil }?
            .lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Self.deviceSDK(of: String($0)) } ?? []
        var sdks: [String] = []
        for name in supported where !sdks.contains(name) { sdks.append(name) }
        if sdks.contains("iphoneos"), !sdks.contains("macosx"), settings.value("SUPPORTS_MACCATALYST")?.value.uppercased() == "YES" {
            sdks.append("macosx")
        }
        func absolute(_ file: String) -> String { FileIO.absolute(file.hasPrefix("/") ? file : projectDir + "/" + file) }
        var plistOfSDK: [(sdk: String, plist: String, source: String)] = []
        if sdks.count > 1, settings.hasSDKConditions("INFOPLIST_FILE") {
            for name in sdks {
                var reading = settings
                reading.sdk = name
                guard let file = reading.value("INFOPLIST_FILE"), file.unresolved.isEmpty, !file.value.isEmpty else { continue }
                plistOfSDK.append((name, absolute(file.value), file.source))
            }
            // Every SDK read, or none is taken: the general reading below says what was not.
            if plistOfSDK.count != sdks.count { plistOfSDK = [] }
        }
        if let first = plistOfSDK.first {
            infoPlist = first.plist
        } else if let file = settings.value("INFOPLIST_FILE"), !file.value.isEmpty || !file.unresolved.isEmpty {
            if file.unresolved.isEmpty {
                infoPlist = absolute(file.value)
            } else {
                unresolved.append("INFOPLIST_FILE\(where_(file.source)): \(file.unresolved.joined(separator: ", ")) unknown")
            }
        }
        var targets: [DeploymentTarget] = []
        // The platforms the target builds for: SUPPORTED_PLATFORMS when it is set
        // (`iphoneos iphonesimulator macosx` is iOS and macOS whatever SDKROOT says), else SDKROOT's
        // (every platform for `auto` or none).
        func builds(for sdkName: String) -> Bool {
            supported.isEmpty ? sdk.isEmpty || sdk == "auto" || sdk.hasPrefix(sdkName) : supported.contains(sdkName)
        }
        // The platforms named (SUPPORTED_PLATFORMS, or SDKROOT naming one SDK) that set no
        // deployment target: each builds for its SDK's default, listed, never dropped.
        let named = !supported.isEmpty || (!sdk.isEmpty && sdk != "auto")
        var defaults: [PlatformSource] = [], defaultTargets: [DeploymentTarget] = []
        for (name, platform, sdkName) in ProjectTarget.deploymentSettings where builds(for: sdkName) {
            guard let setting = Self.lowestOverConditions(name, platform: platform, settings),
                !setting.value.isEmpty || !setting.unresolved.isEmpty
            else {
                // A configuration file that could not be read may set it: unknown, not the SDK's default.
                let unread = settings.levels.compactMap(\.unreadable).first { !$0.contains(ProjectTarget.podsFolder) }
                let why = unread.map { "unknown: no \(name) in the settings read, and \($0), which could set it, cannot be read" }
                if named, let first = Self.firstATSVersion[platform],
                    let target = DeploymentTarget(platform: platform, version: first, source: why ?? "the SDK's default (no \(name))")
                {
                    // The lowest version it can be counts: every era from the platform's first.
                    targets.append(target)
                    defaultTargets.append(target)
                    defaults.append(PlatformSource(os: platform, from: why.map { "\($0); counted from \(target.spelled)" }
                        ?? "the SDK's default (no \(name); unknown, counted from \(target.spelled))"))
                }
                continue
            }
            if setting.unresolved.isEmpty, let target = DeploymentTarget(platform: platform, version: setting.value, source: setting.source) {
                targets.append(target)
                if chain.isEmpty { chain = setting.chain }
            } else {
                unresolved.append(setting.unresolved.isEmpty
                    ? "\(name)\(where_(setting.source)) = \(setting.value) (not a version)"
                    : "\(name)\(where_(setting.source)): \(setting.unresolved.joined(separator: ", ")) unknown")
            }
        }
        // A DriverKit driver's versions are DriverKit's own, not those of an OS whose ATS is known.
        if settings.sdk == "driverkit" || supported.contains("driverkit") {
            let version = settings.value("DRIVERKIT_DEPLOYMENT_TARGET")
            unresolved.append("DRIVERKIT_DEPLOYMENT_TARGET" + (version.map { "\(where_($0.source)) = \($0.value)" } ?? " (not set)")
                + ": a DriverKit driver, whose versions are not those of an OS with known ATS eras (iOS, macOS, tvOS, visionOS, watchOS)")
        }
        // Mac Catalyst: the app runs on the macOS that Xcode's version map gives its iOS
        // deployment target (iOS 18.5 → macOS 15.5), unless a macOS deployment target is read
        // already. A version past the map is said, not guessed.
        if let catalyst = settings.value("SUPPORTS_MACCATALYST"), catalyst.unresolved.isEmpty, catalyst.value.uppercased() == "YES",
            !targets.contains(where: { $0.platforms.contains { $0.hasPrefix("macos") } }),
            let ios = targets.first(where: { $0.platforms.contains { $0.hasPrefix("ios") } })
        {
            // The Mac build reads the iOS version with the macOS SDK: `[sdk=macosx*]` values count.
            var macBuild = settings
            macBuild.sdk = "macosx"
            let iosVersion = String(ios.platforms.first { $0.hasPrefix("ios") }!.dropFirst(3))
            let conditioned = Self.lowestOverConditions("IPHONEOS_DEPLOYMENT_TARGET", platform: "ios", macBuild)
                .flatMap { $0.unresolved.isEmpty && $0.value != iosVersion && DeploymentTarget(platform: "ios", version: $0.value, source: "") != nil ? $0 : nil }
            let version = conditioned?.value ?? iosVersion
            func from(_ mac: String) -> String {
                "SUPPORTS_MACCATALYST\(where_(catalyst.source)) (macOS \(mac) from iOS \(version)"
                    + (conditioned.map { ", \(macBuild.conditionHolding("IPHONEOS_DEPLOYMENT_TARGET") ?? "IPHONEOS_DEPLOYMENT_TARGET") = "
                        + "\($0.value) at \($0.source) for the Mac build" } ?? "") + ")"
            }
            let major = CatalystVersionMap.numbers(Substring(version))?.first ?? 0
            if let mac = Self.catalystMacOS(ofIOS: version), let target = DeploymentTarget(platform: "macos", version: mac, source: from(mac)) {
                targets.append(target)
            } else if major >= 13 {
                unresolved.append("SUPPORTS_MACCATALYST\(where_(catalyst.source)): the macOS for Mac Catalyst at iOS \(version) is past the tool's "
                    + "version map (from the macOS 26.1 SDK; its last row is iOS \(CatalystVersionMap.newestIOS)): not guessed")
            } else if let target = DeploymentTarget(platform: "macos", version: Self.firstCatalystMacOS,
                source: from(Self.firstCatalystMacOS) + ": Mac Catalyst's first macOS, as iOS \(version) is older than Mac Catalyst")
            {
                // Xcode builds the Mac app for macOS 10.15 whatever older iOS the target names.
                targets.append(target)
            }
        }
        var bySDK: [SDKInfoPlist] = []
        if Set(plistOfSDK.map(\.plist)).count > 1 {
            for (plist, source) in plistOfSDK.map({ ($0.plist, $0.source) }) where !bySDK.contains(where: { $0.infoPlist == plist }) {
                let names = plistOfSDK.filter { $0.plist == plist }.map(\.sdk)
                // Each platform's version goes with the SDK it is built with.
                let own = targets.filter { target in
                    let platform = DeploymentTarget.split(target.platforms.first ?? "").platform
                    return ProjectTarget.deploymentSettings.contains { $0.platform == platform && names.contains($0.sdk) }
                }
                bySDK.append(SDKInfoPlist(sdks: names, infoPlist: plist, from: source,
                                          deploymentTarget: DeploymentTarget.lowest(own, source: "")?.platforms.joined(separator: ",")))
            }
        }
        let lowest = DeploymentTarget.lowest(targets, source: targets.map(\.source).first ?? "")
        let known = targets.filter { !defaultTargets.contains($0) }
        let each = targets.count > 1 || !defaults.isEmpty
            ? known.compactMap { target in target.platforms.first.map { PlatformSource(os: $0, from: target.source) } } + defaults : []
        return (infoPlist, lowest, unresolved, chain, settings.sdk, each, bySDK)
    }

    /// A deployment-target setting whose value depends on conditions this cannot decide (an
    /// SDK version: `[sdk=iphoneos17*] = 12.0` beside 15.0): read once with none of them holding
    /// and once with each, the lowest is the one every build runs on, its source naming the
    /// others. Unknown only when a reading is.
    static func lowestOverConditions(_ name: String, platform: String, _ settings: BuildSettings) -> BuildSettings.Resolved? {
        let plain = lowestOverArchitectures(name, platform: platform, settings)
        guard let plain, !plain.unresolved.isEmpty, plain.unresolved.allSatisfy({ $0.hasSuffix(" not evaluated") }) else { return plain }
        var readings: [(condition: String, value: BuildSettings.Resolved)] = []
        var reading = settings
        reading.undecided = .notHolding
        if let value = lowestOverArchitectures(name, platform: platform, reading) { readings.append(("", value)) }
        for written in settings.undecidedConditions(of: name) {
            reading.undecided = .holding(written: written)
            if let value = lowestOverArchitectures(name, platform: platform, reading) { readings.append((written, value)) }
        }
        let versions = readings.map { ($0, DeploymentTarget(platform: platform, version: $0.value.value, source: "")) }
        guard !versions.isEmpty, versions.allSatisfy({ $0.0.value.unresolved.isEmpty && $0.1 != nil }),
            let lowest = versions.min(by: { DeploymentTarget.split($0.1!.platforms[0]).version.lexicographicallyPrecedes(DeploymentTarget.split($1.1!.platforms[0]).version) })
        else { return plain }
        func named(_ reading: (condition: String, value: BuildSettings.Resolved)) -> String {
            (reading.condition.isEmpty ? name : reading.condition) + " = \(reading.value.value) at \(reading.value.source)"
        }
        let others = versions.filter { $0.0.condition != lowest.0.condition }.map { named($0.0) }
        var value = lowest.0.value
        value.source += " (\(lowest.0.condition.isEmpty ? name : lowest.0.condition), the lowest over conditions the project leaves open"
            + (others.isEmpty ? ")" : "; also \(others.joined(separator: ", ")))")
        if !value.chain.isEmpty { value.chain[0] = value.source }
        return value
    }

    /// A deployment-target setting read once without its `[arch=…]` values and once for each
    /// architecture they name: the lowest version is the one a build for every architecture
    /// must run on (IINA: 10.15, and 12 for arm64, is 10.15), its source naming the others.
    static func lowestOverArchitectures(_ name: String, platform: String, _ settings: BuildSettings) -> BuildSettings.Resolved? {
        let architectures = settings.architectures(of: name)
        guard !architectures.isEmpty else { return settings.value(name) }
        var readings: [(arch: String, value: BuildSettings.Resolved)] = []
        for arch in [""] + architectures {
            var reading = settings
            reading.arch = arch
            if let value = reading.value(name) { readings.append((arch, value)) }
        }
        // Any reading not understood leaves the whole unknown, said as that reading says it.
        if let unclear = readings.first(where: { !$0.value.unresolved.isEmpty }) { return unclear.value }
        let versions = readings.map { ($0, DeploymentTarget(platform: platform, version: $0.value.value, source: "")) }
        guard versions.allSatisfy({ $0.1 != nil }),
            let lowest = versions.min(by: { DeploymentTarget.split($0.1!.platforms[0]).version.lexicographicallyPrecedes(DeploymentTarget.split($1.1!.platforms[0]).version) })
        else { return settings.value(name) }
        let others = versions.filter { $0.0.value.source != lowest.0.value.source }
            .map { "\($0.0.arch.isEmpty ? "" : "[arch=\($0.0.arch)] ")\($0.0.value.value) at \($0.0.value.source)" }
        guard !others.isEmpty else { return lowest.0.value }
        var value = lowest.0.value
        value.source += " (the lowest over its architectures; also \(others.joined(separator: ", ")))"
        if !value.chain.isEmpty { value.chain[0] = value.source }
        return value
    }

    /// Each platform's first version with ATS (watchOS's first SDK), the lowest a deployment
    /// target left to the SDK's default can be.
    static let firstATSVersion = ["ios": "9.0", "macos": "10.11", "tvos": "9.0", "visionos": "1.0", "watchos": "2.0"]

    /// `iphonesimulator` → `iphoneos`: the device SDK of a SUPPORTED_PLATFORMS word.
    static func deviceSDK(of platform: String) -> String {
        simulatorDevices[platform] ?? platform
    }

    private static let simulatorDevices = ["iphonesimulator": "iphoneos", "appletvsimulator": "appletvos", "xrsimulator": "xros",
                                           "watchsimulator": "watchos"]

    /// The first macOS Mac Catalyst runs on (it came with iOS 13).
    static let firstCatalystMacOS = "10.15"

    /// The macOS a Mac Catalyst app of this iOS deployment target needs, from Xcode's version
    /// map (`CatalystVersionMap`); none before iOS 13 or past the map.
    static func catalystMacOS(ofIOS version: String) -> String? {
        CatalystVersionMap.macOS(ofIOS: version)
    }

    /// ` (Config/Kit.xcconfig:3)`: where a setting that could not be resolved is written.
    static func where_(_ source: String) -> String {
        source.isEmpty ? "" : " (\(source))"
    }

    /// The lowest of a target's configurations, its source `Target (file)`.
    /// A configuration's Info.plists by SDK, gathered for its target: each plist claimed, with
    /// the deployment targets of its SDKs.
    /// Returns the entries with their paths as reports show them (`display`).
    static func collect(
        _ bySDK: [SDKInfoPlist], into infoPlists: inout [String], _ byPlist: inout [String: [DeploymentTarget]], display: (String) -> String
    ) -> [SDKInfoPlist] {
        bySDK.map { entry in
            if !infoPlists.contains(entry.infoPlist) { infoPlists.append(entry.infoPlist) }
            if let text = entry.deploymentTarget, let version = DeploymentTarget(text, source: "\(entry.from), [sdk=\(entry.sdks.joined(separator: ","))]") {
                byPlist[entry.infoPlist, default: []].append(version)
            }
            var shown = entry
            shown.infoPlist = display(entry.infoPlist)
            return shown
        }
    }

    static func lowest(_ targets: [DeploymentTarget], target: String) -> DeploymentTarget? {
        guard let lowest = targets.min(by: { $0.minimumEra < $1.minimumEra }) else { return nil }
        return DeploymentTarget.lowest(targets, source: "\(target) (\(lowest.source))")
    }
}

/// Where a `PBXFileReference` points: its path through its parent groups.
private final class FileReferencePaths {
    let byID: [String: OpenStepValue]
    let projectDir: String
    /// Each object's group, worked out at the first path asked for: a project with no
    /// xcconfig and no synchronized folder (or a large one) never builds it.
    private(set) lazy var parent: [String: String] = {
        var parent: [String: String] = [:]
        for (id, object) in byID where ["PBXGroup", "PBXVariantGroup", "XCVersionGroup"].contains(object["isa"]?.string ?? "") {
            for child in object["children"]?.array?.compactMap(\.string) ?? [] { parent[child] = id }
        }
        return parent
    }()

    init(byID: [String: OpenStepValue], projectDir: String) {
        self.byID = byID
        self.projectDir = projectDir
    }

    func path(_ id: String) -> String? { path(id, depth: 0) }

    /// Why `path(id)` gives none (it used to be silent).
    func whyNoPath(_ id: String) -> String {
        guard let object = byID[id] else { return "names no object of the project" }
        // A group or anything else is no file to read, whatever the groups around it.
        if let isa = object["isa"]?.string, isa != "PBXFileReference" { return "is a \(isa), not a file reference" }
        var seen: Set<String> = [id]
        var current = id
        var depth = 0
        while let up = parent[current] {
            guard seen.insert(up).inserted else { return "lies in groups that contain each other (a cycle)" }
            depth += 1
            guard depth < 64 else { return "lies in groups nested deeper than 64" }
            current = up
        }
        return "has a sourceTree the tool does not resolve"
    }

    private func path(_ id: String, depth: Int) -> String? {
        guard depth < 64, let object = byID[id] else { return nil }
        let own = object["path"]?.string ?? ""
        switch object["sourceTree"]?.string ?? "<group>" {
        case "<absolute>": return FileIO.absolute(own)
        case "SOURCE_ROOT", "SRCROOT": return FileIO.absolute(projectDir + "/" + own)
        case "<group>":
            guard let up = parent[id] else { return FileIO.absolute(projectDir + "/" + own) }
            guard let base = path(up, depth: depth + 1) else { return nil }
            return FileIO.absolute(base + "/" + own)
        default: return nil
        }
    }
}

/// Where each object and each of its settings is written in a `project.pbxproj`, for a
/// setting's `file:line`. Xcode writes an object's entries one a line; for an
/// object written on one line, its settings are placed on that line. Found by one pass over the
/// lines, without a second parse.
struct PbxprojLines {
    private var objectLines: [String: Int] = [:]
    private var keyLines: [String: [String: Int]] = [:]

    /// `only`: the objects whose lines are wanted (all when `nil`).
    init(_ bytes: [UInt8], only wanted: Set<String>? = nil) {
        var current: String?
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var index = line.startIndex
            // Each `key = value;` of the line: Xcode writes one a line, but a line may hold
            // several (`A = 1; B = 2;`), and each is on that line.
            while index < line.endIndex {
                while index < line.endIndex, line[index] == 0x09 || line[index] == 0x20 { index += 1 }
                let start = index
                let quoted = index < line.endIndex && line[index] == UInt8(ascii: "\"")
                if quoted {
                    index += 1
                    while index < line.endIndex, line[index] != UInt8(ascii: "\"") { index += 1 }
                    guard index < line.endIndex else { break }
                } else {
                    while index < line.endIndex, !(line[index] == 0x20 || line[index] == 0x09 || line[index] == UInt8(ascii: "=")) { index += 1 }
                }
                guard index > start else { break }
                let token = String(decoding: quoted ? line[(start + 1)..<index] : line[start..<index], as: UTF8.self)
                if quoted { index += 1 }
                // What follows the token: an optional `/* comment */`, then `=`.
                var rest = line[index...].drop { $0 == 0x20 || $0 == 0x09 }
                if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "*")]), let close = Self.commentEnd(in: rest) {
                    rest = rest[close...].drop { $0 == 0x20 || $0 == 0x09 }
                }
                guard rest.first == UInt8(ascii: "=") else { break }
                let value = rest.dropFirst().drop { $0 == 0x20 || $0 == 0x09 }
                if value.first == UInt8(ascii: "{"), token.utf8.count >= 2, token.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }),
                    token != "buildSettings", token != "objects", token != "attributes"
                {
                    current = wanted.map { $0.contains(token) } ?? true ? token : nil
                    if current != nil { objectLines[token] = objectLines[token] ?? lineNumber }
                    break
                } else if let current, keyLines[current]?[token] == nil {
                    keyLines[current, default: [:]][token] = lineNumber
                }
                // On to the next `key =` of the line: past this value's `;` (outside quotes);
                // a value that opens a dict or a list ends the line's keys.
                guard let first = value.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "(") else { break }
                index = value.startIndex
                var inQuotes = false
                while index < line.endIndex {
                    let byte = line[index]
                    if byte == UInt8(ascii: "\\"), inQuotes { index += 2; continue }
                    if byte == UInt8(ascii: "\"") { inQuotes.toggle() } else if byte == UInt8(ascii: ";"), !inQuotes { break }
                    index += 1
                }
                index += 1
            }
        }
    }

    /// The index after the first `*/` of `text` (which starts with `/*`). A plain scan:
    /// Foundation's generic `firstRange(of:)` was a twentieth of reading a large project.
    private static func commentEnd(in text: ArraySlice<UInt8>) -> Int? {
        var index = text.startIndex + 2
        while index + 1 < text.endIndex {
            if text[index] == UInt8(ascii: "*"), text[index + 1] == UInt8(ascii: "/") { return index + 2 }
            index += 1
        }
        return nil
    }

    /// The line of `key` in the object `id`, else the object's own line.
    func line(of key: String, inObject id: String) -> Int? {
        keyLines[id]?[key] ?? objectLines[id]
    }
}

