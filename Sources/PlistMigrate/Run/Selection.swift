import Migrations

/// Which migrations to run, as one source states it (command line or a config file); `nil`
/// means "this source does not say".
public struct Selection: Sendable, Equatable, Hashable {
    public var only: [String]?
    public var skip: [String]?
    public var to: Int?
    public var allowPolicyChange: Bool?
    /// The app's deployment target (`ios15,macos12`), already validated.
    public var minimumOS: String?
    /// Passes read from recipe files (`--recipe`, a config's `recipes`).
    public var recipes: [RecipePass]?

    public init(
        only: [String]? = nil, skip: [String]? = nil, to: Int? = nil, allowPolicyChange: Bool? = nil, minimumOS: String? = nil,
        recipes: [RecipePass]? = nil
    ) {
        self.only = only
        self.skip = skip
        self.to = to
        self.allowPolicyChange = allowPolicyChange
        self.minimumOS = minimumOS
        self.recipes = recipes
    }

    /// Each setting from `self` where it says something, else from `fallback`; recipes from
    /// both (the fallback's first).
    public func overriding(_ fallback: Selection) -> Selection {
        var combined = fallback.recipes ?? []
        for pass in recipes ?? [] where !combined.contains(pass) { combined.append(pass) }
        return Selection(
            only: only ?? fallback.only, skip: skip ?? fallback.skip, to: to ?? fallback.to,
            allowPolicyChange: allowPolicyChange ?? fallback.allowPolicyChange, minimumOS: minimumOS ?? fallback.minimumOS,
            recipes: recipes == nil && fallback.recipes == nil ? nil : combined)
    }

    public func plan() throws(MigrationPlan.PlanError) -> MigrationPlan {
        try MigrationPlan(only: only ?? [], skip: skip ?? [], to: to, allowPolicyChange: allowPolicyChange ?? false, recipes: recipes ?? [])
    }
}
