/// How a file lays out its entries, read from the file itself so that new entries look like
/// their neighbours: the line ending, one level of indentation, and what separates a key from
/// its value.
struct LayoutStyle {
    /// The file's first line ending; `\n` when the file has none.
    var lineEnding: [UInt8] = [ASCII.lf]
    /// One level of indentation; a tab when nothing nested can be measured.
    var indentUnit: [UInt8] = [ASCII.tab]
    /// Whether keys and values sit on separate lines (the common Xcode layout).
    var valueOnNewLine = true
    /// The literal separator when keys and values share a line (e.g. `""` or `" "`).
    var sameLineSeparator: [UInt8] = []

    init(source: [UInt8], root: PlistElement, lines: LineTable) {
        if let firstBreak = source.firstIndex(where: { $0 == ASCII.lf || $0 == ASCII.cr }) {
            let crlf = source[firstBreak] == ASCII.cr && firstBreak + 1 < source.count
                && source[firstBreak + 1] == ASCII.lf
            lineEnding = crlf ? [ASCII.cr, ASCII.lf] : [source[firstBreak]]
        }
        if let unit = Self.measureIndentUnit(root, lines: lines) { indentUnit = unit }
        if let separator = Self.firstSeparator(root) {
            valueOnNewLine = separator.contains(ASCII.lf) || separator.contains(ASCII.cr)
            if !valueOnNewLine { sameLineSeparator = Array(separator) }
        }
    }

    /// The indentation a container's first child adds to the container's own line.
    private static func measureIndentUnit(_ element: PlistElement, lines: LineTable) -> [UInt8]? {
        if let parentOffset = element.sourceOffset,
            let child = element.children.first, let childOffset = child.sourceOffset,
            lines.onDifferentLines(parentOffset, childOffset)
        {
            let outer = lines.indentation(ofLineContaining: parentOffset)
            let inner = lines.indentation(ofLineContaining: childOffset)
            if inner.count > outer.count, inner.starts(with: outer) {
                return Array(inner.dropFirst(outer.count))
            }
        }
        for child in element.childElements where child.name == "dict" || child.name == "array" {
            if let unit = measureIndentUnit(child, lines: lines) { return unit }
        }
        return nil
    }

    /// The whitespace between the first key and its value found in the document.
    private static func firstSeparator(_ element: PlistElement) -> ArraySlice<UInt8>? {
        if element.name == "dict", let entry = element.entries.first,
            let separator = element.document.gap(between: entry.key.index, and: entry.value.index), separator.isAllWhitespace
        {
            return separator
        }
        for child in element.childElements where child.name == "dict" || child.name == "array" {
            if let found = firstSeparator(child) { return found }
        }
        return nil
    }
}
