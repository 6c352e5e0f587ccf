import Foundation
import FileAccess

/// `--format html` and `plist-migrate report --format html`: one self-contained review page
/// (inline CSS and script, no network). What needs a person comes first; then each kind of
/// change once, with its policy delta as a table and its files folded. The script adds
/// filters, a search box and accept/reject per group with an export of the decision; without
/// it the page is complete and says how to write the decision by hand.
enum ReviewPage {
    /// A page larger than this carries the kinds after its first `kindsInHTML` bytes of them,
    /// and its long file lists, compressed (under 300 KB for a 10,000-file tree).
    static let compressAbove = 250_000
    static let kindsInHTML = 60_000

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
        // The plan the decision carries: each run's options and each changed file's digests.
        if let plan = model.plan {
            out += compressing ? "<script type=\"application/octet-stream\" id=\"review-plan\">\(compressed(plan))</script>\n"
                : "<script type=\"application/json\" id=\"review-plan\">\(plan)</script>\n"
        }
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
    ///. Used for every key, host, value and path the page shows.
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
    /// decision to its reviewed files.
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
                guard !relative.isEmpty else { return "nothing to apply" }
                // The decision carries the plan: in the repository, nothing else is typed.
                if model.plan != nil { return "cd \(quote(repository.root)) && \(applyCommand)" }
                return "cd \(quote(repository.root)) && plist-migrate --write --accept plist-migrate-decision.json "
                    + (repositories.count > 1 ? "--decision-spans-runs " : "")
                    + applyDirectories(relative).map(quote).joined(separator: " ")
            }
            // Shown with marks where a name holds a character a reader cannot see; copied as a
            // command the shell runs, each such character written as its bytes in `$'…'`.
            let shown = command(readableQuoted), runnable = command(shellQuoted)
            let copy = shown == runnable ? "" : " data-copy=\"\(XMLText.escape(runnable))\""
            // Each cell names its column (`data-label`) for the narrow layout, where every row is
            // a card; counts never wrap.
            out += "<tr><th scope=\"row\">\(html(model.repositoryName(index)))</th>"
                + "<td data-label=\"Commit\"><code>\(html(repository.commit.map { String($0.prefix(12)) } ?? "—"))</code></td>"
                + "<td class=\"num\" data-label=\"Changed\">\(changed.count)</td>"
                + "<td class=\"num\" data-label=\"Held back\">\(files.filter { !$0.heldBack.isEmpty }.count)</td>"
                + "<td class=\"num\" data-label=\"Errors\">\(files.filter { $0.error != nil }.count)</td>"
                + "<td class=\"num\" data-label=\"Kinds\">\(kinds)</td>"
                + "<td data-label=\"Apply the decision there\"><code class=\"command\"\(copy)>\(commandWords(shown))</code></td></tr>\n"
        }
        return out + "</tbody>\n</table></div>\n</section>\n"
    }

    /// The directories an apply command names for a repository's changed files (paths relative
    /// to its root): each file's folder, less those inside another; past `directoriesInCommand`
    /// of them, the one folder above them all. Never the files themselves: 817 paths made a
    /// table cell no one could read. Files there that were not reviewed are safe:
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

    /// A command as the page shows it: each word in a span of its own, which the style keeps on
    /// one line where it fits (a browser breaks after any hyphen: `plist-` `migrate`), and the
    /// spaces between them as text, so the element's text is the command.
    static func commandWords(_ command: String) -> String {
        command.split(separator: " ", omittingEmptySubsequences: false).map { "<span class=\"word\">\(html(String($0)))</span>" }
            .joined(separator: " ")
    }

    /// The command that applies a downloaded decision, where browsers save it by default.
    static let applyCommand = "plist-migrate apply ~/Downloads/plist-migrate-decision.json"

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
                out += "<details><summary><span class=\"n\">\(item.files.count)</span> file\(item.files.count == 1 ? "" : "s")</summary>\(fileList(item.files, model, lists, locations: item.locations))</details>"
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
        // name, instead of the remote repeated on every line.
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
            + "needs them accepted too: where one is not, it is held back there with the one before it.</p>\n"
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
    /// for a folder shows only the files in it; nothing is written twice for it.
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
            : "<details class=\"where\"><summary><span class=\"n\">\(group.files.count)</span> file\(group.files.count == 1 ? "" : "s")</summary>" + fileList(group.files, model, lists) + "</details>\n"
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
            + "<pre>\(html(example))</pre>\n<p>Then <code>plist-migrate --write --accept plist-migrate-decision.json PATH…</code> applies "
            + "those kinds. A decision written by hand holds no plan, so it cannot tell a file edited since the review from the one "
            + "reviewed; the one this page downloads can.</p></div>\n"
        if model.plan != nil {
            out += "<div class=\"js-only\" hidden><p>The downloaded decision holds the plan this page was made from: the options of each "
                + "run and, for each file, the bytes reviewed. Where your browser saved it, this applies every reviewed file (each "
                + "repository's row has the same command for that repository alone):</p>\n"
                + "<p class=\"apply-all\"><code class=\"command\">\(commandWords(applyCommand))</code></p>\n"
                + "<p>Accepted kinds are written exactly as shown; a rejected or undecided kind is held back, with every kind after it "
                + "in that file. A file whose bytes are not those reviewed is not written, and the command exits 2. "
                + "<code>plist-migrate apply --check</code> with the same file exits 1 while accepted kinds remain.</p></div>\n"
        } else {
            out += "<p class=\"js-only\" hidden>Then <code>plist-migrate --write --accept plist-migrate-decision.json PATH…</code> applies "
                + "exactly those edits; an edit that differs from the one reviewed is not written and is reported. "
                + "<code>--check --accept plist-migrate-decision.json</code> exits 1 while accepted edits remain unapplied.</p>\n"
        }
        // Script text is not entity-decoded: the version is written as a JSON string, `<` escaped.
        let json = String(decoding: (try? JSONEncoder().encode(version)) ?? Data("\"\"".utf8), as: UTF8.self)
        out += "<script type=\"application/json\" id=\"tool-version\">\(json.replacingOccurrences(of: "<", with: "\\u003c"))</script>\n"
        // The key decisions are kept under in the browser: this report's run and its kinds.
        let identity = (model.document.generatedAt ?? "") + "|" + version + "|" + model.groups.map(\.id).joined(separator: ",")
        out += "<script type=\"application/json\" id=\"report-key\">\"\(String(FNV1a.hash(identity.utf8), radix: 16))\"</script>\n"
        return out + "</section>\n"
    }

    // MARK: style and script

    /// The page's style: `Resources/review-page.css`, embedded at build time.
    static let css = resourceText(PackageResources.review_page_css)

    /// Filters and search (every count recomputed from what stays visible), decisions, export:
    /// `Resources/review-page.js`, embedded at build time (the tests check its syntax alone).
    static let script = resourceText(PackageResources.review_page_js)

    /// A resource file's text as the page writes it: without the file's last line break.
    static func resourceText(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
