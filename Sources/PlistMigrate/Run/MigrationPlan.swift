import Migrations

/// Which migrations a run applies, and which policy-changing ones it holds back.
public struct MigrationPlan: Sendable {
    public var selected: [any Migration]
    /// `changesPolicy` migrations that would otherwise run but were not opted in to.
    public var heldBack: [any Migration]
    /// Ids of the selected migrations whose policy delta is not checked against their intent:
    /// all with `--allow-policy-change`, else those named with `--only`.
    public var policyChangeAllowed: Set<String>

    public enum PlanError: Error, CustomStringConvertible {
        /// An id (or name) no pass has, with the nearest one when it is one or two edits away.
        case unknownMigration(String, near: String?)
        case duplicateID(String, String)
        public var description: String {
            switch self {
            case .unknownMigration(let id, let near):
                "unknown migration \"\(id)\"" + (near.map { " (did you mean \"\($0)\"?)" } ?? " (see `plist-migrate list`)")
            case .duplicateID(let id, let source):
                "two different passes have the id \"\(id)\" (one in \(source))"
            }
        }
    }

    /// - Parameters:
    ///   - only: run just these ids (or names, as diff headers show them: `third-party-exception-keys`);
    ///     naming a `changesPolicy` migration opts in to it.
    ///   - skip: never run these ids.
    ///   - to: run only migrations with `version <= to`.
    ///   - recipes: passes from recipe files; they run after the built-in ones, in version order.
    public init(
        only: [String] = [], skip: [String] = [], to: Int? = nil, allowPolicyChange: Bool = false,
        registry: [any Migration] = MigrationRegistry.all, recipes: [RecipePass] = []
    ) throws(PlanError) {
        var registry = registry
        var recipeIDs: [String: RecipePass] = [:]
        for pass in recipes {
            if let other = recipeIDs[pass.id.uppercased()] {
                guard other == pass else { throw .duplicateID(pass.id, other.source) }
                continue
            }
            guard !registry.contains(where: { $0.id.uppercased() == pass.id.uppercased() }) else {
                throw .duplicateID(pass.id, "the built-in passes")
            }
            recipeIDs[pass.id.uppercased()] = pass
            registry.append(pass)
        }
        // A pass's name (what each diff header shows) means its id.
        func resolved(_ typed: String) throws(PlanError) -> String {
            if registry.contains(where: { $0.id.lowercased() == typed.lowercased() }) { return typed }
            if let named = registry.first(where: { $0.name.lowercased() == typed.lowercased() }) { return named.id }
            throw .unknownMigration(typed, near: NearestName.nearest(to: typed, among: registry.flatMap { [$0.id, $0.name] }))
        }
        var onlyResolved: [String] = [], skipResolved: [String] = []
        for id in only { onlyResolved.append(try resolved(id)) }
        for id in skip { skipResolved.append(try resolved(id)) }
        let only = onlyResolved, skip = skipResolved
        let onlyIDs = Set(only.map { $0.uppercased() })
        let skipIDs = Set(skip.map { $0.uppercased() })
        let candidates = registry
            .filter { onlyIDs.isEmpty || onlyIDs.contains($0.id.uppercased()) }
            .filter { !skipIDs.contains($0.id.uppercased()) }
            .filter { to == nil || $0.version <= to! }
            .sorted { ($0 is RecipePass ? 1 : 0, $0.version) < ($1 is RecipePass ? 1 : 0, $1.version) }
        let optedIn: (any Migration) -> Bool = {
            $0.impact != .changesPolicy || allowPolicyChange || onlyIDs.contains($0.id.uppercased())
        }
        selected = candidates.filter(optedIn)
        heldBack = candidates.filter { !optedIn($0) }
        policyChangeAllowed = Set(selected.filter { allowPolicyChange || onlyIDs.contains($0.id.uppercased()) }.map(\.id))
    }
}
