/// Where a new or renamed key goes, so that a file stays as its owners and Xcode write it.
///
/// Xcode saves an Info.plist through Apple's serializer, which writes every dict's keys sorted
/// (CFPropertyList's XML writer sorts them with `CFStringCompare` and no options: a literal
/// comparison of UTF-16 code units). So in a dict whose keys are already in that order, a new
/// key goes to its sorted place and a renamed key moves to its sorted place: the next save in
/// Xcode changes nothing. In any other dict the caller's place stands (appending, renaming in
/// place), with one exception measured on people's own edits (docs/replay.md): a key the caller
/// would append to a dict that is nearly in that order (a few keys out of place among many)
/// goes between the neighbours that sort around it, as people put it there. A dict the edits
/// made keeps the order its keys are given in, unless the whole file is sorted.
extension PlistDocument {
    /// Apple's order of dict keys: UTF-16 code units compared one by one.
    public static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    /// Whether the key element `a` sorts before the key element `b` in Apple's order. Keys as
    /// written in the file are compared as bytes: UTF-8 bytes below 0xEE order as UTF-16 code
    /// units do (both follow the code point below U+E000); anything else as Strings.
    func key(_ a: Int32, precedes b: Int32) -> Bool {
        let x = nodes[Int(a)], y = nodes[Int(b)]
        if x.hasPlainText, y.hasPlainText {
            // At the first byte that differs: a lead byte below 0xEE starts a code point below
            // U+E000, and continuation bytes are below 0xC0, so such bytes order as UTF-16 does.
            let (left, right) = (Int(x.startTagEnd), Int(y.startTagEnd))
            let (leftCount, rightCount) = (Int(x.endTagStart) - left, Int(y.endTagStart) - right)
            let decided: Bool? = source.withUnsafeBufferPointer { bytes in
                for offset in 0..<min(leftCount, rightCount) {
                    let (l, r) = (bytes[left + offset], bytes[right + offset])
                    if l != r { return l >= 0xEE || r >= 0xEE ? nil : l < r }
                }
                return leftCount < rightCount
            }
            if let decided { return decided }
        }
        return Self.keyPrecedes(text(of: a), text(of: b))
    }

    /// Every dict of the file with two keys or more has them in Apple's order, and there is
    /// one: a dict too small to show an order of its own follows the file. Read from the file
    /// as it was before the first edit (`asRead`, which `noteEdit` keeps), not as edits left it:
    /// renames in place can sort a dict the file's owners never sorted.
    var keysSortedThroughout: Bool {
        if let known = measuredKeysSortedThroughout { return known }
        let sorted = asRead.map(\.keysSortedThroughout) ?? Self.keysSorted(in: self)
        measuredKeysSortedThroughout = sorted
        forgetAsReadOnceMeasured()
        return sorted
    }

    private static func keysSorted(in document: PlistDocument) -> Bool {
        var seen = false
        for node in document.nodes where node.kind == .dict && node.hasSource {
            var previous: Int32 = -1
            var child = node.firstChild
            while child >= 0 {
                if document.nodes[Int(child)].kind == .key {
                    if previous >= 0 {
                        seen = true
                        if document.key(child, precedes: previous) { return false }
                    }
                    previous = child
                }
                child = document.nodes[Int(child)].next
            }
        }
        return seen
    }

    /// Whether new keys of `dict` follow Apple's order: its keys are in that order (equal
    /// neighbours allowed), or, with fewer than two keys to show an order, every dict of the
    /// file with two keys or more is in order. `excluding` leaves one key out (the one being
    /// renamed). Stops at the first key out of order; a dict found sorted is remembered until
    /// an edit other than these placements changes its keys.
    public func keysAreSorted(_ dict: PlistElement, excluding: PlistElement? = nil) -> Bool {
        if sortedDicts.contains(dict.index) { return true }
        if unsortedBeforeRemovals.contains(dict.index) { return false }
        // One walk, no list: each key against the one before it.
        var previous: Int32 = -1, count = 0
        var child = nodes[Int(dict.index)].firstChild
        while child >= 0 {
            let next = nodes[Int(child)].next
            if nodes[Int(child)].kind == .key, child != excluding?.index, next >= 0, nodes[Int(next)].kind != .key {
                if previous >= 0, key(child, precedes: previous) { return false }
                previous = child
                count += 1
            }
            child = next
        }
        // A dict the edits made keeps the order its keys are given in, unless the file is sorted.
        let sorted = isMadeByEdits(dict.index) ? keysSortedThroughout : count >= 2 || keysSortedThroughout
        if sorted, excluding == nil { sortedDicts.insert(dict.index) }
        return sorted
    }

    /// Before a key of `dict` is removed: a dict out of order stays so for the keys placed after
    /// (deleting `b` from `b a c` does not make a sorted dict of what the owners left unsorted).
    func noteOrderBeforeRemoval(from dict: PlistElement) {
        guard !sortedDicts.contains(dict.index), !unsortedBeforeRemovals.contains(dict.index), !keysAreSorted(dict) else { return }
        unsortedBeforeRemovals.insert(dict.index)
    }

    /// Whether the element `index` was made by an edit (not read from the file, nor moved).
    func isMadeByEdits(_ index: Int32) -> Bool {
        !nodes[Int(index)].hasSource && movedFrom[index] == nil
    }

    /// At most one pair in this many neighbouring keys out of Apple's order makes a dict
    /// "nearly sorted" (so it takes 21 keys or more). Measured: looser bounds placed keys where
    /// people had appended them more often than they gained (docs/replay.md).
    static let nearlySortedPairsPerInversion = 20

    /// The keys of a dict read from the file, cut where a key sorts before the one above it.
    struct KeyRuns {
        /// Key nodes, in document order.
        var keys: [Int32]
        /// Where each run starts in `keys` (the first is 0), with its first and last key's text.
        var starts: [Int]
        var firstTexts: [String]
        var lastTexts: [String]

        /// One pair of neighbours in twenty or fewer out of order, and some.
        var isNearlySorted: Bool {
            starts.count > 1 && (starts.count - 1) * PlistDocument.nearlySortedPairsPerInversion <= keys.count - 1
        }
    }

    /// `dict`'s keys cut into runs; `nil` for a dict the edits made.
    func listKeyRuns(of dict: PlistElement) -> KeyRuns? {
        guard !isMadeByEdits(dict.index) else { return nil }
        var runs = KeyRuns(keys: [], starts: [], firstTexts: [], lastTexts: [])
        dict.forEachPair { key, _, _ in
            if runs.keys.isEmpty || self.key(key, precedes: runs.keys[runs.keys.count - 1]) {
                runs.starts.append(runs.keys.count)
                runs.firstTexts.append(text(of: key))
                runs.lastTexts.append("")
            }
            runs.keys.append(key)
        }
        // Last texts once per run, not once per key.
        for (run, start) in runs.starts.enumerated() {
            let end = runs.end(ofRun: run)
            runs.lastTexts[run] = end - 1 == start ? runs.firstTexts[run] : text(of: runs.keys[end - 1])
        }
        return runs
    }

    /// Where in a nearly sorted dict's keys a new key named `name` goes: the first position
    /// whose key sorts after `name` while the one before it sorts at or before it (always inside
    /// one run, since between runs the key before sorts after the one at). `nil` when there is
    /// none: a run holds such a pair only when `name` lies between its first and last key, and
    /// then halving finds it.
    func nearlySortedSlot(for name: String, in runs: KeyRuns) -> Int? {
        for (run, start) in runs.starts.enumerated() {
            let end = runs.end(ofRun: run)
            guard end - start >= 2, !Self.keyPrecedes(name, runs.firstTexts[run]), Self.keyPrecedes(name, runs.lastTexts[run]) else {
                continue
            }
            var low = start + 1, high = end - 1
            while low < high {
                let middle = (low + high) / 2
                if Self.keyPrecedes(name, text(of: runs.keys[middle])) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        return nil
    }
}

extension PlistDocument.KeyRuns {
    /// Where run `run` ends in `keys` (exclusive).
    func end(ofRun run: Int) -> Int {
        run + 1 < starts.count ? starts[run + 1] : keys.count
    }

    /// After `key` (named `name`) went in at `position` of the keys (at the end when `nil`): a
    /// key put between sorted neighbours joins their run; one appended extends the last run or
    /// starts a new one.
    mutating func insert(_ key: Int32, named name: String, at position: Int?) {
        if let position {
            keys.insert(key, at: position)
            for run in starts.indices where starts[run] >= position { starts[run] += 1 }
        } else {
            if let last = lastTexts.last, !PlistDocument.keyPrecedes(name, last) {
                lastTexts[lastTexts.count - 1] = name
            } else {
                starts.append(keys.count)
                firstTexts.append(name)
                lastTexts.append(name)
            }
            keys.append(key)
        }
    }
}

extension PlistDocument {
    /// The entry a key named `name` follows in a dict whose keys are sorted: the last one not
    /// after it (found by halving). `nil` when it goes first.
    public func sortedAnchor(for name: String, in dict: PlistElement, excluding: PlistElement? = nil) -> DictEntry? {
        // Most often it goes last (keys renamed or added in order): no walk then.
        if let last = dict.lastEntry, last.key != excluding, !Self.keyPrecedes(name, last.name) { return last }
        let entries = excluding == nil ? listedEntries(of: dict) : dict.entries.filter { $0.key != excluding }.map(EntryNodes.init)
        let position = sortedPosition(of: name, in: entries)
        return position > 0 ? entries[position - 1].entry(in: self) : nil
    }

    /// How many of `entries` (sorted) go before a key named `name`: halving.
    func sortedPosition(of name: String, in entries: [EntryNodes]) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if Self.keyPrecedes(name, PlistElement(self, entries[middle].key).text) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// `dict`'s entries as node indexes, from `sortedEntries` while no edit came after it was made.
    private func listedEntries(of dict: PlistElement) -> [EntryNodes] {
        if let cached = sortedEntries[dict.index], cached.revision == editRevision { return cached.entries }
        let entries = dict.entries.map(EntryNodes.init)
        sortedEntries[dict.index] = (editRevision, entries)
        return entries
    }

    /// Inserts `key` = `value` into `dict`: at its sorted place when the dict's keys are sorted,
    /// else directly after `otherwise` (first when `nil`), except that a key appended (`otherwise`
    /// is the last entry) to a nearly sorted dict goes between the neighbours that sort around it.
    @discardableResult
    public func insertFollowingOrder(
        key: String, value: NewValue, into dict: PlistElement, otherwise anchor: DictEntry?
    ) throws(EditError) -> DictEntry {
        guard nodes[Int(dict.index)].kind == .dict else { throw .notADict }
        let before = editRevision
        // Runs listed at this revision already tell an unsorted dict, without a walk. Taken out
        // of the cache, so that they are updated in place rather than copied.
        var runs = keyRunsByDict.removeValue(forKey: dict.index).flatMap {
            $0.revision == before && $0.runs.starts.count > 1 ? $0.runs : nil
        }
        let sorted = runs == nil && keysAreSorted(dict)
        var place = anchor
        var slot: Int?
        if sorted {
            place = sortedAnchor(for: key, in: dict)
        } else if let anchor, anchor.key == dict.lastEntry?.key {
            if runs == nil { runs = listKeyRuns(of: dict) }
            if let listed = runs, listed.isNearlySorted, let position = nearlySortedSlot(for: key, in: listed),
                let previous = dict.entry(withKey: PlistElement(self, listed.keys[position - 1]))
            {
                slot = position
                place = previous
            }
        } else {
            runs = nil
        }
        let inserted = try insert(key: key, value: value, into: dict, after: place)
        if sorted {
            sortedDicts.insert(dict.index)
            // The listing `sortedAnchor` used, with the new entry in its place, stays valid.
            if var cached = sortedEntries[dict.index], cached.revision == before {
                cached.entries.insert(EntryNodes(inserted), at: sortedPosition(of: key, in: cached.entries))
                sortedEntries[dict.index] = (editRevision, cached.entries)
            }
        } else {
            sortedEntries[dict.index] = nil
            if var updated = runs {
                runs = nil
                updated.insert(inserted.key.index, named: key, at: slot)
                keyRunsByDict[dict.index] = (editRevision, updated)
            }
        }
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
        let keyBytes = printedBytes(of: key), valueBytes = printedBytes(of: value)
        // A value holding elements is read back alone, as a one-entry dict, so that its nodes
        // take their bytes from that reading; a key and a plain value are split at their tags.
        var alone: (document: PlistDocument, key: Int32, value: Int32)?
        if nodes[Int(value)].firstChild >= 0 {
            let wrapped = Array("<plist><dict>".utf8) + keyBytes + gapBytes + valueBytes + Array("</dict></plist>".utf8)
            guard let document = try? PlistDocument(parsing: wrapped), let read = document.rootValue.entries.first,
                document.rootValue.entries.count == 1, matches(read.key.index, in: document, key),
                matches(read.value.index, in: document, value)
            else { return false }
            alone = (document, read.key.index, read.value.index)
        } else {
            guard Self.leafFragment(keyBytes) != nil, Self.leafFragment(valueBytes) != nil else { return false }
        }
        noteEdit()
        // Where it was: its bytes and the whitespace leading up to it go. Unlike `remove`, the
        // key's rename splice is left as it is: it lies inside the removal and ends before it,
        // so it prints no more, and the splices' order stays known.
        removeBytes(from: key, through: value)
        unlink(key)
        unlink(value)
        if let alone {
            adopt(alone.key, of: alone.document, into: key)
            adopt(alone.value, of: alone.document, into: value)
        } else {
            adoptLeaf(keyBytes, into: key)
            adoptLeaf(valueBytes, into: value)
        }
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

    /// A printed element with no child elements as a fragment: its start tag (the whole element
    /// when it closes itself), its content and its end tag.
    static func leafFragment(_ bytes: [UInt8]) -> Fragment? {
        guard let open = bytes.firstIndex(of: ASCII.gt), bytes.first == ASCII.lt, bytes.last == ASCII.gt else { return nil }
        if open == bytes.count - 1, open > 0, bytes[open - 1] == ASCII.slash {
            return Fragment(startTag: bytes, content: [], endTag: nil)
        }
        // The end tag starts at the last `<` (content may hold comments or CDATA).
        guard let close = bytes.lastIndex(of: ASCII.lt), close > open else { return nil }
        let content = Array(bytes[(open + 1)..<close])
        return Fragment(startTag: Array(bytes[...open]), content: content.isEmpty ? [] : [.bytes(content)],
                        endTag: Array(bytes[close...]))
    }

    /// Makes the element `mine`, which holds no elements, print `bytes` (its bytes as they
    /// printed where it was), keeping its text, line and indentation.
    private func adoptLeaf(_ bytes: [UInt8], into mine: Int32) {
        guard let fragment = Self.leafFragment(bytes) else { return }
        become(fragment, mine, holdsElements: false, text: text(of: mine))
    }

    /// Turns the element `mine` into one printed from `fragment`: where it was in the source
    /// (its line, for diagnostics) and its indentation are kept; its splices lie inside bytes
    /// that went, and no longer print.
    private func become(_ fragment: Fragment, _ mine: Int32, holdsElements: Bool, text: String?) {
        if indentHints[mine] == nil { indentHints[mine] = indentation(ofNode: mine) }
        if nodes[Int(mine)].hasSource { movedFrom[mine] = nodes[Int(mine)].start }
        replacementSplice[mine] = nil
        afterValueSplice[mine] = nil
        beforeKeySplice[mine] = nil
        fragments[mine] = fragment
        var node = nodes[Int(mine)]
        node.start = -1
        node.startTagEnd = -1
        node.endTagStart = -1
        node.end = -1
        node.hasFragment = true
        node.isSelfClosing = fragment.endTag == nil
        node.hadChildElements = holdsElements
        node.hasStoredText = !holdsElements
        nodes[Int(mine)] = node
        texts[mine] = holdsElements ? nil : text
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
        let fragment = selfClosing
            ? Fragment(startTag: Array(source[Int(theirs.start)..<Int(theirs.end)]), content: [], endTag: nil)
            : Fragment(startTag: Array(source[Int(theirs.start)..<Int(theirs.startTagEnd)]), content: content,
                       endTag: Array(source[Int(theirs.endTagStart)..<Int(theirs.end)]))
        let holdsElements = theirs.firstChild >= 0
        become(fragment, mine, holdsElements: holdsElements, text: holdsElements ? nil : other.text(of: index))
    }
}
