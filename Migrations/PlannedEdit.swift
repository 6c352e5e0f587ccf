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

    /// Applies the edits, in order, to a value tree (a pure transformation of values). Each edit
    /// costs the depth of its dict, however many edits and entries there are: the dicts on the
    /// edited paths are opened once into mutable boxes and closed again at the end.
    public static func apply(_ edits: [PlannedEdit], to value: PlistValue) -> PlistValue {
        let root = DictBox(value)
        for edit in edits {
            switch edit {
            case .rename(let path, let from, let to):
                root.box(at: path[...])?.rename(from, to: to)
            case .remove(let path, let key):
                root.box(at: path[...])?.set(key, nil)
            case .insert(let path, let key, let new), .replace(let path, let key, let new):
                root.box(at: path[...])?.set(key, new)
            }
        }
        return root.value
    }

    /// A dict of the value tree being edited, with the dicts below it that edits reach.
    private final class DictBox {
        /// `nil` when the value is not a dict (edits below it do nothing).
        var entries: [String: PlistValue]?
        let original: PlistValue
        var opened: [String: DictBox] = [:]

        init(_ value: PlistValue) {
            original = value
            if case .dict(let entries) = value { self.entries = entries }
        }

        func box(at path: ArraySlice<String>) -> DictBox? {
            guard entries != nil else { return nil }
            guard let step = path.first else { return self }
            if opened[step] == nil {
                guard let child = entries?[step] else { return nil }
                opened[step] = DictBox(child)
            }
            return opened[step]?.box(at: path.dropFirst())
        }

        func rename(_ from: String, to: String) {
            guard let moved = entries?.removeValue(forKey: from) else { return }
            entries?[to] = moved
            opened[to] = opened.removeValue(forKey: from)
        }

        func set(_ key: String, _ value: PlistValue?) {
            entries?[key] = value
            opened[key] = nil
        }

        var value: PlistValue {
            guard var entries else { return original }
            for (key, box) in opened { entries[key] = box.value }
            return .dict(entries)
        }
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
