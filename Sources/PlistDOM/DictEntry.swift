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
        guard name == "dict" else { return [] }
        var result: [DictEntry] = []
        var pendingKey: PlistElement?
        for child in childElements {
            if child.name == "key" {
                pendingKey = child
            } else if let key = pendingKey {
                result.append(DictEntry(key: key, value: child))
                pendingKey = nil
            }
        }
        return result
    }

    /// The entry of a `<dict>` whose key is `name`. With duplicate keys it is the last one, as
    /// Apple's property-list reader (and Python's plistlib) keep the last value. A scan that
    /// builds no arrays.
    public func entry(_ name: String) -> DictEntry? {
        guard self.name == "dict" else { return nil }
        var found: DictEntry?
        var matchingKey: PlistElement?
        var afterKey = false
        for piece in pieces {
            guard case .element(let child) = piece else { continue }
            if child.name == "key" {
                afterKey = true
                matchingKey = child.text == name ? child : nil
            } else if afterKey {
                if let key = matchingKey { found = DictEntry(key: key, value: child) }
                afterKey = false
            }
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
            guard let dict = current, dict.name == "dict" else { return nil }
            current = dict[key: step]
        }
        return current
    }

    /// Whether this is `<true/>`.
    public var isTrue: Bool { name == "true" }
}
