/// A key and its value inside a `<dict>`.
public struct DictEntry {
    public let key: PlistElement
    public let value: PlistElement
    /// The decoded key text.
    public var name: String { key.text }
}

extension PlistElement {
    /// The entries of a `<dict>`, in document order (empty for any other element).
    public var entries: [DictEntry] {
        guard node.kind == .dict else { return [] }
        var result: [DictEntry] = []
        var pendingKey: Int32 = -1
        var child = node.firstChild
        while child >= 0 {
            let childNode = document.nodes[Int(child)]
            if childNode.kind == .key {
                pendingKey = child
            } else if pendingKey >= 0 {
                result.append(DictEntry(key: PlistElement(document, pendingKey), value: PlistElement(document, child)))
                pendingKey = -1
            }
            child = childNode.next
        }
        return result
    }

    /// The entry of a `<dict>` whose key is `name`. With duplicate keys it is the last one, as
    /// Apple's property-list reader (and Python's plistlib) keep the last value. A scan that
    /// builds no arrays and no strings.
    public func entry(_ name: String) -> DictEntry? {
        guard node.kind == .dict else { return nil }
        var found: DictEntry?
        var matchingKey: Int32 = -1
        var afterKey = false
        var child = node.firstChild
        while child >= 0 {
            let childNode = document.nodes[Int(child)]
            if childNode.kind == .key {
                afterKey = true
                matchingKey = document.text(of: child, equals: name) ? child : -1
            } else if afterKey {
                if matchingKey >= 0 { found = DictEntry(key: PlistElement(document, matchingKey), value: PlistElement(document, child)) }
                afterKey = false
            }
            child = childNode.next
        }
        return found
    }

    /// The entries of a `<dict>` whose key is one of `names`, in document order, each with the
    /// position of its key in `names`: one pass over the dict, where a key's length rules out
    /// most names before any byte is compared.
    public func entries(named names: [String]) -> [(name: Int, entry: DictEntry)] {
        guard node.kind == .dict else { return [] }
        let lengths = names.map(\.utf8.count)
        var found: [(name: Int, entry: DictEntry)] = []
        var matching = -1
        var pendingKey: Int32 = -1
        var child = node.firstChild
        while child >= 0 {
            let childNode = document.nodes[Int(child)]
            if childNode.kind == .key {
                pendingKey = child
                let plain = !childNode.hasStoredText && childNode.hasSource && !childNode.hadChildElements
                let length = Int(childNode.endTagStart - childNode.startTagEnd)
                matching = names.indices.first { index in
                    (!plain || lengths[index] == length) && document.text(of: child, equals: names[index])
                } ?? -1
            } else if pendingKey >= 0 {
                if matching >= 0 {
                    found.append((matching, DictEntry(key: PlistElement(document, pendingKey), value: PlistElement(document, child))))
                }
                pendingKey = -1
            }
            child = childNode.next
        }
        return found
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
