import Migrations

/// The "did you mean" of every name a user types (pass ids and names, rules, `edit`'s options
/// and commands): the known name one or two edits from what was typed, ignoring case.
public enum NearestName {
    /// The name of `names` nearest to `typed`, as `names` spells it (the first of equally near
    /// ones); `nil` when none is within two edits.
    public static func nearest(to typed: String, among names: [String]) -> String? {
        let lower = typed.lowercased()
        return names.map { ($0, ATSKeyCatalog.editDistance($0.lowercased(), lower, limit: 2)) }
            .filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}
