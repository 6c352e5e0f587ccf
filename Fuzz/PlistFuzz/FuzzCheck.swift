import PlistMigrate

enum FuzzCheck {
    static func run(_ data: [UInt8]) {
        if let violation = Invariants.violation(in: data) { preconditionFailure(violation) }
    }
}
