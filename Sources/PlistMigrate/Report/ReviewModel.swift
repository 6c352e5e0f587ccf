import Foundation
import ATSPolicy
import FileAccess

/// What the review page shows, worked out from a (possibly merged) JSON report: what needs a
/// person first, and every edit grouped by kind (`EditGroup`), each kind shown once.
struct ReviewModel {
    /// A file something is about, in its repository; for a kind of change, how many edits it
    /// makes there.
    struct Place {
        var path: String
        var repository: Int?
        var edits: Int?
        /// Where in the file: the first changed line of a kind, a conflict's line.
        var line: Int? = nil
    }

    /// One kind of change and every place it is made.
    struct Group {
        var id: String
        var pass: String
        var version: Int
        var name: String
        var impact: String
        /// The edit as the first file shows it (the diff's body without headers).
        var body: [String]
        /// The policy deltas this edit has across files (a deployment target can change it),
        /// with how many files have each.
        var deltas: [(lines: [String], files: Int)]
        var files: [Place]
        var edits: Int { files.reduce(0) { $0 + ($1.edits ?? 0) } }
        /// The kinds that come before this one in the same files (earlier passes there), each
        /// with in how many files: `--accept` applies this kind there only after them.
        var follows: [(id: String, files: Int)] = []
    }

    /// Something a person must look at before anything is applied.
    struct Attention {
        enum Kind: String { case error = "Error", conflict = "Conflict", heldBack = "Held back", skipped = "Skipped" }
        var kind: Kind
        /// `path:line:column` where there is one, else the reason shared by `files`.
        var location: String
        var pass: String?
        var message: String
        var files: [Place]
        /// For conflicts met in several files: each file's `path:line:column`, in `files` order.
        var locations: [String] = []
    }

    var document: Report.Document
    /// The plan a decision made on the page carries, as the page embeds it (`nil` for a report
    /// without one).
    var plan: String?
    var groups: [Group] = []
    var attention: [Attention] = []
    var passOrder: [String] = []

    init(_ document: Report.Document) {
        self.document = document
        plan = DecisionPlan(document)?.json()
        passOrder = (document.passes ?? []).map(\.id)
        var byID: [String: Int] = [:]
        var heldBack: [String: Int] = [:]
        var skipped: [String: Int] = [:]
        var conflicts: [String: Int] = [:]
        for file in document.files {
            let place = Place(path: file.path, repository: file.repository)
            if let error = file.error {
                attention.append(Attention(kind: .error, location: Self.location(file.path, error.line, error.column), pass: error.migration,
                                           message: error.message, files: [place]))
            }
            // Identical conflicts (the same pass and message, line numbers aside) are one item
            // with every file where they occur, as kinds of change are.
            for diagnostic in file.diagnostics {
                let location = Self.location(file.path, diagnostic.line, diagnostic.column)
                var place = place
                place.line = diagnostic.line
                let key = (diagnostic.migration ?? "") + "\n" + Finding.withoutLineNumbers(diagnostic.message)
                if let at = conflicts[key] {
                    attention[at].files.append(place)
                    attention[at].locations.append(location)
                    continue
                }
                conflicts[key] = attention.count
                attention.append(Attention(kind: .conflict, location: location, pass: diagnostic.migration, message: diagnostic.message,
                                           files: [place], locations: [location]))
            }
            for id in file.heldBack {
                let reason = file.heldBackReasons[id] ?? "held back"
                let key = id + "\n" + reason
                if let at = heldBack[key] { attention[at].files.append(place); continue }
                heldBack[key] = attention.count
                attention.append(Attention(kind: .heldBack, location: reason, pass: id, message: reason, files: [place]))
            }
            if file.status == "skipped", let reason = file.skipReason, reason != "no NSAppTransportSecurity" {
                if let at = skipped[reason] { attention[at].files.append(place); continue }
                skipped[reason] = attention.count
                attention.append(Attention(kind: .skipped, location: reason, pass: nil, message: reason, files: [place]))
            }
            var before: [String] = []
            for pass in file.passes {
                let id = pass.group ?? EditGroup.id(pass: pass.id, version: pass.version, diff: pass.diff, policyDelta: pass.policyDelta)
                defer { if !before.contains(id) { before.append(id) } }
                let earlier = before.filter { $0 != id }
                if let at = byID[id] {
                    for kind in earlier {
                        if let known = groups[at].follows.firstIndex(where: { $0.id == kind }) { groups[at].follows[known].files += 1 }
                        else { groups[at].follows.append((kind, 1)) }
                    }
                    groups[at].files.append(Place(path: file.path, repository: file.repository, edits: pass.editCount,
                                                  line: ForgeLinks.firstChangedLine(pass.diff)))
                    if let known = groups[at].deltas.firstIndex(where: { $0.lines == pass.policyDelta }) {
                        groups[at].deltas[known].files += 1
                    } else {
                        groups[at].deltas.append((pass.policyDelta, 1))
                    }
                    continue
                }
                byID[id] = groups.count
                groups.append(Group(id: id, pass: pass.id, version: pass.version, name: pass.name, impact: pass.impact,
                                    body: Self.body(of: pass.diff), deltas: [(pass.policyDelta, 1)], files: [Place(path: file.path, repository: file.repository, edits: pass.editCount,
                                                                 line: ForgeLinks.firstChangedLine(pass.diff))],
                                    follows: earlier.map { ($0, 1) }))
                if !passOrder.contains(pass.id) { passOrder.append(pass.id) }
            }
        }
        // What needs a person, most severe first: errors, conflicts, then held-back passes and
        // unexpected skips, each group apart.
        let rank: [Attention.Kind: Int] = [.error: 0, .conflict: 1, .heldBack: 2, .skipped: 3]
        attention = attention.enumerated().sorted { (rank[$0.element.kind]!, $0.offset) < (rank[$1.element.kind]!, $1.offset) }.map(\.element)
        let order = Dictionary(uniqueKeysWithValues: passOrder.enumerated().map { ($1, $0) })
        groups.sort { a, b in
            let (x, y) = (order[a.pass] ?? .max, order[b.pass] ?? .max)
            if x != y { return x < y }
            if a.files.count != b.files.count { return a.files.count > b.files.count }
            return a.id < b.id
        }
    }

    static func location(_ path: String, _ line: Int?, _ column: Int?) -> String {
        guard let line else { return path }
        return "\(path):\(line):\(column ?? 1)"
    }

    /// The diff's hunks (headers left out): what the edit does, shown once per kind.
    static func body(of diff: String) -> [String] {
        diff.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("@@") }
            .filter { !$0.isEmpty }
            .map(String.init)
    }

    /// The link to a place on its repository's forge at the reviewed commit, if the remote is
    /// one the page knows (GitHub, GitLab, Bitbucket).
    func link(_ place: Place) -> String? {
        guard let index = place.repository, let repositories = document.repositories, repositories.indices.contains(index),
            let path = pathInRepository(place.path, root: repositories[index].root)
        else { return nil }
        return ForgeLinks.link(remote: repositories[index].remote, commit: repositories[index].commit, path: path, line: place.line)
    }

    /// A report's path (as shown: quoted names are read back to their bytes) relative to a
    /// repository's root; `nil` when it is not below it.
    func pathInRepository(_ shown: String, root: String) -> String? {
        Self.pathInRepository(shown, root: root, base: document.base)
    }

    /// The same, for a report whose paths are relative to `base`.
    static func pathInRepository(_ shown: String, root: String, base: String?) -> String? {
        let raw = PathBytes.unquoted(shown) ?? shown
        let absolute = raw.hasPrefix("/") ? raw : (base.map { ($0 == "/" ? "" : $0) + "/" + raw } ?? raw)
        let root = root == "/" ? "" : root
        return absolute.hasPrefix(root + "/") ? String(absolute.dropFirst(root.count + 1)) : nil
    }

    /// A repository's name on the page: its remote, else its folder.
    func repositoryName(_ index: Int?) -> String {
        guard let index, let repositories = document.repositories, repositories.indices.contains(index) else { return "(no repository)" }
        let repository = repositories[index]
        return repository.remote ?? (repository.root as NSString).lastPathComponent
    }

    /// One row of a policy delta table: `iOS 10+/macOS 10.12+: HTTP to any other host (all
    /// loads): allowed → blocked; minimum TLS: not enforced → TLSv1.2` as OS, host, loads and
    /// one change per setting.
    struct DeltaRow: Equatable {
        var os: String
        var host: String
        var loads: String
        var changes: [(setting: String, before: String, after: String)]

        static func == (a: DeltaRow, b: DeltaRow) -> Bool {
            a.os == b.os && a.host == b.host && a.loads == b.loads && a.changes.elementsEqual(b.changes) { $0 == $1 }
        }
    }

    /// `nil` for a line that is not a change (`no policy change`, or a form this does not know).
    /// Whether a policy delta blocks something that was allowed (HTTP allowed → blocked, a
    /// higher minimum TLS, a requirement switched on): a kind with such a line can break loads
    /// that work today, whatever its impact says.
    static func tightens(_ lines: [String]) -> Bool {
        lines.compactMap(deltaRow).contains { row in
            row.changes.contains { change in
                (change.before == "allowed" && change.after == "blocked")
                    || (change.before == "not enforced" && change.after != "not enforced")
                    || (change.before.hasPrefix("TLSv") && change.after.hasPrefix("TLSv") && change.after > change.before)
                    || (change.before == "not required" && change.after == "required")
                    || (change.before == "none" && change.after != "none")
            }
        }
    }

    /// A delta line's reading of the legacy keys, and the line without it: `nil` for a line that
    /// holds under both readings.
    static func reading(of line: String) -> (reading: String?, rest: Substring) {
        let twins = PolicyDelta.Readings.twinsCondition + ": ", ignored = PolicyDelta.Readings.ignoredPrefix
        if line.hasPrefix(twins) { return (twinsReading, line.dropFirst(twins.count)) }
        if line.hasPrefix(ignored) { return (ignoredReading, line.dropFirst(ignored.count)) }
        return (nil, line[...])
    }

    static let twinsReading = "If the OS reads NSThirdParty…/NSTemporary… keys as their NSException… twins"
    static let ignoredReading = "If the OS ignores NSThirdParty…/NSTemporary… keys, as Apple's open reader does"

    static func deltaRow(_ full: String) -> DeltaRow? {
        let line = reading(of: full).rest
        guard let colon = line.range(of: ": ") else { return nil }
        let os = String(line[..<colon.lowerBound])
        let rest = line[colon.upperBound...]
        guard let close = rest.range(of: "): "), let open = rest[..<close.lowerBound].range(of: " (", options: .backwards) else { return nil }
        var host = String(rest[..<open.lowerBound])
        let loads = String(rest[open.upperBound..<close.lowerBound])
        var parts = rest[close.upperBound...].components(separatedBy: "; ")
        var changes: [(String, String, String)] = []
        if host.hasPrefix("HTTP to "), let first = parts.first {
            host = String(host.dropFirst("HTTP to ".count))
            let values = first.components(separatedBy: " → ")
            guard values.count == 2 else { return nil }
            changes.append(("HTTP", values[0], values[1]))
            parts.removeFirst()
        }
        for part in parts {
            guard let separator = part.range(of: ": ") else { return nil }
            let values = part[separator.upperBound...].components(separatedBy: " → ")
            guard values.count == 2 else { return nil }
            changes.append((String(part[..<separator.lowerBound]), values[0], values[1]))
        }
        return DeltaRow(os: os, host: host, loads: loads, changes: changes)
    }
}
