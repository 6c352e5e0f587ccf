/// Checks what XML well-formedness does not: that the tree is a property list.
struct PlistValidator {
    let lines: LineTable

    func validate(root: PlistElement) throws(ParseError) {
        guard root.name == "plist" else {
            var failure = error("not a property list: root element is <\(root.name)>, expected <plist>", root)
            failure.kind = .notAPropertyList
            throw failure
        }
        try checkNoText(in: root)
        let values = root.children
        guard values.count == 1 else {
            throw error(
                values.isEmpty ? "<plist> holds no value" : "<plist> holds \(values.count) values, expected one",
                values.count > 1 ? values[1] : root)
        }
        try validateValue(values[0])
    }

    private func validateValue(_ element: PlistElement) throws(ParseError) {
        guard let kind = element.kind, kind != .key else {
            throw error("unexpected <\(element.name)> where a value was expected", element)
        }
        switch kind {
        case .dict:
            try checkNoText(in: element)
            var expectKey = true
            var last: PlistElement?
            for child in element.childElements {
                last = child
                if expectKey {
                    guard child.name == "key" else {
                        throw error("<dict> expects a <key> here, found <\(child.name)>", child)
                    }
                    try checkLeaf(child)
                } else {
                    try validateValue(child)
                }
                expectKey.toggle()
            }
            if !expectKey, let last {
                throw error("<key>\(last.text)</key> has no value", last)
            }
        case .array:
            try checkNoText(in: element)
            for child in element.childElements { try validateValue(child) }
        case .string, .key:
            try checkLeaf(element)
        case .true, .false:
            try checkLeaf(element)
            if element.text.utf8.contains(where: { !ASCII.isWhitespace($0) }) {
                throw error("<\(element.name)/> must be empty", element)
            }
        case .integer:
            try checkLeaf(element)
            if PlistValue.parseInteger(element.text.trimmingWhitespace) == nil {
                throw error("invalid <integer> \"\(element.text)\"", element)
            }
        case .real:
            try checkLeaf(element)
            if PlistValue.parseReal(element.text.trimmingWhitespace) == nil {
                throw error("invalid <real> \"\(element.text)\"", element)
            }
        case .date:
            try checkLeaf(element)
            if !Self.isISO8601(element.text.trimmingWhitespace) {
                throw error("invalid <date> \"\(element.text)\", expected YYYY-MM-DDTHH:MM:SSZ", element)
            }
        case .data:
            try checkLeaf(element)
            if Base64.decode(element.text) == nil {
                throw error("invalid base64 in <data>", element)
            }
        }
    }

    private func checkLeaf(_ element: PlistElement) throws(ParseError) {
        if let child = element.childElements.first(where: { _ in true }) {
            throw error("<\(element.name)> cannot contain <\(child.name)>", child)
        }
    }

    /// Containers hold elements, whitespace and comments only.
    private func checkNoText(in element: PlistElement) throws(ParseError) {
        if let stray = element.document.strayTexts[element.index] ?? nonWhitespace(element.text) {
            throw error("unexpected text \"\(stray)\" in <\(element.name)>", element)
        }
    }

    private func nonWhitespace(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace
        return trimmed.isEmpty ? nil : String(trimmed.prefix(40))
    }

    private func error(_ message: String, _ element: PlistElement) -> ParseError {
        ParseError(message, at: lines.location(of: element.sourceOffset ?? 0))
    }

    static func isISO8601(_ text: Substring) -> Bool {
        let pattern = Array("dddd-dd-ddTdd:dd:ddZ".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count == pattern.count else { return false }
        for (byte, shape) in zip(bytes, pattern) {
            if shape == UInt8(ascii: "d") {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
            } else if byte != shape {
                return false
            }
        }
        return true
    }
}
