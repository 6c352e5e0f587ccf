/// Edits that keep every byte they do not have to change.
///
/// Each edit updates the tree's links and records a splice over the source; it never moves
/// other bytes, so any number of edits compose in any order and each costs the same however
/// many came before. New entries copy the indentation, key/value separator and line ending of
/// their neighbours, or of the file when the dict is empty.
extension PlistDocument {
    public enum EditError: Error, Equatable {
        case notADict
        case notInThisDict
    }

    /// Renames a `<key>`; the new text is XML-escaped.
    public func rename(_ key: PlistElement, to newName: String) {
        noteEdit()
        let index = key.index
        setText(newName, of: index)
        let escaped = XMLEscaping.escape(newName)
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
        nodes[Int(index)].isSelfClosing = made.fragment.endTag == nil
        setText(made.text, of: index)
        fragments[index] = made.fragment
        nodes[Int(index)].hasFragment = true
        let node = nodes[Int(index)]
        guard node.hasSource else { return }
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

    /// Inserts `key` = `value` into `dict` directly after `entry`, or as the first entry when
    /// `entry` is `nil`. Returns the new entry.
    @discardableResult
    public func insert(
        key: String, value: NewValue, into dict: PlistElement, after entry: DictEntry? = nil
    ) throws(EditError) -> DictEntry {
        guard nodes[Int(dict.index)].kind == .dict else { throw .notADict }
        if let entry {
            guard nodes[Int(entry.value.index)].parent == dict.index else { throw .notInThisDict }
            noteEdit()
            let keyNode = makeNode(MadeElement.key(key), indent: nil)
            let valueNode = makeNode(value.made, indent: indentation(of: entry.key))
            let items: [Item] = [
                .bytes(linePrefix(before: entry.key.index)), .node(keyNode),
                .bytes(separator(of: entry)), .node(valueNode),
            ]
            link([keyNode, valueNode], into: dict.index, after: entry.value.index)
            let anchor = entry.value.index
            if nodes[Int(anchor)].hasSource {
                let splice: Int
                if let existing = afterValueSplice[anchor] {
                    splice = existing
                } else {
                    let position = endOfLineComments(after: anchor)
                    splice = addSplice(Splice(lower: position, upper: position, role: .afterValue, anchor: dict.index, items: []))
                    afterValueSplice[anchor] = splice
                    afterValueOffsets.insert(position)
                }
                // Directly after the value: before entries inserted after it earlier.
                splices[splice].items.insert(contentsOf: items, at: 0)
                setHome(.splice(splice), of: [keyNode, valueNode])
            } else {
                insertItems(items, after: anchor, homing: [keyNode, valueNode])
            }
            return DictEntry(key: PlistElement(self, keyNode), value: PlistElement(self, valueNode))
        }
        noteEdit()
        if let first = dict.entries.first {
            let keyNode = makeNode(MadeElement.key(key), indent: nil)
            let valueNode = makeNode(value.made, indent: indentation(of: first.key))
            let items: [Item] = [
                .node(keyNode), .bytes(separator(of: first)), .node(valueNode),
                .bytes(linePrefix(before: first.key.index)),
            ]
            link([keyNode, valueNode], into: dict.index, after: nodes[Int(first.key.index)].previous)
            let anchor = first.key.index
            if nodes[Int(anchor)].hasSource {
                let splice: Int
                if let existing = beforeKeySplice[anchor] {
                    splice = existing
                } else {
                    let position = Int(nodes[Int(anchor)].start)
                    splice = addSplice(Splice(lower: position, upper: position, role: .beforeKey, anchor: dict.index, items: []))
                    beforeKeySplice[anchor] = splice
                }
                splices[splice].items.append(contentsOf: items)
                setHome(.splice(splice), of: [keyNode, valueNode])
            } else {
                insertItems(items, before: anchor, homing: [keyNode, valueNode])
            }
            return DictEntry(key: PlistElement(self, keyNode), value: PlistElement(self, valueNode))
        }
        return expand(dict.index, key: key, value: value)
    }

    /// Removes `entry` with the whitespace that leads up to its key; comments outside the
    /// entry stay where they are.
    public func remove(_ entry: DictEntry, from dict: PlistElement) throws(EditError) {
        let key = entry.key.index, value = entry.value.index
        guard nodes[Int(key)].parent == dict.index, nodes[Int(value)].parent == dict.index else { throw .notInThisDict }
        noteEdit()
        if nodes[Int(key)].hasSource {
            let lower = removalStart(before: key)
            _ = addSplice(Splice(lower: lower, upper: Int(nodes[Int(value)].end), role: .replacement, items: []))
        } else if let home = homes[key] {
            removeItems(from: key, through: value, in: home)
        }
        unlink(key)
        unlink(value)
    }

    // MARK: - Tree links

    private func link(_ added: [Int32], into parent: Int32, after previous: Int32) {
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

    private func unlink(_ index: Int32) {
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

    private func makeNode(_ made: MadeElement, indent: [UInt8]?) -> Int32 {
        let index = Int32(nodes.count)
        var node = Node(kind: made.kind, isSelfClosing: made.fragment.endTag == nil, start: -1, startTagEnd: -1, endTagStart: -1, end: -1)
        node.hasFragment = true
        nodes.append(node)
        fragments[index] = made.fragment
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

    private func position(of index: Int32, in items: [Item]) -> Int? {
        items.firstIndex { if case .node(let n) = $0 { n == index } else { false } }
    }

    private func insertItems(_ added: [Item], after anchor: Int32, homing: [Int32]) {
        guard let home = homes[anchor] else { return }
        var list = items(of: home)
        let at = (position(of: anchor, in: list) ?? list.count - 1) + 1
        list.insert(contentsOf: added, at: at)
        setItems(list, of: home)
        setHome(home, of: homing)
    }

    private func insertItems(_ added: [Item], before anchor: Int32, homing: [Int32]) {
        guard let home = homes[anchor] else { return }
        var list = items(of: home)
        list.insert(contentsOf: added, at: position(of: anchor, in: list) ?? 0)
        setItems(list, of: home)
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

    /// Turns an empty `<dict/>`, `<dict></dict>` or comment-only dict into one holding one entry.
    private func expand(_ dict: Int32, key: String, value: NewValue) -> DictEntry {
        let outer = indentation(ofNode: dict)
        let inner = outer + style.indentUnit
        let keyNode = makeNode(MadeElement.key(key), indent: nil)
        let valueNode = makeNode(value.made, indent: inner)
        var head: ArraySlice<UInt8> = []
        var tail = ArraySlice(style.lineEnding + outer)
        if let first = currentContentStart(of: dict), !first.isEmpty {
            let trailing = first.trailingWhitespace
            head = first[..<trailing.startIndex]
            if let lineBreak = trailing.fromLastLineBreak { tail = lineBreak }
        }
        let items: [Item] = [
            .bytes(Array(head) + style.lineEnding + inner), .node(keyNode),
            .bytes(defaultSeparator(indent: inner)), .node(valueNode), .bytes(Array(tail)),
        ]
        let node = nodes[Int(dict)]
        if node.hasFragment {
            if fragments[dict]?.endTag == nil {
                fragments[dict]?.startTag = Array("<dict>".utf8)
                fragments[dict]?.endTag = Array("</dict>".utf8)
            }
            fragments[dict]?.content = items
            setHome(.fragment(dict), of: [keyNode, valueNode])
        } else {
            let splice: Int
            if node.wasSelfClosingInSource {
                splice = replaceSource(of: dict, lower: Int(node.start), upper: Int(node.end),
                                       with: [.bytes(Array("<dict>".utf8))] + items + [.bytes(Array("</dict>".utf8))])
            } else {
                splice = replaceSource(of: dict, lower: Int(node.startTagEnd), upper: Int(node.endTagStart), with: items)
            }
            setHome(.splice(splice), of: [keyNode, valueNode])
        }
        nodes[Int(dict)].isSelfClosing = false
        link([keyNode, valueNode], into: dict, after: -1)
        return DictEntry(key: PlistElement(self, keyNode), value: PlistElement(self, valueNode))
    }

    /// The bytes an element with no child elements holds now, up to its first item made by an
    /// edit: what `expand` keeps (comments) in front of the new entry.
    private func currentContentStart(of dict: Int32) -> ArraySlice<UInt8>? {
        let node = nodes[Int(dict)]
        if node.hasFragment {
            guard case .bytes(let bytes)? = fragments[dict]?.content.first else { return nil }
            return bytes[...]
        }
        if let splice = replacementSplice[dict] {
            guard case .bytes(let bytes)? = splices[splice].items.first(where: {
                if case .bytes(let b) = $0 { b != Array("<dict>".utf8) } else { true }
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

    /// Counts the edit, and measures the file's layout first, while the tree is still as read.
    private func noteEdit() {
        _ = style
        revision += 1
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
    private func linePrefix(before key: Int32) -> [UInt8] {
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
            guard let at = position(of: key, in: list), at > 0, case .bytes(let bytes) = list[at - 1] else { return [] }
            before = bytes[...]
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
