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
        case unknownMigration(String)
        case duplicateID(String, String)
        public var description: String {
            switch self {
            case .unknownMigration(let id):
                "unknown migration \"\(id)\" (see `plist-migrate list`)"
            case .duplicateID(let id, let source):
                "two different passes have the id \"\(id)\" (one in \(source))"
            }
        }
    }

    /// - Parameters:
    ///   - only: run just these ids; naming a `changesPolicy` migration opts in to it.
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
        for id in only + skip where !registry.contains(where: { $0.id.lowercased() == id.lowercased() }) {
            throw .unknownMigration(id)
        }
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
