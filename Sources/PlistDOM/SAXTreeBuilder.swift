internal import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs libxml2's SAX2 parser over UTF-8 bytes and builds the flat tree of `Node`s with exact
/// byte spans.
///
/// libxml2 checks well-formedness and decodes text; the byte positions come from
/// `xmlByteConsumed` inside the element callbacks (see shared/notes/libxml2-lossless.md):
/// at a start tag it points at the closing `>` (or the `/` of `/>`), at an end tag just past
/// its `>`. Each span is verified against the bytes before the tree is handed out.
final class SAXTreeBuilder {
    static let maximumDepth = 512

    private struct Frame {
        let node: Int32
        /// The byte length of the element's name, for its end tag.
        let nameLength: Int
        /// Where the next child may start: the end of the start tag or of the last child.
        var cursor: Int
        var hasChildren = false
        /// Its first stray text is in `strayTexts` (plain data keeps the stack free of ARC).
        var hasStrayText = false
    }

    /// Keeps the first run of non-whitespace text directly inside the innermost container.
    private func noteStray<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) {
        let top = stack.count - 1
        guard !stack[top].hasStrayText, let first = bytes.firstIndex(where: { !ASCII.isWhitespace($0) }) else { return }
        let last = bytes.lastIndex(where: { !ASCII.isWhitespace($0) })!
        stack[top].hasStrayText = true
        strayTexts[stack[top].node] = String(decoding: bytes[first...last].prefix(40), as: UTF8.self)
    }

    private let source: [UInt8]
    /// `source`'s bytes while `run` parses: the callbacks read them without retaining the array.
    @exclusivity(unchecked) private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private let lines: LineTable
    // The callbacks run one at a time on one thread; the dynamic checks cost ~5% of a parse.
    @exclusivity(unchecked) private var stack = ScratchBuffer<Frame>(capacity: 16)
    /// Decoded character content of the innermost open element while it has no child element:
    /// only that element's text is kept (leaves do not nest), so one buffer serves the parse.
    @exclusivity(unchecked) private var text = ScratchBuffer<UInt8>(capacity: 256)
    @exclusivity(unchecked) private var tree: ScratchBuffer<Node>
    /// The elements in document order, the root's children after it.
    var nodes: [Node] { tree.array }
    /// Texts that differ from their raw content bytes (entities, CDATA, comments, `\r\n`).
    @exclusivity(unchecked) private(set) var texts: [Int32: String] = [:]
    @exclusivity(unchecked) private(set) var strayTexts: [Int32: String] = [:]
    private(set) var rootIndex: Int32?
    @exclusivity(unchecked) private(set) var failure: (message: String, offset: Int?, location: SourceLocation?)?
    @exclusivity(unchecked) private var context: xmlParserCtxtPtr?

    /// With `buildTree` false only well-formedness (and entity refusal) is checked.
    private let buildTree: Bool

    /// SAX2 mode (namespaces resolved) or SAX1.
    let resolvesNamespaces: Bool
    /// libxml2 reads a standard DOCTYPE rather than spaces in its place (for tests).
    private let readsDoctype: Bool

    private init(source: [UInt8], lines: LineTable, buildTree: Bool, resolvesNamespaces: Bool, readsDoctype: Bool) {
        self.source = source
        self.lines = lines
        self.buildTree = buildTree
        self.resolvesNamespaces = resolvesNamespaces
        self.readsDoctype = readsDoctype
        tree = ScratchBuffer(capacity: buildTree ? source.count / 40 + 8 : 0)
    }

    deinit {
        stack.deallocate()
        text.deallocate()
        tree.deallocate()
    }

    /// Parses `source`; on return either `rootIndex` is set or `failure` says why not.
    ///
    /// libxml2's SAX1 mode reads a document about 8% faster than SAX2, which also resolves
    /// namespaces. Plists use none, and a document SAX1 reads without error, with no `:` in an
    /// element, attribute, processing-instruction or notation name, no `xmlns` attribute and no
    /// attribute declaration, is read by SAX2 with the same callbacks at the same byte
    /// positions (checked on 850,000 corpus files and mutations of them). Anything else is read
    /// again, by a builder in SAX2 mode, whose result then stands, errors included.
    /// - Parameter alwaysResolvingNamespaces: SAX2 mode only (tests compare the two).
    /// - Parameter readingDoctype: libxml2 reads a standard DOCTYPE too (tests compare the two;
    ///   see `blankStandardDoctype`).
    static func parse(
        _ source: [UInt8], lines: LineTable, buildTree: Bool = true, alwaysResolvingNamespaces: Bool = false, readingDoctype: Bool = false
    ) -> SAXTreeBuilder {
        installRefusingEntityLoader
        if !alwaysResolvingNamespaces {
            let fast = SAXTreeBuilder(source: source, lines: lines, buildTree: buildTree, resolvesNamespaces: false, readsDoctype: readingDoctype)
            if fast.run() { return fast }
        }
        let full = SAXTreeBuilder(source: source, lines: lines, buildTree: buildTree, resolvesNamespaces: true, readsDoctype: readingDoctype)
        _ = full.run()
        return full
    }

    /// Whether the parse without namespaces saw a name that namespaces would read differently.
    @exclusivity(unchecked) private var usesNamespaces = false

    /// One parse; whether its result stands (always in SAX2 mode).
    private func run() -> Bool {
        let parsed: Bool = source.withUnsafeBufferPointer { buffer in
            guard let ctxt = ParserContexts.shared.take(namespaces: resolvesNamespaces, reading: buffer) else {
                fail("libxml2 could not create a parser")
                return false
            }
            context = ctxt
            bytes = buffer
            if !readsDoctype { SAXTreeBuilder.blankStandardDoctype(ctxt, source: buffer) }
            defer {
                ParserContexts.shared.give(ctxt, namespaces: resolvesNamespaces)
                context = nil
                bytes = UnsafeBufferPointer(start: nil, count: 0)
            }
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
            xmlCtxtUseOptions(ctxt, options)
            SAXTreeBuilder.stopReadingMore(ctxt)
            SAXTreeBuilder.installHandlers(on: ctxt, buildTree: buildTree, namespaces: resolvesNamespaces)
            ctxt.pointee._private = Unmanaged.passUnretained(self).toOpaque()
            xmlParseDocument(ctxt)
            return ctxt.pointee.wellFormed != 0
        }
        guard resolvesNamespaces || (failure == nil && !usesNamespaces && parsed && (!buildTree || rootIndex != nil)) else { return false }
        if failure == nil && (!parsed || (buildTree && rootIndex == nil)) {
            fail("not well-formed XML")
        }
        return true
    }

    /// Apple's DOCTYPE as Xcode writes it (and as older tools wrote it), byte for byte.
    static let standardDoctypes: [[UInt8]] = [
        Array(#"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#.utf8),
        Array(#"<!DOCTYPE plist PUBLIC "-//Apple Computer//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#.utf8),
    ]

    /// Where the prolog's DOCTYPE is, when it is one of `standardDoctypes`: after a BOM, the
    /// XML declaration and white space, if any.
    static func standardDoctype(in source: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let base = source.baseAddress else { return nil }
        // By `memcmp`: `starts(with:)` on a slice compares a byte at a time, generically.
        func holds(_ bytes: [UInt8], at offset: Int) -> Bool {
            offset + bytes.count <= source.count && memcmp(base + offset, bytes, bytes.count) == 0
        }
        var at = holds(byteOrderMark, at: 0) ? 3 : 0
        if holds(xmlDeclarationStart, at: at) {
            // Past its `?>`.
            at += 5
            while at + 1 < source.count, !(source[at] == UInt8(ascii: "?") && source[at + 1] == ASCII.gt) { at += 1 }
            guard at + 1 < source.count else { return nil }
            at += 2
        }
        while at < source.count, ASCII.isWhitespace(source[at]) { at += 1 }
        for doctype in standardDoctypes where holds(doctype, at: at) { return at..<(at + doctype.count) }
        return nil
    }
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF], xmlDeclarationStart = Array("<?xml".utf8)

    /// Blanks a standard DOCTYPE (`standardDoctypes`) with spaces in libxml2's copy of the
    /// input, before it reads a byte. The DOCTYPE names only an external subset, which the
    /// parser never loads: reading it changes nothing but costs libxml2 about 7,000 instructions,
    /// char by char. Spaces of the same length keep every offset, line and column; the source
    /// the spans are checked against keeps its DOCTYPE.
    private static func blankStandardDoctype(_ ctxt: xmlParserCtxtPtr, source: UnsafeBufferPointer<UInt8>) {
        guard let range = standardDoctype(in: source), let input = ctxt.pointee.input, let base = input.pointee.base,
            let end = input.pointee.end, input.pointee.cur == base, end - base == source.count
        else { return }
        memset(UnsafeMutablePointer(mutating: base) + range.lowerBound, Int32(UInt8(ascii: " ")), range.count)
    }

    /// Tells libxml2 that its input, already all in memory, has nothing more to read.
    ///
    /// A memory parser keeps a read callback that reads nothing, so once the parser is within
    /// 250 bytes of the end, every look-ahead check calls it and grows the buffer again: about
    /// a hundred calls per plist, 4% of a run. Without the callback each check returns at once.
    /// libxml2 2.9 lets only that callback exceed its 10 MB look-up limit, so larger documents
    /// keep it (and are read exactly as before).
    private static func stopReadingMore(_ ctxt: xmlParserCtxtPtr) {
        guard let input = ctxt.pointee.input, let buffer = input.pointee.buf,
            let end = input.pointee.end, let base = input.pointee.base,
            end - base <= Int(XML_MAX_LOOKUP_LIMIT)
        else { return }
        buffer.pointee.readcallback = nil
    }

    /// In SAX1 mode: a name with a `:` (or an `xmlns` attribute) means namespaces matter; the
    /// parse stops and is done again in SAX2 mode.
    fileprivate func noteNamespaces() {
        usesNamespaces = true
        if let context { xmlStopParser(context) }
    }

    fileprivate func startElement(name: UnsafePointer<xmlChar>, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard failure == nil, !usesNamespaces else { return }
        let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
        if memchr(name, Int32(UInt8(ascii: ":")), length) != nil || Self.namesNamespaces(attributes) { return noteNamespaces() }
        if buildTree { startElement(plistKind(name, length: length), nameLength: length, localName: name) }
    }

    /// Whether an attribute name (`atts` alternates names and values) holds a `:` or is `xmlns`.
    private static func namesNamespaces(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) -> Bool {
        guard let attributes else { return false }
        var index = 0
        while let name = attributes[index] {
            if strchr(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self), Int32(UInt8(ascii: ":"))) != nil
                || strcmp(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self), "xmlns") == 0
            { return true }
            index += 2
        }
        return false
    }

    // MARK: - Callbacks

    private var consumed: Int {
        guard let context else { return 0 }
        // What `xmlByteConsumed` computes when no encoder converts the input (ours is UTF-8,
        // read as is), without its call: it is asked twice per element.
        guard let input = context.pointee.input, input.pointee.buf?.pointee.encoder == nil,
            let cur = input.pointee.cur, let base = input.pointee.base
        else { return Int(xmlByteConsumed(context)) }
        return Int(input.pointee.consumed) + (cur - base)
    }

    fileprivate func startElement(_ kind: NodeKind, nameLength: Int, localName: UnsafePointer<xmlChar>) {
        guard failure == nil else { return }
        if stack.count >= SAXTreeBuilder.maximumDepth {
            fail("nesting deeper than \(SAXTreeBuilder.maximumDepth) levels", at: consumed)
            return
        }
        let position = consumed
        guard nameLength > 0, position < bytes.count, bytes[position] == ASCII.gt || bytes[position] == ASCII.slash
        else { return failSpan(saxString(localName), at: position) }
        let selfClosing = bytes[position] == ASCII.slash
        let tagEnd = position + (selfClosing ? 2 : 1)
        guard tagEnd <= bytes.count else { return failSpan(saxString(localName), at: position) }
        // A tag without attributes (nearly all) starts a name's length before its end: a `<`
        // there with the name after it is the last `<` a search back would find.
        let guess = position - nameLength - 1
        let tagStart: Int
        if guess >= 0, bytes[guess] == ASCII.lt, verifyStartTag(guess..<tagEnd, name: localName, nameLength: nameLength) {
            tagStart = guess
        } else {
            guard let found = lastOpeningBracket(in: 0..<position),
                verifyStartTag(found..<tagEnd, name: localName, nameLength: nameLength)
            else { return failSpan(saxString(localName), at: position) }
            tagStart = found
        }
        guard stack.last.map({ tagStart >= $0.cursor }) ?? true else { return failSpan(saxString(localName), at: position) }
        let index = Int32(tree.count)
        var node = Node(
            kind: kind, isSelfClosing: selfClosing, start: Int32(tagStart), startTagEnd: Int32(tagEnd),
            endTagStart: Int32(tagEnd), end: Int32(tagEnd))
        if let parent = stack.last?.node {
            node.parent = parent
            let previous = tree[Int(parent)].lastChild
            node.previous = previous
            if previous >= 0 { tree[Int(previous)].next = index } else { tree[Int(parent)].firstChild = index }
            tree[Int(parent)].lastChild = index
            if !stack[stack.count - 1].hasChildren {
                // Its first child makes the parent a container: its text so far is only checked.
                stack[stack.count - 1].hasChildren = true
                tree[Int(parent)].hadChildElements = true
                noteStray(text.buffer)
            }
        }
        tree.append(node)
        text.removeAll()
        stack.append(Frame(node: index, nameLength: nameLength, cursor: tagEnd))
    }

    /// The offset of the last `<` in `range` of the source (a tag's length back, as a rule).
    private func lastOpeningBracket(in range: Range<Int>) -> Int? {
        var offset = range.upperBound
        while offset > range.lowerBound {
            offset -= 1
            if bytes[offset] == ASCII.lt { return offset }
        }
        return nil
    }

    fileprivate func endElement() {
        guard failure == nil, let frame = stack.popLast() else { return }
        let index = Int(frame.node)
        let end = consumed
        if tree[index].isSelfClosing {
            guard end == Int(tree[index].end) else { return failSpan(name(of: index), at: end) }
        } else {
            guard end <= bytes.count, end > frame.cursor else { return failSpan(name(of: index), at: end) }
            // `</name>` (nearly every end tag) starts its length before its end, as above.
            let guess = end - frame.nameLength - 3
            let start: Int
            if guess >= frame.cursor, verifyEndTag(guess..<end, of: index, nameLength: frame.nameLength) {
                start = guess
            } else {
                guard let found = lastOpeningBracket(in: frame.cursor..<end),
                    verifyEndTag(found..<end, of: index, nameLength: frame.nameLength)
                else { return failSpan(name(of: index), at: end) }
                start = found
            }
            tree[index].endTagStart = Int32(start)
            tree[index].end = Int32(end)
            if !frame.hasChildren {
                let raw = UnsafeBufferPointer(rebasing: bytes[Int(tree[index].startTagEnd)..<start])
                let same = text.count == raw.count && (raw.isEmpty || memcmp(text.base, raw.baseAddress!, raw.count) == 0)
                if !same {
                    texts[frame.node] = String(decoding: text.buffer, as: UTF8.self)
                    tree[index].hasStoredText = true
                }
            }
        }
        text.removeAll()
        if stack.isEmpty {
            rootIndex = frame.node
        } else {
            stack[stack.count - 1].cursor = end
        }
    }

    fileprivate func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil, stack.count > 0 else { return }
        let top = stack.count - 1
        if stack[top].hasChildren {
            // Whitespace between elements (nearly every call): checked where it lies, not copied,
            // and not at all once the container's first stray text is kept.
            if !stack[top].hasStrayText, !bytes.isAllWhitespace { noteStray(bytes) }
        } else {
            text.append(contentsOf: bytes)
        }
    }

    fileprivate func fail(_ message: String, at offset: Int? = nil, location: SourceLocation? = nil) {
        guard failure == nil else { return }
        var location = location
        if offset == nil, location == nil, let context {
            location = SourceLocation(
                line: Int(xmlSAX2GetLineNumber(context)), column: max(Int(xmlSAX2GetColumnNumber(context)), 1))
        }
        failure = (message, offset, location)
        if let context { xmlStopParser(context) }
    }

    /// libxml2's positions are checked against the bytes before they are used: `<name` opens
    /// the start tag and `>` closes it, `</name` opens the end tag and `>` closes it, and each
    /// child starts at or after the end of the one before. So the spans tile the file and
    /// printing the untouched tree is its source, by construction.
    private func verifyStartTag(_ tag: Range<Int>, name: UnsafePointer<xmlChar>, nameLength: Int) -> Bool {
        guard bytes[tag.lowerBound] == ASCII.lt, bytes[tag.upperBound - 1] == ASCII.gt,
            tag.lowerBound + 1 + nameLength < tag.upperBound,
            memcmp(bytes.baseAddress! + tag.lowerBound + 1, name, nameLength) == 0
        else { return false }
        let afterName = bytes[tag.lowerBound + 1 + nameLength]
        return ASCII.isWhitespace(afterName) || afterName == ASCII.gt || afterName == ASCII.slash
    }

    private func verifyEndTag(_ tag: Range<Int>, of index: Int, nameLength: Int) -> Bool {
        let nameStart = Int(tree[index].start) + 1
        guard tag.count >= nameLength + 3, bytes[tag.lowerBound] == ASCII.lt, bytes[tag.lowerBound + 1] == ASCII.slash,
            bytes[tag.upperBound - 1] == ASCII.gt
        else { return false }
        return memcmp(bytes.baseAddress! + nameStart, bytes.baseAddress! + tag.lowerBound + 2, nameLength) == 0
    }

    private func failSpan(_ name: String, at offset: Int) {
        fail("could not map <\(name)> to its exact bytes; refusing to edit this file", at: offset)
    }

    private func name(of index: Int) -> String {
        if let name = tree[index].kind.name { return name }
        let tag = source[(Int(tree[index].start) + 1)..<Int(tree[index].startTagEnd)]
        return String(decoding: tag.prefix { !ASCII.isWhitespace($0) && $0 != ASCII.gt && $0 != ASCII.slash && $0 != UInt8(ascii: ":") }, as: UTF8.self)
    }

    // MARK: - libxml2 wiring

    /// The parser never reads anything but the bytes it was given.
    private static let installRefusingEntityLoader: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    private static func installHandlers(on ctxt: xmlParserCtxtPtr, buildTree: Bool, namespaces: Bool) {
        guard let sax = ctxt.pointee.sax else { return }
        // A context used before: libxml2's own handlers first, as a new context has them.
        xmlSAXVersion(sax, 2)
        defer {
            if !buildTree {
                sax.pointee.startElementNs = nil
                sax.pointee.endElementNs = nil
                sax.pointee.endElement = nil
                sax.pointee.characters = nil
                sax.pointee.ignorableWhitespace = nil
                sax.pointee.cdataBlock = nil
            }
        }
        if namespaces {
            sax.pointee.startElementNs = { ctx, localname, prefix, _, _, _, _, _, _ in
                let (kind, length) = elementKind(localname, prefix: prefix)
                guard let localname else { return }
                withSAXBuilder(ctx) { $0.startElement(kind, nameLength: length, localName: localname) }
            }
            sax.pointee.endElementNs = { ctx, _, _, _ in
                withSAXBuilder(ctx) { $0.endElement() }
            }
        } else {
            sax.pointee.startElementNs = nil
            sax.pointee.endElementNs = nil
            sax.pointee.startElement = { ctx, name, attributes in
                guard let name else { return }
                withSAXBuilder(ctx) { $0.startElement(name: name, attributes: attributes) }
            }
            sax.pointee.endElement = { ctx, _ in
                withSAXBuilder(ctx) { $0.endElement() }
            }
            // Names SAX2 checks for namespaces where SAX1 does not look.
            sax.pointee.processingInstruction = { ctx, target, _ in
                guard let target, strchr(UnsafeRawPointer(target).assumingMemoryBound(to: CChar.self), Int32(UInt8(ascii: ":"))) != nil
                else { return }
                saxBuilder(ctx)?.noteNamespaces()
            }
            sax.pointee.notationDecl = { ctx, _, _, _ in saxBuilder(ctx)?.noteNamespaces() }
            sax.pointee.attributeDecl = { ctx, _, _, _, _, _, tree in
                // The handler owns the enumeration.
                if let tree { xmlFreeEnumeration(tree) }
                saxBuilder(ctx)?.noteNamespaces()
            }
            sax.pointee.initialized = 1
            ctxt.pointee.sax2 = 0
        }
        let text: charactersSAXFunc = { ctx, chars, length in
            guard let chars, length > 0 else { return }
            withSAXBuilder(ctx) { $0.characters(UnsafeBufferPointer(start: chars, count: Int(length))) }
        }
        sax.pointee.characters = text
        sax.pointee.ignorableWhitespace = text
        sax.pointee.cdataBlock = text
        sax.pointee.entityDecl = { ctx, name, _, _, _, _ in
            saxBuilder(ctx)?.fail("entity declarations are not allowed in a property list (\(saxString(name)))")
        }
        sax.pointee.unparsedEntityDecl = { ctx, name, _, _, _ in
            saxBuilder(ctx)?.fail("entity declarations are not allowed in a property list (\(saxString(name)))")
        }
        sax.pointee.getEntity = { ctx, name in
            saxBuilder(ctx)?.fail("undefined entity &\(saxString(name));")
            return nil
        }
        sax.pointee.getParameterEntity = { ctx, name in
            saxBuilder(ctx)?.fail("parameter entity %\(saxString(name)); is not allowed")
            return nil
        }
        sax.pointee.reference = { ctx, name in
            saxBuilder(ctx)?.fail("undefined entity &\(saxString(name));")
        }
        sax.pointee.externalSubset = { _, _, _, _ in }
        sax.pointee.resolveEntity = { _, _, _ in nil }
        sax.pointee.warning = nil
        sax.pointee.error = nil
        sax.pointee.fatalError = nil
        sax.pointee.serror = { ctx, error in
            guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
                let builder = saxBuilder(ctx)
            else { return }
            var message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed XML"
            // One line: some messages go on with the file's text after a line break.
            if let newline = message.firstIndex(where: \.isNewline) { message = String(message[..<newline]) }
            while message.last?.isWhitespace == true { message.removeLast() }
            if message.hasPrefix("internal error: ") {
                // libxml2 words some errors of the file as its own ("internal error: …"): said
                // plainly, as the file's error ("internal error" is for our own bugs only).
                message = SAXTreeBuilder.plainWords(forLibxml2Internal: String(message.dropFirst("internal error: ".count)), source: builder.bytes)
            } else if message.hasPrefix("Excessive depth in document") {
                message = "nesting too deep (libxml2 allows 256 levels)"
            } else if message.hasPrefix("Input is not proper UTF-8") {
                message = "invalid UTF-8: the file must be UTF-8 encoded"
            } else if let code = SAXTreeBuilder.disallowedCharacter(in: message) {
                let hex = String(code, radix: 16, uppercase: true)
                message = "character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) is not allowed in XML"
                    + (code < 0x20 ? " (a control character: only tab, line feed and carriage return are allowed)" : "")
            }
            let line = Int(error.pointee.line)
            let column = Int(error.pointee.int2)
            builder.fail(
                message,
                location: line > 0 ? SourceLocation(line: line, column: max(column, 1)) : nil)
        }
    }
}

extension SAXTreeBuilder {
    /// What libxml2 calls an internal error, said as what is wrong with the file: a DOCTYPE
    /// whose internal subset holds something that is not a declaration, a file cut short inside
    /// a UTF-8 character, or else content that is not well-formed.
    static func plainWords(forLibxml2Internal message: String, source: UnsafeBufferPointer<UInt8>) -> String {
        if message.contains("InternalSubset") {
            return "the DOCTYPE's internal subset ([…]) holds something that is not a markup declaration"
        }
        if endsInsideAUTF8Character(source) {
            return "the file ends in the middle of a UTF-8 character: it was cut short"
        }
        if message.contains("element content") {
            return "not well-formed XML in an element's content (a broken tag or character there)"
        }
        // Whatever else libxml2 words so: its own words, without its function's name.
        let words = message.split(separator: ":", maxSplits: 1).last.map { String($0.drop { $0 == " " }) } ?? message
        return "not well-formed XML (\(words))"
    }

    /// Whether the last bytes start a UTF-8 sequence that the file does not finish.
    static func endsInsideAUTF8Character(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Back over at most three continuation bytes to the sequence's first byte.
        var index = bytes.count - 1, continuations = 0
        while index >= 0, continuations < 4, bytes[index] & 0xC0 == 0x80 {
            index -= 1
            continuations += 1
        }
        guard index >= 0 else { return false }
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return length > 1 && continuations < length - 1
    }

    /// The code point in libxml2's "Char 0xD800 out of allowed range" or "PCDATA invalid Char
    /// value 1".
    static func disallowedCharacter(in message: String) -> UInt32? {
        if message.hasPrefix("Char 0x"), message.hasSuffix(" out of allowed range") {
            return UInt32(message.dropFirst(7).prefix { $0.isHexDigit }, radix: 16)
        }
        if let range = message.firstRange(of: "invalid Char value ") {
            return UInt32(message[range.upperBound...].prefix { $0.isNumber })
        }
        return nil
    }
}

private func saxBuilder(_ ctx: UnsafeMutableRawPointer?) -> SAXTreeBuilder? {
    guard let ctx else { return nil }
    let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let raw = ctxt.pointee._private else { return nil }
    return Unmanaged<SAXTreeBuilder>.fromOpaque(raw).takeUnretainedValue()
}

/// An element's kind and the byte length of its name.
private func elementKind(_ pointer: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> (kind: NodeKind, length: Int) {
    // A prefixed name (`x:dict`) is refused: length 0 fails the span check, as plists never use one.
    guard let pointer, prefix == nil else { return (.other, 0) }
    let length = strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
    return (plistKind(pointer, length: length), length)
}

/// The plist vocabulary, told apart by length and first letter before any bytes are compared
/// (no String is built for an element).
private func plistKind(_ name: UnsafePointer<UInt8>, length: Int) -> NodeKind {
    func spells(_ word: StaticString) -> Bool { memcmp(name, word.utf8Start, length) == 0 }
    switch (length, name[0]) {
    case (3, UInt8(ascii: "k")): return spells("key") ? .key : .other
    case (4, UInt8(ascii: "d")): return spells("dict") ? .dict : spells("date") ? .date : spells("data") ? .data : .other
    case (4, UInt8(ascii: "t")): return spells("true") ? .true : .other
    case (4, UInt8(ascii: "r")): return spells("real") ? .real : .other
    case (5, UInt8(ascii: "f")): return spells("false") ? .false : .other
    case (5, UInt8(ascii: "a")): return spells("array") ? .array : .other
    case (5, UInt8(ascii: "p")): return spells("plist") ? .plist : .other
    case (6, UInt8(ascii: "s")): return spells("string") ? .string : .other
    case (7, UInt8(ascii: "i")): return spells("integer") ? .integer : .other
    default: return .other
    }
}

/// Runs `body` on the builder without retaining it: the parse that calls back is inside
/// `run`, which holds it (the three callbacks that run per element and text run).
@inline(__always)
private func withSAXBuilder(_ ctx: UnsafeMutableRawPointer?, _ body: (SAXTreeBuilder) -> Void) {
    guard let ctx, let raw = ctx.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return }
    Unmanaged<SAXTreeBuilder>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
}

private func saxString(_ pointer: UnsafePointer<xmlChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

/// Parser contexts kept between parses: making one (its dictionary of names, stacks and
/// handler table) and freeing it costs more than resetting it (`xmlCtxtReset`, then a new
/// input, as `xmlCtxtReadMemory` does; the handlers are set afresh for every parse). A context
/// serves one parse at a time, and only parses of one mode: libxml2's SAX1 start-tag reader
/// grows the attribute table without the side table SAX2's reader then relies on. Its input
/// (a copy of the file) is freed when the parse ends. Names parsed before stay in its
/// dictionary, which libxml2 limits to 10 MB: a context whose dictionary holds more than 64 KB
/// (a plist's own names take well under 1 KB) is freed rather than kept, so a later file meets
/// that limit as in a new context, give or take 64 KB.
final class ParserContexts: @unchecked Sendable {
    static let shared = ParserContexts()
    // The idle contexts, for SAX1 parses ([0]) and for SAX2 parses ([1]): read and written under `lock`.
    private var idle: [[xmlParserCtxtPtr]] = [[], []]
    private let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()
    private static let keptAtMost = 8, dictionaryBytesKept = 64 << 10

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    /// A context for one parse in the given mode, reading `bytes` (copied into its input);
    /// `nil` when libxml2 cannot make one.
    func take(namespaces: Bool, reading bytes: UnsafeBufferPointer<UInt8>) -> xmlParserCtxtPtr? {
        let mode = namespaces ? 1 : 0
        let ctxt: xmlParserCtxtPtr
        if let kept = locked({ idle[mode].popLast() }) {
            xmlCtxtReset(kept)
            ctxt = kept
        } else {
            guard let made = xmlNewParserCtxt() else { return nil }
            ctxt = made
        }
        guard let base = bytes.baseAddress, let input = base.withMemoryRebound(to: CChar.self, capacity: bytes.count, {
            xmlParserInputBufferCreateMem($0, Int32(bytes.count), XML_CHAR_ENCODING_NONE)
        }) else {
            give(ctxt, namespaces: namespaces)
            return nil
        }
        // The input buffer belongs to the stream once it is made (and to no one if it is not).
        guard let stream = xmlNewIOInputStream(ctxt, input, XML_CHAR_ENCODING_NONE) else {
            xmlFreeParserInputBuffer(input)
            give(ctxt, namespaces: namespaces)
            return nil
        }
        inputPush(ctxt, stream)
        return ctxt
    }

    /// How many contexts wait for a parse (for tests).
    var idleCount: Int { locked { idle[0].count + idle[1].count } }

    /// Back after a parse of the given mode: the document libxml2's default handlers began and
    /// the input freed, the context kept or freed.
    func give(_ ctxt: xmlParserCtxtPtr, namespaces: Bool) {
        if let doc = ctxt.pointee.myDoc { xmlFreeDoc(doc) }
        ctxt.pointee.myDoc = nil
        while let input = inputPop(ctxt) { xmlFreeInputStream(input) }
        guard xmlDictGetUsage(ctxt.pointee.dict) <= Self.dictionaryBytesKept else { return xmlFreeParserCtxt(ctxt) }
        let mode = namespaces ? 1 : 0
        let kept = locked { () -> Bool in
            guard idle[mode].count < Self.keptAtMost else { return false }
            idle[mode].append(ctxt)
            return true
        }
        if !kept { xmlFreeParserCtxt(ctxt) }
    }
}
