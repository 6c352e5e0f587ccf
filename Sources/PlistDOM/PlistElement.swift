#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A handle to one XML element of a property list: its document and its place in the
/// document's flat tree. Cheap to copy and compare; valid as long as its document lives.
public struct PlistElement: Hashable {
    let document: PlistDocument
    let index: Int32

    init(_ document: PlistDocument, _ index: Int32) {
        self.document = document
        self.index = index
    }

    public static func == (lhs: PlistElement, rhs: PlistElement) -> Bool {
        lhs.index == rhs.index && lhs.document === rhs.document
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
    }

    var node: Node { document.nodes[Int(index)] }

    /// The element name, e.g. `dict`, `key`, `true`.
    public var name: String { document.name(of: index) }

    /// The value kind this element spells, or `nil` for `plist` and unknown names.
    public var kind: PlistKind? { node.kind.plistKind }

    /// Decoded character content (entities and CDATA resolved, comments dropped); empty for an
    /// element that holds elements.
    public var text: String { document.text(of: index) }

    /// Whether `text` is `string`, compared on the bytes (no copy unless the text has entities,
    /// CDATA or comments).
    public func hasText(_ string: String) -> Bool { document.text(of: index, equals: string) }

    /// Whether two elements of one document have the same `text`, compared like `hasText`.
    public func hasSameText(as other: PlistElement) -> Bool {
        guard document === other.document else { return text == other.text }
        return document.text(of: index, equalsTextOf: other.index)
    }

    /// Byte offset of the start tag in the parsed source; `nil` for elements made by an edit.
    public var sourceOffset: Int? {
        let node = node
        return node.hasSource ? Int(node.start) : nil
    }

    /// The bytes the element spans in the parsed source (start tag to end tag); `nil` for
    /// elements made by an edit.
    public var sourceRange: Range<Int>? {
        let node = node
        return node.hasSource ? Int(node.start)..<Int(node.end) : nil
    }

    /// Line and column (1-based) in the parsed source (where it was, for an element an edit
    /// moved); `nil` for elements made by an edit.
    public var location: SourceLocation? {
        originalOffset.map { document.lines.location(of: $0) }
    }

    /// The line (1-based) in the parsed source, as `location` has it, for less work; `nil` for
    /// elements made by an edit.
    public var line: Int? {
        originalOffset.map { document.lines.line(of: $0) }
    }

    private var originalOffset: Int? {
        sourceOffset ?? document.movedFrom[index].map(Int.init)
    }

    /// Whether the element is written as an empty-element tag (`<dict/>`).
    public var isSelfClosing: Bool { node.isSelfClosing }

    /// The element's bytes exactly as they would be printed now.
    public var bytes: [UInt8] { document.printedBytes(of: index) }

    /// Child elements, in document order.
    public var children: [PlistElement] { Array(childElements) }

    /// Child elements, in document order, without building an array.
    public var childElements: ChildElements { ChildElements(document: document, first: node.firstChild) }

    public struct ChildElements: Sequence {
        let document: PlistDocument
        let first: Int32

        public struct Iterator: IteratorProtocol {
            let document: PlistDocument
            var current: Int32

            public mutating func next() -> PlistElement? {
                guard current >= 0 else { return nil }
                let element = PlistElement(document, current)
                current = document.nodes[Int(current)].next
                return element
            }
        }

        public func makeIterator() -> Iterator { Iterator(document: document, current: first) }
    }

    /// Whether both elements are as they were parsed (neither document has been edited) and
    /// spell the same bytes from start tag to end tag. The value an element decodes to depends
    /// on those bytes alone, so such elements hold the same value, in any two documents.
    public func hasSameSourceBytes(as other: PlistElement) -> Bool {
        guard document.revision == 0, other.document.revision == 0 else { return false }
        let mine = node, theirs = other.node
        guard mine.hasSource, theirs.hasSource, mine.end - mine.start == theirs.end - theirs.start else { return false }
        let count = Int(mine.end - mine.start)
        return document.source.withUnsafeBufferPointer { a in
            other.document.source.withUnsafeBufferPointer { b in
                memcmp(a.baseAddress! + Int(mine.start), b.baseAddress! + Int(theirs.start), count) == 0
            }
        }
    }

    /// Whether the decoded text equals `string`, without building a String for source text.
    func textEquals(_ string: String) -> Bool {
        document.text(of: index, equals: string)
    }
}

/// A 1-based line and column. Columns count Unicode scalars, as editors do.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "\(line):\(column)" }
}

/// The element names a property list may use for values.
public enum PlistKind: String, Sendable, CaseIterable {
    case dict, array, key, string, integer, real, `true`, `false`, date, data
}
