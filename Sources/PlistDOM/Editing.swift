/// Edits that keep every byte they do not have to change.
///
/// Each edit updates the tree's links and records a splice over the source; it never moves
/// other bytes, so any number of edits compose in any order and each costs the same however
/// many came before. New entries copy the indentation, key/value separator and line ending of
/// their neighbours, or of the file when the dict is empty.
extension PlistDocument {
    public enum EditError: Error, Equatable {
        case notADict
        case notAnArray
        /// The entry or item is not in the given container.
        case notInThisDict
    }

    /// Renames a `<key>`; the new text is XML-escaped.
    public func rename(_ key: PlistElement, to newName: String) {
        noteEdit()
        if nodes[Int(key.index)].parent >= 0 { sortedDicts.remove(nodes[Int(key.index)].parent) }
        let index = key.index
        setText(newName, of: index)
        let escaped = spelledAsTheFile(XMLEscaping.escape(newName))
        let content: [Item] = escaped.isEmpty ? [] : [.bytes(escaped)]
        let node = nodes[Int(index)]
        if node.hasFragment {
            fragments[index]?.content = content
            if fragments[index]?.endTag == nil {
                fragments[index]?.startTag = Array("<key>".utf8)
                fragments[index]?.endTag = Array("</key>".utf8)
            }
        } else if node.wasSelfClosingInSource {
            replaceSource(of: index, lower: Int(node.start), upper: Int(node.end),
                          with: [.bytes(Array("<key>".utf8))] + content + [.bytes(Array("</key>".utf8))])
        } else {
            replaceSource(of: index, lower: Int(node.startTagEnd), upper: Int(node.endTagStart), with: content)
        }
        nodes[Int(index)].isSelfClosing = false
    }

    /// Rewrites the value `element` in place, so handles to it (and to its entry) stay valid.
    public func replace(_ element: PlistElement, with value: NewValue) {
        noteEdit()
        let index = element.index
        detachChildren(of: index)
        let made = value.made
        nodes[Int(index)].kind = made.kind
        let fragment = spelledAsTheFile(made)
        nodes[Int(index)].isSelfClosing = fragment.endTag == nil
        setText(made.text, of: index)
        fragments[index] = fragment
        nodes[Int(index)].hasFragment = true
        let node = nodes[Int(index)]
        if node.hasSource {
            if let existing = replacementSplice[index] {
                // It had its content rewritten (an expanded dict): now the whole element goes.
                splices[existing].lower = Int(node.start)
                splices[existing].upper = Int(node.end)
                splices[existing].items = [.node(index)]
                spliceChanged()
            } else {
                replaceSource(of: index, lower: Int(node.start), upper: Int(node.end), with: [.node(index)])
            }
        }
        fill(index, with: value)
    }

    /// Inserts `key` = `value` into `dict` directly after `entry`, or as the first entry when
    /// `entry` is `nil`. Returns the new entry.
    @discardableResult
    public func insert(
        key: String, value: NewValue, into dict: PlistElement, after entry: DictEntry? = nil
    ) throws(EditError) -> DictEntry {
        guard nodes[Int(dict.index)].kind == .dict else { throw .notADict }
        if let entry {
            guard nodes[Int(entry.value.index)].parent == dict.index else { throw .notInThisDict }
        }
        noteEdit()
        sortedDicts.remove(dict.index)
        // The key is told its indentation too: an entry inserted after this one copies it.
        let indent: [UInt8]? = if let entry { indentation(of: entry.key) } else { dict.entries.first.map { indentation(of: $0.key) } }
        let keyNode = makeNode(MadeElement.key(key), indent: indent)
        let valueNode: Int32
        if let entry {
            valueNode = makeNode(value.made, indent: indentation(of: entry.key))
            place([.bytes(linePrefix(before: entry.key.index)), .node(keyNode), .bytes(separator(of: entry)), .node(valueNode)],
                  nodes: [keyNode, valueNode], into: dict.index, after: entry.value.index)
        } else if let first = dict.entries.first {
            valueNode = makeNode(value.made, indent: indentation(of: first.key))
            place([.node(keyNode), .bytes(separator(of: first)), .node(valueNode), .bytes(linePrefix(before: first.key.index))],
                  nodes: [keyNode, valueNode], into: dict.index, before: first.key.index)
        } else {
            valueNode = expand(dict.index, key: keyNode, value: value.made)
        }
        fill(valueNode, with: value)
        return DictEntry(key: PlistElement(self, keyNode), value: PlistElement(self, valueNode))
    }

    /// Inserts `value` into `array` directly after `item`, or as the first item when `item` is
    /// `nil`. Returns the new item.
    @discardableResult
    public func insert(item value: NewValue, into array: PlistElement, after item: PlistElement? = nil) throws(EditError) -> PlistElement {
        guard nodes[Int(array.index)].kind == .array else { throw .notAnArray }
        if let item {
            guard nodes[Int(item.index)].parent == array.index else { throw .notInThisDict }
        }
        noteEdit()
        let node: Int32
        if let item {
            node = makeNode(value.made, indent: indentation(of: item))
            place([.bytes(linePrefix(before: item.index)), .node(node)], nodes: [node], into: array.index, after: item.index)
        } else if let first = array.childElements.first(where: { _ in true }) {
            node = makeNode(value.made, indent: indentation(of: first))
            place([.node(node), .bytes(linePrefix(before: first.index))], nodes: [node], into: array.index, before: first.index)
        } else {
            node = expand(array.index, key: nil, value: value.made)
        }
        fill(node, with: value)
        return PlistElement(self, node)
    }

    /// Removes `entry` with the whitespace that leads up to its key; comments outside the
    /// entry stay where they are.
    public func remove(_ entry: DictEntry, from dict: PlistElement) throws(EditError) {
        let key = entry.key.index, value = entry.value.index
        guard nodes[Int(key)].parent == dict.index, nodes[Int(value)].parent == dict.index else { throw .notInThisDict }
        noteOrderBeforeRemoval(from: dict)
        noteEdit()
        removeRun(from: key, through: value)
        writeEmptiedAsTheFileDoes(dict.index)
    }

    /// Removes `item` from `array` with the whitespace that leads up to it.
    public func remove(item: PlistElement, from array: PlistElement) throws(EditError) {
        guard nodes[Int(array.index)].kind == .array else { throw .notAnArray }
        guard nodes[Int(item.index)].parent == array.index else { throw .notInThisDict }
        noteEdit()
        removeRun(from: item.index, through: item.index)
        writeEmptiedAsTheFileDoes(array.index)
    }

    /// A container a removal left with nothing but whitespace is written `<dict/>` (as Xcode
    /// writes it), or left open where the file writes its empty containers open.
    private func writeEmptiedAsTheFileDoes(_ container: Int32) {
        let node = nodes[Int(container)]
        guard node.firstChild < 0, !node.isSelfClosing, !spelling.emptyContainersOpen else { return }
        let printed = printedBytes(of: container)
        guard let open = printed.firstIndex(of: ASCII.gt), let close = printed.lastIndex(of: ASCII.lt), open < close,
            printed[(open + 1)..<close].isAllWhitespace
        else { return }
        replace(PlistElement(self, container), with: node.kind == .array ? .emptyArray : .emptyDict)
    }

    private func removeRun(from first: Int32, through last: Int32) {
        if let rewrite = replacementSplice[first] {
            // A rewritten item goes: its rewrite may start where the removal does.
            splices[rewrite].items = []
            splices[rewrite].anchor = -1
            spliceChanged()
        }
        removeBytes(from: first, through: last)
        unlink(first)
        if last != first { unlink(last) }
    }

    /// Takes the bytes of `first` through `last` (siblings), with the whitespace leading up to
    /// them, out of where they print: a removal over the source, or out of the items that hold
    /// elements made by edits. The tree's links are the caller's.
    func removeBytes(from first: Int32, through last: Int32) {
        if nodes[Int(first)].hasSource {
            let lower = removalStart(before: first)
            _ = addSplice(Splice(lower: lower, upper: Int(nodes[Int(last)].end), role: .replacement, items: []))
        } else if let home = homes[first] {
            removeItems(from: first, through: last, in: home)
        }
    }

    /// Puts the entries or items of a container value into the element just made for it. In a
    /// file whose dicts are all in Apple's key order, a made dict's entries go in that order
    /// too (a stable sort: equal keys keep theirs): given in another order, the next run would
    /// find the file unsorted and place a later key elsewhere, so a run would not be
    /// idempotent (the recipe fuzz target's finding FZ5).
    private func fill(_ index: Int32, with value: NewValue) {
        var (entries, items) = value.contents
        if entries.count > 1, keysSortedThroughout {
            entries = entries.enumerated().sorted { a, b in
                Self.keyPrecedes(a.element.key, b.element.key) || (a.element.key.utf16.elementsEqual(b.element.key.utf16) && a.offset < b.offset)
            }.map(\.element)
        }
        let container = PlistElement(self, index)
        var lastEntry: DictEntry?
        for entry in entries {
            lastEntry = try? insert(key: entry.key, value: entry.value, into: container, after: lastEntry)
        }
        var lastItem: PlistElement?
        for item in items {
            lastItem = try? insert(item: item, into: container, after: lastItem)
        }
    }

    /// Links `added` after `anchor` (the last element of the entry or item before them) and
    /// puts their bytes there.
    func place(_ items: [Item], nodes added: [Int32], into container: Int32, after anchor: Int32) {
        link(added, into: container, after: anchor)
        guard nodes[Int(anchor)].hasSource else {
            insertItems(items, after: anchor, homing: added)
            return
        }
        let splice: Int
        if let existing = afterValueSplice[anchor] {
            splice = existing
        } else {
            let position = endOfLineComments(after: anchor)
            splice = addSplice(Splice(lower: position, upper: position, role: .afterValue, anchor: container, items: []))
            afterValueSplice[anchor] = splice
            afterValueOffsets.insert(position)
        }
        // Directly after the anchor: before what was inserted after it earlier.
        splices[splice].items.insert(contentsOf: items, at: 0)
        setHome(.splice(splice), of: added)
    }

    /// Links `added` before `anchor` (the first element of the container) and puts their bytes
    /// there.
    func place(_ items: [Item], nodes added: [Int32], into container: Int32, before anchor: Int32) {
        link(added, into: container, after: nodes[Int(anchor)].previous)
        guard nodes[Int(anchor)].hasSource else {
            insertItems(items, before: anchor, homing: added)
            return
        }
        let splice: Int
        if let existing = beforeKeySplice[anchor] {
            splice = existing
        } else {
            let position = Int(nodes[Int(anchor)].start)
            splice = addSplice(Splice(lower: position, upper: position, role: .beforeKey, anchor: container, items: []))
            beforeKeySplice[anchor] = splice
        }
        splices[splice].items.append(contentsOf: items)
        setHome(.splice(splice), of: added)
    }

    // MARK: - Tree links

    func link(_ added: [Int32], into parent: Int32, after previous: Int32) {
        var previous = previous
        for index in added {
            let next = previous >= 0 ? nodes[Int(previous)].next : nodes[Int(parent)].firstChild
            nodes[Int(index)].parent = parent
            nodes[Int(index)].previous = previous
            nodes[Int(index)].next = next
            if previous >= 0 { nodes[Int(previous)].next = index } else { nodes[Int(parent)].firstChild = index }
            if next >= 0 { nodes[Int(next)].previous = index } else { nodes[Int(parent)].lastChild = index }
            previous = index
        }
    }

    func unlink(_ index: Int32) {
        let node = nodes[Int(index)]
        guard node.parent >= 0 else { return }
        if node.previous >= 0 { nodes[Int(node.previous)].next = node.next } else { nodes[Int(node.parent)].firstChild = node.next }
        if node.next >= 0 { nodes[Int(node.next)].previous = node.previous } else { nodes[Int(node.parent)].lastChild = node.previous }
        nodes[Int(index)].parent = -1
        nodes[Int(index)].previous = -1
        nodes[Int(index)].next = -1
    }

    private func detachChildren(of index: Int32) {
        var child = nodes[Int(index)].firstChild
        while child >= 0 {
            let next = nodes[Int(child)].next
            nodes[Int(child)].parent = -1
            nodes[Int(child)].previous = -1
            nodes[Int(child)].next = -1
            child = next
        }
        nodes[Int(index)].firstChild = -1
        nodes[Int(index)].lastChild = -1
    }

    // MARK: - Nodes made by edits

    func makeNode(_ made: MadeElement, indent: [UInt8]?) -> Int32 {
        let index = Int32(nodes.count)
        let fragment = spelledAsTheFile(made)
        var node = Node(kind: made.kind, isSelfClosing: fragment.endTag == nil, start: -1, startTagEnd: -1, endTagStart: -1, end: -1)
        node.hasFragment = true
        nodes.append(node)
        fragments[index] = fragment
        setText(made.text, of: index)
        if let indent { indentHints[index] = indent }
        return index
    }

    private func setText(_ text: String, of index: Int32) {
        texts[index] = text
        nodes[Int(index)].hasStoredText = true
    }

    private func setHome(_ home: Home, of indices: [Int32]) {
        for index in indices { homes[index] = home }
    }

    private func items(of home: Home) -> [Item] {
        switch home {
        case .splice(let splice): splices[splice].items
        case .fragment(let owner): fragments[owner]?.content ?? []
        }
    }

    private func setItems(_ items: [Item], of home: Home) {
        switch home {
        case .splice(let splice): splices[splice].items = items
        case .fragment(let owner): fragments[owner]?.content = items
        }
    }

    /// Looked for first around the last place found, then from the end: a new container is
    /// filled by appending, so the anchor is nearly always its last item, and keys inserted in
    /// order into one list land next to the one before (10,000 sorted `set`s walked the list
    /// for each), so filling stays linear.
    private func position(of index: Int32, in items: [Item]) -> Int? {
        let hint = min(lastItemPosition, items.count)
        for at in max(0, hint - 2)..<min(items.count, hint + 4) {
            if case .node(let n) = items[at], n == index {
                lastItemPosition = at
                return at
            }
        }
        let found = items.lastIndex { if case .node(let n) = $0 { n == index } else { false } }
        if let found { lastItemPosition = found }
        return found
    }

    /// Changes the items of `home` in place (no copy of the list per insertion).
    private func modifyItems(of home: Home, _ change: (inout [Item]) -> Void) {
        switch home {
        case .splice(let splice): change(&splices[splice].items)
        case .fragment(let owner): if fragments[owner] != nil { change(&fragments[owner]!.content) }
        }
    }

    private func insertItems(_ added: [Item], after anchor: Int32, homing: [Int32]) {
        guard let home = homes[anchor] else { return }
        modifyItems(of: home) { list in
            var at = (position(of: anchor, in: list) ?? list.count - 1) + 1
            // Past a comment sharing the anchor's line (`<true/> <!-- why -->`), as for source
            // values: it belongs to that entry.
            if at < list.count, case .bytes(let bytes) = list[at],
                let lineBreak = bytes.firstIndex(where: { $0 == ASCII.lf || $0 == ASCII.cr }), !bytes[..<lineBreak].isAllWhitespace
            {
                list[at] = .bytes(Array(bytes[..<lineBreak]))
                list.insert(.bytes(Array(bytes[lineBreak...])), at: at + 1)
                at += 1
            }
            list.insert(contentsOf: added, at: at)
        }
        setHome(home, of: homing)
    }

    private func insertItems(_ added: [Item], before anchor: Int32, homing: [Int32]) {
        guard let home = homes[anchor] else { return }
        modifyItems(of: home) { list in
            list.insert(contentsOf: added, at: position(of: anchor, in: list) ?? 0)
        }
        setHome(home, of: homing)
    }

    /// Removes an entry made by an edit, with the whitespace that leads up to its key.
    private func removeItems(from key: Int32, through value: Int32, in home: Home) {
        var list = items(of: home)
        guard let first = position(of: key, in: list), let last = position(of: value, in: list) else { return }
        list.removeSubrange(first...last)
        if first > 0, case .bytes(let bytes) = list[first - 1] {
            let kept = bytes[..<bytes[...].trailingWhitespace.startIndex]
            if kept.isEmpty { list.remove(at: first - 1) } else { list[first - 1] = .bytes(Array(kept)) }
        } else if first == 0, case .splice(let splice) = home {
            // First in an insertion before a key: the whitespace before that spot goes.
            let position = splices[splice].lower
            let start = whitespaceStart(before: position)
            if start < position {
                _ = addSplice(Splice(lower: start, upper: position, role: .replacement, items: []))
            }
        }
        setItems(list, of: home)
        for index in [key, value] { homes[index] = nil }
        spliceChanged()
    }

    /// Turns an empty `<dict/>`, `<array></array>` or comment-only container into one holding
    /// one entry (`key` made, then `value`) or one item (`value`). Returns the value's node.
    private func expand(_ container: Int32, key keyNode: Int32?, value: MadeElement) -> Int32 {
        let outer = indentation(ofNode: container)
        let inner = outer + style.indentUnit
        let valueNode = makeNode(value, indent: inner)
        if let keyNode { indentHints[keyNode] = inner }
        let added = (keyNode.map { [$0] } ?? []) + [valueNode]
        var head: ArraySlice<UInt8> = []
        var tail = ArraySlice(style.lineEnding + outer)
        if let first = currentContentStart(of: container), !first.isEmpty {
            let trailing = first.trailingWhitespace
            head = first[..<trailing.startIndex]
            if let lineBreak = trailing.fromLastLineBreak { tail = lineBreak }
        }
        var items: [Item] = [.bytes(Array(head) + style.lineEnding + inner)]
        if let keyNode { items += [.node(keyNode), .bytes(defaultSeparator(indent: inner))] }
        items += [.node(valueNode), .bytes(Array(tail))]
        let node = nodes[Int(container)]
        let name = node.kind.name ?? "dict"
        let (openTag, closeTag) = (Array("<\(name)>".utf8), Array("</\(name)>".utf8))
        if node.hasFragment {
            if fragments[container]?.endTag == nil {
                fragments[container]?.startTag = openTag
                fragments[container]?.endTag = closeTag
            }
            fragments[container]?.content = items
            setHome(.fragment(container), of: added)
        } else {
            let splice: Int
            if node.wasSelfClosingInSource {
                splice = replaceSource(of: container, lower: Int(node.start), upper: Int(node.end),
                                       with: [.bytes(openTag)] + items + [.bytes(closeTag)])
            } else {
                splice = replaceSource(of: container, lower: Int(node.startTagEnd), upper: Int(node.endTagStart), with: items)
            }
            setHome(.splice(splice), of: added)
        }
        nodes[Int(container)].isSelfClosing = false
        link(added, into: container, after: -1)
        return valueNode
    }

    /// The bytes an element with no child elements holds now, up to its first item made by an
    /// edit: what `expand` keeps (comments) in front of the new entry.
    private func currentContentStart(of dict: Int32) -> ArraySlice<UInt8>? {
        let node = nodes[Int(dict)]
        let openTag = Array("<\(node.kind.name ?? "dict")>".utf8)
        if node.hasFragment {
            guard case .bytes(let bytes)? = fragments[dict]?.content.first else { return nil }
            return bytes[...]
        }
        if let splice = replacementSplice[dict] {
            guard case .bytes(let bytes)? = splices[splice].items.first(where: {
                if case .bytes(let b) = $0 { b != openTag } else { true }
            }) else { return nil }
            return bytes[...]
        }
        guard !node.wasSelfClosingInSource else { return nil }
        var out: [UInt8] = []
        printSource(Int(node.startTagEnd)..<Int(node.endTagStart), into: &out)
        return out[...]
    }

    // MARK: - Splices

    /// Replaces `lower..<upper` of the source with `items` for the element `index` (one splice
    /// per element, updated by later edits). Returns the splice.
    @discardableResult
    private func replaceSource(of index: Int32, lower: Int, upper: Int, with items: [Item]) -> Int {
        if let existing = replacementSplice[index] {
            splices[existing].items = items
            spliceChanged()
            return existing
        }
        let splice = addSplice(Splice(lower: lower, upper: upper, role: .replacement, anchor: index, items: items))
        replacementSplice[index] = splice
        return splice
    }

    /// Where removing the entry of `key` starts: the whitespace leading up to the key, but not
    /// before entries inserted in that whitespace (which stay), and when entries were inserted
    /// right before the key, the whitespace that ends them.
    private func removalStart(before key: Int32) -> Int {
        let start = Int(nodes[Int(key)].start)
        if let splice = beforeKeySplice[key], !splices[splice].items.isEmpty {
            if case .bytes(let bytes)? = splices[splice].items.last {
                let kept = bytes[..<bytes[...].trailingWhitespace.startIndex]
                if kept.isEmpty { splices[splice].items.removeLast() } else { splices[splice].items[splices[splice].items.count - 1] = .bytes(Array(kept)) }
                spliceChanged()
            }
            return start
        }
        return whitespaceStart(before: start)
    }

    /// The start of the whitespace that ends at `position`, not reaching back past an insertion
    /// made after a value in that whitespace.
    private func whitespaceStart(before position: Int) -> Int {
        var start = position
        while start > 0, ASCII.isWhitespace(source[start - 1]) { start -= 1 }
        for offset in stride(from: position, to: start, by: -1) where afterValueOffsets.contains(offset) {
            return offset
        }
        return start
    }

    // MARK: - Layout helpers

    /// Text an edit writes, with quotes spelled as the file spells them; the file's spelling is
    /// read only when there is a quote to spell.
    func spelledAsTheFile(_ escaped: [UInt8]) -> [UInt8] {
        TextSpelling.hasQuote(escaped) ? spelling.respell(escaped) : escaped
    }

    /// An element an edit makes, as the file spells it: its text's quotes, and a Boolean closed
    /// as the file writes its own (`<true />` or `<true></true>` where every one is so).
    func spelledAsTheFile(_ made: MadeElement) -> Fragment {
        guard made.kind == .true || made.kind == .false else { return spelledAsTheFile(made.fragment) }
        let name = made.kind == .true ? "true" : "false"
        var fragment = made.fragment
        switch spelling.booleans {
        case nil: return made.fragment
        case .selfClosing(let space): fragment.startTag = Array("<\(name)".utf8) + space + Array("/>".utf8)
        case .open: (fragment.startTag, fragment.endTag) = (Array("<\(name)>".utf8), Array("</\(name)>".utf8))
        }
        return fragment
    }

    func spelledAsTheFile(_ fragment: Fragment) -> Fragment {
        TextSpelling.hasQuote(fragment) ? spelling.respell(fragment) : fragment
    }

    /// Counts the edit; the first keeps the tree as read, on which the file's layout and key
    /// order are measured when an edit first needs them.
    func noteEdit() {
        keepAsReadBeforeFirstEdit()
        editRevision += 1
    }

    /// Where to insert after the source value `value`: past a comment that shares the value's
    /// line (`<true/> <!-- why -->`), which belongs to that entry.
    private func endOfLineComments(after value: Int32) -> Int {
        let node = nodes[Int(value)]
        let end = Int(node.end)
        let limit = nextSourceStart(after: value)
        let gap = source[end..<limit]
        guard let lineBreak = gap.firstIndex(where: { $0 == ASCII.lf || $0 == ASCII.cr }),
            !gap[..<lineBreak].isAllWhitespace
        else { return end }
        return lineBreak
    }

    /// Where the source bytes after `index` end inside its parent: the next source sibling's
    /// start, or the parent's end tag.
    private func nextSourceStart(after index: Int32) -> Int {
        var next = nodes[Int(index)].next
        while next >= 0, !nodes[Int(next)].hasSource { next = nodes[Int(next)].next }
        if next >= 0 { return Int(nodes[Int(next)].start) }
        let parent = nodes[Int(index)].parent
        return parent >= 0 ? Int(nodes[Int(parent)].endTagStart) : source.count
    }

    /// Line break plus indentation in front of `key` (or whatever whitespace precedes it on a
    /// shared line).
    func linePrefix(before key: Int32) -> [UInt8] {
        let before: ArraySlice<UInt8>
        if nodes[Int(key)].hasSource {
            if let splice = beforeKeySplice[key], let last = splices[splice].items.last {
                guard case .bytes(let bytes) = last else { return [] }
                before = bytes[...]
            } else {
                let start = Int(nodes[Int(key)].start)
                before = source[previousSourceEnd(before: key)..<start]
            }
        } else {
            guard let home = homes[key] else { return [] }
            let list = items(of: home)
            guard let at = position(of: key, in: list) else { return [] }
            if at == 0, case .splice(let splice) = home {
                // First of an insertion: what leads up to the spot in the source is its prefix
                // (two items inserted one after the other before a key were glued without it).
                let lower = splices[splice].lower
                var start = lower
                while start > 0, ASCII.isWhitespace(source[start - 1]) { start -= 1 }
                before = source[start..<lower]
            } else {
                guard at > 0, case .bytes(let bytes) = list[at - 1] else { return [] }
                before = bytes[...]
            }
        }
        let whitespace = before.trailingWhitespace
        return Array(whitespace.fromLastLineBreak ?? whitespace)
    }

    /// Where the bytes before the source element `index` start: the previous source sibling's
    /// end, or an insertion after it, or the parent's start tag.
    private func previousSourceEnd(before index: Int32) -> Int {
        var previous = nodes[Int(index)].previous
        while previous >= 0, !nodes[Int(previous)].hasSource { previous = nodes[Int(previous)].previous }
        if previous >= 0 {
            if let splice = afterValueSplice[previous] { return splices[splice].lower }
            return Int(nodes[Int(previous)].end)
        }
        let parent = nodes[Int(index)].parent
        return parent >= 0 ? Int(nodes[Int(parent)].startTagEnd) : 0
    }

    /// What separates `entry`'s key from its value, when that is plain whitespace; otherwise
    /// the file's usual separator at the entry's indentation.
    private func separator(of entry: DictEntry) -> [UInt8] {
        if let gap = gap(between: entry.key.index, and: entry.value.index), gap.isAllWhitespace {
            return Array(gap)
        }
        return defaultSeparator(indent: indentation(of: entry.key))
    }

    /// The bytes between a key and its value, when nothing but bytes lies between them.
    func gap(between key: Int32, and value: Int32) -> ArraySlice<UInt8>? {
        let k = nodes[Int(key)], v = nodes[Int(value)]
        guard k.next == value else { return nil }
        if k.hasSource && v.hasSource { return source[Int(k.end)..<Int(v.start)] }
        guard let home = homes[key] else { return nil }
        let list = items(of: home)
        guard let at = position(of: key, in: list), at + 1 < list.count else { return nil }
        switch list[at + 1] {
        case .node(let n): return n == value ? [] : nil
        case .bytes(let bytes):
            guard at + 2 < list.count, case .node(let n) = list[at + 2], n == value else { return nil }
            return bytes[...]
        }
    }

    private func defaultSeparator(indent: [UInt8]) -> [UInt8] {
        style.valueOnNewLine ? style.lineEnding + indent : style.sameLineSeparator
    }

    /// Leading whitespace of the line `element` starts on.
    func indentation(of element: PlistElement) -> [UInt8] {
        indentation(ofNode: element.index)
    }

    func indentation(ofNode index: Int32) -> [UInt8] {
        let node = nodes[Int(index)]
        if node.hasSource { return Array(lines.indentation(ofLineContaining: Int(node.start))) }
        return indentHints[index] ?? []
    }
}
