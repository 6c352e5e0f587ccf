#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ATSPolicy
import Foundation
import FileAccess

/// For a file no target claims (`ProjectIndex`): the deployment target of the nearest
/// enclosing project — the file's directory, then each parent (stopping after the repository
/// root), is searched for `*.xcodeproj` and XcodeGen specs, read through the same project model
/// (`ProjectIndex`, each project once per run); the first directory whose projects give a
/// deployment target gives the lowest over their targets. A project that does not parse is not
/// used at all (no line scan of it). One look-up per directory.
final class ProjectDeploymentTargets: @unchecked Sendable {
    // Only read and written under `lock`: the runtime's exclusivity check would add nothing.
    @exclusivity(unchecked) private var cache: [String: DeploymentTarget?] = [:]
    private let lock = NSLock()
    private let directories: DirectoryFacts
    private let index: ProjectIndex

    init(directories: DirectoryFacts = DirectoryFacts(), index: ProjectIndex? = nil) {
        self.directories = directories
        self.index = index ?? ProjectIndex(directories: directories)
    }

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
            if let target = target(of: ProjectIndex.projectFiles(in: directory, facts)) {
                found = target
                break
            }
            guard !facts.hasGit, let parent = DirectoryFacts.parent(of: directory) else { break }
            directory = parent
        }
        lock.withLock { for dir in visited { cache[dir] = found } }
        return found
    }

    /// The lowest deployment target over the targets of `projects` that were read.
    private func target(of projects: [String]) -> DeploymentTarget? {
        var targets: [DeploymentTarget] = []
        var sources: [String] = []
        for project in projects where !project.hasSuffix("/Project.swift") {
            let found = index.targets(of: project).compactMap(\.deploymentTarget)
            if !found.isEmpty {
                targets += found
                sources.append(ConfigResolver.relative(project))
            }
        }
        return DeploymentTarget.lowest(targets, source: sources.joined(separator: ", "))
    }
}
