/// One step from a container to a value inside it: a dict's key or an array's position.
public enum PathStep: Hashable, Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var key: String? {
        if case .key(let name) = self { name } else { nil }
    }

    public var description: String {
        switch self {
        case .key(let name): name
        case .index(let position): String(position)
        }
    }
}

extension [PathStep] {
    /// `NSAppTransportSecurity:NSExceptionDomains:example.com`, PlistBuddy's spelling (`:` for the
    /// root value, `\:` for a colon in a key).
    public var spelled: String {
        isEmpty ? ":" : map { $0.description.split(separator: ":", omittingEmptySubsequences: false).joined(separator: "\\:") }.joined(separator: ":")
    }
}

extension PlistDocument {
    /// The steps from the root value to `element` (`[]` for the root value itself); `nil` when
    /// it is not in the document. Array positions count the array's current items.
    public func path(of element: PlistElement) -> [PathStep]? {
        let target = rootValue.index
        var path: [PathStep] = []
        // One allocation of the path's length (counted first), reversed in place at the end.
        var depth = 0, up = element.index
        while up != target, up >= 0 {
            depth += 1
            up = nodes[Int(up)].parent
        }
        path.reserveCapacity(depth)
        var current = element.index
        while current != target {
            let node = nodes[Int(current)]
            guard node.parent >= 0, node.kind != .key else { return nil }
            switch nodes[Int(node.parent)].kind {
            case .dict:
                guard node.previous >= 0, nodes[Int(node.previous)].kind == .key else { return nil }
                // The keys above the element are those of every path asked for in its dict (a
                // pass editing each of 10,000 domains): read from the source once.
                path.append(.key(path.isEmpty ? text(of: node.previous) : keptText(of: node.previous)))
            case .array:
                var position = 0
                var sibling = node.previous
                while sibling >= 0 {
                    position += 1
                    sibling = nodes[Int(sibling)].previous
                }
                path.append(.index(position))
            default:
                return nil
            }
            current = node.parent
        }
        guard isAttached(current) else { return nil }
        path.reverse()
        return path
    }

    /// The value at `path` from the root value; `nil` when a step is missing.
    public func element(at path: [PathStep]) -> PlistElement? {
        element(at: path) { dict, name in dict[key: name] }
    }

    /// `element(at:)` for each of `paths`, in order. A dict that several of them go through is
    /// read once into a table of its keys, so that many paths through a dict of many entries
    /// (the edits in 800 of 20,000 domains) cost its size once rather than once each; each
    /// element found is the one `element(at:)` finds.
    public func elements(at paths: [[PathStep]]) -> [PlistElement?] {
        // A few paths (the usual write check) cost less walked one by one than tables cost.
        guard paths.count > 8 else { return paths.map { element(at: $0) } }
        var visits: [Int32: Int] = [:]
        var tables: [Int32: KeyTable] = [:]
        func child(of dict: PlistElement, named name: String) -> PlistElement? {
            if tables[dict.index] == nil {
                visits[dict.index, default: 0] += 1
                guard visits[dict.index]! > 1, dict.kind == .dict else { return dict[key: name] }
                tables[dict.index] = KeyTable(dict, in: self)
            }
            // The key the table holds for the name's hash is the last key of those bytes, which
            // is what `entry(_:)` finds, unless it is another key (hashes can collide): then
            // the dict is scanned as it scans it. A non-ASCII name may equal a decoded key of
            // other bytes as a string: it scans too.
            guard let table = tables[dict.index], !table.decodedNonASCII, name.utf8.isASCII else {
                return dict[key: name]
            }
            var name = name
            guard let found = table.byHash[name.withUTF8 { KeyTable.hash(UnsafeRawBufferPointer($0)) }] else { return nil }
            if text(of: found.key, node: found.keyNode, equals: name) { return PlistElement(self, found.value) }
            return dict[key: name]
        }
        return paths.map { element(at: $0, child: child) }
    }

    /// A dict's entries by the hash of their keys' UTF-8 bytes, the last key of each hash kept.
    /// `entry(_:)` compares a key read in place by its bytes and a key whose text was decoded
    /// or edited as a string, which for ASCII text is the same; a dict with a decoded
    /// non-ASCII key (another spelling may be equal to it as a string) is always scanned.
    private struct KeyTable {
        var byHash: [Int: (key: Int32, keyNode: Node, value: Int32)] = [:]
        var decodedNonASCII = false

        init(_ dict: PlistElement, in document: PlistDocument) {
            var count = 0
            dict.forEachPair { _, _, _ in count += 1 }
            byHash.reserveCapacity(count)
            document.source.withUnsafeBytes { source in
                dict.forEachPair { key, keyNode, value in
                    let hash: Int
                    if keyNode.hasPlainText {
                        hash = Self.hash(UnsafeRawBufferPointer(rebasing: source[Int(keyNode.startTagEnd)..<Int(keyNode.endTagStart)]))
                    } else {
                        let text = Array(document.text(of: key).utf8)
                        if !text.isASCII { decodedNonASCII = true }
                        hash = text.withUnsafeBytes(Self.hash)
                    }
                    byHash[hash] = (key, keyNode, value)
                }
            }
        }

        static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
            var hasher = Hasher()
            hasher.combine(bytes: bytes)
            return hasher.finalize()
        }
    }

    private func element(at path: [PathStep], child: (PlistElement, String) -> PlistElement?) -> PlistElement? {
        var current = rootValue
        for step in path {
            switch step {
            case .key(let name):
                guard let next = child(current, name) else { return nil }
                current = next
            case .index(let position):
                guard current.kind == .array, position >= 0,
                    let next = current.childElements.dropFirst(position).first(where: { _ in true })
                else { return nil }
                current = next
            }
        }
        return current
    }
}
