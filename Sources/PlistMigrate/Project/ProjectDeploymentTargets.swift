#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ATSPolicy
import Foundation

/// For a file no target claims (`ProjectIndex`): the deployment target of the nearest
/// enclosing Xcode project, the directory of
/// the file, then each parent (stopping after the repository root), is searched for
/// `*.xcodeproj/project.pbxproj`; the first that sets `IPHONEOS_DEPLOYMENT_TARGET`,
/// `MACOSX_DEPLOYMENT_TARGET`, `TVOS_DEPLOYMENT_TARGET` or `XROS_DEPLOYMENT_TARGET` gives the lowest value of each (every target and build
/// configuration of that directory's projects). Values that are build-setting references are
/// not read. One look-up per directory.
final class ProjectDeploymentTargets: @unchecked Sendable {
    // Only read and written under `lock`: the runtime's exclusivity check would add nothing.
    @exclusivity(unchecked) private var cache: [String: DeploymentTarget?] = [:]
    private let lock = NSLock()
    private let directories: DirectoryFacts

    init(directories: DirectoryFacts = DirectoryFacts()) {
        self.directories = directories
    }

    static let settings: [(name: String, platform: String)] = [
        ("IPHONEOS_DEPLOYMENT_TARGET", "ios"), ("MACOSX_DEPLOYMENT_TARGET", "macos"),
        ("TVOS_DEPLOYMENT_TARGET", "tvos"), ("XROS_DEPLOYMENT_TARGET", "visionos"),
    ]

    func target(forFile path: String) -> DeploymentTarget? {
        let absolute = FileIO.absolute(path)
        var directory = DirectoryFacts.parent(of: absolute) ?? ""
        var visited: [String] = []
        var found: DeploymentTarget?
        while true {
            if let cached = lock.withLock({ cache[directory] }) {
                found = cached
                break
            }
            visited.append(directory)
            let facts = directories.facts(of: directory)
            if let target = Self.target(inDirectory: directory.isEmpty ? "/" : directory, projects: facts.projects) {
                found = target
                break
            }
            guard !facts.hasGit, let parent = DirectoryFacts.parent(of: directory) else { break }
            directory = parent
        }
        lock.withLock { for dir in visited { cache[dir] = found } }
        return found
    }

    static func target(inDirectory directory: String, projects: [String]) -> DeploymentTarget? {
        guard !projects.isEmpty else { return nil }
        var targets: [DeploymentTarget] = []
        var sources: [String] = []
        for project in projects {
            let file = (directory == "/" ? "" : directory) + "/" + project + "/project.pbxproj"
            guard let bytes = try? FileIO.load(file).bytes else { continue }
            let found = versions(in: String(decoding: bytes, as: UTF8.self))
            if !found.isEmpty {
                targets += found
                sources.append(ConfigResolver.relative(file))
            }
        }
        return DeploymentTarget.lowest(targets, source: sources.joined(separator: ", "))
    }

    /// Every `NAME_DEPLOYMENT_TARGET = 15.0;` with a version number, as targets.
    static func versions(in text: String) -> [DeploymentTarget] {
        var targets: [DeploymentTarget] = []
        for line in text.split(separator: "\n") {
            for (name, platform) in settings where line.contains(name) {
                guard let equals = line.firstIndex(of: "=") else { continue }
                let value = line[line.index(after: equals)...].filter { $0 != " " && $0 != "\t" && $0 != ";" && $0 != "\"" }
                guard let target = DeploymentTarget(platform: platform, version: value, source: "") else { continue }
                targets.append(target)
            }
        }
        return targets
    }
}
