#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shell-style globs for `--exclude`, `--include` and config `exclude`: `*` and `**` match any
/// run of characters including `/`, `?` one character, `[...]` a set. A pattern without `/`
/// also matches any single path component (`Pods`, `*.generated.plist`); a leading `**/`
/// also matches at the top.
public struct Glob: Sendable, Hashable {
    public let pattern: String

    public init(_ pattern: String) {
        self.pattern = pattern
    }

    public func matches(_ path: String) -> Bool {
        var candidates = [pattern]
        if pattern.hasPrefix("**/") { candidates.append(String(pattern.dropFirst(3))) }
        for candidate in candidates where fnmatch(candidate, path, 0) == 0 { return true }
        if !pattern.contains("/") {
            return path.split(separator: "/").contains { fnmatch(pattern, String($0), 0) == 0 }
        }
        // A directory pattern such as `Legacy` or `Legacy/` also covers everything below it.
        let directory = pattern.hasSuffix("/") ? String(pattern.dropLast()) : pattern
        return fnmatch(directory + "/*", path, 0) == 0
    }
}
