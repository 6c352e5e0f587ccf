import Migrations
import PlistDOM
import PlistMigrate

/// The properties the fuzzer hunts for violations of. Any input may be refused with a
/// ParseError; an accepted one must print back exactly, and migrating it must give output that
/// parses, passes the engine's own safety check, and is a fixed point of a second run.
enum FuzzCheck {
    static let migrator = FileMigrator(plan: try! MigrationPlan(allowPolicyChange: true))

    static func run(_ data: [UInt8]) {
        guard let document = try? PlistDocument(parsing: data) else { return }
        precondition(document.bytes == data, "parse -> print is not the input")
        let first = migrator.migrate(data, path: "fuzz", skipIfNotApplicable: false)
        if let error = first.error {
            precondition(!error.message.contains("internal error"), "engine refused its own output: \(error.message)")
            return
        }
        guard first.output != data else { return }
        precondition((try? PlistDocument(parsing: first.output)) != nil, "migrated output does not parse")
        let second = migrator.migrate(first.output, path: "fuzz", skipIfNotApplicable: false)
        precondition(second.output == first.output, "second run changed the output: not idempotent")
    }
}
