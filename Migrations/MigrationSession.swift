import PlistDOM

/// The document one migration works on, and what it did to it.
public final class MigrationSession {
    public let document: PlistDocument
    public let migration: any Migration
    /// How many entries were renamed, inserted, removed or changed.
    public var editCount: Int { storedEditCount }
    public var diagnostics: [Diagnostic] { storedDiagnostics }
    /// What a reader of the diff should be told beside it: an entry a rename removed because a
    /// twin with the same value was already there (`removeRedundant`).
    public var notes: [String] { storedNotes }
    /// The value-level meaning of every edit made through this session, in order.
    public var plannedEdits: [PlannedEdit] { storedPlannedEdits }
    /// Where each planned edit happens in the parsed file (same order as `plannedEdits`).
    public var editLocations: [SourceLocation] { storedEditLocations }
    // Read by the engine through getters: other modules read stored properties with the
    // runtime's exclusivity check whatever the attribute says.
    @exclusivity(unchecked) private var storedEditCount = 0
    @exclusivity(unchecked) private var storedDiagnostics: [Diagnostic] = []
    @exclusivity(unchecked) private var storedNotes: [String] = []
    @exclusivity(unchecked) private var storedPlannedEdits: [PlannedEdit] = []
    @exclusivity(unchecked) private var storedEditLocations: [SourceLocation] = []

    /// Called once, before this session's first edit (the engine snapshots the values there).
    @exclusivity(unchecked) public var beforeFirstEdit: (() -> Void)?

    /// Call before every edit; `false` means "probe: do not touch the document".
    private func willEdit() -> Bool {
        storedWouldEdit = true
        guard !probeOnly else { return false }
        beforeFirstEdit?()
        beforeFirstEdit = nil
        return true
    }

    private func record(_ edit: PlannedEdit, at element: PlistElement?) {
        storedPlannedEdits.append(edit)
        storedEditLocations.append(element?.location ?? SourceLocation(line: 1, column: 1))
    }

    /// A probe only asks whether the migration would edit: its helpers change nothing.
    public let probeOnly: Bool
    /// Whether the migration asked for any edit (set in probes as in real runs).
    public var wouldEdit: Bool { storedWouldEdit }
    @exclusivity(unchecked) private var storedWouldEdit = false

    public convenience init(document: PlistDocument, migration: any Migration, probeOnly: Bool = false) {
        self.init(document: document, migration: migration, probeOnly: probeOnly,
                  appTransportSecurity: Self.appTransportSecurity(of: document))
    }

    /// For callers running several sessions on one document: the ATS dict, found once with
    /// `appTransportSecurity(of:)` (edits never replace the dict element itself).
    public init(
        document: PlistDocument, migration: any Migration, probeOnly: Bool = false, appTransportSecurity: PlistElement?,
        beforeFirstEdit: (() -> Void)? = nil
    ) {
        self.document = document
        self.migration = migration
        self.probeOnly = probeOnly
        self.appTransportSecurity = appTransportSecurity
        self.beforeFirstEdit = beforeFirstEdit
    }

    /// The root `NSAppTransportSecurity` dict: the only place migrations may touch.
    public let appTransportSecurity: PlistElement?

    public static func appTransportSecurity(of document: PlistDocument) -> PlistElement? {
        let root = document.rootValue
        guard root.name == "dict", let ats = root[key: ATSKey.appTransportSecurity], ats.name == "dict" else { return nil }
        return ats
    }

    /// The dicts that are values of `parentKey` inside the ATS dict (e.g. each domain of
    /// `NSExceptionDomains`), with their domain entry.
    public func domainDicts(under parentKey: String) -> [DictEntry] {
        guard let domains = appTransportSecurity?[key: parentKey], domains.name == "dict" else { return [] }
        return domains.entries.filter { $0.value.name == "dict" }
    }

    /// Renames the key of `entry`; in a dict whose keys are in Apple's order it moves to its
    /// sorted place (handles to it stay valid).
    public func rename(_ entry: DictEntry, to name: String) {
        guard willEdit() else { return }
        guard let dict = document.parent(of: entry.key) else {
            document.rename(entry.key, to: name)
            storedEditCount += 1
            return
        }
        let oldName = entry.name
        if let path = document.path(of: dict) {
            record(.rename(dict: path, from: oldName, to: name), at: entry.key)
        }
        if keyIndexes[dict] != nil {
            keyIndexes[dict]?[oldName]?.removeAll { $0 == entry.key }
            keyIndexes[dict]?[name, default: []].append(entry.key)
        }
        document.renameFollowingOrder(entry, in: dict, to: name)
        storedEditCount += 1
    }

    public func remove(_ entry: DictEntry, from dict: PlistElement) {
        guard willEdit() else { return }
        let path = document.path(of: dict)
        do {
            try document.remove(entry, from: dict)
            keyIndexes[dict]?[entry.name]?.removeAll { $0 == entry.key }
            if let path { record(.remove(dict: path, key: entry.name), at: entry.key) }
            storedEditCount += 1
        } catch {
            conflict(at: entry.key, "internal: could not remove \(entry.name) (\(error))")
        }
    }

    /// Inserts `key` = `value` into `dict`: at its sorted place when the dict's keys are in
    /// Apple's order (as Xcode saves them), else directly after `entry` (first when `nil`).
    @discardableResult
    public func insert(key: String, value: NewValue, into dict: PlistElement, after entry: DictEntry?) -> DictEntry? {
        insert(key: key, value: value, into: dict, after: entry, followingOrder: true)
    }

    /// Inserts `key` = `value` into `dict` directly after `entry` (first when `nil`), whatever
    /// the dict's order: for a key that takes back the place it had.
    @discardableResult
    public func insert(key: String, value: NewValue, into dict: PlistElement, exactlyAfter entry: DictEntry?) -> DictEntry? {
        insert(key: key, value: value, into: dict, after: entry, followingOrder: false)
    }

    private func insert(key: String, value: NewValue, into dict: PlistElement, after entry: DictEntry?, followingOrder: Bool) -> DictEntry? {
        guard willEdit() else { return nil }
        do {
            let path = document.path(of: dict)
            let inserted = followingOrder
                ? try document.insertFollowingOrder(key: key, value: value, into: dict, otherwise: entry)
                : try document.insert(key: key, value: value, into: dict, after: entry)
            if keyIndexes[dict] != nil { keyIndexes[dict]?[key, default: []].append(inserted.key) }
            if let path { record(.insert(dict: path, key: key, value: value.plistValue), at: entry?.key ?? dict) }
            storedEditCount += 1
            return inserted
        } catch {
            conflict(at: dict, "internal: could not insert \(key) (\(error))")
            return nil
        }
    }

    /// Rewrites a dict's value or an array's item.
    public func replace(_ value: PlistElement, with newValue: NewValue) {
        guard willEdit() else { return }
        if let container = document.parent(of: value), let path = document.path(of: container) {
            if container.kind == .array, let position = container.children.firstIndex(of: value) {
                record(.replaceItem(array: path, index: position, value: newValue.plistValue), at: value)
            } else if let entry = container.entry(withValue: value) {
                record(.replace(dict: path, key: entry.name, value: newValue.plistValue), at: value)
            }
        }
        document.replace(value, with: newValue)
        storedEditCount += 1
    }

    /// Removes an item of an array, with the whitespace before it.
    public func remove(item: PlistElement, from array: PlistElement) {
        guard willEdit() else { return }
        let path = document.path(of: array)
        let position = array.children.firstIndex(of: item)
        do {
            try document.remove(item: item, from: array)
            if let path, let position { record(.removeItem(array: path, index: position), at: item) }
            storedEditCount += 1
        } catch {
            conflict(at: item, "internal: could not remove an item (\(error))")
        }
    }

    /// Inserts an item into an array after `item` (first when `nil`).
    @discardableResult
    public func insert(item value: NewValue, into array: PlistElement, after item: PlistElement?) -> PlistElement? {
        guard willEdit() else { return nil }
        let path = document.path(of: array)
        let position = item.flatMap { array.children.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        do {
            let inserted = try document.insert(item: value, into: array, after: item)
            if let path { record(.insertItem(array: path, index: position, value: value.plistValue), at: item ?? array) }
            storedEditCount += 1
            return inserted
        } catch {
            conflict(at: array, "internal: could not insert an item (\(error))")
            return nil
        }
    }

    /// Removes `entry`, which a rename would make a copy of `twin` (same value), and says so
    /// beside the diff: a pass titled as a rename or correction is seen to delete a key.
    public func removeRedundant(_ entry: DictEntry, twinOf twin: DictEntry, from dict: PlistElement) {
        guard willEdit() else { return }
        let line = { (element: PlistElement) in element.location.map { " (line \($0.line))" } ?? "" }
        storedNotes.append("removes \(entry.name)\(line(entry.key)): a redundant twin of \(twin.name)\(line(twin.key)), "
            + "which has the same value")
        remove(entry, from: dict)
    }

    public func conflict(at element: PlistElement, _ message: String) {
        storedDiagnostics.append(Diagnostic(
            migrationID: migration.id,
            location: element.location ?? SourceLocation(line: 1, column: 1),
            message: message))
    }

    /// Renames `old` to `new` in `dict`. When `new` already exists with an equal value the old
    /// entry is redundant and goes; with a different value both stay and a conflict is reported.
    public func renameOrMerge(_ old: String, to new: String, in dict: PlistElement) {
        let (oldEntries, twins) = entries(named: old, new, in: dict)
        guard let oldEntry = oldEntries.last else { return }
        guard let twin = twins.last else {
            rename(oldEntry, to: new)
            return
        }
        if PlistValue(oldEntry.value) == PlistValue(twin.value) {
            removeRedundant(oldEntry, twinOf: twin, from: dict)
        } else {
            conflict(at: oldEntry.key, "conflict: \(old) = \(Self.describe(oldEntry.value)) "
                + "but \(new) = \(Self.describe(twin.value)) (line \(twin.key.location?.line ?? 0)); "
                + "both left as they are")
        }
    }

    /// The keys of dicts with many entries by name, built on first use and kept up to date by
    /// this session's edits, so a pass over every domain does not scan every domain for each.
    @exclusivity(unchecked) private var keyIndexes: [PlistElement: [String: [PlistElement]]] = [:]

    private func buildKeyIndex(of dict: PlistElement) {
        guard keyIndexes[dict] == nil else { return }
        var index: [String: [PlistElement]] = [:]
        for entry in dict.entries { index[entry.name, default: []].append(entry.key) }
        keyIndexes[dict] = index
    }

    /// Look-ups by name per dict: the first scans, the second builds the dict's index.
    @exclusivity(unchecked) private var lookups: [PlistElement: Int] = [:]
    /// How many times `entries(named:in:)` walked a dict (the tests' measure of linearity).
    @exclusivity(unchecked) private(set) var dictWalks = 0

    /// The entries of `dict` named `name`, in document order. A pass that looks up many names
    /// in one dict (a recipe of 10,000 `set` steps) uses the index, so it stays linear.
    public func entries(named name: String, in dict: PlistElement) -> [DictEntry] {
        if keyIndexes[dict] == nil {
            lookups[dict, default: 0] += 1
            dictWalks += 1
            guard lookups[dict]! > 1 else { return dict.entries(named: [name]).map(\.entry) }
            buildKeyIndex(of: dict)
        }
        let keys = keyIndexes[dict]?[name] ?? []
        // Several (a duplicate key, rare): which comes first is the document's order.
        guard keys.count == 1 else {
            if !keys.isEmpty { dictWalks += 1 }
            return keys.isEmpty ? [] : dict.entries(named: [name]).map(\.entry)
        }
        return dict.entry(withKey: keys[0]).map { [$0] } ?? []
    }

    /// The entries of `dict` named `first` and those named `second`, each in document order: one
    /// look-up (a walk of an unindexed dict finds both), counted once towards the index.
    func entries(named first: String, _ second: String, in dict: PlistElement) -> ([DictEntry], [DictEntry]) {
        if keyIndexes[dict] == nil {
            lookups[dict, default: 0] += 1
            if lookups[dict]! == 1 {
                dictWalks += 1
                let found = dict.entries(named: [first, second])
                return (found.filter { $0.name == 0 }.map(\.entry), found.filter { $0.name == 1 }.map(\.entry))
            }
            buildKeyIndex(of: dict)
        }
        return (entries(named: first, in: dict), entries(named: second, in: dict))
    }

    /// The entry of `dict` named `name` other than the one whose key is `other`: the first in
    /// document order.
    func entryNamed(_ name: String, in dict: PlistElement, other: PlistElement) -> DictEntry? {
        buildKeyIndex(of: dict)
        let candidates = keyIndexes[dict]?[name]?.filter { $0 != other } ?? []
        guard !candidates.isEmpty else { return nil }
        // Several twins (rare): which comes first is the document's order.
        return dict.entries.first { $0.name == name && $0.key != other }
    }

    /// Renames a domain key of `domains` (NSExceptionDomains or NSPinnedDomains). If `name`
    /// already exists: when its value equals this entry's (as `intended`, the value this entry
    /// would have once fixed) the entry is redundant and goes; otherwise both stay and a
    /// conflict is reported. Returns whether the entry was renamed.
    @discardableResult
    public func renameDomainKey(
        _ entry: DictEntry, to name: String, in domains: PlistElement, intended: @autoclosure () -> PlistValue? = nil
    ) -> Bool {
        guard let existing = entryNamed(name, in: domains, other: entry.key) else {
            rename(entry, to: name)
            return true
        }
        if (intended() ?? PlistValue(entry.value)) == PlistValue(existing.value) {
            removeRedundant(entry, twinOf: existing, from: domains)
        } else {
            conflict(at: entry.key,
                "conflict: \"\(entry.name)\" becomes \"\(name)\", which already exists with different settings "
                + "(line \(existing.key.location?.line ?? 0)); both left as they are")
        }
        return false
    }

    /// The NSExceptionDomains and NSPinnedDomains dicts that exist, whose keys are domain names.
    public var domainKeyDicts: [PlistElement] {
        guard let ats = appTransportSecurity else { return [] }
        return [ATSKey.exceptionDomains, ATSKey.pinnedDomains].compactMap { ats[key: $0] }.filter { $0.name == "dict" }
    }

    /// Renames deprecated aliases to their documented keys in every NSExceptionDomains entry,
    /// with `renameOrMerge`'s twin rules.
    public func renameAliasesInExceptionDomains(_ renames: [(old: String, new: String)]) {
        // One scan of the keys first: most domains hold none of the aliases, the others one or
        // two. Renaming one alias never makes another, so only those found are looked for again.
        let aliases = renames.map(\.old)
        for domain in domainDicts(under: ATSKey.exceptionDomains) {
            let found = domain.value.entries(named: aliases)
            guard !found.isEmpty else { continue }
            for (index, (old, new)) in renames.enumerated() where found.contains(where: { $0.name == index }) {
                renameOrMerge(old, to: new, in: domain.value)
            }
        }
    }

    /// The dicts of one level of the ATS tree: the ATS dict itself, or each domain's dict.
    public func dicts(at level: ATSKeyCatalog.Level) -> [PlistElement] {
        switch level {
        case .global: appTransportSecurity.map { [$0] } ?? []
        case .exceptionDomain: domainDicts(under: ATSKey.exceptionDomains).map(\.value)
        case .pinnedDomain: domainDicts(under: ATSKey.pinnedDomains).map(\.value)
        }
    }

    /// A short rendering of a value for messages: `<true/>`, `"TLSv1.2"`, `dict (2 entries)`.
    public static func describe(_ element: PlistElement) -> String {
        switch element.name {
        case "true", "false": "<\(element.name)/>"
        case "dict": "dict (\(element.entries.count) entries)"
        case "array": "array (\(element.children.count) items)"
        default: "\"\(element.text)\""
        }
    }
}
