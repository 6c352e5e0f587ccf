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
    /// How the file closes its Booleans, where every one is written alike and not as
    /// `<true/>`: the bytes between the name and `/>` (`<true />` gives `" "`).
    var booleanTagSpace: [UInt8]? = nil

    /// How the file's own text spells quotes, and how it writes empty containers.
    init(source: [UInt8], nodes: [Node]) {
        var raw = (quote: false, apostrophe: false), entity = (quote: false, apostrophe: false)
        var empty = (open: false, selfClosing: false)
        // The Booleans' own spelling: one space run before `/>` shared by all, or none.
        var space: [UInt8]?, booleansAlike = true, sawBoolean = false
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
                let tag = source[Int(node.start)..<Int(node.startTagEnd)]
                let name = node.kind == .true ? 5 : 6  // `<true` / `<false`
                guard node.wasSelfClosingInSource, tag.count >= name + 2, tag.suffix(2).elementsEqual("/>".utf8) else {
                    booleansAlike = false
                    continue
                }
                let between = Array(tag.dropFirst(name).dropLast(2))
                if !sawBoolean { space = between } else if space != between { booleansAlike = false }
                sawBoolean = true
            default:
                continue
            }
        }
        if sawBoolean, booleansAlike, let space, !space.isEmpty, space.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { booleanTagSpace = space }
        quoteAsEntity = entity.quote && !raw.quote
        apostropheAsEntity = entity.apostrophe && !raw.apostrophe
        emptyContainersOpen = empty.open && !empty.selfClosing
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
