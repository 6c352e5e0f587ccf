import ATSPolicy
import Migrations
import PlistDOM
import Project
import FileAccess

/// What one pass did to one file.
public struct PassResult: Sendable {
    public var id: String
    public var version: Int
    public var name: String
    public var impact: Impact
    public var editCount: Int
    /// The unified diff of this pass alone (its input → its output).
    public var diff: String
    /// What the pass does to the effective ATS policy (`["no policy change"]` when nothing).
    public var policyDelta: [String] = []
    /// What the diff does that its pass's title does not say (an entry removed as a redundant
    /// twin), printed under the header.
    public var notes: [String] = []
    /// Which round of the run applied it: 1, or more when a later pass produced something an
    /// earlier one fixes (the passes repeat until a round changes nothing).
    public var round = 1
    /// The kind of change this is (`EditGroup.id`): what a review accepts or rejects.
    public var group = ""
    /// With `FileContext.recordsResults`: the digest of the file's bytes after this application
    /// (`SHA256.digest`), what a review plan records.
    public var result: String? = nil

    /// What the pass's edits mean for the values (`MigrationSession.plannedEdits`): what a
    /// generator's settings file is edited by (`GeneratedSettings`).
    var plannedEdits: [PlannedEdit] = []

    /// `ATS001 third-party-exception-keys (spelling)`, with `, round 2` after the first round.
    public var label: String { "\(id) \(name) (\(impact.rawValue))" + (round > 1 ? ", round \(round)" : "") }
}

/// Everything a run learned about one file.
public struct FileResult: Sendable {
    public enum Status: String, Sendable, Codable {
        /// Passes changed it (or would, in a dry run).
        case changed
        /// Has an ATS dict that needs nothing.
        case unchanged
        /// Found while walking, but not something to migrate; see `skipReason`.
        case skipped
        /// Could not be read, parsed or written; see `error`.
        case error
    }

    public var path: String
    public var status: Status
    public var skipReason: String?
    public var error: FileError?
    public var passes: [PassResult] = []
    public var diagnostics: [Diagnostic] = []
    /// Policy-changing migrations that would have changed this file had they been opted in to.
    public var heldBack: [String] = []
    /// Whether the file has a root ATS dict (so a deployment target mattered).
    public var hasAppTransportSecurity = false
    /// The deployment target whose OS eras counted (`nil`: none known, every era counted).
    public var deploymentTarget: DeploymentTarget?
    /// Why each held-back pass was held back, by id.
    public var heldBackReasons: [String: String] = [:]
    /// The input and the final output; dropped once reported.
    public var original: [UInt8] = []
    public var output: [UInt8] = []
    /// Identity of the file as read, to refuse writing over a concurrent change.
    public var fingerprint: FileFingerprint?
    public var written = false
    /// `--write` would have changed it, but the write failed (see `error`).
    public var notWritten = false
    /// One-line remarks for stderr (`path: note: …`).
    public var notes: [String] = []
    /// What could not be read of the projects around the file (also in `notes`): the reason the
    /// file's targets or deployment target may be incomplete.
    public var projectNotes: [String] = []

    public var hasConflict: Bool { !diagnostics.isEmpty }
    public var isFailure: Bool { status == .error || hasConflict || !acceptedNotApplied.isEmpty || !changedSinceReview.isEmpty }
    public var combinedDiff: String? { UnifiedDiff.make(from: original, to: output, path: diffPath) }
    /// The path in diff headers (`a/PATH`): relative to the root of the git repository holding
    /// the file, else to the working directory. Worked out only for a file a pass changed
    /// (empty otherwise).
    public var diffPath = ""
    /// The targets whose Info.plist this file is.
    public var targets: [ProjectTarget] = []
    /// With `--accept`: the kinds of change this file had that the decision did not accept.
    public var notAcceptedGroups: [String] = []
    /// With a decision that lists what the review showed: this file's kinds that are none of
    /// them (the file changed since the review). The file is not written; each is an error.
    public var changedSinceReview: [String] = []
    /// Recipe passes this file is not for, by id, with why.
    public var outOfScope: [String: String] = [:]
    /// Named on the command line (not found by a walk): a recipe pass out of scope for it is
    /// said in text too, since the user asked for this file.
    public var named = false
    /// With `--accept`: accepted kinds this file has (in a run without the decision) that could
    /// not be applied, each with the kinds before it here that the decision did not accept
    ///. Each is an error of the file.
    public var acceptedNotApplied: [AcceptedKindNotApplied] = []
    /// Applying a review plan: the file is not as reviewed (its bytes, or what the passes do to
    /// them); `error` says how. Counted apart in the summary.
    public var staleSinceReview = false
    /// A generator's code that sets ATS keys (Tuist, `app.config.js`): the changes a person
    /// makes there, which the tool does not rewrite (`CodeSources`).
    var sourceChanges: [CodeSources.Change] = []
}

/// An accepted kind of change that a file has, but that `--accept` could not apply there: it
/// comes after kinds the decision did not accept, and without them the pass edits the file
/// differently (or not at all).
public struct AcceptedKindNotApplied: Sendable, Codable, Equatable {
    public var group: String
    /// The kinds before it in this file that the decision did not accept, in pass order.
    public var after: [String]

    /// Compares the passes of the run without the decision (`reference`) with those applied.
    static func find(reference: [PassResult], applied: [PassResult], accepted: Set<String>) -> [AcceptedKindNotApplied] {
        let appliedGroups = Set(applied.map(\.group))
        var found: [AcceptedKindNotApplied] = []
        for (position, pass) in reference.enumerated() where accepted.contains(pass.group) && !appliedGroups.contains(pass.group) {
            var before: [String] = []
            for earlier in reference[..<position] where !accepted.contains(earlier.group) && !before.contains(earlier.group) {
                before.append(earlier.group)
            }
            found.append(AcceptedKindNotApplied(group: pass.group, after: before))
        }
        return found
    }

    /// `accepted ATS006-… cannot be applied here: it applies after ATS005-…, which the decision does not accept`.
    var message: String {
        guard !after.isEmpty else { return "accepted \(group) cannot be applied here: the passes before it edit this file otherwise" }
        return "accepted \(group) cannot be applied here: it applies after \(after.joined(separator: ", ")), which the decision does not accept"
    }
}

extension FileResult {
    /// The skip reason of a symbolic link a walk found under a plist's name.
    public static let linkNotFollowed = "symbolic link not followed"
}
