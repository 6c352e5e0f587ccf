import ATSPolicy
import Foundation
import Yams

/// Reads XcodeGen's `project.yml`: `targets.*` with `type`, `platform`, `deploymentTarget`,
/// `info.path` and `settings` (flat, or `base`), and the project's `options.deploymentTarget`
/// and `settings`. `include:` files and `configs:` variants are not read (said as unresolved).
enum XcodeGenReader {
    static let platformSettings: [String: String] = [
        "ios": "IPHONEOS_DEPLOYMENT_TARGET", "macos": "MACOSX_DEPLOYMENT_TARGET", "tvos": "TVOS_DEPLOYMENT_TARGET",
        "visionos": "XROS_DEPLOYMENT_TARGET", "watchos": "WATCHOS_DEPLOYMENT_TARGET",
    ]

    static func targets(projectYML path: String, display: (String) -> String) throws(FileError) -> [ProjectTarget] {
        let bytes = try FileIO.load(path).bytes
        guard let spec = try BoundedYAML.load(bytes) as? [String: Any] else {
            throw FileError("not an XcodeGen spec: the top is not a mapping")
        }
        let projectDir = (path as NSString).deletingLastPathComponent
        let shown = display(path)
        var projectLevel = SettingsLevel()
        for (name, version) in deploymentTargets((spec["options"] as? [String: Any])?["deploymentTarget"], platform: nil) {
            projectLevel.values[name] = (version, shown)
        }
        merge(settings: spec["settings"], into: &projectLevel, source: shown)
        var targets: [ProjectTarget] = []
        let specTargets = spec["targets"] as? [String: Any] ?? [:]
        for name in specTargets.keys.sorted() {
            guard let target = specTargets[name] as? [String: Any] else { continue }
            let platform = (target["platform"] as? String)?.lowercased()
            var level = SettingsLevel()
            if let platform, let setting = platformSettings[platform] { level.values["SDKROOT"] = (sdk(setting), shown) }
            for (setting, version) in deploymentTargets(target["deploymentTarget"], platform: platform) { level.values[setting] = (version, shown) }
            if let info = (target["info"] as? [String: Any])?["path"] as? String { level.values["INFOPLIST_FILE"] = (info, shown) }
            merge(settings: target["settings"], into: &level, source: shown)
            var unresolved: [String] = []
            if target["configFiles"] != nil { unresolved.append("configFiles are not read") }
            if spec["include"] != nil { unresolved.append("include: files are not read") }
            let settings = BuildSettings(levels: [projectLevel, level], builtIns: [
                "SRCROOT": projectDir, "PROJECT_DIR": projectDir, "TARGET_NAME": name, "PRODUCT_NAME": name])
            let (plist, found, problems, chain, _) = ProjectSettings.read(settings, projectDir: projectDir, targetName: name)
            var read = ProjectTarget(
                name: name, productType: ProjectTarget.shortProductType(target["type"] as? String ?? ""), project: shown,
                infoPlists: plist.map { [$0] } ?? [], deploymentTarget: ProjectSettings.lowest(found.map { [$0] } ?? [], target: name),
                unresolved: unresolved + problems)
            read.platform = platform.map { $0 == "macos" ? "macos" : $0 }
            read.configurations = [TargetConfiguration(name: "all configurations", infoPlist: plist.map(display),
                                                       deploymentTarget: found?.platforms.joined(separator: ","), chain: chain,
                                                       unresolved: unresolved + problems)]
            targets.append(read)
        }
        return targets
    }

    private static func sdk(_ setting: String) -> String {
        ProjectTarget.deploymentSettings.first { $0.name == setting }?.sdk ?? ""
    }

    /// `deploymentTarget: "13.0"` (for the target's platform) or `{iOS: "13.0", macOS: "11.0"}`.
    private static func deploymentTargets(_ value: Any?, platform: String?) -> [(String, String)] {
        if let map = value as? [String: Any] {
            return map.compactMap { key, version in platformSettings[key.lowercased()].map { ($0, "\(version)") } }
        }
        if let value, let platform, let setting = platformSettings[platform] { return [(setting, "\(value)")] }
        return []
    }

    private static func merge(settings: Any?, into level: inout SettingsLevel, source: String) {
        guard let settings = settings as? [String: Any] else { return }
        let base = settings["base"] as? [String: Any] ?? (settings["configs"] == nil && settings["groups"] == nil ? settings : [:])
        for (key, value) in base {
            level.set(key, "\(value)", source: source)
        }
    }
}
