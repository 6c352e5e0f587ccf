import Foundation

/// `plist-migrate report FILE.json…`: JSON reports of many runs (shards of one tree, or one per
/// repository from a CI matrix) made into one report, printed as a review page, JSON or text.
/// Reports of different tool versions, pass sets or modes are refused, never mixed.
public struct ReportMerge {
    public enum Format: String, Sendable, CaseIterable { case html, json, text }

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

    static func read(_ path: String) throws(FileError) -> Report.Document {
        let bytes = try FileIO.load(path).bytes
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
        return document
    }

    static func merge(_ inputs: [(name: String, document: Report.Document)]) throws(FileError) -> Report.Document {
        guard var merged = inputs.first?.document else { throw FileError("no report to merge") }
        let first = inputs[0]
        var repositoryIndex: [Report.RepositoryRecord: Int] = [:]
        var seen: [String: String] = [:]
        merged.files = []
        merged.repositories = []
        merged.summary = Report.Summary()
        for (name, document) in inputs {
            if document.tool?.version != first.document.tool?.version {
                throw FileError("reports of different tool versions cannot be merged: \(first.name) is plist-migrate "
                    + "\(first.document.tool?.version ?? "?"), \(name) is \(document.tool?.version ?? "?")")
            }
            if Set(document.passes ?? []) != Set(first.document.passes ?? []) {
                let ours = Set((first.document.passes ?? []).map { "\($0.id) v\($0.version)" })
                let theirs = Set((document.passes ?? []).map { "\($0.id) v\($0.version)" })
                let differ = ours.symmetricDifference(theirs).sorted().joined(separator: ", ")
                throw FileError("reports with different pass sets cannot be merged: \(first.name) and \(name) differ in \(differ)")
            }
            if document.mode != first.document.mode {
                throw FileError("a \(first.document.mode) report (\(first.name)) and a \(document.mode) report (\(name)) cannot be merged")
            }
            let repositories = document.repositories ?? []
            for var file in document.files {
                let repository = file.repository.flatMap { $0 < repositories.count ? repositories[$0] : nil }
                if let repository {
                    if let known = repositoryIndex[repository] {
                        file.repository = known
                    } else {
                        merged.repositories!.append(repository)
                        repositoryIndex[repository] = merged.repositories!.count - 1
                        file.repository = merged.repositories!.count - 1
                    }
                }
                let key = (repository.map { "\($0.root)|\($0.remote ?? "")|\($0.commit ?? "")" } ?? "") + "\n" + file.path
                if let other = seen[key] {
                    throw FileError("\(file.path) is in both \(other) and \(name): the reports overlap")
                }
                seen[key] = name
                merged.files.append(file)
            }
            merged.summary.add(document.summary)
            if let options = document.options, name != first.name, var combined = merged.options {
                combined.paths += options.paths.filter { !combined.paths.contains($0) }
                merged.options = combined
            }
            if let at = document.generatedAt, at > (merged.generatedAt ?? "") { merged.generatedAt = at }
        }
        merged.mergedFrom = inputs.map(\.name)
        return merged
    }

    static func render(_ document: Report.Document, format: Format) -> [UInt8] {
        switch format {
        case .json: return Report.encode(document)
        case .html: return ReviewPage.render(document)
        case .text:
            let model = ReviewModel(document)
            let summary = document.summary
            var out = "plist-migrate report: \(document.mergedFrom?.count ?? 1) reports, \(summary.scanned) files scanned, "
                + "\(summary.changed) \(document.mode == "write" ? "changed" : "would change"), \(summary.errors) errors, "
                + "\(summary.conflicts) with conflicts, \(summary.heldBack) with held-back passes\n"
            out += "\(model.attention.count) item\(model.attention.count == 1 ? "" : "s") need a person first:\n"
            for item in model.attention {
                out += "  \(item.kind.rawValue): \(item.location)" + (item.kind == .error || item.kind == .conflict ? ": \(item.message)" : "")
                    + (item.files.count > 1 || item.kind == .heldBack || item.kind == .skipped ? " (\(item.files.count) files)" : "") + "\n"
            }
            out += "\(model.groups.count) kind\(model.groups.count == 1 ? "" : "s") of change:\n"
            for group in model.groups {
                out += "  \(group.id)  \(group.pass) \(group.name) (\(group.impact)): \(group.edits) edits in \(group.files.count) files\n"
            }
            return Array(out.utf8)
        }
    }
}

extension Report.Summary {
    mutating func add(_ other: Report.Summary) {
        scanned += other.scanned
        changed += other.changed
        unchanged += other.unchanged
        skipped += other.skipped
        errors += other.errors
        conflicts += other.conflicts
        notWritten += other.notWritten
        heldBack += other.heldBack
        skippedReasons.merge(other.skippedReasons, uniquingKeysWith: +)
        editsPerPass.merge(other.editsPerPass, uniquingKeysWith: +)
        deploymentTargetSources.merge(other.deploymentTargetSources, uniquingKeysWith: +)
    }
}
