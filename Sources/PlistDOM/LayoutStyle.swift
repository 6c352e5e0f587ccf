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

    /// Text written with `&quot;` for `"`: the file's text spells quotes so and never raw.
    var quoteAsEntity = false
    /// Text written with `&apos;` for `'`, likewise.
    var apostropheAsEntity = false
    /// An emptied dict or array is written `<dict></dict>`-style: the file writes its empty
    /// containers so and none as `<dict/>` (which Xcode writes, and is the rule otherwise).
    var emptyContainersOpen = false

    /// Every dict of the file with two keys or more has them in Apple's order, and there is
    /// one: a dict too small to show an order of its own follows the file.
    var keysSortedThroughout = false

    init(source: [UInt8], root: PlistElement, lines: LineTable) {
        measureSpellings(source: source, nodes: root.document.nodes)
        keysSortedThroughout = Self.keysSorted(in: root.document)
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

    private static func keysSorted(in document: PlistDocument) -> Bool {
        var seen = false
        for node in document.nodes where node.kind == .dict && node.hasSource {
            var previous: Int32 = -1
            var child = node.firstChild
            while child >= 0 {
                if document.nodes[Int(child)].kind == .key {
                    if previous >= 0 {
                        seen = true
                        if PlistDocument.keyPrecedes(document.text(of: child), document.text(of: previous)) { return false }
                    }
                    previous = child
                }
                child = document.nodes[Int(child)].next
            }
        }
        return seen
    }

    /// How the file's own text spells quotes, and how it writes empty containers.
    private mutating func measureSpellings(source: [UInt8], nodes: [Node]) {
        var raw = (quote: false, apostrophe: false), entity = (quote: false, apostrophe: false)
        var empty = (open: false, selfClosing: false)
        for node in nodes where node.hasSource {
            switch node.kind {
            case .string, .key:
                guard !node.hadChildElements else { continue }
                let text = source[Int(node.startTagEnd)..<Int(node.endTagStart)]
                for (offset, byte) in zip(text.indices, text) {
                    if byte == UInt8(ascii: "\"") { raw.quote = true }
                    if byte == UInt8(ascii: "'") { raw.apostrophe = true }
                    if byte == UInt8(ascii: "&") {
                        let rest = text[offset...]
                        if rest.starts(with: Self.quoteEntity) { entity.quote = true }
                        if rest.starts(with: Self.apostropheEntity) { entity.apostrophe = true }
                    }
                }
            case .dict, .array:
                guard node.firstChild < 0 else { continue }
                if node.wasSelfClosingInSource {
                    empty.selfClosing = true
                } else if source[Int(node.startTagEnd)..<Int(node.endTagStart)].isAllWhitespace {
                    empty.open = true
                }
            default:
                continue
            }
        }
        quoteAsEntity = entity.quote && !raw.quote
        apostropheAsEntity = entity.apostrophe && !raw.apostrophe
        emptyContainersOpen = empty.open && !empty.selfClosing
    }

    static let quoteEntity = Array("&quot;".utf8), apostropheEntity = Array("&apos;".utf8)

    /// Escaped text as the file spells it: quotes as entities where the file writes them so.
    func respell(_ escaped: [UInt8]) -> [UInt8] {
        guard quoteAsEntity || apostropheAsEntity,
            escaped.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") })
        else { return escaped }
        var out: [UInt8] = []
        out.reserveCapacity(escaped.count + 12)
        for byte in escaped {
            if quoteAsEntity, byte == UInt8(ascii: "\"") {
                out += Self.quoteEntity
            } else if apostropheAsEntity, byte == UInt8(ascii: "'") {
                out += Self.apostropheEntity
            } else {
                out.append(byte)
            }
        }
        return out
    }

    /// A fragment made by an edit, its text respelled.
    func respell(_ fragment: Fragment) -> Fragment {
        guard quoteAsEntity || apostropheAsEntity else { return fragment }
        var respelled = fragment
        respelled.content = fragment.content.map { item in
            if case .bytes(let bytes) = item { .bytes(respell(bytes)) } else { item }
        }
        return respelled
    }
}
