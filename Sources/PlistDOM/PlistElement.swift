/// One XML element of a property list, with every byte it was written with.
///
/// An element owns its start tag, its content and its end tag as raw bytes. Content is a
/// sequence of pieces: child elements, and the raw bytes between them ("gaps": whitespace,
/// comments, text, CDATA). Printing an element is the concatenation of those bytes, so an
/// element nobody edited prints exactly as it was read.
public final class PlistElement {
    public enum Piece {
        case gap(ArraySlice<UInt8>)
        case element(PlistElement)
    }

    /// The element name, e.g. `dict`, `key`, `true`.
    public internal(set) var name: String {
        didSet { kind = PlistKind(rawValue: name) }
    }
    /// The value kind this element spells, or `nil` for `plist` and unknown names.
    public private(set) var kind: PlistKind?
    var startTag: ArraySlice<UInt8>
    /// `nil` for an empty-element tag such as `<true/>` or `<dict />`.
    var endTag: ArraySlice<UInt8>?
    var pieces: [Piece]
    /// Decoded character content (entities and CDATA resolved, comments dropped).
    public internal(set) var text: String
    /// Byte offset of the start tag in the parsed source; `nil` for elements made by an edit.
    public let sourceOffset: Int?
    /// Line and column (1-based) in the parsed source; `nil` for elements made by an edit.
    public var location: SourceLocation? {
        guard let sourceOffset, let lines else { return nil }
        return lines.location(of: sourceOffset)
    }
    var lines: LineTable?
    /// The first run of non-whitespace text directly inside a container (invalid in a plist).
    var strayText: String?
    /// Leading whitespace of the line this element started on, for elements made by an edit.
    var indentHint: [UInt8]?

    init(
        name: String, startTag: ArraySlice<UInt8>, endTag: ArraySlice<UInt8>?,
        pieces: [Piece], text: String, sourceOffset: Int?, kind: PlistKind?
    ) {
        self.name = name
        self.kind = kind
        self.startTag = startTag
        self.endTag = endTag
        self.pieces = pieces
        self.text = text
        self.sourceOffset = sourceOffset
    }


    /// Child elements, in document order.
    public var children: [PlistElement] {
        Array(childElements)
    }

    /// Child elements, in document order, without building an array.
    public var childElements: ChildElements { ChildElements(pieces: pieces) }

    public struct ChildElements: Sequence {
        let pieces: [Piece]

        public struct Iterator: IteratorProtocol {
            var base: IndexingIterator<[Piece]>
            public mutating func next() -> PlistElement? {
                while let piece = base.next() {
                    if case .element(let element) = piece { return element }
                }
                return nil
            }
        }

        public func makeIterator() -> Iterator { Iterator(base: pieces.makeIterator()) }
    }

    /// Whether the element is written as an empty-element tag (`<dict/>`).
    public var isSelfClosing: Bool { endTag == nil }

    /// The element's bytes exactly as they would be printed now.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    func write(to out: inout [UInt8]) {
        out.append(contentsOf: startTag)
        for piece in pieces {
            switch piece {
            case .gap(let raw): out.append(contentsOf: raw)
            case .element(let child): child.write(to: &out)
            }
        }
        if let endTag { out.append(contentsOf: endTag) }
    }

    func index(of child: PlistElement) -> Int? {
        pieces.firstIndex { if case .element(let e) = $0 { e === child } else { false } }
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
