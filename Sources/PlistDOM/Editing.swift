/// Edits that keep every byte they do not have to change.
///
/// Edits mutate the tree in place; they never use byte offsets, so any number of them compose
/// in any order. New entries copy the indentation, key/value separator and line ending of
/// their neighbours, or of the file when the dict is empty.
extension PlistDocument {
    public enum EditError: Error, Equatable {
        case notADict
        case notInThisDict
    }

    /// Renames a `<key>`; the new text is XML-escaped.
    public func rename(_ key: PlistElement, to newName: String) {
        noteEdit()
        key.text = newName
        key.pieces = newName.isEmpty ? [] : [.gap(ArraySlice(XMLEscaping.escape(newName)))]
        if key.endTag == nil {
            key.startTag = ArraySlice("<key>".utf8)
            key.endTag = ArraySlice("</key>".utf8)
        }
    }

    /// Rewrites the value `element` in place, so handles to it (and to its entry) stay valid.
    public func replace(_ element: PlistElement, with value: NewValue) {
        noteEdit()
        let replacement = value.makeElement(style: style, indent: indentation(of: element))
        element.name = replacement.name
        element.startTag = replacement.startTag
        element.endTag = replacement.endTag
        element.pieces = replacement.pieces
        element.text = replacement.text
    }

    /// Inserts `key` = `value` into `dict` directly after `entry`, or as the first entry when
    /// `entry` is `nil`. Returns the new entry.
    @discardableResult
    public func insert(
        key: String, value: NewValue, into dict: PlistElement, after entry: DictEntry? = nil
    ) throws(EditError) -> DictEntry {
        guard dict.name == "dict" else { throw .notADict }
        noteEdit()
        let keyElement = NewValue.keyElement(key)
        if let entry {
            guard let valueIndex = dict.index(of: entry.value) else { throw .notInThisDict }
            let prefix = linePrefix(before: entry.key, in: dict)
            let separator = self.separator(of: entry, in: dict)
            let valueElement = value.makeElement(style: style, indent: indentation(of: entry.key))
            let position = endOfLineComments(after: valueIndex, in: dict)
            dict.pieces.insert(
                contentsOf: [.gap(prefix), .element(keyElement), .gap(separator), .element(valueElement)],
                at: position)
            return DictEntry(key: keyElement, value: valueElement)
        }
        if let first = dict.entries.first, let keyIndex = dict.index(of: first.key) {
            let prefix = linePrefix(before: first.key, in: dict)
            let separator = self.separator(of: first, in: dict)
            let valueElement = value.makeElement(style: style, indent: indentation(of: first.key))
            dict.pieces.insert(
                contentsOf: [.element(keyElement), .gap(separator), .element(valueElement), .gap(prefix)],
                at: keyIndex)
            return DictEntry(key: keyElement, value: valueElement)
        }
        return expand(dict, with: keyElement, value)
    }

    /// Removes `entry` with the whitespace that leads up to its key; comments outside the
    /// entry stay where they are.
    public func remove(_ entry: DictEntry, from dict: PlistElement) throws(EditError) {
        guard let keyIndex = dict.index(of: entry.key), let valueIndex = dict.index(of: entry.value)
        else { throw .notInThisDict }
        noteEdit()
        var start = keyIndex
        if keyIndex > 0, case .gap(let raw) = dict.pieces[keyIndex - 1] {
            let kept = raw[..<raw.trailingWhitespace.startIndex]
            if kept.isEmpty {
                start = keyIndex - 1
            } else {
                dict.pieces[keyIndex - 1] = .gap(kept)
            }
        }
        dict.pieces.removeSubrange(start...valueIndex)
    }

    // MARK: - Layout helpers

    /// Counts the edit, and measures the file's layout first, while the tree is still as read.
    private func noteEdit() {
        _ = style
        revision += 1
    }

    /// Where to insert after the value at `valueIndex`: past a comment that shares the value's
    /// line (`<true/> <!-- why -->`), which belongs to that entry. Splits the gap if needed.
    private func endOfLineComments(after valueIndex: Int, in dict: PlistElement) -> Int {
        let next = valueIndex + 1
        guard next < dict.pieces.count, case .gap(let raw) = dict.pieces[next],
            let lineBreak = raw.firstIndex(where: { $0 == ASCII.lf || $0 == ASCII.cr })
        else { return next }
        let sameLine = raw[..<lineBreak]
        guard !sameLine.isAllWhitespace else { return next }
        dict.pieces[next] = .gap(sameLine)
        dict.pieces.insert(.gap(raw[lineBreak...]), at: next + 1)
        return next + 1
    }

    /// The element that contains `element`.
    public func parent(of element: PlistElement) -> PlistElement? {
        func search(_ node: PlistElement) -> PlistElement? {
            for child in node.childElements {
                if child === element { return node }
                if let found = search(child) { return found }
            }
            return nil
        }
        return search(root)
    }

    /// Line break plus indentation in front of `key` (or whatever whitespace precedes it on a
    /// shared line).
    private func linePrefix(before key: PlistElement, in dict: PlistElement) -> ArraySlice<UInt8> {
        guard let index = dict.index(of: key), index > 0, case .gap(let raw) = dict.pieces[index - 1] else {
            return []
        }
        let whitespace = raw.trailingWhitespace
        return whitespace.fromLastLineBreak ?? whitespace
    }

    /// What separates `entry`'s key from its value, when that is plain whitespace; otherwise
    /// the file's usual separator at the entry's indentation.
    private func separator(of entry: DictEntry, in dict: PlistElement) -> ArraySlice<UInt8> {
        if let gap = dict.gap(between: entry.key, and: entry.value), gap.isAllWhitespace {
            return gap
        }
        return ArraySlice(defaultSeparator(indent: indentation(of: entry.key)))
    }

    private func defaultSeparator(indent: [UInt8]) -> [UInt8] {
        style.valueOnNewLine ? style.lineEnding + indent : style.sameLineSeparator
    }

    /// Leading whitespace of the line `element` starts on.
    func indentation(of element: PlistElement) -> [UInt8] {
        if let offset = element.sourceOffset { return Array(lines.indentation(ofLineContaining: offset)) }
        return element.indentHint ?? []
    }

    /// Turns an empty `<dict/>`, `<dict></dict>` or comment-only dict into one holding one entry.
    private func expand(_ dict: PlistElement, with key: PlistElement, _ value: NewValue) -> DictEntry {
        let outer = indentation(of: dict)
        let inner = outer + style.indentUnit
        let valueElement = value.makeElement(style: style, indent: inner)
        var head: ArraySlice<UInt8> = []
        var tail = ArraySlice(style.lineEnding + outer)
        if case .gap(let raw)? = dict.pieces.first {
            let trailing = raw.trailingWhitespace
            head = raw[..<trailing.startIndex]
            if let lineBreak = trailing.fromLastLineBreak { tail = lineBreak }
        }
        if dict.endTag == nil {
            dict.startTag = ArraySlice("<dict>".utf8)
            dict.endTag = ArraySlice("</dict>".utf8)
        }
        dict.pieces = [
            .gap(head + style.lineEnding + inner), .element(key),
            .gap(ArraySlice(defaultSeparator(indent: inner))), .element(valueElement), .gap(tail),
        ]
        return DictEntry(key: key, value: valueElement)
    }

}
