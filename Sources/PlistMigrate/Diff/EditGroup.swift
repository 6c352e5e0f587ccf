/// A kind of change, the unit a reviewer accepts or rejects: one pass (and version) removing and
/// adding the same lines, whatever the file and wherever in it. Its id is a hash of exactly that
/// content, so an edit that differs in any way from the one reviewed (the file changed since, a
/// new pass version) has another id and is not applied by `--accept`.
public enum EditGroup {
    /// `ATS001-1f2e3d4c5b6a`: the pass id, then 48 bits of the FNV-1a hash of the pass id and
    /// version and the diff's removed and added lines (trimmed of surrounding blanks, so the
    /// same edit in a file indented with tabs and one indented with spaces is one kind).
    public static func id(pass: String, version: Int, diff: String) -> String {
        let (removed, added) = lines(of: diff)
        var content = "\(pass)@\(version)\n"
        for line in removed { content += "-" + line + "\n" }
        for line in added { content += "+" + line + "\n" }
        let hash = String(FNV1a.hash(content.utf8), radix: 16)
        let padded = String(repeating: "0", count: max(0, 16 - hash.count)) + hash
        return pass + "-" + padded.prefix(12)
    }

    /// The removed and added lines of a unified diff (headers and hunk lines left out), trimmed.
    public static func lines(of diff: String) -> (removed: [String], added: [String]) {
        var removed: [String] = [], added: [String] = []
        // The headers are the lines before the first hunk (a quoted name, `--- "a/x\ty"`, too).
        for line in diff.split(separator: "\n", omittingEmptySubsequences: false).drop(while: { !$0.hasPrefix("@@") }) {
            if line.hasPrefix("-") { removed.append(trimmed(line.dropFirst())) }
            else if line.hasPrefix("+") { added.append(trimmed(line.dropFirst())) }
        }
        return (removed, added)
    }

    static func trimmed(_ text: Substring) -> String {
        var text = text
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        return String(text)
    }
}
