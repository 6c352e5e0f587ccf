/// Which migrations to run, as one source states it (command line or a config file); `nil`
/// means "this source does not say".
public struct Selection: Sendable, Equatable, Hashable {
    public var only: [String]?
    public var skip: [String]?
    public var to: Int?
    public var allowPolicyChange: Bool?
    /// The app's deployment target (`ios15,macos12`), already validated.
    public var minimumOS: String?

    public init(only: [String]? = nil, skip: [String]? = nil, to: Int? = nil, allowPolicyChange: Bool? = nil, minimumOS: String? = nil) {
        self.only = only
        self.skip = skip
        self.to = to
        self.allowPolicyChange = allowPolicyChange
        self.minimumOS = minimumOS
    }

    /// Each setting from `self` where it says something, else from `fallback`.
    public func overriding(_ fallback: Selection) -> Selection {
        Selection(
            only: only ?? fallback.only, skip: skip ?? fallback.skip, to: to ?? fallback.to,
            allowPolicyChange: allowPolicyChange ?? fallback.allowPolicyChange, minimumOS: minimumOS ?? fallback.minimumOS)
    }

    public func plan() throws(MigrationPlan.PlanError) -> MigrationPlan {
        try MigrationPlan(only: only ?? [], skip: skip ?? [], to: to, allowPolicyChange: allowPolicyChange ?? false)
    }
}
