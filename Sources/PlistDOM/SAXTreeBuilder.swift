internal import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs libxml2's SAX2 parser over UTF-8 bytes and builds `PlistElement`s with exact byte spans.
///
/// libxml2 checks well-formedness and decodes text; the byte positions come from
/// `xmlByteConsumed` inside the element callbacks (see shared/notes/libxml2-lossless.md):
/// at a start tag it points at the closing `>` (or the `/` of `/>`), at an end tag just past
/// its `>`. Each span is verified against the bytes before the tree is handed out.
final class SAXTreeBuilder {
    static let maximumDepth = 512

    private struct Frame {
        let name: String
        let kind: PlistKind?
        let startTag: Range<Int>
        let selfClosing: Bool
        /// Where this element's pieces start in the builder's shared `pieces` buffer.
        let firstPiece: Int
        var cursor: Int
        var hasChildren = false
        /// Bytes covered by `pieces`, to prove they tile the element exactly.
        var contentLength = 0
        var strayText: String?


        mutating func noteStray(_ bytes: ArraySlice<UInt8>) {
            guard strayText == nil, let first = bytes.firstIndex(where: { !ASCII.isWhitespace($0) }) else { return }
            let last = bytes.lastIndex(where: { !ASCII.isWhitespace($0) })!
            strayText = String(decoding: bytes[first...last].prefix(40), as: UTF8.self)
        }
    }

    private let source: [UInt8]
    private let lines: LineTable
    // The callbacks run one at a time on one thread; the dynamic checks cost ~5% of a parse.
    @exclusivity(unchecked) private var stack: [Frame] = []
    /// Character content of the innermost open element while it has no child element: only
    /// that element's text is kept (leaves do not nest), so one buffer serves the whole parse.
    @exclusivity(unchecked) private var text: [UInt8] = []
    /// The pieces of every open element, innermost last; an element takes its own (one exact
    /// allocation) when it closes.
    @exclusivity(unchecked) private var pieces: [PlistElement.Piece] = []
    private(set) var root: PlistElement?
    private(set) var rootRange: Range<Int>?
    private(set) var failure: (message: String, offset: Int?, location: SourceLocation?)?
    private var context: xmlParserCtxtPtr?

    /// With `buildTree` false only well-formedness (and entity refusal) is checked.
    private let buildTree: Bool

    init(source: [UInt8], lines: LineTable, buildTree: Bool = true) {
        self.source = source
        self.lines = lines
        self.buildTree = buildTree
    }

    /// Parses; on return either `root` is set or `failure` says why not.
    func run() {
        SAXTreeBuilder.installRefusingEntityLoader
        let parsed: Bool = source.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress,
                let ctxt = base.withMemoryRebound(to: CChar.self, capacity: buffer.count, {
                    xmlCreateMemoryParserCtxt($0, Int32(buffer.count))
                })
            else {
                fail("libxml2 could not create a parser")
                return false
            }
            context = ctxt
            defer {
                if let doc = ctxt.pointee.myDoc { xmlFreeDoc(doc) }
                ctxt.pointee.myDoc = nil
                xmlFreeParserCtxt(ctxt)
                context = nil
            }
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
            xmlCtxtUseOptions(ctxt, options)
            SAXTreeBuilder.installHandlers(on: ctxt, buildTree: buildTree)
            ctxt.pointee._private = Unmanaged.passUnretained(self).toOpaque()
            xmlParseDocument(ctxt)
            return ctxt.pointee.wellFormed != 0
        }
        if failure == nil && (!parsed || (buildTree && root == nil)) {
            fail("not well-formed XML")
        }
    }

    // MARK: - Callbacks

    private var consumed: Int {
        guard let context else { return 0 }
        return Int(xmlByteConsumed(context))
    }

    fileprivate func startElement(_ name: String, kind: PlistKind?) {
        guard failure == nil else { return }
        if stack.count >= SAXTreeBuilder.maximumDepth {
            fail("nesting deeper than \(SAXTreeBuilder.maximumDepth) levels", at: consumed)
            return
        }
        let position = consumed
        guard position < source.count, source[position] == ASCII.gt || source[position] == ASCII.slash
        else { return failSpan(name, at: position) }
        let selfClosing = source[position] == ASCII.slash
        let tagEnd = position + (selfClosing ? 2 : 1)
        guard let tagStart = source[..<position].lastIndex(of: ASCII.lt), tagEnd <= source.count
        else { return failSpan(name, at: position) }
        appendGap(upTo: tagStart)
        if !stack.isEmpty, !stack[stack.count - 1].hasChildren {
            // Its first child makes the parent a container: its text so far is only checked.
            stack[stack.count - 1].hasChildren = true
            stack[stack.count - 1].noteStray(text[...])
        }
        text.removeAll(keepingCapacity: true)
        stack.append(Frame(
            name: name, kind: kind, startTag: tagStart..<tagEnd,
            selfClosing: selfClosing, firstPiece: pieces.count, cursor: tagEnd))
    }

    fileprivate func endElement() {
        guard failure == nil, var frame = stack.popLast() else { return }
        let end = consumed
        let endTag: Range<Int>?
        if frame.selfClosing {
            guard end == frame.startTag.upperBound else { return failSpan(frame.name, at: end) }
            endTag = nil
        } else {
            guard end <= source.count, end > frame.cursor,
                let start = source[frame.cursor..<end].lastIndex(of: ASCII.lt)
            else { return failSpan(frame.name, at: end) }
            if start > frame.cursor {
                pieces.append(.gap(source[frame.cursor..<start]))
                frame.contentLength += start - frame.cursor
            }
            endTag = start..<end
        }
        let element = PlistElement(
            name: frame.name,
            startTag: source[frame.startTag],
            endTag: endTag.map { source[$0] },
            pieces: Array(pieces[frame.firstPiece...]),
            text: frame.hasChildren ? "" : String(decoding: text, as: UTF8.self),
            sourceOffset: frame.startTag.lowerBound, kind: frame.kind)
        text.removeAll(keepingCapacity: true)
        pieces.removeSubrange(frame.firstPiece...)
        element.lines = lines
        element.strayText = frame.strayText
        let elementEnd = endTag?.upperBound ?? frame.startTag.upperBound
        guard verify(frame, endTag: endTag, elementEnd: elementEnd) else { return failSpan(frame.name, at: frame.startTag.lowerBound) }
        if stack.isEmpty {
            root = element
            rootRange = frame.startTag.lowerBound..<elementEnd
        } else {
            pieces.append(.element(element))
            stack[stack.count - 1].contentLength += elementEnd - frame.startTag.lowerBound
            stack[stack.count - 1].cursor = elementEnd
        }
    }

    fileprivate func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil, !stack.isEmpty else { return }
        if stack[stack.count - 1].hasChildren {
            stack[stack.count - 1].noteStray(ArraySlice(bytes))
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

    private func appendGap(upTo offset: Int) {
        guard !stack.isEmpty else { return }
        let cursor = stack[stack.count - 1].cursor
        if offset > cursor {
            pieces.append(.gap(source[cursor..<offset]))
            stack[stack.count - 1].contentLength += offset - cursor
        }
    }

    /// The spans libxml2's positions gave are checked against the bytes before they are used:
    /// `<name` opens the start tag and `>` closes it, `</name` opens the end tag and `>` closes
    /// it, and start tag + pieces + end tag cover the element's bytes exactly, with no gap or
    /// overlap. So printing the untouched element is its source, by construction.
    private func verify(_ frame: Frame, endTag: Range<Int>?, elementEnd: Int) -> Bool {
        let name = frame.name.utf8
        let start = frame.startTag
        guard source[start.lowerBound] == ASCII.lt,
            sourceHas(frame.name, at: start.lowerBound + 1),
            source[start.upperBound - 1] == ASCII.gt,
            start.lowerBound + 1 + name.count < start.upperBound
        else { return false }
        let afterName = source[start.lowerBound + 1 + name.count]
        guard ASCII.isWhitespace(afterName) || afterName == ASCII.gt || afterName == ASCII.slash else { return false }
        if let endTag {
            guard source[endTag.lowerBound] == ASCII.lt, source[endTag.lowerBound + 1] == ASCII.slash,
                sourceHas(frame.name, at: endTag.lowerBound + 2), source[endTag.upperBound - 1] == ASCII.gt
            else { return false }
        }
        let covered = start.count + frame.contentLength + (endTag?.count ?? 0)
        return covered == elementEnd - frame.startTag.lowerBound
    }

    private func sourceHas(_ name: String, at offset: Int) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            offset + bytes.count <= source.count
                && source.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset, bytes.baseAddress!, bytes.count) == 0 }
        }
    }

    private func failSpan(_ name: String, at offset: Int) {
        fail("could not map <\(name)> to its exact bytes; refusing to edit this file", at: offset)
    }

    // MARK: - libxml2 wiring

    /// The parser never reads anything but the bytes it was given.
    private static let installRefusingEntityLoader: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    private static func installHandlers(on ctxt: xmlParserCtxtPtr, buildTree: Bool) {
        guard let sax = ctxt.pointee.sax else { return }
        defer {
            if !buildTree {
                sax.pointee.startElementNs = nil
                sax.pointee.endElementNs = nil
                sax.pointee.characters = nil
                sax.pointee.ignorableWhitespace = nil
                sax.pointee.cdataBlock = nil
            }
        }
        sax.pointee.startElementNs = { ctx, localname, _, _, _, _, _, _, _ in
            let (name, kind) = elementName(localname)
            saxBuilder(ctx)?.startElement(name, kind: kind)
        }
        sax.pointee.endElementNs = { ctx, _, _, _ in
            saxBuilder(ctx)?.endElement()
        }
        let text: charactersSAXFunc = { ctx, chars, length in
            guard let chars, length > 0 else { return }
            saxBuilder(ctx)?.characters(UnsafeBufferPointer(start: chars, count: Int(length)))
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
            while message.last?.isWhitespace == true { message.removeLast() }
            if message.hasPrefix("Excessive depth in document") {
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

/// The plist vocabulary is returned without building a new String for each element.
// Read-only after initialisation.
nonisolated(unsafe) private let knownNames: [(name: String, cString: UnsafeMutablePointer<CChar>, kind: PlistKind?)] =
    ["key", "string", "dict", "true", "false", "integer", "array", "real", "date", "data", "plist"].map {
        ($0, strdup($0)!, PlistKind(rawValue: $0))
    }

/// An element's name and the value kind it spells (every kind is a known name).
private func elementName(_ pointer: UnsafePointer<xmlChar>?) -> (String, PlistKind?) {
    guard let pointer else { return ("", nil) }
    let first = CChar(bitPattern: pointer[0])
    for known in knownNames where known.cString[0] == first {
        if strcmp(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self), known.cString) == 0 { return (known.name, known.kind) }
    }
    return (String(cString: pointer), nil)
}

private func saxString(_ pointer: UnsafePointer<xmlChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}
