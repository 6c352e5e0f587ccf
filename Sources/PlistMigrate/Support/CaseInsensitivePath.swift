import Foundation

/// A path as a case-insensitive file system (APFS's default on a Mac) finds it: each step that
/// is not on disk as written is matched, ignoring case, against its folder's entries.
enum CaseInsensitivePath {
    /// The path on disk that `path` (absolute) names when case is ignored, or `nil` when there is
    /// none or more than one.
    static func find(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var found = ""
        for step in path.split(separator: "/", omittingEmptySubsequences: true) {
            let exact = found + "/" + step
            if FileManager.default.fileExists(atPath: exact) {
                found = exact
                continue
            }
            let folded = step.lowercased()
            let matches = ((try? FileManager.default.contentsOfDirectory(atPath: found.isEmpty ? "/" : found)) ?? [])
                .filter { $0.lowercased() == folded }
            guard matches.count == 1 else { return nil }
            found += "/" + matches[0]
        }
        return found.isEmpty ? nil : found
    }
}
