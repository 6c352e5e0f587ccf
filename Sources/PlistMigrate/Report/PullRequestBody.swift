import Foundation
import FileAccess

/// `--format markdown` and `plist-migrate report --format markdown`: what a reviewer of one
/// repository's pull request wants to read, as GitHub-flavoured Markdown for a
/// multi-gitter PR body or a job summary (`>> $GITHUB_STEP_SUMMARY`): a summary line, a table of
/// the passes that changed something, the policy deltas, what needs a person, and each file's
/// diffs folded in `<details>`. Made from the JSON report, like the review page.
enum PullRequestBody {
    /// GitHub refuses a pull-request body above 65,536 characters: every section stops before
    /// that (counted in UTF-8 bytes, never fewer than characters), saying what was left out.
    static let limit = 60_000
    /// Room kept for the notes that say what was left out.
    static let reserve = 600
    /// A policy-delta line longer than this (a 100 KB host) is cut, saying by how much.
    static let longestLine = 400

    /// The body as it grows, with its size kept (counting a long string again costs its length).
    struct Body {
        private(set) var text = ""
        private(set) var size = 0
        /// Adds `part` if it fits before the limit (less the reserve); says whether it did.
        @discardableResult
        mutating func add(_ part: String, force: Bool = false) -> Bool {
            let bytes = part.utf8.count
            guard force || size + bytes <= PullRequestBody.limit - PullRequestBody.reserve else { return false }
            text += part
            size += bytes
            return true
        }
    }

    static func render(_ document: Report.Document) -> [UInt8] {
        let model = ReviewModel(document)
        let summary = document.summary
        let verb = document.mode == "write" ? "changed" : "would change"
        var out = Body()
        out.add("## plist-migrate: App Transport Security\n\n")
        out.add("**\(summary.changed) of \(ReviewPage.plural(summary.scanned, "file")) \(verb)**"
            + " · \(ReviewPage.plural(summary.errors, "error")) · \(summary.conflicts) with conflicts"
            + " · \(summary.heldBack) with held-back passes · plist-migrate \(text(document.tool?.version ?? ToolVersion.current))\n\n")

        // Per pass: the files it changed and its edits, with what it does.
        var files: [String: Int] = [:]
        for file in document.files { for pass in Set(file.passes.map(\.id)) { files[pass, default: 0] += 1 } }
        let passes = model.passOrder.filter { files[$0] != nil }
        if passes.isEmpty {
            out.add("No pass changes anything.\n\n")
        } else {
            out.add("| Pass | What it does | Impact | Files | Edits |\n|---|---|---|---|---:|\n")
            for id in passes {
                let info = document.passes?.first { $0.id == id }
                out.add("| `\(id)` | \(text(info?.title ?? info?.name ?? "")) | \(text(info?.impact ?? "")) "
                    + "| \(files[id] ?? 0) | \(summary.editsPerPass[id] ?? 0) |\n")
            }
            out.add("\n")
        }

        // The policy deltas, once per kind of change; a kind whose files change the policy in
        // different ways (other hosts) lists each way under it, with how many files have it.
        let kinds = model.groups.compactMap { group -> (ReviewModel.Group, [(lines: [String], files: Int)])? in
            let deltas = group.deltas.filter { !$0.lines.isEmpty && $0.lines != ["no policy change"] }
            return deltas.isEmpty ? nil : (group, deltas)
        }
        out.add("### Policy deltas\n\n")
        if kinds.isEmpty {
            out.add("None: no edit changes what the OS allows.\n\n")
        } else {
            for (shown, (group, deltas)) in kinds.enumerated() {
                let tightens = deltas.contains { ReviewModel.tightens($0.lines) } ? " **tightens**" : ""
                let files = deltas.reduce(0) { $0 + $1.files }
                var entry = "- `\(group.id)`\(tightens) (\(ReviewPage.plural(files, "file"))):\n"
                for delta in deltas {
                    let indent = deltas.count == 1 ? "  " : "    "
                    if deltas.count > 1 { entry += "  - in \(ReviewPage.plural(delta.files, "file")):\n" }
                    for line in delta.lines { entry += "\(indent)- \(text(cut(line)))\n" }
                }
                if !out.add(entry) {
                    out.add("- … and the deltas of \(ReviewPage.plural(kinds.count - shown, "more kind")) "
                        + "(the body stops before GitHub's limit): see the JSON report or the review page.\n", force: true)
                    break
                }
            }
            out.add("\n")
        }

        if !model.attention.isEmpty {
            out.add("### Needs a person\n\n")
            for (shown, item) in model.attention.enumerated() {
                let pass = item.pass.map { "`\($0)` " } ?? ""
                let line: String
                switch item.kind {
                case .error, .conflict:
                    line = "- **\(item.kind.rawValue)** \(code(item.location)): \(pass)\(text(item.message))"
                        + (item.files.count > 1 ? " (\(ReviewPage.plural(item.files.count, "file")))" : "") + "\n"
                case .heldBack, .skipped:
                    line = "- **\(item.kind.rawValue)** \(pass)\(text(item.message)) (\(ReviewPage.plural(item.files.count, "file")))\n"
                }
                if !out.add(line) {
                    out.add("- … and \(model.attention.count - shown) more (the body stops before GitHub's limit).\n", force: true)
                    break
                }
            }
            out.add("\n")
        }

        let changed = document.files.filter { !$0.passes.isEmpty }
        if !changed.isEmpty {
            out.add("### Changes\n\n")
            for (shown, file) in changed.enumerated() {
                // Diffs as the page shows them: a character nobody can see becomes a mark.
                let diffs = ReviewPage.visible(file.passes.map { pass in
                    "# \(pass.id) \(pass.name) (\(pass.impact))\n" + (pass.notes ?? []).map { "# note: \($0)\n" }.joined() + pass.diff
                }.joined())
                let fence = String(repeating: "`", count: max(3, longestRun(of: "`", in: diffs) + 1))
                // Inside HTML, Markdown is not read: the summary is HTML, escaped.
                let block = "<details><summary><code>\(ReviewPage.html(file.path))</code>: \(file.passes.map(\.id).joined(separator: ", "))</summary>\n\n"
                    + "\(fence)diff\n\(diffs)\(diffs.hasSuffix("\n") ? "" : "\n")\(fence)\n\n</details>\n\n"
                if !out.add(block) {
                    out.add("… and \(ReviewPage.plural(changed.count - shown, "more file")) (the body stops before GitHub's limit): "
                        + "see the JSON report or the review page.\n", force: true)
                    break
                }
            }
        }
        return Array(out.text.utf8)
    }

    /// A line cut to `longestLine` characters, saying how many were left out.
    static func cut(_ line: String) -> String {
        guard line.utf8.count > longestLine else { return line }
        let kept = String(line.prefix(longestLine))
        return kept + "… (\(line.count - kept.count) more characters)"
    }

    /// Text for a table cell or a list item: one line, with `|`, `<` and Markdown's markers escaped.
    static func text(_ value: String) -> String {
        var out = ""
        for character in OneLine.escaped(ReviewPage.visible(value)) {
            switch character {
            case "|", "\\", "`", "*", "_", "[", "]", "<", ">", "#": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    /// A code span that holds any text (a longer backtick fence when the text has backticks).
    static func code(_ value: String) -> String {
        let shown = OneLine.escaped(ReviewPage.visible(value))
        let fence = String(repeating: "`", count: longestRun(of: "`", in: shown) + 1)
        let pad = shown.hasPrefix("`") || shown.hasSuffix("`") ? " " : ""
        return fence + pad + shown + pad + fence
    }

    static func longestRun(of character: Character, in text: String) -> Int {
        var longest = 0, current = 0
        for each in text {
            current = each == character ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }
}
