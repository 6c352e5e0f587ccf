import ATSPolicy
import Foundation
import Project
import FileAccess

/// Which targets use a file as their Info.plist: every Xcode project and XcodeGen spec in the
/// file's directory and each parent up to the repository root is read (once per run, whatever
/// the number of plists), and a target claims the file when its resolved `INFOPLIST_FILE` is
/// that file. Safe to use from every thread.
final class ProjectIndex: @unchecked Sendable {
    private let lock = NSLock()
    // Only read and written under `lock`.
    @exclusivity(unchecked) private var read: [String: [ProjectTarget]] = [:]
    @exclusivity(unchecked) private var problems: [String: String] = [:]
    @exclusivity(unchecked) private var readCount = 0
    @exclusivity(unchecked) private var around: [String: [String]] = [:]
    private let directories: DirectoryFacts

    init(directories: DirectoryFacts) {
        self.directories = directories
    }

    /// Sizes the tables for `count` directories (and their facts), unless they are larger.
    func expectDirectories(_ count: Int) {
        lock.withLock { around.reserveCapacity(count) }
        directories.expect(count)
    }

    /// Why no target claims `path`, project by project: one with an error (`path:line:column`),
    /// a Tuist manifest (`Project.swift`, which only Tuist can evaluate), or a project read
    /// whole none of whose targets names the file — with the targets whose `INFOPLIST_FILE`
    /// could not be resolved, which may be the ones that do.
    func notes(forFile path: String, projects: [String]? = nil) -> [String] {
        var notes: [String] = []
        for project in projects ?? projectFiles(aroundFile: path) {
            let shown = ConfigResolver.relative(project)
            if project.hasSuffix("/Project.swift") {
                notes.append("\(shown) (Tuist) is not read: the targets it defines are unknown")
                continue
            }
            let targets = targets(of: project)
            if let problem = lock.withLock({ problems[project] }) {
                notes.append("project not read: \(problem)")
                continue
            }
            let unknown = targets.compactMap { target in
                target.unresolved.first { $0.contains("INFOPLIST_FILE") }.map { "\(target.name): \($0)" }
            }
            // What the spec could not read for every target (an include not found) is said once.
            let shared = targets.first.map { first in first.unresolved.filter { item in item.hasPrefix("include:") && targets.allSatisfy { $0.unresolved.contains(item) } } } ?? []
            let generated = targets.filter(\.generatesInfoPlist).map(\.name)
            let generatedText = generated.isEmpty ? "" : " (\(generated.joined(separator: ", ")) generate\(generated.count == 1 ? "s its" : " their") Info.plist at build time)"
            notes.append(unknown.isEmpty
                ? "no target of \(shown) names this file as its Info.plist\(generatedText)"
                : "no target of \(shown) is known to name this file; INFOPLIST_FILE not resolved for \(unknown.joined(separator: "; "))\(generatedText)")
            if !shared.isEmpty { notes[notes.count - 1] += "; \(shown) read in part: \(shared.joined(separator: "; "))" }
        }
        return notes
    }

    /// The targets whose Info.plist `path` is, in project order.
    func targets(claiming path: String, projects known: [String]? = nil) -> [ProjectTarget] {
        let projects = known ?? projectFiles(aroundFile: path)
        // Most plists of a monorepo have no project around them: no path work for those.
        guard !projects.isEmpty else { return [] }
        let absolute = FileIO.absolute(path)
        var claiming: [ProjectTarget] = []
        for project in projects {
            claiming += targets(of: project).filter { $0.infoPlists.contains(absolute) }.map { $0.claiming(absolute) }
        }
        if claiming.isEmpty {
            // A Mac's file system ignores case by default: an INFOPLIST_FILE that names this file
            // in another case, where nothing is written so, is this file for Xcode.
            let folded = absolute.lowercased()
            for project in projects {
                for target in targets(of: project) {
                    guard let named = target.infoPlists.first(where: { $0 != absolute && $0.lowercased() == folded }),
                        !FileManager.default.fileExists(atPath: named)
                    else { continue }
                    var found = target.claiming(named)
                    let note = "its INFOPLIST_FILE names \(PathBytes.display(ReportPaths.current.name(named))), which is this file in another "
                        + "case: matched as a case-insensitive file system (APFS's default) finds it"
                    found.deploymentTarget?.source += " (\(note))"
                    found.caseInsensitiveMatch = note
                    claiming.append(found)
                }
            }
        }
        return claiming
    }

    /// The project files (`…/X.xcodeproj/project.pbxproj`, `…/project.yml`, `…/Project.swift`)
    /// from the file's directory up to the repository root; one look per directory per run.
    func projectFiles(aroundFile path: String) -> [String] {
        projectFiles(from: DirectoryFacts.directory(ofFile: path))
    }

    /// The project files of one directory (absolute, `""` for `/`): its `.xcodeproj`s, then its specs.
    static func projectFiles(in directory: String, _ facts: DirectoryFacts.Facts) -> [String] {
        // Most directories hold neither.
        if facts.projects.isEmpty && facts.specs.isEmpty { return [] }
        return facts.projects.map { directory + "/" + $0 + "/project.pbxproj" } + facts.specs.sorted().map { directory + "/" + $0 }
    }

    /// A directory's own project files, then its parent's answer (unless it is a repository
    /// root): each directory's answer is kept, so a file in a directory not seen before costs
    /// the look at that directory and one look-up of its parent's answer. `projectFiles(aroundFile:)`
    /// for a file in `directory` (absolute, `""` for `/`), for a caller that has it at hand.
    func projectFiles(from directory: String) -> [String] {
        if let known = lock.withLock({ around[directory] }) { return known }
        let facts = directories.facts(of: directory)
        var files = Self.projectFiles(in: directory, facts)
        if !facts.hasGit, let parent = DirectoryFacts.parent(of: directory) {
            files += projectFiles(from: parent)
        }
        lock.withLock { around[directory] = files }
        return files
    }

    /// A project's targets, read once per run: under the lock, so that threads asking for the
    /// same project at once wait for the one read (projects are few; plists are many).
    func targets(of project: String) -> [ProjectTarget] {
        if project.hasSuffix("/Project.swift") { return [] }
        return lock.withLock {
            if let known = read[project] { return known }
            let display = { (path: String) in PathBytes.display(ConfigResolver.relative(path)) }
            var targets: [ProjectTarget] = []
            do {
                targets = project.hasSuffix(".yml")
                    ? try XcodeGenReader.targets(projectYML: project, display: display)
                    : try XcodeProjectReader.targets(pbxproj: project, display: display)
            } catch let error as FileError {
                problems[project] = error.line(path: display(project))
            } catch {
                problems[project] = "\(display(project)): error: \(error)"
            }
            read[project] = targets
            readCount += 1
            return targets
        }
    }

    /// How many project files were read (each once): for tests.
    var projectsRead: Int { lock.withLock { readCount } }
}
