import Foundation

/// A decision without its plan (schema version 1: a list of kinds, `--accept FILE`): each file
/// runs with whatever options are typed, and a pass whose edit is not an accepted kind is held
/// back there. What such a run says besides (accepted kinds it could not apply, kinds the
/// decision names that the run lacks, edits of no reviewed kind) is worked out here.
extension Runner {
    /// The kinds of change a file's result met: applied, held back as not accepted, or
    /// accepted but not applicable.
    static func groupsMet(_ result: FileResult) -> Set<String> {
        Set(result.passes.map(\.group)).union(result.notAcceptedGroups).union(result.acceptedNotApplied.map(\.group))
    }

    /// The decision's ids (accepted and rejected) that are no kind `met` holds, sorted.
    func unmatchedDecisionIDs(met: Set<String>) -> [String] {
        guard let accepted = options.accepted else { return [] }
        return accepted.union(options.rejected).subtracting(met).sorted()
    }

    static func unmatchedLine(_ unmatched: [String], error: Bool) -> String {
        "plist-migrate: \(error ? "error" : "warning"): the review decision names \(unmatched.count) kind\(unmatched.count == 1 ? "" : "s") "
            + "of change this run does not have: \(unmatched.joined(separator: ", "))"
            + (error ? " (a decision made for several runs needs --decision-spans-runs)" : "")
    }

    /// After a file ran with the decision's accepted kinds: an accepted kind it could not apply
    /// (it follows one that is not accepted) is said with what it follows; an edit of no kind
    /// the review showed means the file is not the one reviewed, and nothing of it is written.
    static func judgeByKindList<Lookups: FileLookups>(
        _ result: inout FileResult, bytes: [UInt8], context: FileContext<Lookups>, migrator: FileMigrator
    ) {
        // Where no edit was held back as not accepted, the run without the decision is this one.
        if let accepted = migrator.accepted, result.status != .error, !result.notAcceptedGroups.isEmpty {
            let reference = migrator.withoutDecision.migrate(bytes, context)
            result.acceptedNotApplied = AcceptedKindNotApplied.find(reference: reference.passes, applied: result.passes, accepted: accepted)
        }
        if let reviewed = migrator.reviewed, result.status != .error {
            var seen = Set<String>()
            result.changedSinceReview = result.notAcceptedGroups.filter { !reviewed.contains($0) && seen.insert($0).inserted }
            if !result.changedSinceReview.isEmpty, result.status == .changed {
                result.status = .unchanged
                result.passes = []
                result.output = result.original
            }
        }
    }
}
