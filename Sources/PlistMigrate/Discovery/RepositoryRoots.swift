import Foundation
import FileAccess

/// Where a file's diff header paths start: the root of the git repository holding it (the
/// nearest directory with `.git`), else the working directory, so that `git apply` from that
/// root takes the patch. A file outside both is named by its absolute path without the leading
/// `/` (apply it from `/`). One look-up per directory.
final class RepositoryRoots: @unchecked Sendable {
    // Only read and written under `lock`: the runtime's exclusivity check would add nothing.
    @exclusivity(unchecked) private var cache: [String: String?] = [:]
    private let lock = NSLock()
    private let workingDirectory = FileIO.absolute(".")
    private let directories: DirectoryFacts

    init(directories: DirectoryFacts = DirectoryFacts()) {
        self.directories = directories
    }

    func diffPath(for path: String) -> String {
        let absolute = FileIO.absolute(path)
        let directory = DirectoryFacts.parent(of: absolute) ?? ""
        let base = root(of: directory) ?? workingDirectory
        let prefix = base == "/" ? "/" : base + "/"
        if absolute.hasPrefix(prefix) { return String(absolute.dropFirst(prefix.count)) }
        return String(absolute.drop { $0 == "/" })
    }

    /// The root of the git repository holding `path` (absolute), or `nil` outside any.
    func root(forFile path: String) -> String? {
        guard path != "-" else { return nil }
        return root(of: DirectoryFacts.directory(ofFile: path))
    }

    private func root(of directory: String) -> String? {
        if let cached = lock.withLock({ cache[directory] }) { return cached }
        let found: String?
        if directories.facts(of: directory).hasGit {
            found = directory.isEmpty ? "/" : directory
        } else if let parent = DirectoryFacts.parent(of: directory) {
            found = root(of: parent)
        } else {
            found = nil
        }
        lock.withLock { cache[directory] = found }
        return found
    }
}

/// How every report names a file: relative to the root of the git repository that holds the
/// working directory (the root SARIF and patches use), else to the working directory. So a
/// baseline written at the root matches when lint runs from `App/`, and GitHub's annotations
/// land on the right file. A file outside that root keeps the name it was given.
public struct ReportPaths: Sendable {
    /// Absolute, without a trailing `/` (except for `/` itself).
    public let root: String
    /// The working directory relative to `root`, with a trailing `/` (empty at the root): a
    /// plain relative path is named by prepending it, with no path resolution per file.
    private let workingDirectoryFromRoot: String?

    public static let current = ReportPaths(workingDirectory: FileIO.absolute("."))

    init(workingDirectory: String) {
        root = Self.root(holding: workingDirectory)
        let prefix = root == "/" ? "/" : root + "/"
        workingDirectoryFromRoot = workingDirectory == root ? ""
            : workingDirectory.hasPrefix(prefix) && FileIO.isPlain(workingDirectory) ? String(workingDirectory.dropFirst(prefix.count)) + "/" : nil
    }

    private static func root(holding workingDirectory: String) -> String {
        gitRoot(holding: workingDirectory) ?? workingDirectory
    }

    /// The root of the git repository holding `path` (absolute): the nearest directory, from it
    /// up, with a `.git`; `nil` outside any.
    static func gitRoot(holding path: String) -> String? {
        // As DirectoryFacts spells them: `/` is the empty string.
        var directory = path == "/" ? "" : path
        while true {
            if isGitRoot(directory) { return directory.isEmpty ? "/" : directory }
            guard let parent = DirectoryFacts.parent(of: directory) else { return nil }
            directory = parent
        }
    }

    /// Whether `directory` holds a `.git` (a folder, or the file of a work tree or submodule).
    static func isGitRoot(_ directory: String) -> Bool {
        var info = stat()
        return lstat(PathBytes.c(directory + "/.git"), &info) == 0
    }

    /// `path` as reports name it; `-` (standard input) and names outside the root unchanged.
    public func name(_ path: String) -> String {
        guard path != "-" else { return path }
        // The common case, once per file of a run: a plain relative path below the working directory.
        if let workingDirectoryFromRoot, !path.hasPrefix("/"), FileIO.isPlain(path) { return workingDirectoryFromRoot + path }
        let absolute = FileIO.absolute(path)
        if absolute == root { return "." }
        let prefix = root == "/" ? "/" : root + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : path
    }
}
