import Foundation

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
