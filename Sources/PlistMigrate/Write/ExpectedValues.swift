import Migrations
import PlistDOM

/// The values the write check expects the output to hold: the original document with the
/// planned edits applied, opened no further than the edits reach.
///
/// `PlannedEdit.apply` works on decoded values, which means decoding every value the edited
/// containers hold, before and after: in a file of 10,000 domains whose keys a pass renamed,
/// that is the whole file twice. Here a container an edit reaches is opened one level at a time,
/// and every value no edit reaches stays the original's element. Such an element is compared
/// with the output's by its bytes first (the same bytes decode to the same value) and decoded
/// only when those differ. Edits mean what `PlannedEdit.apply` makes them mean, step by step.
final class ExpectedValues {
    /// One value of the expected tree.
    enum Slot {
        /// The original's element, which no edit reached.
        case original(PlistElement)
        /// A value an edit wrote.
        case written(PlistValue)
        /// A container an edit reached, opened.
        case opened(Container)
    }

    /// A dict or array an edit reached: its entries or items, each a slot. Any other value
    /// (an edit naming a string as its container) opens to itself, and no edit changes it.
    final class Container {
        @exclusivity(unchecked) var entries: Entries?
        @exclusivity(unchecked) var items: [Slot]?
        let unopened: Slot

        init(_ slot: Slot) {
            unopened = slot
            switch slot {
            case .original(let element):
                switch element.kind {
                case .dict?, nil:
                    // A later duplicate key replaces an earlier one, as decoding does.
                    let found = element.entries
                    var entries = Entries(capacity: found.count)
                    for entry in found { entries[entry.name] = .original(entry.value) }
                    self.entries = entries
                case .array?:
                    items = element.childElements.map { .original($0) }
                default:
                    break
                }
            case .written(.dict(let values)):
                var entries = Entries(capacity: values.count)
                for (key, value) in values { entries[key] = .written(value) }
                self.entries = entries
            case .written(.array(let values)):
                items = values.map { .written($0) }
            case .written, .opened:
                break
            }
        }

        /// The container at `step`, opened the first time it is asked for.
        func child(_ step: PathStep) -> Container? {
            switch step {
            case .key(let key):
                guard let slot = entries?[key] else { return nil }
                if case .opened(let container) = slot { return container }
                let container = Container(slot)
                entries?[key] = .opened(container)
                return container
            case .index(let index):
                guard let items, items.indices.contains(index) else { return nil }
                if case .opened(let container) = items[index] { return container }
                let container = Container(items[index])
                self.items?[index] = .opened(container)
                return container
            }
        }

        func apply(_ edit: PlannedEdit) {
            switch edit {
            case .rename(_, let from, let to):
                // A dict renamed key by key (every domain of a large file) is kept at most a
                // third full: a removal hashes again each key in the run of slots behind it.
                entries?.reserveForRenames()
                // Only an entry that is there moves, over any entry of the new name.
                guard let moved = entries?.removeValue(forKey: from) else { return }
                entries?[to] = moved
            case .remove(_, let key):
                entries?[key] = nil
            case .insert(_, let key, let value), .replace(_, let key, let value):
                entries?[key] = .written(value)
            case .removeItem(_, let index):
                guard items?.indices.contains(index) == true else { return }
                items?.remove(at: index)
            case .insertItem(_, let index, let value):
                guard let count = items?.count, (0...count).contains(index) else { return }
                items?.insert(.written(value), at: index)
            case .replaceItem(_, let index, let value):
                guard items?.indices.contains(index) == true else { return }
                items?[index] = .written(value)
            }
        }

        /// Up to this many entries a dict is kept, and compared, without a table of its keys.
        static let fewEntries = 8

        /// Whether `element` holds the value this container stands for.
        func isHeld(by element: PlistElement) -> Bool {
            if let entries {
                guard element.kind == .dict || element.kind == nil else { return false }
                let present = element.entries
                if present.count <= Self.fewEntries {
                    // A few entries (a domain's settings) are matched by a scan, without a table
                    // of them: each name counts at its last entry, as decoding keeps it.
                    let names = present.map(\.name)
                    var distinct = 0
                    for (position, name) in names.enumerated() where !names[(position + 1)...].contains(name) {
                        distinct += 1
                        guard let slot = entries[name], ExpectedValues.isHeld(slot, by: present[position].value) else { return false }
                    }
                    return distinct == entries.count
                }
                var found: [String: PlistElement] = [:]
                found.reserveCapacity(present.count)
                for entry in present { found[entry.name] = entry.value }
                guard found.count == entries.count else { return false }
                return entries.allSatisfy { key, slot in found[key].map { ExpectedValues.isHeld(slot, by: $0) } ?? false }
            }
            if let items {
                guard element.kind == .array else { return false }
                var index = 0
                for child in element.childElements {
                    guard index < items.count, ExpectedValues.isHeld(items[index], by: child) else { return false }
                    index += 1
                }
                return index == items.count
            }
            return ExpectedValues.isHeld(unopened, by: element)
        }
    }

    private let root: Container

    /// The original's value `element`, which lies `depth` steps down every edit's path (the
    /// value holding every edited container), with `edits` applied in order.
    init(_ element: PlistElement, depth: Int, applying edits: [PlannedEdit]) {
        root = Container(.original(element))
        // Edits come in runs on one container, and runs of runs in the containers of one dict
        // (each domain of the ATS dict): the last container and its parent are kept.
        var last: (path: ArraySlice<PathStep>, container: Container?)?
        var lastParent: (path: ArraySlice<PathStep>, container: Container?)?
        for edit in edits {
            let path = edit.container.dropFirst(depth)
            let container: Container?
            if let last, last.path == path {
                container = last.container
            } else {
                let parentPath = path.dropLast()
                let parent: Container?
                if let lastParent, lastParent.path == parentPath {
                    parent = lastParent.container
                } else {
                    parent = root.container(at: parentPath)
                    lastParent = (parentPath, parent)
                }
                container = path.last.map { parent?.child($0) } ?? root
                last = (path, container)
            }
            container?.apply(edit)
            // An edit of the root's entries can replace a container kept as a parent.
            if path.isEmpty { lastParent = nil }
        }
    }

    /// Whether `element`, the output's value at the place of the original's, holds the value
    /// expected there.
    func isHeld(by element: PlistElement) -> Bool {
        root.isHeld(by: element)
    }

    static func isHeld(_ slot: Slot, by element: PlistElement) -> Bool {
        switch slot {
        case .original(let original): original.hasSameSourceBytes(as: element) || PlistValue(original) == PlistValue(element)
        case .written(let value): value == PlistValue(element)
        case .opened(let container): container.isHeld(by: element)
        }
    }
}

extension ExpectedValues.Container {
    func container(at path: ArraySlice<PathStep>) -> ExpectedValues.Container? {
        var current: ExpectedValues.Container? = self
        for step in path { current = current?.child(step) }
        return current
    }
}

extension ExpectedValues {
    /// A dict's slots by key. A few (a domain's settings) are kept in a list searched in turn,
    /// which costs less than hashing each key into a table; more go into a table.
    struct Entries {
        private var few: [(key: String, slot: Slot)] = []
        private var many: [String: Slot]?

        init(capacity: Int) {
            if capacity > Container.fewEntries { many = Dictionary(minimumCapacity: capacity) } else { few.reserveCapacity(capacity) }
        }

        var count: Int { many?.count ?? few.count }

        /// A key's slot; setting `nil` removes the key, setting a slot replaces any it had.
        subscript(key: String) -> Slot? {
            get {
                if let many { return many[key] }
                return few.first { $0.key == key }?.slot
            }
            set {
                if many != nil { many![key] = newValue; return }
                let place = few.firstIndex { $0.key == key }
                switch (place, newValue) {
                case (let place?, let slot?): few[place].slot = slot
                case (let place?, nil): few.remove(at: place)
                case (nil, let slot?):
                    if few.count < Container.fewEntries {
                        few.append((key, slot))
                    } else {
                        many = Dictionary(uniqueKeysWithValues: few.map { ($0.key, $0.slot) })
                        few = []
                        many![key] = slot
                    }
                case (nil, nil): break
                }
            }
        }

        mutating func removeValue(forKey key: String) -> Slot? {
            if many != nil { return many!.removeValue(forKey: key) }
            guard let place = few.firstIndex(where: { $0.key == key }) else { return nil }
            return few.remove(at: place).slot
        }

        /// Before a rename: a table renamed key by key (every domain of a large file) is kept at
        /// most a third full, since a removal hashes again each key in the run of slots behind it.
        mutating func reserveForRenames() {
            if let count = many?.count, count > 64, many!.capacity < 3 * count { many!.reserveCapacity(4 * count) }
        }

        func allSatisfy(_ holds: (String, Slot) -> Bool) -> Bool {
            if let many { return many.allSatisfy { holds($0.key, $0.value) } }
            return few.allSatisfy { holds($0.key, $0.slot) }
        }
    }
}
