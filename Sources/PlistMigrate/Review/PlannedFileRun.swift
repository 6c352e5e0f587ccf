import Foundation
import FileAccess

extension PlanApplication {
    /// One reviewed file through its run's passes, applying exactly what was reviewed:
    /// - its bytes are the ones reviewed: the passes run as in the review and must give the same
    ///   kinds with the same results; the accepted kinds before the first one that is not
    ///   accepted are applied, and that one and every kind after it are held back, with a note;
    /// - its bytes are what the accepted kinds leave: it was applied already (nothing to do);
    /// - anything else: it changed since the review, an error of the file, nothing written.
    /// `settings`: the file is a generator's settings file (`GeneratedSettings`), of that format,
    /// whose spec's targets are read from `spec`.
    func migrate<Lookups: FileLookups>(
        _ bytes: [UInt8], _ context: FileContext<Lookups>, planned: ReviewDecision.File, migrator: FileMigrator,
        settings: (spec: String?, format: SourceEdits.Format)? = nil
    ) -> FileResult {
        let applications = planned.passes
        let applied = applications.prefix { accepted.contains($0.kind) }.count
        let digest = SHA256.digest(bytes)
        var context = context
        context.recordsResults = true
        guard digest == planned.digest else {
            var result = FileResult(path: context.path, status: .unchanged)
            result.original = bytes
            result.output = bytes
            // Already applied: the bytes the accepted kinds leave.
            if applied > 0, digest == applications[applied - 1].result { return result }
            result.status = .error
            result.staleSinceReview = true
            result.error = FileError("changed since the review: its bytes are neither those reviewed nor what the accepted kinds leave; "
                + "not written (review it again)")
            return result
        }
        // A generator's file: its passes are its own kinds, so a prefix of them is applied by count.
        let run = { (context: FileContext<Lookups>, count: Int?) -> FileResult in
            if let settings {
                return GeneratedSettings.migrate(bytes, context, file: settings.spec, migrator: migrator, format: settings.format, passLimit: count)
            }
            return count == nil ? migrator.migrate(bytes, context) : FileMigrator(plan: migrator.plan, accepted: Set(applications.prefix(count!).map(\.kind)))
                .migrate(bytes, context)
        }
        let full = run(context, nil)
        guard full.status != .error else { return full }
        guard Self.applications(full) == applications else {
            return Self.notAsReviewed(full, reviewed: applications)
        }
        var result: FileResult
        if applied == applications.count {
            result = full
        } else if applied == 0 {
            result = full
            result.status = .unchanged
            result.passes = []
            result.output = bytes
        } else {
            let prefix = Array(applications.prefix(applied))
            result = run(context, applied)
            guard result.status != .error else { return result }
            guard Self.applications(result) == prefix else { return Self.notAsReviewed(result, reviewed: prefix) }
            // Held back by the review, said below: not as "not accepted" by the run's own gate.
            result.notAcceptedGroups = []
            result.heldBack = result.heldBack.filter { !(result.heldBackReasons[$0] ?? "").hasSuffix(FileMigrator.notAcceptedReason) }
        }
        if applied < applications.count {
            let first = applications[applied]
            let verdict = rejected.contains(first.kind) ? "was rejected in review" : "was left undecided in review"
            result.notes.append("\(Self.pass(of: first.kind)) held back: its edit here (\(first.kind)) \(verdict)")
            for later in applications[(applied + 1)...] {
                result.notes.append("\(Self.pass(of: later.kind)) held back: its edit here (\(later.kind)) "
                    + (accepted.contains(later.kind) ? "was accepted, but " : "")
                    + "applies after \(first.kind), which is held back here")
            }
        }
        return result
    }

    static func applications(_ result: FileResult) -> [ReviewDecision.Application] {
        result.passes.map { ReviewDecision.Application(kind: $0.group, result: $0.result ?? "") }
    }

    /// `ATS005` of `ATS005-2e45f45518ae`.
    static func pass(of kind: String) -> String { String(kind.dropLast(13)) }

    /// The same bytes no longer give the reviewed edits (a project, a config or the tool's reading
    /// of the file changed what the passes do): an error, nothing written.
    private static func notAsReviewed(_ run: FileResult, reviewed: [ReviewDecision.Application]) -> FileResult {
        var result = run
        let now = applications(run)
        let shown = { (list: [ReviewDecision.Application]) in list.isEmpty ? "no change" : list.map(\.kind).joined(separator: ", ") }
        let differ = reviewed.map(\.kind) == now.map(\.kind) ? " (the same kinds, other results)" : ""
        result.status = .error
        result.staleSinceReview = true
        result.passes = []
        result.output = result.original
        result.error = FileError("its bytes are those reviewed, but the passes now give \(shown(now)) where the review showed "
            + "\(shown(reviewed))\(differ): something around the file (a project, a config) changed what they do; not written (review it again)")
        return result
    }
}
