import Foundation
import FileAccess

/// What a reviewer decided on the review page, exported as JSON and read by `apply DECISION`
/// (and `--accept DECISION`). The page writes schema version 2, which carries the plan the page
/// was made from: each run's options (`runs`), the repositories and, per reviewed file, the
/// digest of its bytes and the kind and result digest of each pass application. Version 1 (the
/// ids alone, also written by hand) still works, but cannot tell a file changed since.
public struct ReviewDecision: Codable, Equatable, Sendable {
    public var schemaVersion = 2
    /// The tool that made the page: another version may group or edit differently, so its
    /// decision is refused rather than half-applied.
    public var toolVersion: String
    public var accepted: [String]
    public var rejected: [String]
    /// Marked by the review page: accepted kinds whose prerequisites (kinds they follow in some
    /// files) were left undecided, each with those.
    public var undecidedPrerequisites: [String: [String]]?
    /// Every kind the review page showed, decided or not.
    public var reviewed: [String]?
    /// Version 2: each run the page was made from, with its options.
    public var runs: [ReviewPlan]?
    /// Version 2: the repositories of the reviewed files (a folder outside git is one too).
    public var repositories: [Repository]?
    /// Version 2: every file the review showed a change of.
    public var files: [File]?

    public struct Repository: Codable, Equatable, Hashable, Sendable {
        /// Its absolute root where the run was made.
        public var root: String
        public var remote: String?
        public var commit: String?
    }

    public struct File: Codable, Equatable, Sendable {
        /// Index in `runs`.
        public var run: Int
        /// Index in `repositories`.
        public var repository: Int
        /// The path under the repository's root.
        public var path: String
        /// `SHA256.digest` of the bytes reviewed.
        public var digest: String
        /// Each pass application in order: its kind and the digest of the bytes it left.
        public var passes: [Application]
    }

    public struct Application: Codable, Equatable, Sendable {
        public var kind: String
        public var result: String
    }

    /// Whether the decision carries its plan (version 2).
    public var hasPlan: Bool { schemaVersion >= 2 }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case schemaVersion, toolVersion, accepted, rejected, undecidedPrerequisites, reviewed, runs, repositories, files
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        toolVersion = try container.decode(String.self, forKey: .toolVersion)
        accepted = try container.decode([String].self, forKey: .accepted)
        rejected = try container.decodeIfPresent([String].self, forKey: .rejected) ?? []
        undecidedPrerequisites = try container.decodeIfPresent([String: [String]].self, forKey: .undecidedPrerequisites)
        reviewed = try container.decodeIfPresent([String].self, forKey: .reviewed)
        runs = try container.decodeIfPresent([ReviewPlan].self, forKey: .runs)
        repositories = try container.decodeIfPresent([Repository].self, forKey: .repositories)
        files = try container.decodeIfPresent([File].self, forKey: .files)
    }

    public init(toolVersion: String = ToolVersion.current, accepted: [String], rejected: [String] = []) {
        schemaVersion = 1
        self.toolVersion = toolVersion
        self.accepted = accepted
        self.rejected = rejected
    }

    /// The decision at `path`; every problem is one plain line.
    public static func load(_ path: String) throws(FileError) -> ReviewDecision {
        let bytes = try FileIO.load(path).bytes
        let decision: ReviewDecision
        do {
            decision = try JSONDecoder().decode(ReviewDecision.self, from: Data(bytes))
        } catch {
            throw FileError("not a review decision (expected {\"schemaVersion\": 2, \"toolVersion\": …, \"accepted\": [kind ids], \"rejected\": […], …} as the review page downloads it)")
        }
        // The schema's additionalProperties: false, so a misspelt "rejectd" is not silently ignored.
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] {
            let known = Set(CodingKeys.allCases.map(\.rawValue))
            if let extra = object.keys.filter({ !known.contains($0) }).sorted().first {
                let names = CodingKeys.allCases.map(\.rawValue)
                throw FileError("review decision has a field \"\(OneLine.escaped(extra))\" that is not "
                    + names.dropLast().joined(separator: ", ") + " or " + names.last!)
            }
        }
        let kinds = decision.accepted + decision.rejected + (decision.reviewed ?? []) + (decision.files ?? []).flatMap { $0.passes.map(\.kind) }
        if let bad = kinds.first(where: { !isGroupID($0) }) {
            throw FileError("\"\(OneLine.escaped(bad))\" is not a kind of change id (a pass id, \"-\" and 12 hex digits, as the review page writes them)")
        }
        guard decision.schemaVersion == 1 || decision.schemaVersion == 2 else {
            throw FileError("review decision schemaVersion \(decision.schemaVersion) is not 1 or 2")
        }
        guard decision.toolVersion == ToolVersion.current else {
            throw FileError("made with plist-migrate \(decision.toolVersion), this is \(ToolVersion.current): review the changes again with this version")
        }
        if let both = Set(decision.accepted).intersection(decision.rejected).sorted().first {
            throw FileError("\(both) is both accepted and rejected")
        }
        if let reviewed = decision.reviewed.map(Set.init),
            let unseen = (decision.accepted + decision.rejected).first(where: { !reviewed.contains($0) })
        {
            throw FileError("\(unseen) is decided, but it is no kind the review showed (not in \"reviewed\"): nobody reviewed it")
        }
        if decision.hasPlan { try decision.checkPlan() }
        return decision
    }

    /// A version 2 decision's plan holds together: every index points at a run and a
    /// repository, every digest is one, and every decided kind is a kind of a reviewed file.
    private func checkPlan() throws(FileError) {
        guard let runs, let repositories, let files else {
            throw FileError("a review decision of schemaVersion 2 lists \"runs\", \"repositories\" and \"files\" (the plan the page was made from)")
        }
        for run in runs where run.digest != run.computedDigest() {
            throw FileError("a run's options do not match its digest \(OneLine.escaped(run.digest)): the plan was edited after the review")
        }
        var kinds = Set<String>()
        for file in files {
            guard runs.indices.contains(file.run), repositories.indices.contains(file.repository) else {
                throw FileError("\(OneLine.escaped(file.path)) names a run or repository the decision does not list")
            }
            guard Self.isDigest(file.digest), file.passes.allSatisfy({ Self.isDigest($0.result) }) else {
                throw FileError("\(OneLine.escaped(file.path)): a digest that is not 32 hex digits")
            }
            guard !file.path.isEmpty, !file.path.hasPrefix("/"), !file.path.split(separator: "/").contains("..") else {
                throw FileError("\(OneLine.escaped(file.path)) is not a path under its repository's root")
            }
            for pass in file.passes { kinds.insert(pass.kind) }
        }
        if let unknown = (accepted + rejected).first(where: { !kinds.contains($0) }) {
            throw FileError("\(unknown) is decided, but no reviewed file has that kind of change: nobody reviewed it")
        }
    }

    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// `ATS001-878d34d2c8c1`: the schema's `^[^\s]+-[0-9a-f]{12}$`.
    static func isGroupID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count > 13, bytes[bytes.count - 13] == UInt8(ascii: "-") else { return false }
        let hex = bytes.suffix(12).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        let head = id.unicodeScalars.dropLast(13)
        return hex && !head.isEmpty && !head.contains { $0.properties.isWhitespace }
    }
}
