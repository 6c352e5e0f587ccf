import PlistDOM

/// What an edit means for the value tree, recorded as the edit is made, so the engine can
/// check the output independently of the code that produced its bytes.
public enum PlannedEdit: Sendable, Equatable {
    case rename(dict: [String], from: String, to: String)
    case remove(dict: [String], key: String)
    case insert(dict: [String], key: String, value: PlistValue)
    case replace(dict: [String], key: String, value: PlistValue)

    /// The keys this edit touches, each with the key path of its dict: a rename touches both
    /// names.
    public var touchedKeys: [(dict: [String], key: String)] {
        switch self {
        case .rename(let dict, let from, let to): [(dict, from), (dict, to)]
        case .remove(let dict, let key), .insert(let dict, let key, _), .replace(let dict, let key, _): [(dict, key)]
        }
    }

    /// Applies the edits, in order, to a value tree (a pure transformation of values).
    public static func apply(_ edits: [PlannedEdit], to value: PlistValue) -> PlistValue {
        edits.reduce(value) { $1.applied(to: $0) }
    }

    func applied(to value: PlistValue) -> PlistValue {
        switch self {
        case .rename(let path, let from, let to):
            return Self.update(value, at: path[...]) { dict in
                if let moved = dict.removeValue(forKey: from) { dict[to] = moved }
            }
        case .remove(let path, let key):
            return Self.update(value, at: path[...]) { $0[key] = nil }
        case .insert(let path, let key, let new), .replace(let path, let key, let new):
            return Self.update(value, at: path[...]) { $0[key] = new }
        }
    }

    private static func update(_ value: PlistValue, at path: ArraySlice<String>, _ change: (inout [String: PlistValue]) -> Void) -> PlistValue {
        guard case .dict(var dict) = value else { return value }
        if let step = path.first {
            guard let child = dict[step] else { return value }
            dict[step] = update(child, at: path.dropFirst(), change)
        } else {
            change(&dict)
        }
        return .dict(dict)
    }
}

extension NewValue {
    /// The value this new element decodes to.
    public var plistValue: PlistValue {
        switch self {
        case .bool(let flag): .bool(flag)
        case .string(let text): .string(text)
        case .integer(let number): .integer(Int128(number))
        case .emptyDict: .dict([:])
        }
    }
}
