import Foundation

/// `--format html` and `plist-migrate report --format html`: one self-contained review page
/// (inline CSS and script, no network). What needs a person comes first; then each kind of
/// change once, with its policy delta as a table and its files folded. The script adds
/// filters, a search box and accept/reject per group with an export of the decision; without
/// it the page is complete and says how to write the decision by hand.
enum ReviewPage {
    /// A page larger than this carries the kinds after its first `kindsInHTML` bytes of them,
    /// and its long file lists, compressed (issue #41: under 300 KB for a 10,000-file tree).
    static let compressAbove = 250_000
    static let kindsInHTML = 90_000

    static func render(_ document: Report.Document) -> [UInt8] {
        let model = ReviewModel(document)
        let whole = render(model, compressing: false)
        return whole.utf8.count <= compressAbove ? Array(whole.utf8) : Array(render(model, compressing: true).utf8)
    }

    private static func render(_ model: ReviewModel, compressing: Bool) -> String {
        let document = model.document
        let lists = ReviewFileLists(model)
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"generator\" content=\"plist-migrate \(html(document.tool?.version ?? ToolVersion.current))\">\n"
        out += "<title>plist-migrate review: \(model.groups.count) kind\(model.groups.count == 1 ? "" : "s") of change</title>\n"
        out += "<style>\n\(css)</style>\n</head>\n<body>\n<a class=\"skip\" href=\"#changes\">Skip to the changes</a>\n"
        out += header(model)
        out += filters(model)
        out += "<main>\n"
        out += repositoriesSection(model)
        out += attentionSection(model, lists)
        let (groups, more) = groupsSection(model, lists, inHTML: compressing ? kindsInHTML : nil)
        out += groups
        out += exportSection(model)
        if let more { out += "<script type=\"application/octet-stream\" id=\"more-kinds\">\(compressed(more))</script>\n" }
        if !lists.isEmpty {
            out += compressing ? "<script type=\"application/octet-stream\" id=\"file-lists\">\(compressed(lists.json()))</script>\n"
                : "<script type=\"application/json\" id=\"file-lists\">\(lists.json())</script>\n"
        }
        out += "</main>\n"
        out += "<script>\n\(script)</script>\n</body>\n</html>\n"
        return out
    }

    /// Raw DEFLATE, in base64: the script reads it with `DecompressionStream("deflate-raw")`.
    static func compressed(_ text: String) -> String {
        Data(Deflate.compress(Array(text.utf8))).base64EncodedString()
    }

    /// Markup characters as references (the same escaping as the XML reports: HTML reads it
    /// alike), and characters a reader cannot see as visible marks (`⟦U+202E⟧`): bidirectional
    /// controls would make a host read as another domain, and invisible ones hide a difference
    /// (issue #41 §2). Used for every key, host, value and path the page shows.
    static func html(_ text: String) -> String { XMLText.escape(visible(text)) }

    /// Element text (not attributes): only `&` and `<` escaped (`>` and quotes mean nothing
    /// there), tabs as they are; invisible characters as marks.
    static func text(_ text: String) -> String {
        TextEscaping.replacing(visible(text)) { $0 == "&" ? "&amp;" : $0 == "<" ? "&lt;" : nil }
    }

    static func visible(_ text: String) -> String { InvisibleCharacters.marked(text) }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    // MARK: header

    static func header(_ model: ReviewModel) -> String {
        let document = model.document
        let summary = document.summary
        var out = "<header>\n<h1>plist-migrate review</h1>\n<dl class=\"facts\">\n"
        func fact(_ name: String, _ value: String) { out += "<dt>\(html(name))</dt><dd>\(value)</dd>\n" }
        fact("Tool", html("plist-migrate \(document.tool?.version ?? "unknown")"))
        fact("Run", html(document.mode) + (document.generatedAt.map { " at <time datetime=\"\(html($0))\">\(html($0))</time>" } ?? ""))
        if let merged = document.mergedFrom { fact("Merged from", html(merged.joined(separator: ", "))) }
        if let options = document.options {
            var said: [String] = []
            if options.write { said.append("--write") }
            if options.check { said.append("--check") }
            if let only = options.only { said.append("--only " + only.joined(separator: ",")) }
            if let skip = options.skip { said.append("--skip " + skip.joined(separator: ",")) }
            if let to = options.to { said.append("--to \(to)") }
            if options.allowPolicyChange { said.append("--allow-policy-change") }
            if let minimumOS = options.minimumOS { said.append("--min-os " + minimumOS) }
            if options.accept { said.append("--accept") }
            said += options.paths
            fact("Options", "<code>\(html(said.joined(separator: " ")))</code>")
        }
        if let passes = document.passes {
            fact("Passes", html(passes.map { "\($0.id) v\($0.version)" }.joined(separator: ", ")))
        }
        let sources = summary.deploymentTargetSources.sorted { $0.key < $1.key }.map { "\($0.value) from \($0.key)" }
        if !sources.isEmpty { fact("Deployment targets", html(sources.joined(separator: ", "))) }
        fact("Totals", html("\(plural(summary.scanned, "file")) scanned, \(summary.changed) \(document.mode == "write" ? "changed" : "would change"), "
            + "\(summary.unchanged) unchanged, \(summary.skipped) skipped, \(plural(summary.errors, "error")), "
            + "\(summary.conflicts) with conflicts, \(summary.heldBack) with held-back passes"))
        if let repositories = document.repositories, !repositories.isEmpty {
            fact("Repositories", html(repositories.map { r in
                [r.remote ?? r.root, r.commit.map { String($0.prefix(12)) }].compactMap { $0 }.joined(separator: " @ ")
            }.joined(separator: "; ")))
        }
        out += "</dl>\n</header>\n"
        return out
    }

    // MARK: filters

    static func filters(_ model: ReviewModel) -> String {
        let passes = model.passOrder.filter { id in model.groups.contains { $0.pass == id } || model.attention.contains { $0.pass == id } }
        let impacts = ["spelling", "activatesIntent", "changesPolicy"].filter { impact in model.groups.contains { $0.impact == impact } }
        let repositories = model.document.repositories ?? []
        var out = "<nav id=\"filters\" aria-label=\"Filters\" hidden>\n<h2 class=\"visually-hidden\">Filters</h2>\n<div class=\"filter-row\">\n"
        out += "<label>Pass <select id=\"filter-pass\"><option value=\"\">all</option>"
        for pass in passes { out += "<option value=\"\(html(pass))\">\(html(pass))</option>" }
        out += "</select></label>\n<label>Repository <select id=\"filter-repo\"><option value=\"\">all</option>"
        for (index, _) in repositories.enumerated() { out += "<option value=\"\(index)\">\(html(model.repositoryName(index)))</option>" }
        out += "</select></label>\n<label>Impact <select id=\"filter-impact\"><option value=\"\">all</option>"
        for impact in impacts { out += "<option value=\"\(impact)\">\(impact)</option>" }
        out += "</select></label>\n<label>Search <input id=\"filter-search\" type=\"search\" placeholder=\"key, host, path…\"></label>\n"
        out += "<label>Decision <select id=\"filter-decision\"><option value=\"\">all</option><option value=\"undecided\">undecided</option>"
            + "<option value=\"accept\">accepted</option><option value=\"reject\">rejected</option></select></label>\n"
        out += "<button type=\"button\" id=\"accept-shown\">Accept all shown</button>\n"
        out += "</div>\n<p id=\"filter-status\" role=\"status\" aria-live=\"polite\"></p>\n</nav>\n"
        return out
    }

    // MARK: repositories

    /// One row per repository: what the run found there, and the one command that applies the
    /// decision to its reviewed files (issue #41 §2).
    static func repositoriesSection(_ model: ReviewModel) -> String {
        guard let repositories = model.document.repositories, !repositories.isEmpty else { return "" }
        var out = "<section id=\"repositories\" aria-labelledby=\"repositories-title\">\n<h2 id=\"repositories-title\">Repositories</h2>\n"
        // The scroll region is named apart from its section: two landmarks, two names (axe-core).
        out += "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Repository table\"><table class=\"repos\">\n<thead><tr>"
            + "<th scope=\"col\">Repository</th><th scope=\"col\">Commit</th><th scope=\"col\">Changed</th><th scope=\"col\">Held back</th>"
            + "<th scope=\"col\">Errors</th><th scope=\"col\">Kinds</th><th scope=\"col\">Apply the decision there</th></tr></thead>\n<tbody>\n"
        for (index, repository) in repositories.enumerated() {
            let files = model.document.files.filter { $0.repository == index }
            let changed = files.filter { !$0.passes.isEmpty }
            let kinds = Set(changed.flatMap { $0.passes.compactMap(\.group) }).count
            let relative = changed.compactMap { model.pathInRepository($0.path, root: repository.root) }
            func command(_ quote: (String) -> String) -> String {
                relative.isEmpty ? "nothing to apply"
                    : "cd \(quote(repository.root)) && plist-migrate --write --accept plist-migrate-decision.json "
                        + (repositories.count > 1 ? "--decision-spans-runs " : "")
                        + applyDirectories(relative).map(quote).joined(separator: " ")
            }
            // Shown with marks where a name holds a character a reader cannot see; copied as a
            // command the shell runs, each such character written as its bytes in `$'…'`.
            let shown = command(readableQuoted), runnable = command(shellQuoted)
            let copy = shown == runnable ? "" : " data-copy=\"\(XMLText.escape(runnable))\""
            out += "<tr><th scope=\"row\">\(html(model.repositoryName(index)))</th><td><code>\(html(repository.commit.map { String($0.prefix(12)) } ?? "—"))</code></td>"
                + "<td>\(changed.count)</td><td>\(files.filter { !$0.heldBack.isEmpty }.count)</td><td>\(files.filter { $0.error != nil }.count)</td>"
                + "<td>\(kinds)</td><td><code class=\"command\"\(copy)>\(html(shown))</code></td></tr>\n"
        }
        return out + "</tbody>\n</table></div>\n</section>\n"
    }

    /// The directories an apply command names for a repository's changed files (paths relative
    /// to its root): each file's folder, less those inside another; past `directoriesInCommand`
    /// of them, the one folder above them all. Never the files themselves: 817 paths made a
    /// table cell no one could read (issue #53). Files there that were not reviewed are safe:
    /// their kinds are not in the decision, so `--accept` holds them back.
    static func applyDirectories(_ files: [String]) -> [String] {
        let folders = Set(files.map { path -> String in
            let raw = PathBytes.unquoted(path) ?? path
            return raw.lastIndex(of: "/").map { String(raw[..<$0]) } ?? "."
        })
        if folders.contains(".") { return ["."] }
        let outermost = folders.filter { folder in !folders.contains { folder.hasPrefix($0 + "/") } }.sorted()
        guard outermost.count > directoriesInCommand else { return outermost }
        let shared = ReportMerge.commonDirectory(outermost.map { "/" + $0 })
        return [shared == "/" ? "." : String(shared.dropFirst())]
    }

    static let directoriesInCommand = 8

    /// A word for a person to read: as it is when it is plain, else in single quotes (its
    /// invisible characters are marked when the page writes it).
    static func readableQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/-+@:,=").contains($0) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A word for the shell: as `readableQuoted` writes it, unless it holds a character a
    /// reader cannot see; then in `$'…'` (bash, zsh, ksh and POSIX.1-2024 sh) with each such
    /// character as the `\xNN` escapes of its UTF-8 bytes, so that a copied command runs.
    static func shellQuoted(_ word: String) -> String {
        guard word.unicodeScalars.contains(where: InvisibleCharacters.contains) else { return readableQuoted(word) }
        var out = "$'"
        for scalar in word.unicodeScalars {
            if InvisibleCharacters.contains(scalar) {
                for byte in String(scalar).utf8 { out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16) }
            } else if scalar == "'" || scalar == "\\" {
                out += "\\" + String(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }

    // MARK: needs a person

    static func attentionSection(_ model: ReviewModel, _ lists: ReviewFileLists) -> String {
        var out = "<section id=\"attention\" aria-labelledby=\"attention-title\">\n"
        out += "<h2 id=\"attention-title\">Needs a person first (<span class=\"count\" id=\"attention-count\">\(model.attention.count)</span>)</h2>\n"
        guard !model.attention.isEmpty else {
            return out + "<p>Nothing: no errors, conflicts, held-back passes or unexpected skips.</p>\n</section>\n"
        }
        out += "<ul class=\"attention\">\n"
        for item in model.attention {
            let repos = Set(item.files.compactMap(\.repository)).sorted().map(String.init).joined(separator: " ")
            // A single file's path is part of the item's text; a list's paths are searched per file.
            let search = ([item.kind.rawValue, item.location, item.message, item.pass ?? ""]
                + (item.files.count == 1 ? item.files.map(\.path) : [])).joined(separator: " ").lowercased()
            out += "<li class=\"item \(item.kind == .error || item.kind == .conflict ? "severe" : "")\" data-pass=\"\(html(item.pass ?? ""))\" "
                + "data-repos=\"\(repos)\" data-search=\"\(html(search))\">"
            out += "<strong class=\"kind\">\(item.kind.rawValue)</strong> "
            if item.kind == .error || (item.kind == .conflict && item.files.count == 1) {
                out += "<code>\(html(item.location))</code>: \(item.pass.map { html($0) + ": " } ?? "")\(html(item.message))"
            } else if item.kind == .conflict {
                out += "\(item.pass.map { "<code>\(html($0))</code>: " } ?? "")\(html(item.message)) "
                out += "<details><summary><span class=\"n\">\(item.files.count)</span> files</summary>\(fileList(item.files, model, lists, locations: item.locations))</details>"
            } else {
                out += "\(item.pass.map { "<code>\(html($0))</code>: " } ?? "")\(html(item.message)) "
                out += "<details><summary><span class=\"n\">\(item.files.count)</span> file\(item.files.count == 1 ? "" : "s")</summary>\(fileList(item.files, model, lists))</details>"
            }
            out += "</li>\n"
        }
        return out + "</ul>\n</section>\n"
    }

    /// A list of files. A long one shows its first `ReviewFileLists.shownInHTML` files here and
    /// how many more there are; the script lists them all from the page's JSON block.
    static func fileList(_ files: [ReviewModel.Place], _ model: ReviewModel, _ lists: ReviewFileLists, locations: [String] = []) -> String {
        let long = files.count > ReviewFileLists.shownInHTML
        let number = long ? lists.add(files, shown: files.indices.map { $0 < locations.count ? locations[$0] : files[$0].path }) : nil
        var out = "<ul class=\"files\"" + (number.map { " data-list=\"\($0)\"" } ?? "") + ">"
        let several = (model.document.repositories?.count ?? 0) > 1
        // With several repositories the files are grouped by repository, each group under its
        // name, instead of the remote repeated on every line (issue #53).
        var shownFiles = Array(files.prefix(ReviewFileLists.shownInHTML).enumerated())
        if several { shownFiles = shownFiles.sorted { ($0.element.repository ?? -1, $0.offset) < ($1.element.repository ?? -1, $1.offset) } }
        var lastRepository: Int?? = nil
        for (index, file) in shownFiles {
            if several, lastRepository != .some(file.repository) {
                lastRepository = .some(file.repository)
                out += "<li class=\"repo-head\">\(html(model.repositoryName(file.repository)))</li>"
            }
            let count = file.edits.map { " data-edits=\"\($0)\"" } ?? ""
            let shown = index < locations.count ? locations[index] : file.path
            // Monospace by the list's style: a `<code>` per file would be thousands of tags.
            let name = html(shown)
            out += "<li" + (file.repository.map { " data-repo=\"\($0)\"" } ?? "") + "\(count)>"
                + (model.link(file).map { "<a href=\"\(html($0))\">\(name)</a>" } ?? name)
            out += "</li>"
        }
        if long {
            out += "<li class=\"more\">and \(plural(files.count - ReviewFileLists.shownInHTML, "more file")) (the page's script lists them; "
                + "so does <code>--format text</code>)</li>"
        }
        return out + "</ul>"
    }

    // MARK: groups

    /// The kinds, each pass's under its heading. With `inHTML`, the kinds after that many
    /// bytes of them are returned apart (`more`: whole sections, or `data-continues` the one
    /// cut), for the page to carry compressed; the HTML says how many and how to see them.
    static func groupsSection(_ model: ReviewModel, _ lists: ReviewFileLists, inHTML budget: Int? = nil) -> (html: String, more: String?) {
        let edits = model.groups.reduce(0) { $0 + $1.edits }
        // As bytes: two names that differ only in Unicode normalization are two files.
        let files = Set(model.groups.flatMap { $0.files.map { Array($0.path.utf8) } }).count
        var out = "<section id=\"changes\" aria-labelledby=\"changes-title\" tabindex=\"-1\">\n"
        out += "<h2 id=\"changes-title\">Changes by kind</h2>\n<p class=\"totals\">Kinds shown: <span id=\"groups-count\">\(model.groups.count)</span> of "
            + "\(model.groups.count) · edits: <span id=\"edits-count\">\(edits)</span> · files: <span id=\"files-count\">\(files)</span></p>\n"
        out += "<p class=\"howto\">Identical edits (same pass, same removed and added lines) are one kind, shown once. "
            + "Each kind has an id: the decision file lists the ids you accept. A kind that applies after others in the same files "
            + "needs them accepted too: where one is not, <code>--accept</code> cannot apply it and says so.</p>\n"
        out += "<dl class=\"legend\"><dt><span class=\"impact impact-spelling\">spelling</span></dt><dd>changes how a setting is written; "
            + "what the OS allows stays the same</dd><dt><span class=\"impact impact-activatesIntent\">activatesIntent</span></dt>"
            + "<dd>makes a setting take the effect its author meant (a misspelled key, ignored today, starts to count)</dd>"
            + "<dt><span class=\"impact impact-changesPolicy\">changesPolicy</span></dt><dd>changes what the OS allows; applied only with "
            + "<code>--allow-policy-change</code></dd><dt><span class=\"tightens\">tightens</span></dt><dd>the policy table blocks "
            + "something allowed today (HTTP allowed → blocked, a higher minimum TLS): loads that work now may fail</dd></dl>\n"
        // The index of kinds is made by the script from the kinds (their states need it).
        out += "<details class=\"kind-index js-only\" hidden open><summary>Index of kinds</summary>"
            + "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Index of kinds\"><table class=\"kinds\"><thead><tr>"
            + "<th scope=\"col\">Kind</th><th scope=\"col\">Pass</th><th scope=\"col\">Files</th><th scope=\"col\">Tightens</th>"
            + "<th scope=\"col\">Decision</th></tr></thead><tbody id=\"kind-index-rows\"></tbody></table></div></details>\n"
        // Each pass (and version) once, with its title and description, then its kinds.
        var sections: [(key: String, kinds: [ReviewModel.Group])] = []
        for group in model.groups {
            let key = "\(group.pass) v\(group.version)"
            if sections.last?.key == key { sections[sections.count - 1].kinds.append(group) } else { sections.append((key, [group])) }
        }
        var written = 0, left = 0, spilled = false
        var more = ""
        for section in sections {
            let first = section.kinds[0]
            let info = model.document.passes?.first { $0.id == first.pass && $0.version == first.version }
            let anchor = "pass-\(first.pass)-v\(first.version)"
            var heading = "<section class=\"pass-kinds\" aria-labelledby=\"\(html(anchor))\">\n<h3 id=\"\(html(anchor))\"><span class=\"pass\">\(html(first.pass))</span> "
                + "\(html(first.name)) <span class=\"version\">version \(first.version) · \(plural(section.kinds.count, "kind"))</span></h3>\n"
            if let title = info?.title {
                heading += "<p class=\"why\"><strong>\(html(title))</strong>\(info?.description.map { " " + html($0) } ?? "")</p>\n"
            }
            var inPage = "", apart = ""
            for group in section.kinds {
                let article = groupArticle(group, model, lists)
                // At least the first kind is always in the HTML.
                if let budget, spilled || (written > 0 && written + article.utf8.count > budget) {
                    spilled = true
                    apart += article
                    left += 1
                } else {
                    inPage += article
                    written += article.utf8.count
                }
            }
            if !inPage.isEmpty { out += heading + inPage + "</section>\n" }
            if !apart.isEmpty {
                more += inPage.isEmpty ? heading + apart + "</section>\n"
                    : "<section class=\"pass-kinds\" data-continues=\"\(html(anchor))\">\n" + apart + "</section>\n"
            }
        }
        guard left > 0 else { return (out + "</section>\n", nil) }
        out += "<p class=\"nojs more-kinds\">\(plural(left, "more kind")) of change (of \(model.groups.count)) are in this page compressed, to keep "
            + "it small: they show when scripts run. Without them, <code>plist-migrate report --format text</code> on the JSON report "
            + "lists every kind, and the run's <code>--format patch</code> every edit.</p>\n<div id=\"more-kinds-here\"></div>\n"
        return (out + "</section>\n", more)
    }

    /// One kind, under its pass's heading. The search reads the kind's own text from the page
    /// (its heading, diff and policy delta), and each file's path from the list, so a search
    /// for a folder shows only the files in it (issue #41 §1); nothing is written twice for it.
    static func groupArticle(_ group: ReviewModel.Group, _ model: ReviewModel, _ lists: ReviewFileLists) -> String {
        let repos = Set(group.files.compactMap(\.repository)).sorted().map(String.init).joined(separator: " ")
        // The kind's id is its element's id (what anchors, the script and the decision use).
        var out = "<article class=\"group\" id=\"\(html(group.id))\" data-pass=\"\(html(group.pass))\" data-impact=\"\(html(group.impact))\""
            + (repos.isEmpty ? "" : " data-repos=\"\(repos)\"")
            + (group.follows.isEmpty ? "" : " data-follows=\"\(html(group.follows.map(\.id).joined(separator: " ")))\"") + ">\n"
        let tightens = ReviewModel.tightens(group.deltas.flatMap(\.lines))
        out += "<h4><code>\(html(group.id))</code> <span class=\"impact impact-\(html(group.impact))\">\(html(group.impact))</span> "
            + (tightens ? "<span class=\"tightens\">tightens</span> " : "")
            + "<span class=\"size\">in <span class=\"n\">\(group.files.count)</span> file\(group.files.count == 1 ? "" : "s")</span> · \(plural(group.edits, "edit"))</h4>\n"
        // Lines as text, each ending with its line break; added and removed lines in `<ins>` and
        // `<del>`, which keep their `+` and `-` (colour is never the only sign).
        out += "<pre class=\"diff\" tabindex=\"0\" aria-label=\"The edit\">"
        for line in group.body {
            let tag = line.hasPrefix("+") ? "ins" : line.hasPrefix("-") ? "del" : line.hasPrefix("@@") ? "b" : ""
            out += tag.isEmpty ? text(line) + "\n" : "<\(tag)>\(text(line))</\(tag)>\n"
        }
        out += "</pre>\n"
        // A kind whose files change the policy in many ways (each file's own hosts) shows two,
        // and folds the rest.
        let shownDeltas = group.deltas.count > 3 ? 2 : group.deltas.count
        for delta in group.deltas.prefix(shownDeltas) { out += deltaList(delta.lines, files: delta.files, of: group.files.count) }
        if group.deltas.count > shownDeltas {
            out += "<details class=\"more-deltas\"><summary>\(plural(group.deltas.count - shownDeltas, "more policy delta")) "
                + "(files that differ in their hosts)</summary>"
            for delta in group.deltas.dropFirst(shownDeltas) { out += deltaList(delta.lines, files: delta.files, of: group.files.count) }
            out += "</details>\n"
        }
        if !group.follows.isEmpty {
            out += "<p class=\"follows\">Applies after " + group.follows.map { kind in
                "<a href=\"#\(html(kind.id))\">\(html(kind.id))</a> in \(plural(kind.files, "file"))"
            }.joined(separator: ", ") + ".</p>\n"
        }
        // One file is named as it is; more are folded.
        out += group.files.count == 1 ? fileList(group.files, model, lists) + "\n"
            : "<details class=\"where\"><summary><span class=\"n\">\(group.files.count)</span> files</summary>" + fileList(group.files, model, lists) + "</details>\n"
        // The accept/reject controls are made by the script (they need it), not written per kind.
        out += "</article>\n"
        return out
    }

    /// A kind's policy delta: per OS era, host and kind of load, each setting's before → after.
    /// Where the two readings of the legacy keys differ, each reading's rows come under it (a
    /// reading that changes nothing says so); a line that is no change row is shown as it is.
    static func deltaList(_ lines: [String], files: Int, of total: Int) -> String {
        // Each line parsed once: its row (none for a line that is no change) and its reading.
        let parsed = lines.map { (line: $0, row: ReviewModel.deltaRow($0)) }
        let scope = files == total ? "" : " (\(files) of \(plural(total, "file")))"
        guard parsed.contains(where: { $0.row != nil }) else {
            return "<p class=\"delta-none\">Policy: \(html(lines.joined(separator: "; ").isEmpty ? "no policy change" : lines.joined(separator: "; ")))\(scope)</p>\n"
        }
        var out = "<dl class=\"delta\"><dt class=\"title\">Policy delta\(html(scope))</dt>"
        var reading: String?
        for (line, row) in parsed {
            guard let row else {
                out += "<dt class=\"reading\">\(html(line.prefix(1).uppercased() + line.dropFirst()))</dt>"
                continue
            }
            let said = ReviewModel.reading(of: line).reading
            if let said, said != reading { out += "<dt class=\"reading\">\(html(said)):</dt>" }
            reading = said
            out += "<dt>\(html(row.os)) · \(html(row.host)) · \(html(row.loads))</dt>"
            for change in row.changes { out += "<dd>\(html(change.setting)): \(html(change.before)) → \(html(change.after))</dd>" }
        }
        return out + "</dl>\n"
    }

    // MARK: export

    static func exportSection(_ model: ReviewModel) -> String {
        let version = model.document.tool?.version ?? ToolVersion.current
        var out = "<section id=\"export\" aria-labelledby=\"export-title\">\n<h2 id=\"export-title\">Apply what you accepted</h2>\n"
        out += "<div class=\"js-only\" hidden><p><span id=\"decided\">0 accepted, 0 rejected</span>. "
            + "<button type=\"button\" id=\"export-button\">Download the decision</button></p>\n"
            + "<label for=\"decision-json\">Decision file</label>\n<textarea id=\"decision-json\" readonly rows=\"6\"></textarea>\n"
            + "<p><label>Load a decision file <input type=\"file\" id=\"decision-file\" accept=\".json,application/json\"></label> "
            + "<span id=\"decision-loaded\" role=\"status\"></span></p>\n"
            + "<p class=\"kept\">Decisions are kept in this browser for this report (local storage) until you export them.</p></div>\n"
        let example = "{ \"schemaVersion\": 1, \"toolVersion\": \"\(version)\", \"accepted\": [\"" + (model.groups.first?.id ?? "ATS001-…") + "\"], \"rejected\": [] }"
        out += "<div class=\"nojs\"><p>Write the decision file by hand, listing the kinds you accept by their ids (each kind above shows its id):</p>\n"
            + "<pre>\(html(example))</pre></div>\n"
        out += "<p>Then <code>plist-migrate --write --accept decision.json PATH…</code> applies exactly those edits; an edit that differs "
            + "from the one reviewed is not written and is reported. <code>--check --accept decision.json</code> exits 1 while accepted "
            + "edits remain unapplied.</p>\n"
        // Script text is not entity-decoded: the version is written as a JSON string, `<` escaped.
        let json = String(decoding: (try? JSONEncoder().encode(version)) ?? Data("\"\"".utf8), as: UTF8.self)
        out += "<script type=\"application/json\" id=\"tool-version\">\(json.replacingOccurrences(of: "<", with: "\\u003c"))</script>\n"
        // The key decisions are kept under in the browser: this report's run and its kinds.
        let identity = (model.document.generatedAt ?? "") + "|" + version + "|" + model.groups.map(\.id).joined(separator: ",")
        out += "<script type=\"application/json\" id=\"report-key\">\"\(String(FNV1a.hash(identity.utf8), radix: 16))\"</script>\n"
        return out + "</section>\n"
    }

    // MARK: style and script

    static let css = """
        :root { color-scheme: light; --fg: #1f2328; --muted: #4d5560; --bg: #ffffff; --line: #d0d7de; --add: #d1f4dc; --del: #ffe1de; --hunk: #e8eefc; --accent: #0b57d0; }
        body { font: 15px/1.5 -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 76rem; padding: 0 1rem 3rem; }
        .skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .25rem .5rem; outline: 2px solid var(--accent); }
        h1 { margin: 1rem 0 .5rem; } h2 { margin-top: 2rem; border-bottom: 1px solid var(--line); } h3 { margin: 0 0 .25rem; font-size: 1.05rem; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0; } .facts dt { font-weight: 600; } .facts dd { margin: 0; }
        code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
        nav#filters { position: sticky; top: 0; background: var(--bg); border-bottom: 1px solid var(--line); padding: .5rem 0; z-index: 1; }
        .filter-row { display: flex; flex-wrap: wrap; gap: .75rem; } label { font-weight: 600; } select, input, button, textarea { font: inherit; }
        input[type=search] { min-width: 16rem; } #filter-status { margin: .25rem 0 0; color: var(--muted); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .group { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; }
        .pass { font-family: ui-monospace, Menlo, monospace; } .impact { font-size: .8rem; border: 1px solid var(--muted); border-radius: 1rem; padding: 0 .5rem; font-weight: 600; }
        .impact-changesPolicy { border-style: dashed; } .size, .repo { color: var(--muted); }
        .follows-warning { font-weight: 600; border-left: 4px solid currentColor; padding-left: .5rem; }
        pre.diff { background: #f6f8fa; border: 1px solid var(--line); padding: .5rem; overflow-x: auto; tab-size: 4; }
        .diff ins, .diff del, .diff b { display: inline-block; min-width: 100%; font-weight: normal; } .diff ins { background: var(--add); text-decoration: none; }
        .diff del { background: var(--del); text-decoration: line-through; text-decoration-color: #8a1c12; } .diff b { background: var(--hunk); }
        h4 { margin: 0 0 .25rem; font-size: 1rem; } .version { color: var(--muted); font-weight: normal; font-size: .9rem; }
        dl.delta { margin: .5rem 0; } dl.delta dt { font-weight: 600; } dl.delta dt.title { font-weight: 700; } dl.delta dd { margin-left: 1.5rem; } ul.files li.more { font-family: -apple-system, "Segoe UI", Roboto, sans-serif; font-style: italic; }
        ul.files { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; } ul.files .repo { font-family: -apple-system, "Segoe UI", Roboto, sans-serif; }
        ul.attention { padding-left: 1.2rem; } .attention .kind { text-transform: uppercase; font-size: .8rem; letter-spacing: .03em; }
        .attention .severe .kind::before { content: "\\26A0\\FE0E  "; }
        .decision { border: 1px solid var(--line); margin-top: .5rem; } textarea { width: 100%; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        [hidden] { display: none !important; }
        html { scroll-padding-top: 7rem; }
        code, td, th, dt, dd, li, p, h3, h4, summary { overflow-wrap: anywhere; }
        .scroll { overflow-x: auto; } table.repos, table.kinds { border-collapse: collapse; } table.repos th, table.repos td, table.kinds th, table.kinds td { border: 1px solid var(--line); padding: .2rem .5rem; text-align: left; vertical-align: top; }
        ul.files li.repo-head { font-family: -apple-system, "Segoe UI", Roboto, sans-serif; font-weight: 600; list-style: none; margin-left: -1rem; }
        dl.delta dt.reading { font-style: italic; font-weight: 600; margin-top: .25rem; } .more-deltas { margin: .25rem 0; }
        .kind-index { margin: .5rem 0 1rem; } .kind-index .scroll { max-height: 24rem; overflow-y: auto; } fieldset.decision { margin: .25rem 0 .5rem; }
        .legend { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .75rem; margin: .5rem 0; } .legend dd { margin: 0; }
        .tightens { font-size: .8rem; border: 2px solid currentColor; border-radius: 1rem; padding: 0 .5rem; font-weight: 700; }
        .state { font-size: .8rem; font-weight: 600; border-bottom: 2px solid currentColor; } .why { margin: .25rem 0 .5rem; }
        @media (max-width: 40rem) {
          nav#filters { position: static; } html { scroll-padding-top: 0; } body { padding: 0 .5rem 2rem; }
          .filter-row > label, .filter-row > button { flex: 1 1 100%; } select, input[type=search] { min-width: 0; width: 100%; box-sizing: border-box; }
          .facts, .legend { grid-template-columns: 1fr; } .group { padding: .5rem; }
        }
        @media (prefers-color-scheme: dark) {
          :root { color-scheme: dark; --fg: #e6edf3; --muted: #a8b1bb; --bg: #0d1117; --line: #3d444d; --add: #12361f; --del: #4a1714; --hunk: #1b2a4a; --accent: #8ab4ff; }
          pre.diff { background: #161b22; } .skip:focus { background: var(--bg); } .diff del { text-decoration-color: #ff9a8f; }
        }
        @media print {
          nav#filters, .decision, .js-only, .skip, #accept-shown, #export textarea { display: none !important; }
          html { scroll-padding-top: 0; } pre.diff { white-space: pre-wrap; overflow: visible; } .group { break-inside: avoid; }
        }
        """

    /// Filters and search (every count recomputed from what stays visible), decisions, export.
    static let script = """
        (function () {
          'use strict';
          // A large page carries some kinds and its long file lists compressed (raw DEFLATE in
          // base64): read them first, put the kinds in place, then start.
          function blockText(id) {
            var block = document.getElementById(id);
            if (!block) { return Promise.resolve(null); }
            if (block.type === 'application/json') { return Promise.resolve(block.textContent); }
            try {
              var bytes = Uint8Array.from(atob(block.textContent.trim()), function (c) { return c.charCodeAt(0); });
              return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
            } catch (error) {
              // A browser without DecompressionStream: said in the filter bar, not thrown.
              return Promise.reject(error);
            }
          }
          function insertKinds(markup) {
            var template = document.createElement('template'), here = document.getElementById('more-kinds-here');
            template.innerHTML = markup;
            Array.prototype.slice.call(template.content.children).forEach(function (section) {
              var continued = section.getAttribute('data-continues'), heading = continued && document.getElementById(continued);
              if (heading) {
                var into = heading.closest('section');
                while (section.firstChild) { into.appendChild(section.firstChild); }
              } else {
                here.parentNode.insertBefore(section, here);
              }
            });
          }
          Promise.all([blockText('more-kinds'), blockText('file-lists')]).then(function (texts) {
            if (texts[0]) { insertKinds(texts[0]); }
            start(texts[1] ? JSON.parse(texts[1]) : null);
            document.documentElement.setAttribute('data-ready', 'true');
          }, function (error) {
            var status = document.getElementById('filter-status');
            document.getElementById('filters').hidden = false;
            if (status) { status.textContent = 'This browser could not read the compressed part of the page (' + error + '): the kinds above are all it shows.'; }
            document.documentElement.setAttribute('data-ready', 'failed');
          });
          function start(lists) {
          // Each kind's decision: Accept, Reject, Undecided (made here: without the script there is
          // nothing to decide with); its state, in its heading; and, where it follows other kinds,
          // the place for the warning when a decision accepts it but rejects one of those.
          document.querySelectorAll('article.group').forEach(function (g) {
            var set = document.createElement('fieldset'), legend = document.createElement('legend');
            set.className = 'decision'; legend.textContent = 'Decision on ' + g.id; set.appendChild(legend);
            [['accept', 'Accept'], ['reject', 'Reject'], ['', 'Undecided']].forEach(function (choice) {
              var label = document.createElement('label'), input = document.createElement('input');
              input.type = 'radio'; input.name = 'd-' + g.id; input.value = choice[0]; input.checked = choice[0] === '';
              label.appendChild(input); label.appendChild(document.createTextNode(' ' + choice[1] + ' ')); set.appendChild(label);
            });
            // The controls sit under the kind's heading, not below a file list hundreds of lines long.
            var heading = g.querySelector('h4');
            heading.parentNode.insertBefore(set, heading.nextSibling);
            var state = document.createElement('span'); state.className = 'state'; state.textContent = 'Undecided';
            heading.appendChild(document.createTextNode(' ')); heading.appendChild(state);
            var follows = g.querySelector('p.follows');
            if (follows) {
              var warning = document.createElement('p'); warning.className = 'follows-warning'; warning.setAttribute('role', 'alert'); warning.hidden = true;
              follows.parentNode.insertBefore(warning, follows.nextSibling);
            }
          });
          // Each repository's apply command gets a button that copies it.
          document.querySelectorAll('code.command').forEach(function (code) {
            if (code.textContent === 'nothing to apply') { return; }
            var button = document.createElement('button');
            button.type = 'button'; button.className = 'copy'; button.textContent = 'Copy';
            button.setAttribute('aria-label', 'Copy the command for ' + code.closest('tr').querySelector('th').textContent);
            button.addEventListener('click', function () {
              var done = function () { button.textContent = 'Copied'; };
              if (navigator.clipboard && navigator.clipboard.writeText) {
                // The command as the shell takes it: the shown one marks what a reader cannot see.
                navigator.clipboard.writeText(code.getAttribute('data-copy') || code.textContent).then(done, function () { window.getSelection().selectAllChildren(code); });
              } else { window.getSelection().selectAllChildren(code); }
            });
            code.parentNode.insertBefore(button, code);
            code.parentNode.insertBefore(document.createTextNode(' '), code);
          });
          document.querySelectorAll('.js-only, #filters').forEach(function (el) { el.hidden = false; });
          document.querySelectorAll('.nojs').forEach(function (el) { el.hidden = true; });
          var pass = document.getElementById('filter-pass'), repo = document.getElementById('filter-repo');
          var impact = document.getElementById('filter-impact'), search = document.getElementById('filter-search');
          var groups = Array.prototype.slice.call(document.querySelectorAll('article.group'));
          // The index of kinds: one row per kind, a jump link, its pass, files, whether it
          // tightens, and its decision; rows follow the filters and the decisions.
          var indexRows = document.getElementById('kind-index-rows');
          groups.forEach(function (g) {
            if (!indexRows) { return; }
            var tr = document.createElement('tr'), link = document.createElement('a'), code = document.createElement('code');
            link.href = '#' + g.id; code.textContent = g.id; link.appendChild(code);
            var size = g.querySelector('h4 .size .n');
            [link, g.dataset.pass, size ? size.textContent : '', g.querySelector('h4 .tightens') ? 'tightens' : '', 'Undecided'].forEach(function (c) {
              var td = document.createElement('td');
              if (typeof c === 'string') { td.textContent = c; } else { td.appendChild(c); }
              tr.appendChild(td);
            });
            g.indexRow = tr; indexRows.appendChild(tr);
          });
          var items = Array.prototype.slice.call(document.querySelectorAll('#attention li.item'));
          // Every file list as data: a short one read from its items, a long one (its first files
          // only are in the HTML) from the page's JSON block, where each path is written once.
          var fileData = (function (d) {
            if (!d) { return null; }
            var paths = [];
            d.paths.forEach(function (p) {
              var a = p.indexOf('|'), b = p.indexOf('|', a + 1), prev = paths.length ? paths[paths.length - 1] : '';
              var suffix = Number(p.slice(a + 1, b));
              paths.push(prev.slice(0, Number(p.slice(0, a))) + p.slice(b + 1) + (suffix ? prev.slice(prev.length - suffix) : ''));
            });
            d.decoded = paths;
            return d;
          }(lists));
          var repoNames = repo ? Array.prototype.slice.call(repo.options, 1).map(function (o) { return o.textContent; }) : [];
          function listOf(ul) {
            if (ul.files) { return ul.files; }
            var files = [], n = ul.getAttribute('data-list');
            if (n !== null && fileData) {
              var l = fileData.lists[Number(n)], at = 0;
              l.i.forEach(function (delta, k) {
                at += delta;
                var r = fileData.repos ? fileData.repos[at] : -1, base = fileData.bases && r >= 0 ? fileData.bases[r] : null;
                var text = fileData.decoded[at] + (l.t ? l.t[k] : '');
                files.push({ text: text, key: text.toLowerCase(), repo: r >= 0 ? String(r) : null, edits: l.e ? l.e[k] : 1,
                  url: base && l.u && l.u[k] !== null ? base + l.u[k] : null });
              });
              ul.lazy = true;
              var details = ul.closest('details');
              if (details) { details.addEventListener('toggle', function () { render(ul); }); }
            } else {
              ul.querySelectorAll('li:not(.repo-head)').forEach(function (li) {
                var text = li.firstChild ? li.firstChild.textContent : '';
                files.push({ text: text, key: text.toLowerCase(), repo: li.getAttribute('data-repo'), edits: Number(li.dataset.edits || 0), li: li });
              });
            }
            ul.files = files; ul.kept = files;
            return files;
          }
          // A long list is written out when it is open (or printed), and again after a filter.
          function render(ul, always) {
            var details = ul.closest('details');
            if (!ul.lazy || !ul.stale || (!always && details && !details.open)) { return; }
            ul.stale = false;
            var several = repoNames.length > 1, out = document.createDocumentFragment(), last;
            var kept = several ? ul.kept.map(function (f, k) { return [f, k]; }).sort(function (a, b) {
              return (Number(a[0].repo) - Number(b[0].repo)) || (a[1] - b[1]); }).map(function (p) { return p[0]; }) : ul.kept;
            kept.forEach(function (f) {
              if (several && f.repo !== last) {
                last = f.repo;
                var head = document.createElement('li'); head.className = 'repo-head';
                head.textContent = f.repo !== null ? (repoNames[Number(f.repo)] || '') : '(no repository)';
                out.appendChild(head);
              }
              var li = document.createElement('li'), label;
              if (f.url) { label = document.createElement('a'); label.href = f.url; label.textContent = f.text; } else { label = document.createTextNode(f.text); }
              li.appendChild(label);
              out.appendChild(li);
            });
            ul.textContent = ''; ul.appendChild(out);
          }
          // The files of a kind or item that stay: those of the repository chosen and, unless the
          // search matched the kind's own text, those whose path holds the search.
          function filesIn(el, r, q, whole) {
            var n = 0;
            el.querySelectorAll('ul.files').forEach(function (ul) {
              var kept = [];
              listOf(ul).forEach(function (f) {
                var show = (r === '' || f.repo === r) && (whole || f.key.indexOf(q) >= 0);
                if (f.li) { f.li.hidden = !show; }
                if (show) { kept.push(f); }
              });
              n += kept.length;
              ul.kept = kept;
              if (ul.lazy) { ul.stale = true; render(ul); }
              else {
                // A repository's heading shows while one of its files does.
                var head = null, any = false;
                Array.prototype.forEach.call(ul.children, function (li) {
                  if (li.classList.contains('repo-head')) { if (head) { head.hidden = !any; } head = li; any = false; }
                  else if (!li.hidden) { any = true; }
                });
                if (head) { head.hidden = !any; }
              }
            });
            el.querySelectorAll('summary .n').forEach(function (s) { s.textContent = String(n); });
            return n;
          }
          function plural(n, noun) { return n + ' ' + noun + (n === 1 ? '' : 's'); }
          var decisionFilter = document.getElementById('filter-decision');
          function stateOf(g) { var c = g.querySelector('input[type=radio]:checked'); return c ? c.value : ''; }
          function apply() {
            var p = pass ? pass.value : '', r = repo ? repo.value : '', i = impact ? impact.value : '';
            var d = decisionFilter ? decisionFilter.value : '';
            var q = search ? search.value.trim().toLowerCase() : '';
            var shown = 0, edits = 0, files = {};
            groups.forEach(function (g) {
              var ok = (!p || g.dataset.pass === p) && (!i || g.dataset.impact === i)
                && (!d || (d === 'undecided' ? stateOf(g) === '' : stateOf(g) === d));
              if (g.search === undefined) {
                g.search = (g.parentNode.querySelector('h3').textContent + ' ' + Array.prototype.map.call(g.querySelectorAll('h4, pre.diff, .delta, .delta-none'),
                  function (el) { return el.textContent; }).join(' ')).toLowerCase();
              }
              var n = ok ? filesIn(g, r, q, !q || g.search.indexOf(q) >= 0) : 0;
              if (ok && n === 0) { ok = false; }
              g.hidden = !ok;
              var size = g.querySelector('h4 .size .n'); if (size) { size.textContent = String(n); }
              if (g.indexRow) { g.indexRow.hidden = !ok; g.indexRow.cells[2].textContent = String(n); }
              if (ok) {
                shown++;
                g.querySelectorAll('ul.files').forEach(function (ul) {
                  ul.kept.forEach(function (f) { files[f.text] = true; edits += f.edits; });
                });
              }
            });
            document.querySelectorAll('section.pass-kinds').forEach(function (section) {
              section.hidden = !section.querySelector('article.group:not([hidden])');
            });
            var attention = 0;
            items.forEach(function (it) {
              var matched = !q || it.dataset.search.indexOf(q) >= 0;
              var ok = !p || it.dataset.pass === p;
              if (ok && r !== '') { ok = (' ' + it.dataset.repos + ' ').indexOf(' ' + r + ' ') >= 0; }
              if (ok && it.querySelector('ul.files')) { ok = filesIn(it, r, q, matched) > 0; } else { ok = ok && matched; }
              it.hidden = !ok; if (ok) { attention++; }
            });
            document.getElementById('groups-count').textContent = String(shown);
            document.getElementById('files-count').textContent = String(Object.keys(files).length);
            document.getElementById('edits-count').textContent = String(edits);
            document.getElementById('attention-count').textContent = String(attention);
            var status = document.getElementById('filter-status');
            if (status) { status.textContent = shown + ' of ' + plural(groups.length, 'kind') + ' of change shown; ' + attention + ' of ' + plural(items.length, 'item') + ' ' + (items.length === 1 ? 'needs' : 'need') + ' a person.'; }
          }
          [pass, repo, impact, decisionFilter].forEach(function (el) { if (el) { el.addEventListener('change', apply); } });
          if (search) { search.addEventListener('input', apply); }
          function decision() {
            var accepted = [], rejected = [];
            groups.forEach(function (g) {
              var checked = g.querySelector('input[type=radio]:checked');
              if (checked && checked.value === 'accept') { accepted.push(g.id); }
              if (checked && checked.value === 'reject') { rejected.push(g.id); }
            });
            var version = JSON.parse(document.getElementById('tool-version').textContent);
            // Every kind this page showed: a run tells another repository's kind from an edit
            // nobody reviewed (a file changed since) by it.
            var reviewed = [];
            groups.forEach(function (g) { reviewed.push(g.id); });
            var result = { schemaVersion: 1, toolVersion: version, accepted: accepted, rejected: rejected, reviewed: reviewed };
            // Accepted kinds whose prerequisites are undecided, marked in the file (issue #53).
            var open = {};
            groups.forEach(function (g) {
              if (accepted.indexOf(g.id) < 0 || !g.dataset.follows) { return; }
              var o = g.dataset.follows.split(' ').filter(function (id) { return id && accepted.indexOf(id) < 0 && rejected.indexOf(id) < 0; });
              if (o.length) { open[g.id] = o; }
            });
            if (Object.keys(open).length) { result.undecidedPrerequisites = open; }
            return result;
          }
          // A kind accepted while a kind it follows in some files is rejected, or still undecided:
          // say so on it, and offer to accept the undecided ones as well.
          function warnings(d) {
            groups.forEach(function (g) {
              var warning = g.querySelector('.follows-warning');
              if (!warning) { return; }
              var follows = d.accepted.indexOf(g.id) >= 0 ? g.dataset.follows.split(' ').filter(Boolean) : [];
              var blocked = follows.filter(function (id) { return d.rejected.indexOf(id) >= 0; });
              var open = follows.filter(function (id) { return d.rejected.indexOf(id) < 0 && d.accepted.indexOf(id) < 0; });
              warning.hidden = blocked.length + open.length === 0;
              warning.textContent = '';
              if (blocked.length) {
                warning.appendChild(document.createTextNode('Accepted, but it follows ' + blocked.join(', ') + ', which you rejected: in the files where it does, --accept cannot apply it and fails. '));
              }
              if (open.length) {
                warning.appendChild(document.createTextNode('Accepted, but it follows ' + open.join(', ') + ', still undecided: unless '
                  + (open.length === 1 ? 'that is' : 'those are') + ' accepted too, --accept cannot apply it there and fails. '));
                var button = document.createElement('button');
                button.type = 'button'; button.textContent = 'Accept ' + open.join(', ') + ' as well';
                button.addEventListener('click', function () {
                  open.forEach(function (id) { var other = document.getElementById(id); if (other) { choose(other, 'accept'); } });
                  refresh(); apply();
                });
                warning.appendChild(button);
              }
            });
          }
          // Decisions last: kept in local storage under this report's key, and restored on load.
          var storageKey = 'plist-migrate-decision:' + JSON.parse(document.getElementById('report-key').textContent);
          function choose(g, value) {
            var radio = g.querySelector('input[type=radio][value="' + value + '"]');
            if (radio) { radio.checked = true; }
          }
          function load(d) {
            var known = 0;
            groups.forEach(function (g) {
              var id = g.id, value = d.accepted.indexOf(id) >= 0 ? 'accept' : (d.rejected || []).indexOf(id) >= 0 ? 'reject' : '';
              if (value) { known++; }
              choose(g, value);
            });
            return known;
          }
          try { var kept = JSON.parse(localStorage.getItem(storageKey) || 'null'); if (kept && kept.accepted) { load(kept); } } catch (e) { /* storage unavailable */ }
          var names = { accept: 'Accepted', reject: 'Rejected', '': 'Undecided' };
          function refresh() {
            var d = decision();
            warnings(d);
            groups.forEach(function (g) {
              var s = g.querySelector('.state'); if (s) { s.textContent = names[stateOf(g)]; }
              if (g.indexRow) { g.indexRow.cells[4].textContent = names[stateOf(g)]; }
            });
            try { localStorage.setItem(storageKey, JSON.stringify({ accepted: d.accepted, rejected: d.rejected })); } catch (e) { /* storage unavailable */ }
            document.getElementById('decided').textContent = d.accepted.length + ' accepted, ' + d.rejected.length + ' rejected';
            document.getElementById('decision-json').value = JSON.stringify(d, null, 2) + '\\n';
          }
          document.querySelectorAll('fieldset.decision input').forEach(function (el) {
            el.addEventListener('change', function () { refresh(); if (decisionFilter && decisionFilter.value) { apply(); } });
          });
          document.getElementById('accept-shown').addEventListener('click', function () {
            groups.forEach(function (g) { if (!g.hidden) { choose(g, 'accept'); } });
            refresh(); apply();
          });
          var file = document.getElementById('decision-file');
          if (file) {
            file.addEventListener('change', function () {
              var chosen = file.files && file.files[0], status = document.getElementById('decision-loaded');
              if (!chosen) { return; }
              var reader = new FileReader();
              reader.onload = function () {
                try {
                  var d = JSON.parse(String(reader.result));
                  if (!d || d.schemaVersion !== 1 || !Array.isArray(d.accepted)) { throw new Error('not a review decision'); }
                  var known = load(d), all = d.accepted.length + (d.rejected || []).length;
                  status.textContent = 'Loaded: ' + d.accepted.length + ' accepted, ' + (d.rejected || []).length + ' rejected'
                    + (all > known ? ' (' + (all - known) + ' not on this page)' : '') + '.';
                } catch (e) { status.textContent = 'Not loaded: ' + e.message + '.'; }
                refresh(); apply();
              };
              reader.readAsText(chosen);
            });
          }
          // The sticky filter bar never covers a focused control or an anchor's heading (WCAG 2.4.11).
          var bar = document.getElementById('filters');
          function pad() {
            var sticky = bar && getComputedStyle(bar).position === 'sticky';
            document.documentElement.style.scrollPaddingTop = sticky ? (bar.offsetHeight + 8) + 'px' : '0px';
          }
          window.addEventListener('resize', pad);
          document.addEventListener('focusin', function (event) {
            if (!bar || getComputedStyle(bar).position !== 'sticky' || bar.contains(event.target)) { return; }
            var box = event.target.getBoundingClientRect(), covered = bar.getBoundingClientRect().bottom;
            if (box.top < covered) { window.scrollBy(0, box.top - covered - 8); }
          });
          window.addEventListener('beforeprint', function () {
            document.querySelectorAll('details').forEach(function (d) { d.open = true; });
            document.querySelectorAll('ul.files').forEach(function (ul) { render(ul, true); });
          });
          pad();
          document.getElementById('export-button').addEventListener('click', function () {
            refresh();
            var blob = new Blob([document.getElementById('decision-json').value], { type: 'application/json' });
            var link = document.createElement('a');
            link.href = URL.createObjectURL(blob); link.download = 'plist-migrate-decision.json';
            document.body.appendChild(link); link.click(); link.remove();
          });
          refresh(); apply();
          }
        }());
        """
}
