import PlistDOM

/// One edit of a recipe pass, at every place its path matches.
public struct RecipeStep: Hashable, Sendable {
    public enum When: String, Hashable, Sendable, CaseIterable {
        case always, ifAbsent, ifPresent
    }

    public enum Action: Hashable, Sendable {
        /// Renames the key; an identical twin is removed, a different one is a conflict.
        case rename(to: String)
        /// Sets the value: where the key is absent (`ifAbsent`), present (`ifPresent`) or both.
        case set(NewValue, when: When)
        /// Removes the entry or item (only where it equals the value, when one is given).
        case remove(equals: NewValue?)
        /// Replaces a value equal to `equals`.
        case replace(equals: NewValue, with: NewValue)
        /// Moves the entry into the dict at the path, at its end; an identical twin there makes
        /// the moved entry redundant, a different one is a conflict.
        case move(to: RecipePath)
    }

    public var path: RecipePath
    public var action: Action

    public init(path: RecipePath, action: Action) {
        self.path = path
        self.action = action
    }

    func apply(to session: MigrationSession) {
        guard let last = path.components.last else { return }
        let containers = RecipePath.values(at: path.components.dropLast()[...], from: session.document.rootValue)
        for container in containers {
            switch container.kind {
            case .dict?: apply(last, inDict: container, session)
            case .array?: apply(last, inArray: container, session)
            default: continue
            }
        }
    }

    private func apply(_ last: RecipePath.Component, inDict dict: PlistElement, _ session: MigrationSession) {
        switch last {
        case .key(let key):
            let matching = session.entries(named: key, in: dict)
            if matching.count > 1 {
                session.conflict(at: matching[1].key, "duplicate key \"\(key)\" (first at line \(matching[0].key.location?.line ?? 0)); "
                    + "a plist reader keeps the last one; resolve it by hand, the dict is left as it is")
                return
            }
            guard let entry = matching.first else {
                if case .set(let value, let when) = action, when != .ifPresent {
                    session.insert(key: key, value: value, into: dict, after: dict.lastEntry)
                }
                return
            }
            apply(toEntry: entry, in: dict, session)
        case .anyKey:
            for entry in dict.entries { apply(toEntry: entry, in: dict, session) }
        case .everyItem:
            return
        }
    }

    private func apply(toEntry entry: DictEntry, in dict: PlistElement, _ session: MigrationSession) {
        switch action {
        case .rename(let newName):
            guard newName != entry.name else { return }
            session.renameOrMerge(entry.name, to: newName, in: dict)
        case .move(let destination):
            move(entry, from: dict, to: destination, session)
        case .remove(let equals):
            if let equals, PlistValue(entry.value) != equals.plistValue { return }
            session.remove(entry, from: dict)
        case .set, .replace:
            if let value = replacement(for: entry.value) { session.replace(entry.value, with: value) }
        }
    }

    private func apply(_ last: RecipePath.Component, inArray array: PlistElement, _ session: MigrationSession) {
        let items: [PlistElement]
        switch last {
        case .key(let text):
            guard let position = Int(text), position >= 0, let item = array.children.dropFirst(position).first else { return }
            items = [item]
        case .everyItem: items = array.children
        case .anyKey: return
        }
        for item in items {
            switch action {
            case .remove(let equals):
                if let equals, PlistValue(item) != equals.plistValue { continue }
                session.remove(item: item, from: array)
            case .set, .replace:
                if let value = replacement(for: item) { session.replace(item, with: value) }
            case .rename, .move:
                continue
            }
        }
    }

    /// The new value of a `set` or `replace` for an existing `value`; `nil` when it stays.
    private func replacement(for value: PlistElement) -> NewValue? {
        switch action {
        case .set(let new, let when):
            guard when != .ifAbsent, PlistValue(value) != new.plistValue else { return nil }
            return new
        case .replace(let equals, let new):
            let current = PlistValue(value)
            guard current == equals.plistValue, current != new.plistValue else { return nil }
            return new
        default:
            return nil
        }
    }

    private func move(_ entry: DictEntry, from dict: PlistElement, to destination: RecipePath, _ session: MigrationSession) {
        guard let target = RecipePath.values(at: destination.components[...], from: session.document.rootValue).first,
            target.kind == .dict
        else {
            session.conflict(at: entry.key, "cannot move \"\(entry.name)\": \(destination.components.isEmpty ? ":" : destination.description) "
                + "is not a dict in this file; left as it is")
            return
        }
        guard target != dict else { return }
        if let inside = session.document.path(of: target), let moved = session.document.path(of: entry.value),
            inside.starts(with: moved)
        {
            session.conflict(at: entry.key, "cannot move \"\(entry.name)\" into itself (\(destination)); left as it is")
            return
        }
        if let twin = target.entry(entry.name) {
            if PlistValue(twin.value) == PlistValue(entry.value) {
                session.remove(entry, from: dict)
            } else {
                session.conflict(at: entry.key, "conflict: \"\(entry.name)\" moves to \(destination), which already holds it "
                    + "with a different value (line \(twin.key.location?.line ?? 0)); both left as they are")
            }
            return
        }
        let value = NewValue(entry.value)
        session.remove(entry, from: dict)
        session.insert(key: entry.name, value: value, into: target, after: target.lastEntry)
    }
}
