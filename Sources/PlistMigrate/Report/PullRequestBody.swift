import Foundation

/// `--format markdown` and `plist-migrate report --format markdown`: what a reviewer of one
/// repository's pull request wants to read (issue #41 §2), as GitHub-flavoured Markdown for a
/// multi-gitter PR body or a job summary (`>> $GITHUB_STEP_SUMMARY`): a summary line, a table of
/// the passes that changed something, the policy deltas, what needs a person, and each file's
/// diffs folded in `<details>`. Made from the JSON report, like the review page.
enum PullRequestBody {
    /// GitHub refuses a pull-request body above 65,536 characters: the diffs stop before that,
    /// saying how many files were left out.
    static let limit = 60_000

    static func render(_ document: Report.Document) -> [UInt8] {
        let model = ReviewModel(document)
        let summary = document.summary
        let verb = document.mode == "write" ? "changed" : "would change"
        var out = "## plist-migrate: App Transport Security\n\n"
        out += "**\(summary.changed) of \(ReviewPage.plural(summary.scanned, "file")) \(verb)**"
            + " · \(ReviewPage.plural(summary.errors, "error")) · \(summary.conflicts) with conflicts"
            + " · \(summary.heldBack) with held-back passes · plist-migrate \(text(document.tool?.version ?? ToolVersion.current))\n\n"

        // Per pass: the files it changed and its edits, with what it does.
        var files: [String: Int] = [:]
        for file in document.files { for pass in Set(file.passes.map(\.id)) { files[pass, default: 0] += 1 } }
        let passes = model.passOrder.filter { files[$0] != nil }
        if passes.isEmpty {
            out += "No pass changes anything.\n\n"
        } else {
            out += "| Pass | What it does | Impact | Files | Edits |\n|---|---|---|---|---:|\n"
            for id in passes {
                let info = document.passes?.first { $0.id == id }
                out += "| `\(id)` | \(text(info?.title ?? info?.name ?? "")) | \(text(info?.impact ?? "")) "
                    + "| \(files[id] ?? 0) | \(summary.editsPerPass[id] ?? 0) |\n"
            }
            out += "\n"
        }

        // The policy deltas, once per kind of change, with how many files have them.
        let deltas = model.groups.flatMap { group in
            group.deltas.filter { !$0.lines.isEmpty && $0.lines != ["no policy change"] }.map { (group, $0) }
        }
        out += "### Policy deltas\n\n"
        if deltas.isEmpty {
            out += "None: no edit changes what the OS allows.\n\n"
        } else {
            for (group, delta) in deltas {
                let tightens = ReviewModel.tightens(delta.lines) ? " **tightens**" : ""
                out += "- `\(group.id)`\(tightens) (\(ReviewPage.plural(delta.files, "file"))):\n"
                for line in delta.lines { out += "  - \(text(line))\n" }
            }
            out += "\n"
        }

        if !model.attention.isEmpty {
            out += "### Needs a person\n\n"
            for item in model.attention {
                let pass = item.pass.map { "`\($0)` " } ?? ""
                switch item.kind {
                case .error, .conflict:
                    out += "- **\(item.kind.rawValue)** \(code(item.location)): \(pass)\(text(item.message))"
                        + (item.files.count > 1 ? " (\(ReviewPage.plural(item.files.count, "file")))" : "") + "\n"
                case .heldBack, .skipped:
                    out += "- **\(item.kind.rawValue)** \(pass)\(text(item.message)) (\(ReviewPage.plural(item.files.count, "file")))\n"
                }
            }
            out += "\n"
        }

        let changed = document.files.filter { !$0.passes.isEmpty }
        if !changed.isEmpty {
            out += "### Changes\n\n"
            var shown = 0
            for file in changed {
                let diffs = file.passes.map { "# \($0.id) \($0.name) (\($0.impact))\n" + $0.diff }.joined()
                let fence = String(repeating: "`", count: max(3, longestRun(of: "`", in: diffs) + 1))
                // Inside HTML, Markdown is not read: the summary is HTML, escaped.
                let block = "<details><summary><code>\(ReviewPage.html(file.path))</code>: \(file.passes.map(\.id).joined(separator: ", "))</summary>\n\n"
                    + "\(fence)diff\n\(diffs)\(diffs.hasSuffix("\n") ? "" : "\n")\(fence)\n\n</details>\n\n"
                if out.count + block.count > limit {
                    let left = changed.count - shown
                    out += "… and \(ReviewPage.plural(left, "more file")) (the body stops before GitHub's limit): see the JSON report or the review page.\n"
                    break
                }
                out += block
                shown += 1
            }
        }
        return Array(out.utf8)
    }

    /// Text for a table cell or a list item: one line, with `|`, `<` and Markdown's markers escaped.
    static func text(_ value: String) -> String {
        var out = ""
        for character in ReviewPage.visible(OneLine.escaped(value)) {
            switch character {
            case "|", "\\", "`", "*", "_", "[", "]", "<", ">", "#": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    /// A code span that holds any text (a longer backtick fence when the text has backticks).
    static func code(_ value: String) -> String {
        let shown = ReviewPage.visible(OneLine.escaped(value))
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
