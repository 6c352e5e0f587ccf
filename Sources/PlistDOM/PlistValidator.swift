/// Checks what XML well-formedness does not: that the tree is a property list.
struct PlistValidator {
    let lines: LineTable

    /// Walks the flat tree by index (a parse runs this over every element): elements are made
    /// only for messages.
    func validate(root: PlistElement) throws(ParseError) {
        let document = root.document
        let rootNode = document.nodes[Int(root.index)]
        guard rootNode.kind == .plist else {
            var failure = error("not a property list: root element is <\(root.name)>, expected <plist>", root.index, document)
            failure.kind = .notAPropertyList
            throw failure
        }
        try checkNoText(in: root.index, rootNode, document)
        var values: [Int32] = []
        var child = rootNode.firstChild
        while child >= 0 {
            values.append(child)
            child = document.nodes[Int(child)].next
        }
        guard values.count == 1 else {
            throw error(
                values.isEmpty ? "<plist> holds no value" : "<plist> holds \(values.count) values, expected one",
                values.count > 1 ? values[1] : root.index, document)
        }
        // Read in place: the walk visits every element, and each read of `document.nodes`
        // retained the array and copied out its node.
        let nodes = document.nodes
        try nodes.withUnsafeBufferPointer { (nodes) throws(ParseError) in try validateValue(values[0], document, nodes) }
    }

    private func validateValue(_ index: Int32, _ document: PlistDocument, _ nodes: UnsafeBufferPointer<Node>) throws(ParseError) {
        let node = nodes[Int(index)]
        guard let kind = node.kind.plistKind, kind != .key else {
            throw error("unexpected <\(document.name(of: index))> where a value was expected", index, document)
        }
        switch kind {
        case .dict:
            try checkNoText(in: index, node, document)
            var expectKey = true
            var last: Int32 = -1
            var child = node.firstChild
            while child >= 0 {
                last = child
                let childNode = nodes[Int(child)]
                if expectKey {
                    guard childNode.kind == .key else {
                        throw error("<dict> expects a <key> here, found <\(document.name(of: child))>", child, document)
                    }
                    try checkLeaf(child, childNode, document)
                } else {
                    try validateValue(child, document, nodes)
                }
                expectKey.toggle()
                child = childNode.next
            }
            if !expectKey, last >= 0 {
                throw error("<key>\(document.text(of: last))</key> has no value", last, document)
            }
        case .array:
            try checkNoText(in: index, node, document)
            var child = node.firstChild
            while child >= 0 {
                try validateValue(child, document, nodes)
                child = nodes[Int(child)].next
            }
        case .string, .key:
            try checkLeaf(index, node, document)
        case .true, .false:
            try checkLeaf(index, node, document)
            if !textIsWhitespace(index, node, document) {
                throw error("<\(document.name(of: index))/> must be empty", index, document)
            }
        case .integer:
            try checkLeaf(index, node, document)
            let text = document.text(of: index)
            if PlistValue.parseInteger(text.trimmingWhitespace) == nil {
                throw error("invalid <integer> \"\(text)\"", index, document)
            }
        case .real:
            try checkLeaf(index, node, document)
            let text = document.text(of: index)
            if PlistValue.parseReal(text.trimmingWhitespace) == nil {
                throw error("invalid <real> \"\(text)\"", index, document)
            }
        case .date:
            try checkLeaf(index, node, document)
            let text = document.text(of: index)
            if !Self.isISO8601(text.trimmingWhitespace) {
                throw error("invalid <date> \"\(text)\", expected YYYY-MM-DDTHH:MM:SSZ", index, document)
            }
        case .data:
            try checkLeaf(index, node, document)
            if !Base64.isValid(document.text(of: index)) {
                throw error("invalid base64 in <data>", index, document)
            }
        }
    }

    @inline(__always)
    private func checkLeaf(_ index: Int32, _ node: Node, _ document: PlistDocument) throws(ParseError) {
        if node.firstChild >= 0 {
            throw error("<\(document.name(of: index))> cannot contain <\(document.name(of: node.firstChild))>", node.firstChild, document)
        }
    }

    /// Containers hold elements, whitespace and comments only.
    private func checkNoText(in index: Int32, _ node: Node, _ document: PlistDocument) throws(ParseError) {
        let stray = document.strayTexts.isEmpty ? nil : document.strayTexts[index]
        // A container that had child elements has no text of its own (strays aside).
        if let stray = stray ?? (node.hadChildElements ? nil : nonWhitespace(document.text(of: index))) {
            throw error("unexpected text \"\(stray)\" in <\(document.name(of: index))>", index, document)
        }
    }

    /// Whether the element's text is only whitespace, read from its bytes when it has no
    /// stored text.
    private func textIsWhitespace(_ index: Int32, _ node: Node, _ document: PlistDocument) -> Bool {
        guard node.hasPlainText else {
            return !document.text(of: index).utf8.contains { !ASCII.isWhitespace($0) }
        }
        return !document.source[Int(node.startTagEnd)..<Int(node.endTagStart)].contains { !ASCII.isWhitespace($0) }
    }

    private func nonWhitespace(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace
        return trimmed.isEmpty ? nil : String(trimmed.prefix(40))
    }

    private func error(_ message: String, _ index: Int32, _ document: PlistDocument) -> ParseError {
        let node = document.nodes[Int(index)]
        return ParseError(message, at: lines.location(of: node.hasSource ? Int(node.start) : 0))
    }

    /// A date as plistlib reads one: the shape, and a day and time that exist (`PlistDate`).
    static func isISO8601(_ text: Substring) -> Bool {
        PlistDate.isValid(String(text))
    }

}
