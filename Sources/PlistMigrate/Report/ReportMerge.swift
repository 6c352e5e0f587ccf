import Foundation
import FileAccess

/// `plist-migrate report FILE.json…`: JSON reports of many runs (shards of one tree, or one per
/// repository from a CI matrix) made into one report, printed as a review page, JSON or text.
/// Reports of different tool versions, pass sets or modes are refused, never mixed.
public struct ReportMerge {
    public enum Format: String, Sendable, CaseIterable { case html, json, text, markdown }

    public var paths: [String]
    public var format: Format = .html

    public init(paths: [String]) {
        self.paths = paths
    }

    /// Prints the merged report; 0, or 2 with one line per problem on standard error.
    public func run(sink: any OutputSink) -> Int32 {
        var inputs: [(name: String, document: Report.Document)] = []
        var problems: [String] = []
        for path in paths {
            do {
                inputs.append((ReportPaths.current.name(path), try Self.read(path)))
            } catch {
                problems.append(error.line(path: ReportPaths.current.name(path)))
            }
        }
        if problems.isEmpty {
            do {
                let merged = try Self.merge(inputs)
                sink.standardOutput(Self.render(merged, format: format))
                return 0
            } catch {
                problems.append("plist-migrate report: error: \(error.message)")
            }
        }
        for problem in problems { sink.standardError(problem + "\n") }
        return 2
    }

    /// A JSON report holds about 1 KB a file (39 MB for 40,000 files, measured): 256 MiB is a
    /// fleet of some 250,000 files.
    static let maximumReportSize = 256 << 20

    static func read(_ path: String) throws(FileError) -> Report.Document {
        let bytes = try FileIO.load(path, limit: maximumReportSize).bytes
        let document: Report.Document
        do {
            document = try JSONDecoder().decode(Report.Document.self, from: Data(bytes))
        } catch {
            throw FileError("not a plist-migrate JSON report (made by --format json)")
        }
        guard document.schemaVersion == Report.schemaVersion else {
            throw FileError("report schemaVersion \(document.schemaVersion) is not \(Report.schemaVersion)")
        }
        guard document.tool != nil, document.passes != nil else {
            throw FileError("made by a plist-migrate older than \(ToolVersion.current) (no tool version or pass list): run it again with this version")
        }
        try checkFieldLengths(document)
        // Every number is input: a pass cannot make more edits than its file has
        // bytes, so a count beyond the largest file the tool reads is not a report it wrote,
        // and every sum of counts the page and summaries make stays far from overflowing.
        for file in document.files {
            for pass in file.passes where !(0...FileIO.maximumSize).contains(pass.editCount) {
                throw FileError("\(file.path): \(pass.id) has an edit count of \(pass.editCount), outside 0…\(FileIO.maximumSize): not a report this tool wrote")
            }
        }
        return document
    }

    /// The longest path a report field may hold: `PATH_MAX` on Linux (macOS's is 1,024). The
    /// merge joins each file's path to its report's base: a base of megabytes would be copied
    /// once per file.
    static let maximumPathLength = 4_096
    /// The longest of the short texts (mode, time, tool version, pass ids, a repository's remote
    /// and commit).
    static let maximumShortText = 1_024

    /// Refuses a report whose paths or short texts are longer than any run writes: every
    /// field the merge joins, compares or keys on is bounded before it is used.
    static func checkFieldLengths(_ document: Report.Document) throws(FileError) {
        func check(_ text: String?, _ field: String, _ limit: Int) throws(FileError) {
            guard let text, text.utf8.count > limit else { return }
            throw FileError("\(field) is \(text.utf8.count) bytes, more than the \(limit) any run writes: not a report this tool wrote")
        }
        try check(document.base, "\"base\"", maximumPathLength)
        try check(document.mode, "\"mode\"", maximumShortText)
        try check(document.generatedAt, "\"generatedAt\"", maximumShortText)
        try check(document.tool?.version, "the tool's version", maximumShortText)
        for path in document.options?.paths ?? [] { try check(path, "a path of \"options\"", maximumPathLength) }
        for repository in document.repositories ?? [] {
            try check(repository.root, "a repository's root", maximumPathLength)
            try check(repository.remote, "a repository's remote", maximumPathLength)
            try check(repository.commit, "a repository's commit", maximumShortText)
        }
        for pass in document.passes ?? [] { try check(pass.id, "a pass id", maximumShortText) }
        for file in document.files {
            // A quoted path spells each byte in up to four: its bound is four times a path's.
            try check(file.path, "a file's path", 4 * maximumPathLength)
            try check(file.pathBytes, "a file's path bytes", 4 * maximumPathLength)
            for pass in file.passes { try check(pass.id, "a pass id", maximumShortText) }
        }
    }

    /// The options choosing the passes that differ between two reports (`--only (ATS009 / all)`),
    /// or `nil` when they ran the same passes.
    /// A list of pass ids as a message shows it: upper case, sorted, joined by commas; `none`
    /// for an empty list, `not given` for none at all.
    static func idList(_ ids: [String]?) -> String {
        ids.map { $0.isEmpty ? "none" : $0.map { $0.uppercased() }.sorted().joined(separator: ",") } ?? "not given"
    }

    static func passSelectionDifference(_ a: Report.OptionsRecord?, _ b: Report.OptionsRecord?) -> String? {
        var differ: [String] = []
        if idList(a?.only) != idList(b?.only) { differ.append("--only (\(idList(a?.only)) / \(idList(b?.only)))") }
        if idList(a?.skip) != idList(b?.skip) { differ.append("--skip (\(idList(a?.skip)) / \(idList(b?.skip)))") }
        if a?.to != b?.to { differ.append("--to (\(a?.to.map(String.init) ?? "not given") / \(b?.to.map(String.init) ?? "not given"))") }
        if (a?.allowPolicyChange ?? false) != (b?.allowPolicyChange ?? false) {
            differ.append("--allow-policy-change (\(a?.allowPolicyChange ?? false ? "given" : "not given") / \(b?.allowPolicyChange ?? false ? "given" : "not given"))")
        }
        return differ.isEmpty ? nil : differ.joined(separator: ", ")
    }

    static func merge(_ inputs: [(name: String, document: Report.Document)]) throws(FileError) -> Report.Document {
        guard var merged = inputs.first?.document else { throw FileError("no report to merge") }
        let first = inputs[0]
        var repositoryIndex: [Report.RepositoryRecord: Int] = [:]
        var seen: [String: String] = [:]
        merged.files = []
        merged.repositories = []
        merged.plans = nil
        merged.summary = Report.Summary()
        // Reports made in different directories (one run per repository): each path is made
        // relative to the directory all of them share, so that the page finds every file's
        // repository, links and apply command.
        let bases = inputs.compactMap(\.document.base)
        let sharedBase = bases.count == inputs.count && Set(bases).count > 1 ? Self.commonDirectory(bases) : nil
        for (name, document) in inputs {
            if document.tool?.version != first.document.tool?.version {
                throw FileError("reports of different tool versions cannot be merged: \(first.name) is plist-migrate "
                    + "\(first.document.tool?.version ?? "?"), \(name) is \(document.tool?.version ?? "?")")
            }
            // A pass listed twice would stop the process where passes are looked up by id.
            let ids = (document.passes ?? []).map(\.id)
            if Set(ids).count != ids.count {
                throw FileError("\(name) lists a pass twice in \"passes\": not a report this tool wrote")
            }
            if Set(document.passes ?? []) != Set(first.document.passes ?? []) {
                let ours = Set((first.document.passes ?? []).map { "\($0.id) v\($0.version)" })
                let theirs = Set((document.passes ?? []).map { "\($0.id) v\($0.version)" })
                let differ = ours.symmetricDifference(theirs).sorted().joined(separator: ", ")
                throw FileError("reports with different pass sets cannot be merged: \(first.name) and \(name) differ in \(differ)")
            }
            // --only, --skip, --to and --allow-policy-change choose which passes ran: a run of
            // ATS009 alone merged with a full run would lose the other passes' edits from view.
            if let differ = Self.passSelectionDifference(first.document.options, document.options) {
                throw FileError("reports of runs with different passes cannot be merged: \(first.name) and \(name) differ in \(differ)")
            }
            if document.mode != first.document.mode {
                throw FileError("a \(first.document.mode) report (\(first.name)) and a \(document.mode) report (\(name)) cannot be merged")
            }
            let repositories = document.repositories ?? []
            // Each run's plan once in the merged report (runs with the same options share one).
            let planIndex: [Int] = (document.plans ?? []).map { plan in
                if let known = merged.plans?.firstIndex(of: plan) { return known }
                merged.plans = (merged.plans ?? []) + [plan]
                return merged.plans!.count - 1
            }
            for var file in document.files {
                if let index = file.plan {
                    guard planIndex.indices.contains(index) else {
                        throw FileError("\(name): \(file.path) names plan \(index), which the report does not list")
                    }
                    file.plan = planIndex[index]
                }
                // A pass applies at most once a round: twice would count the file twice.
                var applications = Set<String>()
                for pass in file.passes where !applications.insert("\(pass.id) \(pass.round)").inserted {
                    throw FileError("\(name): \(file.path) lists \(pass.id) twice in round \(pass.round): not a report this tool wrote")
                }
                if let index = file.repository, !repositories.indices.contains(index) {
                    throw FileError("\(name): \(file.path) names repository \(index), which the report does not list")
                }
                let repository = file.repository.map { repositories[$0] }
                if let repository {
                    if let known = repositoryIndex[repository] {
                        file.repository = known
                    } else {
                        merged.repositories!.append(repository)
                        repositoryIndex[repository] = merged.repositories!.count - 1
                        file.repository = merged.repositories!.count - 1
                    }
                }
                // Where the file is, whatever directory the run was started in: `repoA/Info.plist`
                // from above and `Info.plist` from inside are one file.
                let raw = PathBytes.unquoted(file.path) ?? file.path
                let absolute = document.base.map { base in
                    raw.hasPrefix("/") ? raw : ((base == "/" ? "" : base) + "/" + raw as NSString).standardizingPath
                }
                if let absolute, let repository, absolute != repository.root, !absolute.hasPrefix(repository.root == "/" ? "/" : repository.root + "/") {
                    throw FileError("\(name): \(file.path) lies outside its repository \(repository.root)")
                }
                let key = absolute.map { (repository.map { "\($0.remote ?? "")|\($0.commit ?? "")" } ?? "") + "\n" + $0 }
                    ?? (repository.map { "\($0.root)|\($0.remote ?? "")|\($0.commit ?? "")" } ?? "") + "\n" + file.path
                if let other = seen[key] {
                    throw FileError("\(file.path) is in both \(other) and \(name): the reports overlap")
                }
                seen[key] = name
                if let sharedBase, let base = document.base, !raw.hasPrefix("/") {
                    let prefix = base == sharedBase ? "" : String(base.dropFirst(sharedBase == "/" ? 1 : sharedBase.count + 1))
                    if !prefix.isEmpty { file.path = PathBytes.display(prefix + "/" + raw) }
                }
                merged.files.append(file)
            }
            // Counts are worked out from the files, never taken from the report.
            try merged.summary.add(try Report.Summary(files: document.files, mode: document.mode), from: name)
            if let options = document.options, name != first.name, var combined = merged.options {
                combined.paths += options.paths.filter { !combined.paths.contains($0) }
                merged.options = combined
            }
            if let at = document.generatedAt, at > (merged.generatedAt ?? "") { merged.generatedAt = at }
        }
        merged.mergedFrom = inputs.map(\.name)
        // One base: the one every report shares, or the directory above them all (paths were
        // made relative to it); none when a report has none.
        if Set(inputs.map(\.document.base)).count > 1 { merged.base = sharedBase }
        return merged
    }

    /// The deepest directory holding every one of `paths` (absolute, standardized).
    static func commonDirectory(_ paths: [String]) -> String {
        var shared = paths[0].split(separator: "/", omittingEmptySubsequences: true)
        for path in paths.dropFirst() {
            let parts = path.split(separator: "/", omittingEmptySubsequences: true)
            shared = Array(zip(shared, parts).prefix { $0 == $1 }.map(\.0))
        }
        return "/" + shared.joined(separator: "/")
    }

    static func render(_ document: Report.Document, format: Format) -> [UInt8] {
        switch format {
        case .json: return Report.encode(document)
        case .html: return ReviewPage.render(document)
        case .markdown: return PullRequestBody.render(document)
        case .text:
            let model = ReviewModel(document)
            let summary = document.summary
            let count = ReviewPage.plural
            var out = "plist-migrate report: \(count(document.mergedFrom?.count ?? 1, "report")), \(count(summary.scanned, "file")) scanned, "
                + "\(summary.changed) \(document.mode == "write" ? "changed" : "would change"), \(count(summary.errors, "error")), "
                + "\(summary.conflicts) with conflicts, \(summary.heldBack) with held-back passes\n"
            out += "\(count(model.attention.count, "item")) \(model.attention.count == 1 ? "needs" : "need") a person first:\n"
            for item in model.attention {
                out += "  \(item.kind.rawValue): \(item.location)" + (item.kind == .error || item.kind == .conflict ? ": \(item.message)" : "")
                    + (item.files.count > 1 || item.kind == .heldBack || item.kind == .skipped ? " (\(count(item.files.count, "file")))" : "") + "\n"
            }
            out += "\(count(model.groups.count, "kind")) of change:\n"
            for group in model.groups {
                out += "  \(group.id)  \(group.pass) \(group.name) (\(group.impact)): \(count(group.edits, "edit")) in \(count(group.files.count, "file"))\n"
            }
            return Array(InvisibleCharacters.marked(out).utf8)
        }
    }
}

extension Report.Summary {
    /// The counts of a report's files, as the run that wrote it counted them.
    init(files: [Report.FileRecord], mode: String) throws(FileError) {
        self.init()
        var edits: [String: Int] = [:]
        for file in files {
            scanned += 1
            switch file.status {
            case "changed": changed += 1
            case "unchanged": unchanged += 1
            case "skipped":
                skipped += 1
                skippedReasons[file.skipReason ?? "skipped", default: 0] += 1
            default: errors += 1
            }
            if !file.diagnostics.isEmpty { conflicts += 1 }
            if mode == "write", file.status == "changed", !file.written { notWritten += 1 }
            if !file.heldBack.isEmpty { heldBack += 1 }
            for pass in file.passes {
                guard pass.editCount >= 0 else { throw FileError("\(file.path): a negative edit count") }
                let (sum, overflow) = edits[pass.id, default: 0].addingReportingOverflow(pass.editCount)
                guard !overflow else { throw FileError("\(file.path): edit counts too large to add") }
                edits[pass.id] = sum
            }
            if let target = file.deploymentTarget { deploymentTargetSources[Report.sourceKind(target.source), default: 0] += 1 }
            if file.projectNotes != nil { projectsReadInPart = (projectsReadInPart ?? 0) + 1 }
            if file.acceptedNotApplied != nil { acceptedNotApplied = (acceptedNotApplied ?? 0) + 1 }
            if file.changedSinceReview != nil { changedSinceReview = (changedSinceReview ?? 0) + 1 }
        }
        editsPerPass = edits
    }

    /// Adds another report's counts; a sum too large to hold is an error, not a crash.
    mutating func add(_ other: Report.Summary, from name: String) throws(FileError) {
        func sum(_ a: Int, _ b: Int) throws(FileError) -> Int {
            let (result, overflow) = a.addingReportingOverflow(b)
            guard !overflow else { throw FileError("\(name): counts too large to add") }
            return result
        }
        scanned = try sum(scanned, other.scanned)
        changed = try sum(changed, other.changed)
        unchanged = try sum(unchanged, other.unchanged)
        skipped = try sum(skipped, other.skipped)
        errors = try sum(errors, other.errors)
        conflicts = try sum(conflicts, other.conflicts)
        notWritten = try sum(notWritten, other.notWritten)
        heldBack = try sum(heldBack, other.heldBack)
        for (key, value) in other.skippedReasons { skippedReasons[key] = try sum(skippedReasons[key] ?? 0, value) }
        for (key, value) in other.editsPerPass { editsPerPass[key] = try sum(editsPerPass[key] ?? 0, value) }
        for (key, value) in other.deploymentTargetSources { deploymentTargetSources[key] = try sum(deploymentTargetSources[key] ?? 0, value) }
        if let partial = other.projectsReadInPart { projectsReadInPart = try sum(projectsReadInPart ?? 0, partial) }
        if let unapplied = other.acceptedNotApplied { acceptedNotApplied = try sum(acceptedNotApplied ?? 0, unapplied) }
        if let changed = other.changedSinceReview { changedSinceReview = try sum(changedSinceReview ?? 0, changed) }
    }
}
