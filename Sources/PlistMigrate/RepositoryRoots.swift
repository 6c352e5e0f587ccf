/// Where a file's diff header paths start: the root of the git repository holding it (the
/// nearest directory with `.git`), else the working directory, so that `git apply` from that
/// root takes the patch. A file outside both is named by its absolute path without the leading
/// `/` (apply it from `/`). One look-up per directory.
final class RepositoryRoots: @unchecked Sendable {
    private var cache: [String: String?] = [:]
    private let workingDirectory = FileIO.absolute(".")

    func diffPath(for path: String) -> String {
        let absolute = FileIO.absolute(path)
        let directory = String(absolute[..<(absolute.lastIndex(of: "/") ?? absolute.startIndex)])
        let base = root(of: directory) ?? workingDirectory
        let prefix = base == "/" ? "/" : base + "/"
        if absolute.hasPrefix(prefix) { return String(absolute.dropFirst(prefix.count)) }
        return String(absolute.drop { $0 == "/" })
    }

    private func root(of directory: String) -> String? {
        if let cached = cache[directory] { return cached }
        let found: String?
        if FileIO.exists((directory.isEmpty ? "" : directory) + "/.git") {
            found = directory.isEmpty ? "/" : directory
        } else if directory.isEmpty {
            found = nil
        } else {
            found = root(of: String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)]))
        }
        cache[directory] = found
        return found
    }
}
