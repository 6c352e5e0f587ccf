/// How a file spells what an edit writes into it, read from the file on first need (most
/// edits write no quote and empty no container): quotes in text, and empty containers.
struct TextSpelling {
    /// Text written with `&quot;` for `"`: the file's text spells quotes so and never raw.
    var quoteAsEntity = false
    /// Text written with `&apos;` for `'`, likewise.
    var apostropheAsEntity = false
    /// An emptied dict or array is written `<dict></dict>`-style: the file writes its empty
    /// containers so and none as `<dict/>` (which Xcode writes, and is the rule otherwise).
    var emptyContainersOpen = false
    /// How a file writes its Booleans where every one is written alike and not as `<true/>`.
    enum BooleanSpelling: Equatable {
        /// `<true/>` with these bytes between the name and `/>` (`<true />` gives `" "`).
        case selfClosing(space: [UInt8])
        /// `<true></true>`: a start and an end tag with nothing between them.
        case open
    }
    var booleans: BooleanSpelling? = nil

    /// How the file's own text spells quotes, and how it writes empty containers.
    init(source: [UInt8], nodes: [Node]) {
        var raw = (quote: false, apostrophe: false), entity = (quote: false, apostrophe: false)
        var empty = (open: false, selfClosing: false)
        // The Booleans' own spelling: one shared by all, or none.
        var booleanSpelling: BooleanSpelling?, booleansAlike = true, sawBoolean = false
        // Nearly no file spells a quote as an entity: then no text needs reading.
        let entities = source[...].firstOffset(of: Self.quoteEntity) != nil || source[...].firstOffset(of: Self.apostropheEntity) != nil
        for node in nodes where node.hasSource {
            switch node.kind {
            case .string, .key:
                guard entities, !node.hadChildElements else { continue }
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
                guard !node.hadChildElements else { continue }
                if node.wasSelfClosingInSource {
                    empty.selfClosing = true
                } else if source[Int(node.startTagEnd)..<Int(node.endTagStart)].isAllWhitespace {
                    empty.open = true
                }
            case .true, .false:
                guard booleansAlike else { continue }
                let spelled = Self.booleanSpelling(of: node, in: source)
                if !sawBoolean { booleanSpelling = spelled } else if booleanSpelling != spelled { booleansAlike = false }
                sawBoolean = true
            default:
                continue
            }
        }
        if sawBoolean, booleansAlike, let booleanSpelling, booleanSpelling != .selfClosing(space: []) { booleans = booleanSpelling }
        quoteAsEntity = entity.quote && !raw.quote
        apostropheAsEntity = entity.apostrophe && !raw.apostrophe
        emptyContainersOpen = empty.open && !empty.selfClosing
    }

    /// How one Boolean of the source is written: `nil` for anything but `<true/>` with spaces or
    /// tabs before `/>`, or `<true></true>` with nothing between.
    static func booleanSpelling(of node: Node, in source: [UInt8]) -> BooleanSpelling? {
        let tag = source[Int(node.start)..<Int(node.startTagEnd)]
        let name = node.kind == .true ? 5 : 6  // `<true` / `<false`
        if node.wasSelfClosingInSource {
            guard tag.count >= name + 2, tag.suffix(2).elementsEqual("/>".utf8) else { return nil }
            let between = Array(tag.dropFirst(name).dropLast(2))
            return between.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) ? .selfClosing(space: between) : nil
        }
        let closed = tag.count == name + 1 && node.startTagEnd == node.endTagStart
            && source[Int(node.endTagStart)..<Int(node.end)].elementsEqual((node.kind == .true ? "</true>" : "</false>").utf8)
        return closed ? .open : nil
    }

    static let quoteEntity = Array("&quot;".utf8), apostropheEntity = Array("&apos;".utf8)

    static func hasQuote(_ bytes: [UInt8]) -> Bool {
        bytes.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }
    }

    static func hasQuote(_ fragment: Fragment) -> Bool {
        fragment.content.contains { if case .bytes(let bytes) = $0 { hasQuote(bytes) } else { false } }
    }

    /// Escaped text as the file spells it: quotes as entities where the file writes them so.
    func respell(_ escaped: [UInt8]) -> [UInt8] {
        guard quoteAsEntity || apostropheAsEntity, Self.hasQuote(escaped) else { return escaped }
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
