/// Where a new or renamed key goes, so that a file stays as its owners and Xcode write it.
///
/// Xcode saves an Info.plist through Apple's serializer, which writes every dict's keys sorted
/// (CFPropertyList's XML writer sorts them with `CFStringCompare` and no options: a literal
/// comparison of UTF-16 code units). So in a dict whose keys are already in that order, a new
/// key goes to its sorted place and a renamed key moves to its sorted place: the next save in
/// Xcode changes nothing. In any other dict the caller's place stands (appending, renaming in
/// place): guessing an order from neighbours in an unsorted dict matched people's own edits
/// less often than appending did (issue #50's replay of real history).
extension PlistDocument {
    /// Apple's order of dict keys: UTF-16 code units compared one by one.
    public static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    /// Whether new keys of `dict` follow Apple's order: its keys are in that order (equal
    /// neighbours allowed), or, with fewer than two keys to show an order, every dict of the
    /// file with two keys or more is in order. `excluding` leaves one key out (the one being
    /// renamed). Stops at the first key out of order; a dict found sorted is remembered until
    /// an edit other than these placements changes its keys.
    public func keysAreSorted(_ dict: PlistElement, excluding: PlistElement? = nil) -> Bool {
        if sortedDicts.contains(dict.index) { return true }
        let keys = keyIndices(of: dict.index, excluding: excluding?.index, stoppingAtDisorder: true)
        guard let keys else { return false }
        let sorted = keys.count >= 2 || style.keysSortedThroughout
        if sorted, excluding == nil { sortedDicts.insert(dict.index) }
        return sorted
    }

    /// The keys of a dict's entries in order; `nil` (when asked to stop) at the first key that
    /// sorts before the one ahead of it.
    private func keyIndices(of dict: Int32, excluding: Int32?, stoppingAtDisorder: Bool) -> [Int32]? {
        var keys: [Int32] = []
        var previous: String?
        var child = nodes[Int(dict)].firstChild
        while child >= 0 {
            let next = nodes[Int(child)].next
            if nodes[Int(child)].kind == .key, child != excluding, next >= 0, nodes[Int(next)].kind != .key {
                if stoppingAtDisorder {
                    let name = text(of: child)
                    if let previous, Self.keyPrecedes(name, previous) { return nil }
                    previous = name
                }
                keys.append(child)
            }
            child = next
        }
        return keys
    }

    /// The entry a key named `name` follows in a dict whose keys are sorted: the last one not
    /// after it (found by halving). `nil` when it goes first.
    public func sortedAnchor(for name: String, in dict: PlistElement, excluding: PlistElement? = nil) -> DictEntry? {
        // Most often it goes last (keys renamed or added in order): no walk then.
        if let last = dict.lastEntry, last.key != excluding, !Self.keyPrecedes(name, last.name) { return last }
        let keys = keyIndices(of: dict.index, excluding: excluding?.index, stoppingAtDisorder: false) ?? []
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if Self.keyPrecedes(name, text(of: keys[middle])) { high = middle } else { low = middle + 1 }
        }
        guard low > 0 else { return nil }
        return dict.entry(withKey: PlistElement(self, keys[low - 1]))
    }

    /// Inserts `key` = `value` into `dict`: at its sorted place when the dict's keys are sorted,
    /// else directly after `otherwise` (first when `nil`).
    @discardableResult
    public func insertFollowingOrder(
        key: String, value: NewValue, into dict: PlistElement, otherwise anchor: DictEntry?
    ) throws(EditError) -> DictEntry {
        guard nodes[Int(dict.index)].kind == .dict else { throw .notADict }
        let sorted = keysAreSorted(dict)
        let inserted = try insert(key: key, value: value, into: dict, after: sorted ? sortedAnchor(for: key, in: dict) : anchor)
        if sorted { sortedDicts.insert(dict.index) }
        return inserted
    }

    /// Renames the key of `entry` in `dict`; when the dict's keys are sorted (its old name
    /// included: a dict that an out-of-place alias leaves unsorted is not one Xcode wrote), the
    /// entry moves to its sorted place with its bytes as they are. Every handle to the entry and
    /// to what it holds stays valid. Returns whether it moved.
    @discardableResult
    public func renameFollowingOrder(_ entry: DictEntry, in dict: PlistElement, to name: String) -> Bool {
        let sorted = keysAreSorted(dict)
        rename(entry.key, to: name)
        guard sorted, dict.entry(withKey: entry.key) != nil else { return false }
        let anchor = sortedAnchor(for: name, in: dict, excluding: entry.key)
        let previousValue = nodes[Int(entry.key.index)].previous
        let previousKey = previousValue >= 0 ? nodes[Int(previousValue)].previous : -1
        let inPlace = anchor.map { $0.value.index == previousValue && $0.key.index == previousKey }
            ?? (previousValue < 0)
        guard !inPlace else {
            sortedDicts.insert(dict.index)
            return false
        }
        // When it cannot move (its bytes did not read back alone) the dict may be unsorted now.
        guard move(entry, in: dict, after: anchor) else { return false }
        sortedDicts.insert(dict.index)
        return true
    }

    /// Moves `entry` of `dict` to directly after `anchor` (first when `nil`). Its bytes as they
    /// print now go with it: its nodes become fragments holding those bytes, so its handles,
    /// and handles inside a moved dict, stay valid for later edits. Returns whether it moved
    /// (it stays when its bytes cannot be read back, which a valid document never gives).
    @discardableResult
    func move(_ entry: DictEntry, in dict: PlistElement, after anchor: DictEntry?) -> Bool {
        let key = entry.key.index, value = entry.value.index
        guard nodes[Int(key)].parent == dict.index, nodes[Int(value)].parent == dict.index,
            nodes[Int(key)].next == value, anchor?.key != entry.key,
            let gapBytes = gap(between: key, and: value)
        else { return false }
        // The entry read back alone, as a one-entry dict: its nodes take their bytes from it.
        let printed = printedBytes(of: key) + gapBytes + printedBytes(of: value)
        let wrapped = Array("<plist><dict>".utf8) + printed + Array("</dict></plist>".utf8)
        guard let alone = try? PlistDocument(parsing: wrapped), let read = alone.rootValue.entries.first,
            alone.rootValue.entries.count == 1, matches(read.key.index, in: alone, key),
            matches(read.value.index, in: alone, value)
        else { return false }
        noteEdit()
        // Where it was: its bytes and the whitespace leading up to it go.
        if nodes[Int(key)].hasSource {
            // Splices inside the entry (its rename) lie inside the removal: they print no more.
            let lower = removalStart(before: key)
            _ = addSplice(Splice(lower: lower, upper: Int(nodes[Int(value)].end), role: .replacement, items: []))
        } else if let home = homes[key] {
            removeItems(from: key, through: value, in: home)
        }
        unlink(key)
        unlink(value)
        adopt(read.key.index, of: alone, into: key)
        adopt(read.value.index, of: alone, into: value)
        // Where it goes: laid out like the entry it follows (or the first entry it precedes).
        let gapItem: [Item] = gapBytes.isEmpty ? [] : [.bytes(Array(gapBytes))]
        if let anchor {
            place([.bytes(linePrefix(before: anchor.key.index)), .node(key)] + gapItem + [.node(value)],
                  nodes: [key, value], into: dict.index, after: anchor.value.index)
        } else if let first = dict.entries.first {
            place([.node(key)] + gapItem + [.node(value), .bytes(linePrefix(before: first.key.index))],
                  nodes: [key, value], into: dict.index, before: first.key.index)
        }
        return true
    }

    /// Whether the element `index` of `other` has the shape of this document's `mine`: the same
    /// kind and, all the way down, as many children.
    private func matches(_ index: Int32, in other: PlistDocument, _ mine: Int32) -> Bool {
        guard other.nodes[Int(index)].kind == nodes[Int(mine)].kind else { return false }
        var theirs = other.nodes[Int(index)].firstChild, ours = nodes[Int(mine)].firstChild
        while theirs >= 0, ours >= 0 {
            guard matches(theirs, in: other, ours) else { return false }
            theirs = other.nodes[Int(theirs)].next
            ours = nodes[Int(ours)].next
        }
        return theirs < 0 && ours < 0
    }

    /// Makes this document's element `mine` (and its children, in order) print the bytes of
    /// `other`'s element `index`: a fragment each, with the indentation and line it had.
    private func adopt(_ index: Int32, of other: PlistDocument, into mine: Int32) {
        let theirs = other.nodes[Int(index)]
        let source = other.source
        if indentHints[mine] == nil { indentHints[mine] = indentation(ofNode: mine) }
        if nodes[Int(mine)].hasSource { movedFrom[mine] = nodes[Int(mine)].start }
        // Its splices lie inside the bytes that went: it is printed from its fragment now.
        replacementSplice[mine] = nil
        afterValueSplice[mine] = nil
        beforeKeySplice[mine] = nil
        let selfClosing = theirs.wasSelfClosingInSource
        var content: [Item] = []
        if !selfClosing {
            var cursor = Int(theirs.startTagEnd)
            var child = theirs.firstChild, own = nodes[Int(mine)].firstChild
            while child >= 0, own >= 0 {
                let start = Int(other.nodes[Int(child)].start)
                if start > cursor { content.append(.bytes(Array(source[cursor..<start]))) }
                content.append(.node(own))
                adopt(child, of: other, into: own)
                homes[own] = .fragment(mine)
                cursor = Int(other.nodes[Int(child)].end)
                child = other.nodes[Int(child)].next
                own = nodes[Int(own)].next
            }
            if Int(theirs.endTagStart) > cursor { content.append(.bytes(Array(source[cursor..<Int(theirs.endTagStart)]))) }
        }
        fragments[mine] = selfClosing
            ? Fragment(startTag: Array(source[Int(theirs.start)..<Int(theirs.end)]), content: [], endTag: nil)
            : Fragment(startTag: Array(source[Int(theirs.start)..<Int(theirs.startTagEnd)]), content: content,
                       endTag: Array(source[Int(theirs.endTagStart)..<Int(theirs.end)]))
        var node = nodes[Int(mine)]
        node.start = -1
        node.startTagEnd = -1
        node.endTagStart = -1
        node.end = -1
        node.hasFragment = true
        node.isSelfClosing = selfClosing
        node.hadChildElements = theirs.firstChild >= 0
        node.hasStoredText = theirs.firstChild < 0
        nodes[Int(mine)] = node
        if theirs.firstChild < 0 { texts[mine] = other.text(of: index) } else { texts[mine] = nil }
    }
}
