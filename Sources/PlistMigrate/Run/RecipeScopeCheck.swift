import ATSPolicy
import Migrations
import Project

extension FileMigrator {
    enum ScopeVerdict: Equatable {
        /// Not a file the pass is for: untouched, and the JSON report says why.
        case outside(String)
        /// A file the pass is for, whose deployment target is too low or unknown.
        case heldBack(String)
    }

    /// Whether a recipe pass with `scope` runs on a file (`nil`: it does). `path` is relative
    /// to the repository root.
    static func verdict(_ scope: RecipeScope, path: String, targets: [ProjectTarget], target: DeploymentTarget?) -> ScopeVerdict? {
        if !scope.files.isEmpty, !scope.files.contains(where: { Glob($0).matches(path) }) {
            return .outside("not among its files (\(scope.files.joined(separator: ", ")))")
        }
        if !scope.infoPlistOf.isEmpty {
            let types = Set(scope.infoPlistOf)
            let claimed = targets.contains { types.contains("any") || types.contains($0.productType) }
            if !claimed {
                let kinds = scope.infoPlistOf.map { $0 == "any" ? "any target" : ("aeiou".contains($0.first!) ? "an " : "a ") + "\($0) target" }.joined(separator: " or ")
                let actual = targets.isEmpty ? "no project target uses it" : "it belongs to " + targets.map { "\($0.name) (\($0.productType))" }.joined(separator: ", ")
                return .outside("not the Info.plist of \(kinds): \(actual)")
            }
        }
        if let minimum = scope.minimumOS, let required = DeploymentTarget(minimum, source: "") {
            guard let target else {
                return .heldBack("for deployment targets \(minimum) or later, and this file's is unknown (give --min-os or minimumOS)")
            }
            if !target.reaches(required) {
                return .heldBack("for deployment targets \(minimum) or later; this file's is \(target.platforms.joined(separator: ",")) (from \(target.source))")
            }
        }
        return nil
    }
}
