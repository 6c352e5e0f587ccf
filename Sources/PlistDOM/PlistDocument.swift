/// A parsed XML property list that prints back byte for byte and can be edited in place.
///
/// The document is the bytes before the root element (XML declaration, DOCTYPE, comments),
/// the root `<plist>` element, and the bytes after it. Every byte of the input belongs to
/// exactly one of these, so `bytes` is a concatenation and an unedited document prints
/// exactly the input.
public final class PlistDocument {
    var prolog: ArraySlice<UInt8>
    /// The `<plist>` element.
    public let root: PlistElement
    var epilog: ArraySlice<UInt8>
    let lines: LineTable
    /// How this file lays out entries; new entries copy it.
    private(set) lazy var style = LayoutStyle(source: source, root: root, lines: lines)
    private let source: [UInt8]
    /// Counts edits; unchanged means the document still prints its input.
    public internal(set) var revision = 0

    /// Parses an XML property list. Throws a `ParseError` with a line and column for anything
    /// that is not a well-formed, valid plist, or that this library could not map byte-exactly.
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        try Preflight.check(bytes)
        try Self.checkEncoding(bytes)
        lines = LineTable(bytes)
        let builder = SAXTreeBuilder(source: bytes, lines: lines)
        builder.run()
        if let failure = builder.failure {
            let location = failure.location ?? lines.location(of: failure.offset ?? 0)
            throw Preflight.explain(ParseError(failure.message, at: location), in: bytes)
        }
        guard let root = builder.root, let range = builder.rootRange else {
            throw ParseError("no root element", at: SourceLocation(line: 1, column: 1))
        }
        self.prolog = bytes[..<range.lowerBound]
        self.root = root
        self.epilog = bytes[range.upperBound...]
        self.source = bytes
        do {
            try PlistValidator(lines: lines).validate(root: root)
        } catch {
            throw Preflight.explain(error, in: bytes)
        }
        // Losslessness is checked, not assumed: every element's pieces were verified to tile
        // its bytes; the prolog, root and epilog must tile the file.
        if prolog.count + range.count + epilog.count != bytes.count {
            throw ParseError(
                "internal: the parsed tree does not cover the file; refusing to edit it",
                at: SourceLocation(line: 1, column: 1))
        }
    }

    /// The cheap checks `init(parsing:)` starts with: empty, binary, UTF-16, JSON/OpenStep text,
    /// merge-conflict markers.
    public static func preflight(_ bytes: [UInt8]) throws(ParseError) {
        try Preflight.check(bytes)
    }

    /// Checks that `bytes` pass the preflight and are well-formed XML with no entity tricks,
    /// without building a tree or checking plist structure: for files no edit will touch.
    public static func checkWellFormed(_ bytes: [UInt8]) throws(ParseError) {
        try Preflight.check(bytes)
        try checkEncoding(bytes)
        let lines = LineTable(bytes)
        let checker = SAXTreeBuilder(source: bytes, lines: lines, buildTree: false)
        checker.run()
        if let failure = checker.failure {
            throw Preflight.explain(ParseError(failure.message, at: failure.location ?? lines.location(of: failure.offset ?? 0)), in: bytes)
        }
    }

    /// Parses UTF-8 text (convenience for tests and tools).
    public convenience init(parsing text: String) throws(ParseError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The document's bytes as they print now.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(prolog.count + epilog.count + 4096)
        out.append(contentsOf: prolog)
        root.write(to: &out)
        out.append(contentsOf: epilog)
        return out
    }

    /// The single value inside `<plist>` (validation guarantees there is one).
    public var rootValue: PlistElement {
        var values = root.childElements.makeIterator()
        return values.next()!
    }

    /// The decoded value tree of the whole document.
    public var value: PlistValue { PlistValue(rootValue) }

    /// libxml2 reads every file as UTF-8 here (`XML_PARSE_IGNORE_ENC`), which is exact for ASCII
    /// files whatever they declare, and wrong for non-ASCII text in another declared encoding.
    private static func checkEncoding(_ bytes: [UInt8]) throws(ParseError) {
        // Only a declared non-UTF-8 encoding needs the whole-file scan for non-ASCII bytes.
        guard let name = declaredEncoding(bytes.prefix(200)), !["utf-8", "utf8"].contains(name.lowercased()),
            !bytes.allSatisfy({ $0 < 0x80 })
        else { return }
        throw ParseError(
            "encoding \"\(name)\" is not supported for files with non-ASCII text; convert the file to UTF-8",
            at: SourceLocation(line: 1, column: 1), kind: .unsupported)
    }

    /// The `encoding` named in an XML declaration at the start of `prolog`, if any.
    static func declaredEncoding(_ prolog: ArraySlice<UInt8>) -> String? {
        let text = prolog.starts(with: Preflight.utf8BOM) ? prolog.dropFirst(3) : prolog
        guard text.starts(with: Array("<?xml".utf8)), let close = text.firstOffset(of: Array("?>".utf8)),
            let attribute = text[..<close].firstOffset(of: Array("encoding".utf8))
        else { return nil }
        let rest = text[(attribute + 8)..<close].drop { $0 == UInt8(ascii: "=") || ASCII.isWhitespace($0) }
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        return String(decoding: rest.dropFirst().prefix { $0 != quote }, as: UTF8.self)
    }
}

extension PlistDocument {
    /// Where `element` sits in the document's current bytes.
    public func byteRange(of element: PlistElement) -> Range<Int>? {
        var offset = prolog.count
        func walk(_ node: PlistElement) -> Range<Int>? {
            if node === element { return offset..<(offset + node.bytes.count) }
            offset += node.startTag.count
            for piece in node.pieces {
                switch piece {
                case .gap(let raw): offset += raw.count
                case .element(let child): if let found = walk(child) { return found }
                }
            }
            offset += node.endTag?.count ?? 0
            return nil
        }
        return walk(root)
    }
}

extension PlistDocument {
    /// The keys leading from the root value to `element` through dicts (`[]` for the root
    /// value itself); `nil` if it is not reachable through dicts alone.
    public func keyPath(of element: PlistElement) -> [String]? {
        // Builds the path on the way back out (innermost key first): no path copy per entry.
        func search(_ node: PlistElement) -> [String]? {
            if node === element { return [] }
            for entry in node.entries {
                if var found = search(entry.value) {
                    found.append(entry.name)
                    return found
                }
            }
            return nil
        }
        return search(rootValue).map { Array($0.reversed()) }
    }
}
