import Migrations
import PlistDOM

/// The properties any input must keep, shared by the fuzzer and the regression tests: an
/// accepted input prints back exactly; migrating it gives output that parses, passes the
/// engine's own safety check, and is a fixed point of a second run.
public enum Invariants {
    static let migrator = FileMigrator(plan: try! MigrationPlan(allowPolicyChange: true))

    /// What is wrong, or `nil` when every property holds (refusing an input is fine).
    public static func violation(in data: [UInt8]) -> String? {
        guard let document = try? PlistDocument(parsing: data) else { return nil }
        if document.bytes != data { return "parse -> print is not the input" }
        let first = migrator.migrate(data, path: "input", skipIfNotApplicable: false)
        if let error = first.error {
            return error.message.contains("internal error") ? "engine refused its own output: \(error.message)" : nil
        }
        guard first.output != data else { return nil }
        if (try? PlistDocument(parsing: first.output)) == nil { return "migrated output does not parse" }
        let second = migrator.migrate(first.output, path: "input", skipIfNotApplicable: false)
        if second.output != first.output { return "second run changed the output: not idempotent" }
        return nil
    }
}
