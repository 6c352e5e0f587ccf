import ATSPolicy
import Foundation
import PlistDOM
import Project
import FileAccess

/// `plist-migrate targets`: what the tool believes of the projects under some paths, before a
/// fleet run relies on it. Each project (Xcode, XcodeGen, Tuist), its targets
/// (name, product type, platform), each target's Info.plist and deployment target per
/// configuration with the chain of settings it came from, and everything not understood. A
/// project that cannot be read is said, never a failure: the command exits 0.
public struct TargetsReport: Sendable {
    public struct ConfigurationRecord: Codable, Equatable, Sendable {
        public var name: String
        public var infoPlist: String?
        public var deploymentTarget: String?
        /// `Config/Widget.xcconfig:3 ← Config/Base.xcconfig:7`: the value's own source first.
        public var from: [String]
        public var notUnderstood: [String]?
        /// Where the target builds for several platforms: each one's version and source.
        public var platforms: [PlatformSource]?
        /// Where `[sdk=…]` conditions give SDKs their own Info.plist: each, with its SDKs.
        public var infoPlistsBySDK: [SDKInfoPlist]?
    }

    public struct TargetRecord: Codable, Equatable, Sendable {
        public var name: String
        public var productType: String
        public var platform: String?
        public var infoPlists: [String]
        /// The lowest over the configurations; absent when any configuration's is unknown.
        public var deploymentTarget: String?
        public var configurations: [ConfigurationRecord]
        public var notUnderstood: [String]?
        /// `GENERATE_INFOPLIST_FILE = YES` and no `INFOPLIST_FILE`: no file is its Info.plist.
        public var generatesInfoPlist: Bool?
        /// Xcode 16 synchronized folders, with the files their exception sets leave out.
        public var synchronizedFolders: [String]?
        /// Info.plists not on disk as written but in another case: each with the file a Mac's
        /// case-insensitive file system finds for it.
        public var caseInsensitiveMatches: [String: String]?
        /// XcodeGen writes the Info.plist: from where (`project.yml:12 (targets.App.info)`).
        public var infoPlistGeneratedFrom: String?
    }

    public struct ProjectRecord: Codable, Equatable, Sendable {
        public var path: String
        /// `xcodeproj`, `xcodegen` or `tuist`.
        public var kind: String
        /// Why the project could not be read at all.
        public var notRead: String?
        public var targets: [TargetRecord]
    }

    public struct Document: Codable, Equatable, Sendable {
        public var schemaVersion = 1
        public var projects: [ProjectRecord]
    }

    public let document: Document

    /// The projects under `paths` (directories are walked; a project file, `.xcodeproj` or plist
    /// names the projects it is or lies in), each read once.
    public init(paths: [String]) {
        // As reports show names: a name that is not UTF-8 quoted with its bytes in octal.
        let display = { (path: String) in PathBytes.display(ReportPaths.current.name(path)) }
        var projects: [ProjectRecord] = []
        for project in Self.projectFiles(paths) {
            let shown = display(project)
            if project.hasSuffix("/Project.swift") {
                projects.append(ProjectRecord(path: shown, kind: "tuist", notRead: "a Tuist manifest: only Tuist can evaluate it", targets: []))
                continue
            }
            let kind = Self.isSpecName(project) ? "xcodegen" : "xcodeproj"
            do {
                let targets = kind == "xcodegen"
                    ? try XcodeGenReader.targets(projectYML: project, display: display)
                    : try XcodeProjectReader.targets(pbxproj: project, display: display)
                projects.append(ProjectRecord(path: shown, kind: kind, notRead: nil, targets: targets.map(Self.record)))
            } catch {
                projects.append(ProjectRecord(path: shown, kind: kind, notRead: error.line(path: shown), targets: []))
            }
        }
        document = Document(projects: projects)
    }

    static func record(_ target: ProjectTarget) -> TargetRecord {
        // Not on disk as written, but in another case: what a Mac's file system finds.
        var matches: [String: String] = [:]
        for plist in target.infoPlists where !FileManager.default.fileExists(atPath: plist) {
            if let found = CaseInsensitivePath.find(plist) {
                matches[PathBytes.display(ReportPaths.current.name(plist))] = PathBytes.display(ReportPaths.current.name(found))
            }
        }
        return TargetRecord(
            name: target.name, productType: target.productType, platform: target.platform,
            infoPlists: target.infoPlists.map { PathBytes.display(ReportPaths.current.name($0)) },
            deploymentTarget: target.deploymentTarget?.platforms.joined(separator: ","),
            configurations: target.configurations.map {
                ConfigurationRecord(name: $0.name, infoPlist: $0.infoPlist, deploymentTarget: $0.deploymentTarget, from: $0.chain,
                                    notUnderstood: $0.unresolved.isEmpty ? nil : $0.unresolved, platforms: $0.platforms.isEmpty ? nil : $0.platforms,
                                    infoPlistsBySDK: $0.infoPlistsBySDK.isEmpty ? nil : $0.infoPlistsBySDK)
            },
            notUnderstood: target.unresolved.isEmpty ? nil : target.unresolved,
            generatesInfoPlist: target.generatesInfoPlist ? true : nil,
            synchronizedFolders: target.synchronizedFolders.isEmpty ? nil : target.synchronizedFolders,
            caseInsensitiveMatches: matches.isEmpty ? nil : matches,
            infoPlistGeneratedFrom: target.infoPlistSpec.map { spec in
                // The line of the `info:` key (its value starts on the next).
                let spans = (try? FileIO.load(spec.file).bytes).flatMap { try? YAMLSpans($0) }
                let line = spans.flatMap { spans in
                    spans.node(at: [.key("targets"), .key(spec.target)]).flatMap(spans.entries(of:))?
                        .last { $0.key == "info" }.map { spans.line(of: $0.keyRange.lowerBound) }
                }
                return PathBytes.display(ReportPaths.current.name(spec.file)) + (line.map { ":\($0)" } ?? "") + " (targets.\(spec.target).info)"
            })
    }

    /// Project files under `paths`, in path order: `X.xcodeproj/project.pbxproj`, `project.yml`,
    /// `Project.swift`. Hidden directories, symbolic links and what lies inside an `.xcodeproj`
    /// are not walked.
    static func projectFiles(_ paths: [String]) -> [String] {
        var found: [String] = []
        func add(_ path: String) { if !found.contains(path) { found.append(path) } }
        // Names as bytes (`PathBytes`): a folder whose name is not UTF-8 is walked too.
        func walk(_ directory: String, depth: Int) {
            guard depth < 64 else { return }
            var names: [String] = []
            guard DirectoryEntries.forEach(at: PathBytes.c(directory), { bytes, _ in names.append(PathBytes.string(bytes)) }) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = directory + "/" + name
                var info = stat()
                guard lstat(PathBytes.c(path), &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    if name.hasSuffix(".xcodeproj") {
                        if FileIO.exists(path + "/project.pbxproj") { add(path + "/project.pbxproj") }
                    } else if !name.hasSuffix(".xcworkspace") {
                        walk(path, depth: depth + 1)
                    }
                } else if (info.st_mode & S_IFMT) == S_IFREG, name == "project.yml" || name == "Project.swift" {
                    add(path)
                }
            }
        }
        for given in paths.isEmpty ? ["."] : paths {
            let path = FileIO.absolute(given)
            var info = stat()
            guard stat(PathBytes.c(path), &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                if path.hasSuffix(".xcodeproj") { add(path + "/project.pbxproj") } else { walk(path, depth: 0) }
            } else if path.hasSuffix("/project.pbxproj") || path.hasSuffix("/Project.swift") || Self.isSpecName(path) {
                // A YAML file named is an XcodeGen spec whatever its name (`xcodegen --spec test_project.yml`).
                add(path)
            } else {
                // A plist: the projects around it, as a run looks them up.
                for project in ProjectIndex(directories: DirectoryFacts()).projectFiles(aroundFile: path) { add(project) }
            }
        }
        return found
    }

    /// A `.yml` or `.yaml` file: read as an XcodeGen spec.
    static func isSpecName(_ path: String) -> Bool {
        path.hasSuffix(".yml") || path.hasSuffix(".yaml")
    }

    public func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(document)) ?? Data("{}".utf8)) + [0x0A]
    }

    public func text() -> String {
        var out = ""
        for project in document.projects {
            out += "\(project.path) (\(project.kind))\n"
            if let notRead = project.notRead { out += "  not read: \(notRead)\n" }
            for target in project.targets {
                out += "  \(target.name): " + ([target.productType] + [target.platform].compactMap { $0 }).filter { !$0.isEmpty }.joined(separator: ", ") + "\n"
                let plist = !target.infoPlists.isEmpty
                    ? target.infoPlists.map { written in
                        (target.caseInsensitiveMatches?[written]).map {
                            "\(written) (not on disk as written; \($0) matches it case-insensitively, as APFS finds it by default)"
                        } ?? written
                    }.joined(separator: ", ")
                    : target.generatesInfoPlist == true ? "generated at build time (GENERATE_INFOPLIST_FILE), no file"
                    : XcodeProjectReader.productlessTargets.values.contains(target.productType) ? "none (it builds no product of its own)" : "none known"
                out += "    Info.plist: \(plist)" + (target.infoPlistGeneratedFrom.map { " (xcodegen generate writes it from \($0))" } ?? "") + "\n"
                for folder in target.synchronizedFolders ?? [] { out += "    synchronized folder: \(folder)\n" }
                for configuration in target.configurations {
                    let version = configuration.deploymentTarget ?? "deployment target unknown"
                    let from = configuration.from.filter { !$0.isEmpty }
                    if let platforms = configuration.platforms, !platforms.isEmpty {
                        // Each platform with where its version came from.
                        out += "    \(configuration.name): " + platforms.map { "\($0.os) from \($0.from)" }.joined(separator: "; ") + "\n"
                    } else {
                        out += "    \(configuration.name): \(version)\(from.isEmpty ? "" : " from " + from.joined(separator: " ← "))\n"
                    }
                    // The Info.plist each SDK reads, where conditions give them their own.
                    for entry in configuration.infoPlistsBySDK ?? [] {
                        out += "      [sdk=\(entry.sdks.joined(separator: ","))] \(entry.infoPlist) from \(entry.from)"
                            + (entry.deploymentTarget.map { ": \($0)" } ?? "") + "\n"
                    }
                }
                for item in target.notUnderstood ?? [] { out += "    not understood: \(item)\n" }
            }
        }
        let targets = document.projects.reduce(0) { $0 + $1.targets.count }
        let unread = document.projects.filter { $0.notRead != nil }.count
        let partial = document.projects.flatMap(\.targets).filter { $0.notUnderstood != nil }.count
        out += "plist-migrate targets: \(document.projects.count) project\(document.projects.count == 1 ? "" : "s"), "
            + "\(targets) target\(targets == 1 ? "" : "s")"
            + (unread > 0 ? ", \(unread) not read" : "") + (partial > 0 ? ", \(partial) read only in part" : "") + "\n"
        return out
    }
}
