import FileAccess

/// Everything a run needs to know, already validated by the command line.
public struct RunOptions: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, json, patch, html, markdown
    }

    public var paths: [String]
    /// What `stat` said of `paths` when the command line checked them: discovery does not ask again.
    public var stated: [String: FileFingerprint] = [:]
    /// `--force-exclude`: `--exclude` and a config's `exclude` apply to files named explicitly too.
    public var forceExclude = false
    /// Extra paths, one per line, from `--files-from`; files that do not apply are skipped.
    public var listedPaths: [String] = []
    public var write = false
    public var check = false
    /// What the command line says; each file's nearest `.plist-migrate.json` fills the rest.
    public var selection = Selection()
    public var format = Format.text
    public var jobs = 1
    public var excludes: [Glob] = []
    public var includes: [Glob] = []
    public var shard: Shard?
    public var color = false
    public var progress = false
    /// Read `.plist-migrate.json` files.
    public var useConfig = true
    /// `--config FILE…`, merged: the one config of every file (none is looked for).
    public var explicitConfig: Config?
    /// `--quiet`: no notes, no summary line.
    public var quiet = false
    /// `--strict`: with `--check`, held-back passes count as pending.
    public var strict = false
    /// `--accept FILE`: only edits of these groups are applied (others are held back).
    public var accepted: Set<String>?
    /// The decision's rejected groups: like accepted ones, each must be a kind of this run.
    public var rejected: Set<String> = []
    /// The decision's `reviewed` kinds, when it lists them: an edit that is none of them is a
    /// file changed since the review.
    public var reviewed: Set<String>?
    /// `--decision-spans-runs`: the decision covers several runs, so ids this run does not
    /// have are a warning, not an error.
    public var decisionSpansRuns = false
    /// The `--recipe` and `--config` files as given: a report records their digests in its plan.
    public var recipeFiles: [String] = []
    public var configFiles: [String] = []
    /// Applying a review decision that carries its plan (`apply DECISION`): the reviewed files,
    /// their runs' options and what each must give.
    public var reviewPlan: PlanApplication?
    /// Whether the report records the run as a review plan (JSON and the review page do).
    var recordsPlan: Bool { format == .json || format == .html }
    /// `--output FILE`: refused when it is a file the run reads, however the walk found it.
    public var reportOutput: String?

    public init(paths: [String], selection: Selection = Selection()) {
        self.paths = paths
        self.selection = selection
    }

    /// The paths of a `--files-from` list: one per line (`\n` or `\r\n`), lines of only spaces
    /// and tabs skipped. Read as bytes: a list of 10,000 paths is not worth a grapheme walk.
    public static func listedPaths(in bytes: [UInt8]) -> [String] {
        var paths: [String] = []
        var start = 0
        while start < bytes.count {
            var end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let next = end + 1
            if end < bytes.count, end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = bytes[start..<end]
            if line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) {
                paths.append(String(decoding: line, as: UTF8.self))
            }
            start = next
        }
        return paths
    }
}

/// Where a run's output goes; tests capture it, the CLI writes it to the standard streams.
public protocol OutputSink: AnyObject {
    func standardOutput(_ bytes: [UInt8])
    func standardError(_ text: String)
    /// `--write -`: the migrated plist, which goes to standard output even when the report
    /// goes to `--output FILE`.
    func migratedPlist(_ bytes: [UInt8])
}

extension OutputSink {
    public func migratedPlist(_ bytes: [UInt8]) { standardOutput(bytes) }
}
