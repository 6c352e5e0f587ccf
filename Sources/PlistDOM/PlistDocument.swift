#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parsed XML property list that prints back byte for byte and can be edited in place.
///
/// The tree is flat: one array of plain `Node`s holding byte offsets into the one source
/// buffer, linked parent/child/sibling by index. Edits never touch the source: each is a
/// `Splice` (replace a byte range), and printing is the source with its splices applied, so an
/// unedited document prints its input by construction.
public final class PlistDocument {
    // A document is read and edited by one thread at a time: the runtime's exclusivity checks
    // on its tables (about 120 instructions an access) are left out.
    let source: [UInt8]
    @exclusivity(unchecked) var nodes: [Node]
    let rootIndex: Int32
    /// Text of elements whose text is not their raw content bytes, or was set by an edit.
    @exclusivity(unchecked) var texts: [Int32: String] = [:]
    /// The first run of non-whitespace text directly inside a container (invalid in a plist).
    @exclusivity(unchecked) var strayTexts: [Int32: String] = [:]
    /// Bytes of elements made or rewritten by edits.
    @exclusivity(unchecked) var fragments: [Int32: Fragment] = [:]
    /// Leading whitespace of the line an edit-made value was meant to start on.
    @exclusivity(unchecked) var indentHints: [Int32: [UInt8]] = [:]
    /// Where elements an edit moved (`move`) started in the source: their diagnostics keep it.
    @exclusivity(unchecked) var movedFrom: [Int32: Int32] = [:]
    /// Dicts found sorted by `keysAreSorted`, until an edit that may unsort them.
    @exclusivity(unchecked) var sortedDicts: Set<Int32> = []
    /// Dicts whose keys were out of Apple's order before a removal: what a removal leaves is not
    /// how the file's owners wrote it, so it does not make them sorted.
    @exclusivity(unchecked) var unsortedBeforeRemovals: Set<Int32> = []
    /// A sorted dict's entries as `sortedAnchor` last halved them, valid at `revision`: kept up
    /// to date by `insertFollowingOrder`, so inserting thousands of keys into one dict does not
    /// list its entries again for each. Node indexes, not `DictEntry`s: an entry holds its
    /// document, and a document holding its own entries was never freed (a copy starts without).
    @exclusivity(unchecked) var sortedEntries: [Int32: (revision: Int, entries: [EntryNodes])] = [:]
    /// An unsorted dict's keys cut into runs in Apple's order, valid at `revision`: kept up to
    /// date by `insertFollowingOrder`, so appending thousands of keys to one dict does not walk
    /// it again for each. A copy starts without, as for `sortedEntries`.
    @exclusivity(unchecked) var keyRunsByDict: [Int32: (revision: Int, runs: KeyRuns)] = [:]
    @exclusivity(unchecked) var splices: [Splice] = []
    @exclusivity(unchecked) var afterValueSplice: [Int32: Int] = [:]
    /// Offsets of the insertions after values, so a removal stops in front of them.
    @exclusivity(unchecked) var afterValueOffsets: Set<Int> = []
    @exclusivity(unchecked) var beforeKeySplice: [Int32: Int] = [:]
    @exclusivity(unchecked) var replacementSplice: [Int32: Int] = [:]
    /// Where each element made by an edit sits: in a splice's items or a fragment's content.
    @exclusivity(unchecked) var homes: [Int32: Home] = [:]
    enum Home { case splice(Int), fragment(Int32) }
    /// Where the last element looked for in a home's items was: the next is usually beside it.
    @exclusivity(unchecked) var lastItemPosition = 0
    /// Texts read from the source by `keptText(of:)`, by their place in it.
    @exclusivity(unchecked) var sourceTexts: [Int: String] = [:]
    @exclusivity(unchecked) private var sortedSplices: [Int]?
    /// Splices added since `sortedSplices` was last put in order: merged into it when an order
    /// is next asked for, so that a pass adding a splice to each of 10,000 domains sorts them
    /// once rather than shifting the order once per splice. Empty while `sortedSplices` is `nil`.
    @exclusivity(unchecked) private var pendingSplices: [Int] = []

    let lines: LineTable
    /// How this file lays out entries; new entries copy it. Measured on first use, on the tree
    /// as read (`asRead` once an edit was made): a file whose edits only rename keys never
    /// measures it.
    var style: LayoutStyle {
        if let measuredStyle { return measuredStyle }
        let measured = asRead?.style ?? LayoutStyle(source: source, root: root, lines: lines)
        measuredStyle = measured
        forgetAsReadOnceMeasured()
        return measured
    }
    @exclusivity(unchecked) private var measuredStyle: LayoutStyle?
    /// The tree as read, taken at the first edit (a copy that shares its storage until the edit
    /// writes), for the layout and key order, which are measured on it when first asked for.
    @exclusivity(unchecked) var asRead: PlistDocument?

    /// Keeps the tree as read at the first edit, while something is left to measure on it.
    func keepAsReadBeforeFirstEdit() {
        guard editRevision == 0, asRead == nil, measuredStyle == nil || measuredKeysSortedThroughout == nil else { return }
        asRead = PlistDocument(copying: self)
    }

    /// Lets the tree as read go once both measures are taken.
    func forgetAsReadOnceMeasured() {
        if measuredStyle != nil, measuredKeysSortedThroughout != nil { asRead = nil }
    }
    /// How the file spells quotes and empty containers; read on first need from the nodes as
    /// parsed (edits add nodes without source, which it does not read).
    var spelling: TextSpelling {
        if let measuredSpelling { return measuredSpelling }
        let measured = TextSpelling(source: source, nodes: nodes)
        measuredSpelling = measured
        return measured
    }
    @exclusivity(unchecked) private var measuredSpelling: TextSpelling?
    @exclusivity(unchecked) var measuredKeysSortedThroughout: Bool?
    /// Counts edits; unchanged means the document still prints its input.
    public var revision: Int { editRevision }
    // Other modules read stored properties with the runtime's exclusivity check whatever the
    // attribute says; through a getter they do not.
    @exclusivity(unchecked) var editRevision = 0

    /// Parses an XML property list. Throws a `ParseError` with a line and column for anything
    /// that is not a well-formed, valid plist, or that this library could not map byte-exactly.
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        try Preflight.check(bytes)
        try Self.checkEncoding(bytes)
        let lines = LineTable(bytes)
        let builder = SAXTreeBuilder.parse(bytes, lines: lines)
        if let failure = builder.failure {
            let location = failure.location ?? lines.location(of: failure.offset ?? 0)
            throw Preflight.explain(ParseError(failure.message, at: location), in: bytes)
        }
        guard let rootIndex = builder.rootIndex else {
            throw ParseError("no root element", at: SourceLocation(line: 1, column: 1))
        }
        self.source = bytes
        self.lines = lines
        self.nodes = builder.nodes
        self.texts = builder.texts
        self.strayTexts = builder.strayTexts
        self.rootIndex = rootIndex
        do {
            try PlistValidator(lines: lines).validate(root: root)
        } catch {
            throw Preflight.explain(error, in: bytes)
        }
    }

    /// An independent copy, edits included: the flat tree is plain values, so copying costs
    /// far less than parsing the bytes again.
    public func copy() -> PlistDocument {
        PlistDocument(copying: self)
    }

    private init(copying other: PlistDocument) {
        source = other.source
        lines = other.lines
        nodes = other.nodes
        rootIndex = other.rootIndex
        texts = other.texts
        strayTexts = other.strayTexts
        fragments = other.fragments
        indentHints = other.indentHints
        movedFrom = other.movedFrom
        sortedDicts = other.sortedDicts
        unsortedBeforeRemovals = other.unsortedBeforeRemovals
        splices = other.splices
        afterValueSplice = other.afterValueSplice
        afterValueOffsets = other.afterValueOffsets
        beforeKeySplice = other.beforeKeySplice
        replacementSplice = other.replacementSplice
        homes = other.homes
        measuredStyle = other.measuredStyle
        asRead = other.asRead
        measuredSpelling = other.measuredSpelling
        measuredKeysSortedThroughout = other.measuredKeysSortedThroughout
        editRevision = other.editRevision
    }

    /// The cheap checks `init(parsing:)` starts with: empty, binary, UTF-16, JSON/OpenStep text,
    /// merge-conflict markers.
    public static func preflight(_ bytes: [UInt8]) throws(ParseError) {
        try Preflight.check(bytes)
    }

    /// Checks that `bytes` pass the preflight and are well-formed XML with no entity tricks,
    /// without building a tree or checking plist structure.
    public static func checkWellFormed(_ bytes: [UInt8]) throws(ParseError) {
        try Preflight.check(bytes)
        try checkEncoding(bytes)
        let lines = LineTable(bytes)
        let checker = SAXTreeBuilder.parse(bytes, lines: lines, buildTree: false)
        if let failure = checker.failure {
            throw Preflight.explain(ParseError(failure.message, at: failure.location ?? lines.location(of: failure.offset ?? 0)), in: bytes)
        }
    }

    /// Parses UTF-8 text (convenience for tests and tools).
    public convenience init(parsing text: String) throws(ParseError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The `<plist>` element.
    public var root: PlistElement { PlistElement(self, rootIndex) }

    /// The single value inside `<plist>` (validation guarantees there is one).
    public var rootValue: PlistElement { PlistElement(self, nodes[Int(rootIndex)].firstChild) }

    /// The decoded value tree of the whole document.
    public var value: PlistValue { PlistValue(rootValue) }

    /// The document's bytes as they print now: the source with every splice applied.
    public var bytes: [UInt8] {
        guard !splices.isEmpty else { return source }
        var out: [UInt8] = []
        out.reserveCapacity(source.count + 256)
        printSource(0..<source.count, into: &out)
        return out
    }

    // MARK: - Reading nodes

    func name(of index: Int32) -> String {
        if let name = nodes[Int(index)].kind.name { return name }
        let node = nodes[Int(index)]
        guard node.hasSource else { return "" }
        let tag = source[Int(node.start + 1)..<Int(node.startTagEnd)]
        return String(decoding: tag.prefix { !ASCII.isWhitespace($0) && $0 != ASCII.gt && $0 != ASCII.slash }, as: UTF8.self)
    }

    func text(of index: Int32) -> String {
        let node = nodes[Int(index)]
        guard let range = sourceTextRange(of: node) else { return node.hasStoredText ? texts[index] ?? "" : "" }
        // Read in place: a slice of `source` would retain its buffer.
        return source.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// `text(of:)` for text asked for again and again (the keys on paths): what is read from the
    /// source is kept by its place there, which never changes, so neither does the text.
    func keptText(of index: Int32) -> String {
        guard let range = sourceTextRange(of: nodes[Int(index)]) else { return text(of: index) }
        let place = range.lowerBound << 32 | range.upperBound
        if let known = sourceTexts[place] { return known }
        let read = text(of: index)
        sourceTexts[place] = read
        return read
    }

    /// Where `text(of:)` reads a node's text in the source; `nil` for stored text, or none.
    private func sourceTextRange(of node: Node) -> Range<Int>? {
        guard !node.hasStoredText, node.hasSource, !node.hadChildElements else { return nil }
        return Int(node.startTagEnd)..<Int(node.endTagStart)
    }

    func text(of index: Int32, equals string: String) -> Bool {
        text(of: index, node: nodes[Int(index)], equals: string)
    }

    /// `text(of:equals:)` for a node already read: lengths first, then the bytes in place.
    func text(of index: Int32, node: Node, equals string: String) -> Bool {
        if !node.hasPlainText { return text(of: index) == string }
        let start = Int(node.startTagEnd), count = Int(node.endTagStart) - start
        let utf8 = string.utf8
        guard utf8.count == count else { return false }
        guard count > 0 else { return true }
        return utf8.withContiguousStorageIfAvailable { bytes in
            source.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, bytes.baseAddress!, count) == 0 }
        } ?? source[start..<(start + count)].elementsEqual(utf8)
    }

    /// The position in `names` of the first that the text of `index` (read as `node`) equals:
    /// a name's length rules it out before any byte is compared, and a stored text (a renamed
    /// key, or one written with references) is read once.
    func firstIndex(ofTextOf index: Int32, node: Node, in names: [String]) -> Int? {
        guard node.hasPlainText else { return names.firstIndex(of: text(of: index)) }
        let length = Int(node.endTagStart - node.startTagEnd)
        return names.indices.first { names[$0].utf8.count == length && text(of: index, node: node, equals: names[$0]) }
    }

    func text(of index: Int32, equalsTextOf other: Int32) -> Bool {
        let a = nodes[Int(index)], b = nodes[Int(other)]
        guard a.hasPlainText, b.hasPlainText else { return text(of: index) == text(of: other) }
        let count = Int(a.endTagStart - a.startTagEnd)
        guard count == Int(b.endTagStart - b.startTagEnd) else { return false }
        guard count > 0 else { return true }
        return source.withUnsafeBufferPointer {
            memcmp($0.baseAddress! + Int(a.startTagEnd), $0.baseAddress! + Int(b.startTagEnd), count) == 0
        }
    }

    /// Whether `index` is still in the tree (an edit may have removed it or an ancestor).
    func isAttached(_ index: Int32) -> Bool {
        var current = index
        while true {
            let parent = nodes[Int(current)].parent
            if parent < 0 { return current == rootIndex }
            current = parent
        }
    }

    // MARK: - Printing

    func printedBytes(of index: Int32) -> [UInt8] {
        var out: [UInt8] = []
        let node = nodes[Int(index)]
        if node.hasFragment {
            render(fragmentOf: index, into: &out)
        } else if node.hasSource {
            printSource(Int(node.start)..<Int(node.end), into: &out, insertionsAtEdges: false)
        }
        return out
    }

    /// Appends the bytes of `range` of the source as they print now. Splices inside the range
    /// apply; with `insertionsAtEdges` false, insertions exactly at its ends (which belong to
    /// the neighbours) do not.
    func printSource(_ range: Range<Int>, into out: inout [UInt8], insertionsAtEdges: Bool = true) {
        var cursor = range.lowerBound
        let order = orderedSplices()
        // Splices are ordered by where they start: the first that can count is found by halving
        // (a move prints one entry among thousands of splices).
        var low = 0, high = order.count
        while low < high {
            let middle = (low + high) / 2
            if splices[order[middle]].lower < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        for index in order[low...] {
            let splice = splices[index]
            if splice.lower > range.upperBound { break }
            if splice.upper > range.upperBound { continue }
            let isInsertion = splice.role != .replacement
            if isInsertion {
                if !insertionsAtEdges && (splice.lower == range.lowerBound || splice.lower == range.upperBound) { continue }
                // Into a dict still in the tree and not rewritten since.
                guard isAttached(splice.anchor), !nodes[Int(splice.anchor)].hasFragment else { continue }
                if splice.lower > cursor {
                    out.append(contentsOf: source[cursor..<splice.lower])
                    cursor = splice.lower
                }
                render(splice.items, into: &out)
                continue
            }
            if splice.lower < cursor {
                // Inside a range already replaced: a removal that reaches further extends it.
                if splice.items.isEmpty, splice.upper > cursor, isRemoval(index) { cursor = splice.upper }
                continue
            }
            out.append(contentsOf: source[cursor..<splice.lower])
            render(splice.items, into: &out)
            cursor = splice.upper
        }
        if cursor < range.upperBound { out.append(contentsOf: source[cursor..<range.upperBound]) }
    }

    private func isRemoval(_ index: Int) -> Bool {
        splices[index].role == .replacement && splices[index].anchor < 0
    }

    /// Splice indices by offset; at one offset insertions after a value come first, then
    /// insertions before a key, then replacements, the widest first, removals last.
    private func orderedSplices() -> [Int] {
        if var order = sortedSplices {
            guard !pendingSplices.isEmpty else { return order }
            sortedSplices = nil
            merge(pendingSplices, into: &order)
            pendingSplices = []
            sortedSplices = order
            return order
        }
        let order = splices.indices.sorted(by: splicePrintsFirst)
        sortedSplices = order
        return order
    }

    /// Puts `added` into `order` (both in `splicePrintsFirst` order once `added` is sorted): a
    /// few by binary search, many by one merge.
    private func merge(_ added: [Int], into order: inout [Int]) {
        guard added.count > 8 else {
            for index in added {
                var low = 0, high = order.count
                while low < high {
                    let middle = (low + high) / 2
                    if splicePrintsFirst(order[middle], index) { low = middle + 1 } else { high = middle }
                }
                order.insert(index, at: low)
            }
            return
        }
        let added = added.sorted(by: splicePrintsFirst)
        var merged: [Int] = []
        merged.reserveCapacity(order.count + added.count)
        var (old, new) = (0, 0)
        while old < order.count, new < added.count {
            if splicePrintsFirst(added[new], order[old]) {
                merged.append(added[new])
                new += 1
            } else {
                merged.append(order[old])
                old += 1
            }
        }
        merged += order[old...]
        merged += added[new...]
        order = merged
    }

    /// The order of `orderedSplices`: a strict total order on splice indices.
    private func splicePrintsFirst(_ a: Int, _ b: Int) -> Bool {
        let x = splices[a], y = splices[b]
        if x.lower != y.lower { return x.lower < y.lower }
        if x.role != y.role { return x.role.rawValue < y.role.rawValue }
        if x.upper != y.upper { return x.upper > y.upper }
        // A container's rewritten content holds what is left of a child removed over the
        // same bytes (no whitespace between them): the rewrite prints.
        let (xRemoval, yRemoval) = (isRemoval(a), isRemoval(b))
        if xRemoval != yRemoval { return yRemoval }
        return a < b
    }

    func render(_ items: [Item], into out: inout [UInt8]) {
        for item in items {
            switch item {
            case .bytes(let bytes): out.append(contentsOf: bytes)
            case .node(let index): render(fragmentOf: index, into: &out)
            }
        }
    }

    func render(fragmentOf index: Int32, into out: inout [UInt8]) {
        guard let fragment = fragments[index] else { return }
        out.append(contentsOf: fragment.startTag)
        render(fragment.content, into: &out)
        if let endTag = fragment.endTag { out.append(contentsOf: endTag) }
    }

    /// Records a new splice and returns its index.
    func addSplice(_ splice: Splice) -> Int {
        splices.append(splice)
        let index = splices.count - 1
        // Kept for the order when it is known (the others' order does not change), so that
        // edits that print between splices (a move reads its entry's bytes) do not sort them
        // all again.
        if sortedSplices != nil { pendingSplices.append(index) }
        return index
    }

    func spliceChanged() {
        sortedSplices = nil
        pendingSplices = []
    }

    /// libxml2 reads every file as UTF-8 here (`XML_PARSE_IGNORE_ENC`), which is exact for ASCII
    /// files whatever they declare, and wrong for non-ASCII text in another declared encoding.
    private static func checkEncoding(_ bytes: [UInt8]) throws(ParseError) {
        // Only a declared non-UTF-8 encoding needs the whole-file scan for non-ASCII bytes.
        guard let name = declaredEncoding(bytes.prefix(200)), !namesUTF8(name), !bytes.isASCII else { return }
        let shown = String(decoding: name, as: UTF8.self)
        throw ParseError(
            "encoding \"\(shown)\" is not supported for files with non-ASCII text; convert the file to UTF-8",
            at: SourceLocation(line: 1, column: 1), kind: .unsupported)
    }

    /// `utf-8` or `utf8` in any case, compared as ASCII bytes: no other letters lowercase to
    /// those.
    private static func namesUTF8(_ name: ArraySlice<UInt8>) -> Bool {
        let lowered = name.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return utf8Names.contains { $0.elementsEqual(lowered) }
    }

    private static let utf8Names = [Array("utf-8".utf8), Array("utf8".utf8)]
    private static let declarationStart = Array("<?xml".utf8), declarationEnd = Array("?>".utf8)
    private static let encodingAttribute = Array("encoding".utf8)

    /// The `encoding` named in an XML declaration at the start of `prolog`, if any.
    static func declaredEncoding(_ prolog: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let text = prolog.starts(with: Preflight.utf8BOM) ? prolog.dropFirst(3) : prolog
        guard text.starts(with: declarationStart), let close = text.firstOffset(of: declarationEnd),
            let attribute = text[..<close].firstOffset(of: encodingAttribute)
        else { return nil }
        let rest = text[(attribute + 8)..<close].drop { $0 == UInt8(ascii: "=") || ASCII.isWhitespace($0) }
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        return rest.dropFirst().prefix { $0 != quote }
    }
}

extension PlistDocument {
    /// The file rebuilt from the tree alone: the bytes before the root, then each element as its
    /// start tag, its children with the trivia around them, and its end tag. Equal to the input
    /// exactly when the spans are in order, do not overlap and leave no byte out; `nil` when
    /// they overlap. (Losslessness is a property of the tree, checked over the corpus.)
    func bytesFromSpans() -> [UInt8]? {
        var out: [UInt8] = []
        func emit(_ index: Int32) -> Bool {
            let node = nodes[Int(index)]
            out.append(contentsOf: source[Int(node.start)..<Int(node.startTagEnd)])
            var cursor = Int(node.startTagEnd)
            var child = node.firstChild
            while child >= 0 {
                let start = Int(nodes[Int(child)].start)
                guard start >= cursor else { return false }
                out.append(contentsOf: source[cursor..<start])
                guard emit(child) else { return false }
                cursor = Int(nodes[Int(child)].end)
                child = nodes[Int(child)].next
            }
            guard Int(node.endTagStart) >= cursor, node.end >= node.endTagStart else { return false }
            out.append(contentsOf: source[cursor..<Int(node.end)])
            return true
        }
        let root = nodes[Int(rootIndex)]
        out.append(contentsOf: source[..<Int(root.start)])
        guard emit(rootIndex) else { return nil }
        out.append(contentsOf: source[Int(root.end)...])
        return out
    }

    /// Where `element` sits in the document's current bytes; `nil` for an element that is no
    /// longer in the document or was made by an edit.
    public func byteRange(of element: PlistElement) -> Range<Int>? {
        guard isAttached(element.index), let offset = element.sourceOffset else { return nil }
        let length = element.bytes.count
        if revision == 0 { return offset..<(offset + length) }
        var ancestor = nodes[Int(element.index)].parent
        while ancestor >= 0 {
            if nodes[Int(ancestor)].hasFragment { return nil }
            ancestor = nodes[Int(ancestor)].parent
        }
        var prefix: [UInt8] = []
        printSource(0..<offset, into: &prefix)
        return prefix.count..<(prefix.count + length)
    }

    /// The element that contains `element`.
    public func parent(of element: PlistElement) -> PlistElement? {
        let parent = nodes[Int(element.index)].parent
        return parent < 0 ? nil : PlistElement(self, parent)
    }

    /// The keys leading from the root value to `element` through dicts (`[]` for the root
    /// value itself); `nil` if it is not reachable through dicts alone.
    public func keyPath(of element: PlistElement) -> [String]? {
        guard let path = path(of: element) else { return nil }
        let keys = path.compactMap(\.key)
        return keys.count == path.count ? keys : nil
    }
}
