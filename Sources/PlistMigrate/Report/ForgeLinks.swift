import Foundation
import FileAccess

/// Links to a file at a commit and line on its forge, from the repository's remote URL
///: GitHub's `blob/COMMIT/PATH#L12`, GitLab's `-/blob/COMMIT/PATH#L12`,
/// Bitbucket's `src/COMMIT/PATH#lines-12`. `nil` where the forge is not known from the remote
/// (the page then shows the plain path).
enum ForgeLinks {
    enum Forge { case github, gitlab, bitbucket }

    /// `https://HOST/OWNER/REPO` and its forge, from `https://…`, `ssh://git@…` or `git@HOST:OWNER/REPO.git`.
    static func web(_ remote: String) -> (base: String, forge: Forge)? {
        var text = remote.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("git@"), let colon = text.firstIndex(of: ":") {
            text = "https://" + text[text.index(text.startIndex, offsetBy: 4)..<colon] + "/" + text[text.index(after: colon)...]
        }
        guard var components = URLComponents(string: text), let host = components.host?.lowercased(),
            ["https", "http", "ssh", "git"].contains(components.scheme?.lowercased() ?? "")
        else { return nil }
        let forge: Forge
        if host.contains("github") { forge = .github }
        else if host.contains("gitlab") { forge = .gitlab }
        else if host.contains("bitbucket") { forge = .bitbucket }
        else { return nil }
        var path = components.path
        if path.hasSuffix(".git") { path.removeLast(4) }
        while path.hasSuffix("/") { path.removeLast() }
        guard path.split(separator: "/").count >= 2 else { return nil }
        components.scheme = "https"
        components.user = nil
        components.password = nil
        components.port = nil
        components.path = path
        components.query = nil
        components.fragment = nil
        guard let base = components.string else { return nil }
        return (base, forge)
    }

    /// The file (`path` relative to the repository's root) at `commit`, at `line` when known.
    static func link(remote: String?, commit: String?, path: String, line: Int?) -> String? {
        guard let remote, let commit, !commit.isEmpty, let (base, forge) = web(remote) else { return nil }
        let encoded = PathBytes.percentEncoded(path)
        switch forge {
        case .github: return "\(base)/blob/\(commit)/\(encoded)" + (line.map { "#L\($0)" } ?? "")
        case .gitlab: return "\(base)/-/blob/\(commit)/\(encoded)" + (line.map { "#L\($0)" } ?? "")
        case .bitbucket: return "\(base)/src/\(commit)/\(encoded)" + (line.map { "#lines-\($0)" } ?? "")
        }
    }

    /// The first changed line of a unified diff, in the new file (`@@ -a,b +c,d @@` and the
    /// context before the first `+` or `-`).
    static func firstChangedLine(_ diff: String) -> Int? {
        var line: Int?
        for text in diff.split(separator: "\n", omittingEmptySubsequences: false) {
            if text.hasPrefix("@@"), line == nil {
                guard let plus = text.split(separator: " ").first(where: { $0.hasPrefix("+") }),
                    let start = Int(plus.dropFirst().split(separator: ",").first ?? ""), start >= 0
                else { return nil }
                line = start
                continue
            }
            guard let current = line else { continue }
            if text.hasPrefix("+") || text.hasPrefix("-") { return current }
            // A report is input: its line numbers may be anything.
            let (next, overflow) = current.addingReportingOverflow(1)
            guard !overflow else { return nil }
            line = next
        }
        return nil
    }
}
