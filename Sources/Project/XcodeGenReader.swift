import ATSPolicy
import Foundation
import FileAccess

/// Reads XcodeGen's `project.yml` (or `.json`) into the targets XcodeGen would generate, with
/// what decides each target's Info.plist and deployment target done as XcodeGen does it (read
/// from its source to learn, re-expressed here):
/// - `include:` files (strings or `{path, relativePaths, enable}`), merged under the including
///   spec (dicts deeply, lists appended, `KEY:REPLACE` replacing), paths in an included file
///   relative to it unless `relativePaths: false`;
/// - multi-platform targets (`platform: [iOS, tvOS]` → `Name_iOS`, `Name_tvOS`, with
///   `${platform}` substituted, `platformPrefix`/`platformSuffix`, a per-platform
///   `deploymentTarget`), before and after `targetTemplates` (nested, `${target_name}`,
///   `templateAttributes`);
/// - settings per configuration: `settingGroups`, `base`, `groups`, `configs` (a configuration
///   matches a variant whose name it contains), project and target `configFiles` (read as
///   `.xcconfig`s), `options.deploymentTarget`, the target's `deploymentTarget` (a string, or
///   one per `supportedDestinations` platform), the platform's SDKROOT — values a config file
///   sets are left to it, as XcodeGen leaves them;
/// - the Info.plist: the target's `INFOPLIST_FILE`, else `info.path`, else the first file named
///   `Info.plist` among the target's `sources` (directories searched in name order, where
///   XcodeGen takes the file system's order).
/// Duplicate keys in a spec are refused with a note (the Yams XcodeGen pins keeps one of them).
public enum XcodeGenReader {
    /// Each platform's deployment-target setting and SDK (`ios` → `IPHONEOS_DEPLOYMENT_TARGET`,
    /// `iphoneos`), from the one table of them.
    static let platformSettings = Dictionary(uniqueKeysWithValues: ProjectTarget.deploymentSettings.map { ($0.platform, $0.name) })
    static let sdkRoots = Dictionary(uniqueKeysWithValues: ProjectTarget.deploymentSettings.map { ($0.platform, $0.sdk) })

    public static func targets(projectYML path: String, display: @escaping (String) -> String) throws(FileError) -> [ProjectTarget] {
        var loader = SpecLoader(rootDirectory: (path as NSString).deletingLastPathComponent, display: display)
        var spec = try loader.load(path)
        spec = multiplatform(spec)
        spec = templates(spec)
        spec = multiplatform(spec)
        let projectDir = loader.rootDirectory
        let shown = display(path)
        let configs = configurations(spec["configs"])
        let specTargets = spec["targets"] as? [String: Any] ?? [:]
        // No target at all, and an include that could not be read: that is the project unread.
        if specTargets.isEmpty, !loader.problems.isEmpty { throw FileError(loader.problems.joined(separator: "; ")) }
        let options = spec["options"] as? [String: Any] ?? [:]
        let groups = (spec["settingGroups"] ?? spec["settingPresets"]) as? [String: Any] ?? [:]
        let platforms = specTargets.values.compactMap { ($0 as? [String: Any])?["platform"] as? String }.map { $0.lowercased() }
        let sharedPlatform = platforms.count == specTargets.count && Set(platforms).count == 1 ? platforms.first : nil
        let projectConfigFiles = spec["configFiles"] as? [String: Any] ?? [:]
        var xcconfigs: [String: (level: SettingsLevel, problems: [String])] = [:]
        func xcconfig(_ relative: Any?) -> (SettingsLevel, [String]) {
            guard let relative = relative as? String else { return (SettingsLevel(), []) }
            let file = relative.hasPrefix("/") ? relative : projectDir + "/" + relative
            if xcconfigs[file] == nil {
                var problems: [String] = []
                xcconfigs[file] = (XCConfig.read(file, display: display, problems: &problems, projectDir: projectDir), problems)
            }
            return xcconfigs[file]!
        }

        var targets: [ProjectTarget] = []
        for name in specTargets.keys.sorted() {
            guard let target = specTargets[name] as? [String: Any] else { continue }
            // The name the spec gives it (`App` for the `App_iOS` a multi-platform target becomes).
            let specName = target[Self.specNameKey] as? String ?? name
            let destinations = (target["supportedDestinations"] as? [Any])?.compactMap { ($0 as? String)?.lowercased() } ?? []
            let platform = (target["platform"] as? String)?.lowercased() ?? (destinations.isEmpty ? nil : "auto")
            // A legacy target (a build tool, no product) has no type: it is named so.
            let written = target["type"] as? String ?? ""
            let type = written.isEmpty && target["legacy"] != nil ? "legacy" : written
            var problems = loader.problems
            var described: [TargetConfiguration] = []
            var infoPlists: [String] = []
            var found: [DeploymentTarget] = []
            var unknownTarget = false
            var infoPlistSearch: String??
            var byPlist: [String: [DeploymentTarget]] = [:]
            for (configName, _) in configs {
                // The spec file that wrote the key: the root, or an include.
                let source = { (what: String) in "\(loader.origins[what].map(display) ?? shown) (\(what))" }
                // The project's level.
                let (projectFile, projectFileProblems) = xcconfig(projectConfigFiles[configName])
                var project = SettingsLevel()
                if let sharedPlatform, let sdk = sdkRoots[sharedPlatform] { project.set("SDKROOT", sdk, source: source("platform")) }
                for (setting, version) in deploymentTargets(options["deploymentTarget"], platforms: Array(platformSettings.keys)) {
                    project.set(setting, version, source: source("options.deploymentTarget"))
                }
                for key in projectFile.values.keys { project.values[key] = nil }
                apply(settings(spec["settings"], config: configName, configs: configs, groups: groups), to: &project, source: source("settings"))
                // The target's level.
                let (targetFile, targetFileProblems) = xcconfig((target["configFiles"] as? [String: Any])?[configName])
                var level = SettingsLevel()
                if platform == "auto" {
                    // As XcodeGen writes them: the destinations' SDKs, and Mac Catalyst on or off.
                    let from = source("targets.\(specName).supportedDestinations")
                    level.set("SDKROOT", "auto", source: from)
                    let sdks = destinations.compactMap { sdkRoots[$0] }
                    if !sdks.isEmpty { level.set("SUPPORTED_PLATFORMS", sdks.joined(separator: " "), source: from) }
                    level.set("SUPPORTS_MACCATALYST", destinations.contains("maccatalyst") ? "YES" : "NO", source: from)
                } else if let platform, let sdk = sdkRoots[platform] {
                    level.set("SDKROOT", sdk, source: source("targets.\(specName).platform"))
                }
                let targetPlatforms = platform == "auto" ? destinations.map { $0 == "maccatalyst" ? "macos" : $0 } : platform.map { [$0] } ?? []
                for (setting, version) in deploymentTargets(target["deploymentTarget"], platforms: targetPlatforms) {
                    level.set(setting, version, source: source("targets.\(specName).deploymentTarget"))
                }
                for key in targetFile.values.keys.map({ $0 }) + projectFile.values.keys.map({ $0 }) { level.values[key] = nil }
                let targetSettings = settings(target["settings"], config: configName, configs: configs, groups: groups)
                apply(targetSettings, to: &level, source: source("targets.\(specName).settings"))
                // XcodeGen's Info.plist: the target's setting, else `info.path`, else one in its sources.
                if targetSettings["INFOPLIST_FILE"] == nil {
                    if let info = (target["info"] as? [String: Any])?["path"] as? String {
                        level.set("INFOPLIST_FILE", info, source: source("targets.\(specName).info.path"))
                    } else {
                        if infoPlistSearch == nil { infoPlistSearch = .some(infoPlist(in: target["sources"], projectDir: projectDir)) }
                        if let plist = infoPlistSearch ?? nil { level.set("INFOPLIST_FILE", plist, source: source("targets.\(specName).sources")) }
                    }
                }
                problems += projectFileProblems + targetFileProblems
                let settings = BuildSettings(levels: [projectFile, project, targetFile, level], builtIns: [
                    "SRCROOT": projectDir, "PROJECT_DIR": projectDir, "SOURCE_ROOT": projectDir, "TARGET_NAME": name,
                    "PRODUCT_NAME": target["productName"] as? String ?? name, "CONFIGURATION": configName,
                    "PROJECT_NAME": spec["name"] as? String ?? ""])
                let (plist, deployment, unresolved, chain, _, each, bySDK) = ProjectSettings.read(settings, projectDir: projectDir, targetName: name)
                if let plist, !infoPlists.contains(plist) { infoPlists.append(plist) }
                let shownBySDK = ProjectSettings.collect(bySDK, into: &infoPlists, &byPlist, display: display)
                if let deployment { found.append(deployment) }
                if unresolved.contains(where: { $0.contains("_DEPLOYMENT_TARGET") }) { unknownTarget = true }
                problems += unresolved.map { "\(configName): \($0)" }
                described.append(TargetConfiguration(name: configName, infoPlist: plist.map(display),
                                                     deploymentTarget: deployment?.platforms.joined(separator: ","), chain: chain, unresolved: unresolved, platforms: each,
                                                     infoPlistsBySDK: shownBySDK))
            }
            var read = ProjectTarget(
                name: name, productType: ProjectTarget.shortProductType(type), project: shown, infoPlists: infoPlists,
                deploymentTarget: unknownTarget ? nil : ProjectSettings.lowest(found, target: name),
                unresolved: { var seen = Set<String>(); return problems.filter { seen.insert($0).inserted } }())
            read.platform = read.deploymentTarget.map(ProjectTarget.platformNames)
                ?? (platform == "auto" ? destinations.first.map { $0 == "maccatalyst" ? "macos" : $0 } : platform)
            read.configurations = described
            if !unknownTarget { read.deploymentTargetByInfoPlist = byPlist.compactMapValues { ProjectSettings.lowest($0, target: name) } }
            if (target["info"] as? [String: Any])?["path"] != nil {
                read.infoPlistSpec = .init(file: loader.origins["targets.\(specName).info.path"] ?? FileIO.absolute(path), target: specName)
            }
            targets.append(read)
        }
        // Aggregate targets build other targets, no product of their own: listed, without a plist.
        for name in ((spec["aggregateTargets"] as? [String: Any]) ?? [:]).keys.sorted() {
            targets.append(ProjectTarget(name: name, productType: "aggregate", project: shown, infoPlists: [], deploymentTarget: nil, unresolved: []))
        }
        return targets
    }

    /// `configs:` (name → type), in name order; XcodeGen's default is Debug and Release.
    static func configurations(_ value: Any?) -> [(String, String)] {
        guard let configs = value as? [String: Any], !configs.isEmpty else { return [("Debug", "debug"), ("Release", "release")] }
        return configs.keys.sorted().map { ($0, "\(configs[$0] ?? "")") }
    }

    /// A `settings` value for one configuration: its groups (from `settingGroups`), then its
    /// plain settings (flat, or `base`), then each `configs` variant the configuration's name
    /// contains (unless the variant is exactly another configuration's name).
    static func settings(_ value: Any?, config: String, configs: [(String, String)], groups: [String: Any], depth: Int = 0) -> [String: String] {
        guard let settings = value as? [String: Any], depth < 16 else { return [:] }
        let structured = settings["base"] != nil || settings["configs"] != nil || settings["groups"] != nil
        var out: [String: String] = [:]
        for group in settings["groups"] as? [Any] ?? [] {
            guard let name = group as? String else { continue }
            out.merge(self.settings(groups[name], config: config, configs: configs, groups: groups, depth: depth + 1)) { _, new in new }
        }
        for (key, item) in (structured ? settings["base"] as? [String: Any] ?? [:] : settings) { out[key] = text(item) }
        for (variant, variantSettings) in settings["configs"] as? [String: Any] ?? [:] where config.lowercased().contains(variant.lowercased()) {
            let exact = configs.first { $0.0.lowercased() == variant.lowercased() }
            if let exact, exact.0 != config { continue }
            out.merge(self.settings(variantSettings, config: config, configs: configs, groups: groups, depth: depth + 1)) { _, new in new }
        }
        return out
    }

    static func apply(_ settings: [String: String], to level: inout SettingsLevel, source: String) {
        for (key, value) in settings { level.set(key, value, source: source) }
    }

    /// A YAML value as a build setting's text: lists joined by spaces, YES/NO for Booleans.
    static func text(_ value: Any) -> String {
        if let flag = value as? Bool { return flag ? "YES" : "NO" }
        if let list = value as? [Any] { return list.map(text).joined(separator: " ") }
        return "\(value)"
    }

    /// `deploymentTarget: "13.0"` (for each of `platforms`) or `{iOS: "13.0", macOS: "11.0"}`,
    /// versions as XcodeGen writes them (`13` → `13.0`).
    static func deploymentTargets(_ value: Any?, platforms: [String]) -> [(String, String)] {
        func version(_ value: Any) -> String {
            let text = "\(value)"
            return text.contains(".") ? text : text + ".0"
        }
        if let map = value as? [String: Any] {
            return map.compactMap { key, item in
                let platform = key.lowercased()
                guard platforms.contains(platform) || platforms.count > 1 || platforms.isEmpty, let setting = platformSettings[platform] else { return nil }
                return (setting, version(item))
            }
        }
        guard let value else { return [] }
        return platforms.compactMap { platformSettings[$0].map { ($0, version(value)) } }
    }

    /// XcodeGen's default Info.plist: the first source that is a file named `Info.plist`, or
    /// holds one (searched depth first in name order, at most 10,000 entries).
    static func infoPlist(in sources: Any?, projectDir: String) -> String? {
        let paths: [String] = if let single = sources as? String { [single] } else {
            (sources as? [Any] ?? []).compactMap { ($0 as? String) ?? (($0 as? [String: Any])?["path"] as? String) }
        }
        var budget = 10_000
        func search(_ directory: String) -> String? {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
            for name in names.sorted() {
                budget -= 1
                guard budget > 0 else { return nil }
                let path = directory + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFREG, name == "Info.plist" { return path }
                if (info.st_mode & S_IFMT) == S_IFDIR, let found = search(path) { return found }
            }
            return nil
        }
        for path in paths {
            let absolute = path.hasPrefix("/") ? path : projectDir + "/" + path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue {
                if (absolute as NSString).lastPathComponent == "Info.plist" { return relative(absolute, to: projectDir) }
                continue
            }
            if let found = search(absolute) { return relative(found, to: projectDir) }
        }
        return nil
    }

    static func relative(_ path: String, to directory: String) -> String {
        path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
    }

    // MARK: Targets as XcodeGen expands them

    /// `platform: [iOS, tvOS]`: one target per platform.
    /// Where an expanded multi-platform target keeps the name the spec wrote (no spec key has
    /// a space in it).
    static let specNameKey = "plist-migrate spec name"

    static func multiplatform(_ spec: [String: Any]) -> [String: Any] {
        guard let targets = spec["targets"] as? [String: Any] else { return spec }
        var expanded: [String: Any] = [:]
        for (name, value) in targets {
            guard var target = value as? [String: Any], let platforms = target["platform"] as? [Any] else {
                expanded[name] = value
                continue
            }
            for case let platform as String in platforms {
                var copy = substitute(target, ["platform": platform]) as? [String: Any] ?? target
                copy["platform"] = platform
                let suffix = copy["platformSuffix"] as? String ?? "_\(platform)"
                let prefix = copy["platformPrefix"] as? String ?? ""
                if let versions = target["deploymentTarget"] as? [String: Any] { copy["deploymentTarget"] = versions[platform] }
                copy["productName"] = name
                copy[specNameKey] = name
                expanded[prefix + name + suffix] = copy
            }
            target = [:]
        }
        var result = spec
        result["targets"] = expanded
        return result
    }

    /// `templates: [A]` merged under each target, `${target_name}` and `templateAttributes`.
    static func templates(_ spec: [String: Any]) -> [String: Any] {
        guard var targets = spec["targets"] as? [String: Any] else { return spec }
        let templates = spec["targetTemplates"] as? [String: Any] ?? [:]
        func collect(_ dictionary: [String: Any], into list: inout [String], at index: inout Int, depth: Int) {
            guard depth < 32 else { return }
            for case let name as String in dictionary["templates"] as? [Any] ?? [] where !list.contains(name) {
                guard let template = templates[name] as? [String: Any] else { continue }
                list.insert(name, at: index)
                collect(template, into: &list, at: &index, depth: depth + 1)
                index += 1
            }
        }
        for (name, value) in targets {
            guard var target = value as? [String: Any] else { continue }
            var names: [String] = []
            var index = 0
            collect(target, into: &names, at: &index, depth: 0)
            guard !names.isEmpty else { continue }
            var base: [String: Any] = [:]
            for template in names { if let dictionary = templates[template] as? [String: Any] { base = merged(dictionary, onto: base) } }
            target = merged(target, onto: base)
            target = substitute(target, ["target_name": name]) as? [String: Any] ?? target
            if let attributes = target["templateAttributes"] as? [String: Any] {
                target = substitute(target, attributes.compactMapValues { $0 as? String }) as? [String: Any] ?? target
            }
            targets[name] = target
        }
        var result = spec
        result["targets"] = targets
        return result
    }

    /// XcodeGen's merge: dicts deeply, lists appended, `KEY:REPLACE` replacing, else `top` wins.
    static func merged(_ top: [String: Any], onto base: [String: Any]) -> [String: Any] {
        var result = base
        for (key, value) in top {
            if key.hasSuffix(":REPLACE") {
                result[String(key.dropLast(":REPLACE".count))] = value
            } else if let dictionary = value as? [String: Any], let under = result[key] as? [String: Any] {
                result[key] = merged(dictionary, onto: under)
            } else if let list = value as? [Any], let under = result[key] as? [Any] {
                result[key] = under + list
            } else {
                result[key] = value
            }
        }
        return result
    }

    /// `${name}` replaced in every key and string, for the names given.
    static func substitute(_ value: Any, _ variables: [String: String]) -> Any {
        func replace(_ text: String) -> String {
            guard text.contains("${") else { return text }
            var out = text
            for (name, replacement) in variables { out = out.replacingOccurrences(of: "${\(name)}", with: replacement) }
            return out
        }
        switch value {
        case let dictionary as [String: Any]:
            var out: [String: Any] = [:]
            for (key, item) in dictionary { out[replace(key)] = substitute(item, variables) }
            return out
        case let list as [Any]:
            return list.map { substitute($0, variables) }
        case let text as String:
            return replace(text)
        default:
            return value
        }
    }
}

/// A spec with its `include:`s merged, paths in each included file made relative to the root
/// spec's directory (as XcodeGen's SpecFile does), each file read once, a cycle or a missing
/// file said in `problems`.
public struct SpecLoader {
    public let rootDirectory: String
    public var problems: [String] = []
    /// Which spec file last wrote each key path a source names (`options.deploymentTarget`,
    /// `targets.App.settings`, …): a value from an included `base.yml` names that file.
    public private(set) var origins: [String: String] = [:]
    private var merged: Set<String> = []
    /// Every spec file read, the root first, as its path was built (each once).
    public private(set) var files: [String] = []
    private var inProgress: Set<String> = []
    private var bytesRead = 0

    static let maximumFiles = 256

    /// How a message names a spec file (the run's way of showing paths).
    private let display: (String) -> String

    public init(rootDirectory: String, display: @escaping (String) -> String) {
        self.rootDirectory = rootDirectory
        self.display = display
    }

    public mutating func load(_ path: String) throws(FileError) -> [String: Any] {
        let name = (path as NSString).lastPathComponent
        return try load(file: name, base: rootDirectory, relative: "", resolvedAs: "", isRoot: true)
    }

    /// `base` + `file` is the file; its paths are resolved against `resolvedAs` (relative to the
    /// root directory); `relative` is the directory its own includes are relative to.
    private mutating func load(file: String, base: String, relative: String, resolvedAs: String, isRoot: Bool) throws(FileError) -> [String: Any] {
        let path = file.hasPrefix("/") ? file : base + "/" + file
        let canonical = (try? FileIO.canonicalPath(path).get()) ?? path
        guard !inProgress.contains(canonical) else {
            problems.append("include: \(display(path)) includes itself")
            return [:]
        }
        guard merged.insert(canonical).inserted else { return [:] }
        guard merged.count <= Self.maximumFiles else {
            problems.append("include: more than \(Self.maximumFiles) spec files; the rest are not read")
            return [:]
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.load(path).bytes
        } catch {
            if isRoot { throw error }
            problems.append("include: \(display(path)) cannot be read (\(error.message))")
            return [:]
        }
        files.append(path)
        bytesRead += bytes.count
        guard bytesRead <= BoundedYAML.maximumBytes else {
            if isRoot { throw FileError("larger than \(BoundedYAML.maximumBytes / 1024 / 1024) MiB: not read") }
            problems.append("include: the spec files are larger than \(BoundedYAML.maximumBytes / 1024 / 1024) MiB together; \(display(path)) is not read")
            return [:]
        }
        let dictionary: [String: Any]
        switch Self.parse(bytes, json: path.lowercased().hasSuffix(".json")) {
        case .success(let object):
            dictionary = object
        case .failure(let error):
            if isRoot { throw error }
            problems.append("include: \(error.line(path: display(path)))")
            return [:]
        }
        inProgress.insert(canonical)
        defer { inProgress.remove(canonical) }
        var under: [String: Any] = [:]
        for include in Self.includes(dictionary["include"]) where include.enable {
            let childBase = include.relativePaths ? Self.join(base, relative) : base
            let childRelative = include.relativePaths ? PathText.directory(of: include.path) : ""
            let childResolved = include.relativePaths ? Self.join(resolvedAs, childRelative) : resolvedAs
            let child = try load(file: include.path, base: childBase, relative: childRelative, resolvedAs: childResolved, isRoot: false)
            under = XcodeGenReader.merged(child, onto: under)
        }
        // This file's keys are merged over its includes': it is their origin now.
        record(dictionary, file: FileIO.absolute(path))
        return XcodeGenReader.merged(Self.resolvingPaths(dictionary, relativeTo: resolvedAs), onto: under)
    }

    /// Notes `file` as the origin of the key paths sources name that `spec` writes.
    private mutating func record(_ spec: [String: Any], file: String) {
        for key in ["settings", "platform", "configFiles"] where spec[key] != nil { origins[key] = file }
        if (spec["options"] as? [String: Any])?["deploymentTarget"] != nil { origins["options.deploymentTarget"] = file }
        for (name, value) in spec["targets"] as? [String: Any] ?? [:] {
            guard let target = value as? [String: Any] else { continue }
            for key in ["deploymentTarget", "settings", "platform", "supportedDestinations", "sources"] where target[key] != nil {
                origins["targets.\(name).\(key)"] = file
            }
            if (target["info"] as? [String: Any])?["path"] != nil { origins["targets.\(name).info.path"] = file }
        }
    }

    static func parse(_ bytes: [UInt8], json: Bool) -> Result<[String: Any], FileError> {
        let loaded: Any?
        if json {
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) else { return .failure(FileError("not valid JSON")) }
            loaded = object
        } else {
            do { loaded = try BoundedYAML.load(bytes) } catch { return .failure(error) }
        }
        guard let object = loaded as? [String: Any] else { return .failure(FileError("not an XcodeGen spec: the top is not a mapping")) }
        return .success(object)
    }

    static func join(_ a: String, _ b: String) -> String {
        if b.isEmpty { return a }
        if a.isEmpty || b.hasPrefix("/") { return b }
        return a + "/" + b
    }

    static func includes(_ value: Any?) -> [(path: String, relativePaths: Bool, enable: Bool)] {
        let items: [Any] = value as? [Any] ?? (value.map { [$0] } ?? [])
        return items.compactMap { item in
            if let path = item as? String { return (path, true, true) }
            guard let dictionary = item as? [String: Any], let path = dictionary["path"] as? String else { return nil }
            func flag(_ key: String) -> Bool {
                if let value = dictionary[key] as? Bool { return value }
                if let text = dictionary[key] as? String { return ["yes", "true", "y", "1"].contains(text.lowercased()) }
                return true
            }
            return (path, flag("relativePaths"), flag("enable"))
        }
    }

    /// The path properties that decide a target's Info.plist and settings files, made relative
    /// to the root spec's directory: `configFiles`, and each target's and template's `sources`,
    /// `configFiles` and `info.path`.
    static func resolvingPaths(_ spec: [String: Any], relativeTo directory: String) -> [String: Any] {
        guard !directory.isEmpty else { return spec }
        func path(_ value: Any) -> Any {
            guard let text = value as? String else { return value }
            return PathText.standardized(join(directory, text))
        }
        func configFiles(_ value: Any?) -> Any? {
            (value as? [String: Any])?.mapValues(path) ?? value
        }
        var result = spec
        result["configFiles"] = configFiles(spec["configFiles"])
        for key in ["targets", "targetTemplates"] {
            guard var targets = spec[key] as? [String: Any] else { continue }
            for (name, value) in targets {
                guard var target = value as? [String: Any] else { continue }
                if let sources = target["sources"] {
                    if let single = sources as? String { target["sources"] = path(single) }
                    else if let list = sources as? [Any] {
                        target["sources"] = list.map { item -> Any in
                            if let text = item as? String { return path(text) }
                            guard var dictionary = item as? [String: Any], let inner = dictionary["path"] else { return item }
                            dictionary["path"] = path(inner)
                            return dictionary
                        }
                    }
                }
                if target["configFiles"] != nil { target["configFiles"] = configFiles(target["configFiles"]) }
                if var info = target["info"] as? [String: Any], let inner = info["path"] {
                    info["path"] = path(inner)
                    target["info"] = info
                }
                targets[name] = target
            }
            result[key] = targets
        }
        return result
    }
}
