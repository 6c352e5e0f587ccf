/// Everything a run needs to know, already validated by the command line.
public struct RunOptions: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, json, patch
    }

    public var paths: [String]
    public var write = false
    public var check = false
    public var plan: MigrationPlan
    public var format = Format.text
    public var jobs = 1

    public init(paths: [String], plan: MigrationPlan) {
        self.paths = paths
        self.plan = plan
    }
}

/// Where a run's output goes; tests capture it, the CLI writes it to the standard streams.
public protocol OutputSink: AnyObject {
    func standardOutput(_ bytes: [UInt8])
    func standardError(_ text: String)
}
