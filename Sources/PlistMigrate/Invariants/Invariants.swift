// Room: Invariants. The properties every input must keep (lossless print, checked output,
// idempotent runs), shared by the fuzz targets and the regression tests. May call every room.
import Migrations
import PlistDOM

/// The properties any input must keep, shared by the fuzzer and the regression tests: an
/// accepted input prints back exactly; a whole run (default passes, every pass, and every pass
/// with a recipe of every kind of step) gives output
/// that parses, passes the engine's own safety check, and leaves nothing for a second run: no
/// diff, and the same conflicts.
public enum Invariants {
    /// The runs every input goes through: every pass, the default passes, and every pass with
    /// a recipe of every kind of step (`everyStepKind`). Made once; a failure to make them is
    /// reported by every check as its violation, not a stop of the process.
    static let migrators: Result<[FileMigrator], any Error> = Result {
        [FileMigrator(plan: try MigrationPlan(allowPolicyChange: true)), FileMigrator(plan: try MigrationPlan()),
         try everyStepKind()]
    }

    /// A recipe with every kind of step on keys real plists hold, run after the built-in passes:
    /// edits outside the ATS dict, array items and nested new values go through the check too.
    /// (LeakSanitizer takes its values for leaks: Swift keeps enum tags in the spare bits of
    /// their pointers. Fuzz/lsan.supp says so.)
    static func everyStepKind() throws -> FileMigrator {
        let passes = try RecipeLoader.parse("""
            id: FUZZ01
            version: 1
            title: every kind of step
            impact: changesPolicy
            steps:
              - rename: CFBundleDisplayName
                to: CFBundleName
              - remove: UIRequiredDeviceCapabilities:[]
                equals: armv7
              - replace: CFBundleURLTypes:[]:CFBundleURLSchemes:[]
                equals: fb
                with: facebook
              - set: CFBundleURLTypes:0:PlistMigrateFuzz
                value: {list: [1, 2.5, "a & b", !data aGk=], nested: {on: true, when: !date 2026-01-31T12:00:00Z}}
                when: ifAbsent
              - move: UILaunchStoryboardName
                to: UIApplicationSceneManifest
            """, path: "everyStepKind").map(\.0)
        return FileMigrator(plan: try MigrationPlan(allowPolicyChange: true, recipes: passes))
    }

    /// What is wrong, or `nil` when every property holds (refusing an input is fine).
    /// `everyPassRun` is given the first run with every pass, so a caller can check more of it
    /// without running it again.
    public static func violation(in data: [UInt8], everyPassRun: ((FileResult) -> Void)? = nil) -> String? {
        guard let document = try? PlistDocument(parsing: data) else { return nil }
        if document.bytes != data { return "parse -> print is not the input" }
        let runs: [FileMigrator]
        switch migrators {
        case .success(let made): runs = made
        case .failure(let error): return "the invariants' own passes could not be made: \(error)"
        }
        for (index, migrator) in runs.enumerated() {
            if let violation = runViolation(data, migrator, firstRun: index == 0 ? everyPassRun : nil) { return violation }
        }
        return nil
    }

    static func runViolation(_ data: [UInt8], _ migrator: FileMigrator, firstRun: ((FileResult) -> Void)? = nil) -> String? {
        let first = migrator.migrate(data, path: "input", skipIfNotApplicable: false)
        firstRun?(first)
        if let error = first.error {
            return error.message.contains("internal error") ? "engine refused its own output: \(error.message)" : nil
        }
        // A run that applied nothing would give the second run its own input again: the same
        // work, the same answer. Only a run that applied a pass needs the second run.
        if first.output == data && first.passes.isEmpty { return nil }
        if first.output != data, (try? PlistDocument(parsing: first.output)) == nil { return "migrated output does not parse" }
        let second = migrator.migrate(first.output, path: "input", skipIfNotApplicable: false)
        if second.output != first.output || !second.passes.isEmpty {
            return "a second run changed the output (\(second.passes.map(\.id).joined(separator: ", "))): the run is not idempotent"
        }
        if second.diagnostics.map(\.migrationID) != first.diagnostics.map(\.migrationID) {
            return "a second run reported other conflicts (\(first.diagnostics.map(\.migrationID)) then \(second.diagnostics.map(\.migrationID)))"
        }
        if second.heldBack != first.heldBack { return "a second run held back other passes" }
        return nil
    }
}
