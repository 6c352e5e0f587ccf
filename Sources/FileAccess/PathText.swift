/// Paths taken apart as text, without the file system: their folder, and `.`/`..` steps resolved
/// by their names (`FileIO.absolute`, the project readers). Foundation's `NSString` path methods
/// stop the process on some strings a project file can hold (found by the `project` fuzz target).
public enum PathText {
    /// The folder of `path` (`a/b/c` → `a/b`, `c` → ``, `/c` → `/`, `a/b/` → `a`).
    public static func directory(of path: String) -> String {
        var end = path.endIndex
        while end > path.startIndex, path[path.index(before: end)] == "/", path.index(before: end) > path.startIndex { end = path.index(before: end) }
        let trimmed = path[..<end]
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// `path` with empty and `.` steps dropped and each `..` taking the step before it
    /// (`a/./b/../c` → `a/c`; `../a` stays; `/..` is `/`).
    public static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var steps: [Substring] = []
        for step in path.split(separator: "/", omittingEmptySubsequences: true) where step != "." {
            if step == "..", let last = steps.last, last != ".." {
                steps.removeLast()
            } else if step == "..", absolute {
                continue
            } else {
                steps.append(step)
            }
        }
        let joined = steps.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
