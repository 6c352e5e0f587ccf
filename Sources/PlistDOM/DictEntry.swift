/// A key and its value inside a `<dict>`.
public struct DictEntry {
    public let key: PlistElement
    public let value: PlistElement
    /// The decoded key text.
    public var name: String { key.text }
}

/// A dict entry as the node indexes of its key and value: what the document may keep of its own
/// entries (a `DictEntry` holds the document).
struct EntryNodes {
    let key: Int32
    let value: Int32

    init(_ entry: DictEntry) {
        key = entry.key.index
        value = entry.value.index
    }

    func entry(in document: PlistDocument) -> DictEntry {
        DictEntry(key: PlistElement(document, key), value: PlistElement(document, value))
    }
}

extension PlistElement {
    /// Calls `body` with each key and value of a `<dict>` (none for any other element), in
    /// document order: a value belongs to the key just before it.
    func forEachPair(_ body: (_ key: Int32, _ keyNode: Node, _ value: Int32) -> Void) {
        guard node.kind == .dict else { return }
        var pendingKey: Int32 = -1
        var pendingNode: Node?
        let nodes = document.nodes
        var child = nodes[Int(index)].firstChild
        while child >= 0 {
            let childNode = nodes[Int(child)]
            if childNode.kind == .key {
                pendingKey = child
                pendingNode = childNode
            } else if pendingKey >= 0, let keyNode = pendingNode {
                body(pendingKey, keyNode, child)
                pendingKey = -1
            }
            child = childNode.next
        }
    }

    /// Calls `body` with each entry of a `<dict>`, in document order, without listing them.
    public func forEachEntry(_ body: (DictEntry) -> Void) {
        forEachPair { key, _, value in body(DictEntry(key: PlistElement(document, key), value: PlistElement(document, value))) }
    }

    /// The last entry of a `<dict>`, found from its end (as `forEachPair` pairs them: a value
    /// with the key just before it; keys after the last value belong to no entry).
    public var lastEntry: DictEntry? {
        guard node.kind == .dict else { return nil }
        let nodes = document.nodes
        var child = nodes[Int(index)].lastChild
        while child >= 0 {
            if nodes[Int(child)].kind != .key {
                let previous = nodes[Int(child)].previous
                if previous >= 0, nodes[Int(previous)].kind == .key {
                    return DictEntry(key: PlistElement(document, previous), value: PlistElement(document, child))
                }
            }
            child = nodes[Int(child)].previous
        }
        return nil
    }

    /// The entry just before `entry` in this `<dict>` (`nil` when it is the first), found from
    /// the links, without a scan.
    public func entry(before entry: DictEntry) -> DictEntry? {
        let value = document.nodes[Int(entry.key.index)].previous
        return value >= 0 ? self.entry(withValue: PlistElement(document, value)) : nil
    }

    /// The entry of this `<dict>` whose key is `key` (an element of this dict), without a scan.
    public func entry(withKey key: PlistElement) -> DictEntry? {
        let nodes = document.nodes
        guard node.kind == .dict, key.document === document, nodes[Int(key.index)].kind == .key,
            nodes[Int(key.index)].parent == index
        else { return nil }
        let value = nodes[Int(key.index)].next
        guard value >= 0, nodes[Int(value)].kind != .key else { return nil }
        return DictEntry(key: key, value: PlistElement(document, value))
    }

    /// The entry of this `<dict>` whose value is `value` (an element of this dict), without a scan.
    public func entry(withValue value: PlistElement) -> DictEntry? {
        let nodes = document.nodes
        guard node.kind == .dict, value.document === document, nodes[Int(value.index)].parent == index,
            nodes[Int(value.index)].kind != .key
        else { return nil }
        let key = nodes[Int(value.index)].previous
        guard key >= 0, nodes[Int(key)].kind == .key else { return nil }
        return DictEntry(key: PlistElement(document, key), value: value)
    }

    /// The entries of a `<dict>`, in document order (empty for any other element).
    public var entries: [DictEntry] {
        var result: [DictEntry] = []
        // Sized by its keys first: growing the array by appends reallocated it several times.
        var keys = 0
        let nodes = document.nodes
        var child = node.kind == .dict ? nodes[Int(index)].firstChild : -1
        while child >= 0 {
            if nodes[Int(child)].kind == .key { keys += 1 }
            child = nodes[Int(child)].next
        }
        result.reserveCapacity(keys)
        forEachPair { key, _, value in result.append(DictEntry(key: PlistElement(document, key), value: PlistElement(document, value))) }
        return result
    }

    /// The entry of a `<dict>` whose key is `name`. With duplicate keys it is the last one, as
    /// Apple's property-list reader (and Python's plistlib) keep the last value. A scan that
    /// builds no arrays and no strings.
    public func entry(_ name: String) -> DictEntry? {
        var found: DictEntry?
        forEachPair { key, keyNode, value in
            if document.text(of: key, node: keyNode, equals: name) { found = DictEntry(key: PlistElement(document, key), value: PlistElement(document, value)) }
        }
        return found
    }

    /// The entries of a `<dict>` whose key is one of `names`, in document order, each with the
    /// position of its key in `names`: one pass over the dict, where a key's length rules out
    /// most names before any byte is compared.
    public func entries(named names: [String]) -> [(name: Int, entry: DictEntry)] {
        var found: [(name: Int, entry: DictEntry)] = []
        forEachEntry(named: names) { found.append(($0, $1)) }
        return found
    }

    /// `entries(named:)` without the list: `body` gets each entry found, in document order,
    /// with the position of its key in `names`.
    public func forEachEntry(named names: [String], _ body: (_ name: Int, _ entry: DictEntry) -> Void) {
        forEachPair { key, keyNode, value in
            guard let name = document.firstIndex(ofTextOf: key, node: keyNode, in: names) else { return }
            body(name, DictEntry(key: PlistElement(document, key), value: PlistElement(document, value)))
        }
    }

    /// The position in `names` of the first that `text` equals: `hasText` for each in turn,
    /// with a stored text read once.
    public func firstIndex(ofTextIn names: [String]) -> Int? {
        document.firstIndex(ofTextOf: index, node: node, in: names)
    }

    /// The value stored under `name` in a `<dict>`.
    public subscript(key name: String) -> PlistElement? {
        entry(name)?.value
    }

    /// Follows `path` through nested dicts; `nil` when a step is missing or not a dict.
    public func value(at path: [String]) -> PlistElement? {
        var current: PlistElement? = self
        for step in path {
            guard let dict = current, dict.node.kind == .dict else { return nil }
            current = dict[key: step]
        }
        return current
    }

    /// Whether this is `<true/>`.
    public var isTrue: Bool { node.kind == .true }
}
