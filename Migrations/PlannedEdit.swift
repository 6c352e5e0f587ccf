import PlistDOM

/// What an edit means for the value tree, recorded as the edit is made, so the engine can
/// check the output independently of the code that produced its bytes. Paths lead from the
/// root value to the dict or array edited, as the document stood when the edit was made.
public enum PlannedEdit: Sendable, Equatable {
    case rename(dict: [PathStep], from: String, to: String)
    case remove(dict: [PathStep], key: String)
    case insert(dict: [PathStep], key: String, value: PlistValue)
    case replace(dict: [PathStep], key: String, value: PlistValue)
    case removeItem(array: [PathStep], index: Int)
    /// The new item goes at `index` (the array's count appends).
    case insertItem(array: [PathStep], index: Int, value: PlistValue)
    case replaceItem(array: [PathStep], index: Int, value: PlistValue)

    /// The dict or array the edit changes.
    public var container: [PathStep] {
        switch self {
        case .rename(let path, _, _), .remove(let path, _), .insert(let path, _, _), .replace(let path, _, _): path
        case .removeItem(let path, _), .insertItem(let path, _, _), .replaceItem(let path, _, _): path
        }
    }

    /// What the edit names in its container: both keys of a rename, the key of another dict
    /// edit, the position of an item edit.
    public var steps: [PathStep] {
        switch self {
        case .rename(_, let from, let to): [.key(from), .key(to)]
        case .remove(_, let key), .insert(_, let key, _), .replace(_, let key, _): [.key(key)]
        case .removeItem(_, let index), .insertItem(_, let index, _), .replaceItem(_, let index, _): [.index(index)]
        }
    }

    /// The keys this edit touches, each with the key path of its dict: a rename touches both
    /// names. An edit inside an array touches the key that holds the (outermost) array; one
    /// under a root array touches no key.
    public var touchedKeys: [(dict: [String], key: String)] {
        let names = steps
        // Worked out on the container, without appending each name to a copy of it: up to its
        // first array step (the key holding that array), else the name itself when it is a key.
        let firstItem = container.firstIndex { $0.key == nil }
        return names.compactMap { last in
            if firstItem == nil, let key = last.key { return (container.compactMap(\.key), key) }
            let cut = firstItem ?? container.count
            guard cut > 0, let key = container[cut - 1].key else { return nil }
            return (container[..<(cut - 1)].compactMap(\.key), key)
        }
    }

    /// Applies the edits, in order, to a value tree (a pure transformation of values). Each edit
    /// costs the depth of its container, however many edits and entries there are: the
    /// containers on the edited paths are opened once into mutable boxes and closed at the end.
    public static func apply(_ edits: [PlannedEdit], to value: PlistValue) -> PlistValue {
        let root = ValueBox(value)
        // Edits come in runs on one container (a pass renaming every domain key): the box of
        // the last container is kept. An edit changes its own container's entries, never
        // which box that container is.
        var last: (container: [PathStep], box: ValueBox?)?
        // Runs of runs: each edit in another domain of one dict. The box holding the last
        // container is kept too, so a sibling container costs one step, not its whole path.
        var lastParent: (container: ArraySlice<PathStep>, box: ValueBox?)?
        for edit in edits {
            let container = edit.container
            let box: ValueBox?
            if let last, last.container == container {
                box = last.box
            } else if let lastParent, lastParent.container == container[...] {
                // Back to the dict of the last container (a domain key renamed, then a setting
                // inserted in its dict, for each domain).
                box = lastParent.box
                last = (container, box)
            } else if let step = container.last, let lastParent, lastParent.container == container.dropLast() {
                box = lastParent.box?.child(step)
                last = (container, box)
            } else {
                if let step = container.last {
                    let parent = root.box(at: container.dropLast())
                    lastParent = (container.dropLast(), parent)
                    box = parent?.child(step)
                } else {
                    box = root
                    // An edit of the root's entries can replace the dict kept as a parent.
                    lastParent = nil
                }
                last = (container, box)
            }
            switch edit {
            case .rename(_, let from, let to): box?.rename(from, to: to)
            case .remove(_, let key): box?.set(.key(key), nil)
            case .insert(_, let key, let new), .replace(_, let key, let new): box?.set(.key(key), new)
            case .removeItem(_, let index): box?.removeItem(at: index)
            case .insertItem(_, let index, let new): box?.insertItem(new, at: index)
            case .replaceItem(_, let index, let new): box?.set(.index(index), new)
            }
        }
        return root.value
    }

    /// A dict or array of the value tree being edited, with the containers below it that
    /// edits reach.
    /// Used by one thread: the runtime's exclusivity checks are left out.
    private final class ValueBox {
        @exclusivity(unchecked) var entries: [String: PlistValue]?
        @exclusivity(unchecked) var items: [PlistValue]?
        let original: PlistValue
        /// Opened children of a dict by key (arrays are edited in place: their items move).
        @exclusivity(unchecked) var opened: [String: ValueBox] = [:]
        @exclusivity(unchecked) var openedItems: [Int: ValueBox] = [:]

        init(_ value: PlistValue) {
            original = value
            switch value {
            case .dict(let entries): self.entries = entries
            case .array(let items): self.items = items
            default: break
            }
        }

        func box(at path: ArraySlice<PathStep>) -> ValueBox? {
            guard let step = path.first else { return self }
            return child(step)?.box(at: path.dropFirst())
        }

        /// The box of the value at `step`, opened when first asked for.
        func child(_ step: PathStep) -> ValueBox? {
            switch step {
            case .key(let key):
                if let child = opened[key] { return child }
                guard let value = entries?[key] else { return nil }
                let child = ValueBox(value)
                opened[key] = child
                return child
            case .index(let index):
                if let child = openedItems[index] { return child }
                guard let items, items.indices.contains(index) else { return nil }
                let child = ValueBox(items[index])
                openedItems[index] = child
                return child
            }
        }

        func rename(_ from: String, to: String) {
            // A dict renamed key by key (every domain of a large file) is kept at most a third
            // full: a removal hashes again each key in the run of slots behind it, and fuller
            // tables have longer runs.
            if let count = entries?.count, count > 64, entries!.capacity < 3 * count {
                entries?.reserveCapacity(4 * count)
                if !opened.isEmpty { opened.reserveCapacity(4 * count) }
            }
            guard let moved = entries?.removeValue(forKey: from) else { return }
            entries?[to] = moved
            // Nothing opened (the usual dict of renamed keys): nothing to move.
            guard !opened.isEmpty else { return }
            opened[to] = opened.removeValue(forKey: from)
        }

        func set(_ step: PathStep, _ value: PlistValue?) {
            switch step {
            case .key(let key):
                entries?[key] = value
                opened[key] = nil
            case .index(let index):
                guard let value, items?.indices.contains(index) == true else { return }
                closeItems()
                items?[index] = value
            }
        }

        func removeItem(at index: Int) {
            guard items?.indices.contains(index) == true else { return }
            closeItems()
            items?.remove(at: index)
        }

        func insertItem(_ value: PlistValue, at index: Int) {
            guard let count = items?.count, (0...count).contains(index) else { return }
            closeItems()
            items?.insert(value, at: index)
        }

        /// Writes opened item boxes back, so positions can shift.
        private func closeItems() {
            for (index, box) in openedItems { items?[index] = box.value }
            openedItems = [:]
        }

        var value: PlistValue {
            if var entries {
                for (key, box) in opened { entries[key] = box.value }
                return .dict(entries)
            }
            if var items {
                for (index, box) in openedItems { items[index] = box.value }
                return .array(items)
            }
            return original
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
        case .real(let number): .real(number)
        case .date(let text): .date(text)
        case .data(let bytes): .data(bytes)
        case .emptyDict: .dict([:])
        case .emptyArray: .array([])
        case .array(let items): .array(items.map(\.plistValue))
        case .dict(let entries): .dict(Dictionary(entries.map { ($0.key, $0.value.plistValue) }, uniquingKeysWith: { _, last in last }))
        }
    }
}
