/// One element of a document's flat tree: plain values, no references, no strings.
///
/// An element read from the source is four byte offsets into the one source buffer: its start
/// tag is `start..<startTagEnd`, its content `startTagEnd..<endTagStart`, its end tag
/// `endTagStart..<end` (empty for `<true/>`). The bytes between two children, or between a
/// tag and a child, are that container's trivia: every byte of the file belongs to an element
/// or to the trivia around it. Elements made by an edit have no source (`start == -1`); their
/// bytes are a `Fragment`.
struct Node: Equatable {
    var kind: NodeKind
    /// Written as an empty-element tag now (an edit may expand `<dict/>`).
    var isSelfClosing: Bool
    /// Had child elements when parsed (its character content is then not text).
    var hadChildElements = false
    /// Its text differs from its raw content bytes (entities, CDATA, comments, `\r\n`), or an
    /// edit set it: the text is in `PlistDocument.texts`.
    var hasStoredText = false
    /// Its bytes are a `Fragment` (made by an edit, or a value an edit replaced).
    var hasFragment = false
    var start: Int32
    var startTagEnd: Int32
    var endTagStart: Int32
    var end: Int32
    var parent: Int32 = -1
    var firstChild: Int32 = -1
    var lastChild: Int32 = -1
    var next: Int32 = -1
    var previous: Int32 = -1

    var hasSource: Bool { start >= 0 }
    /// Its text is exactly its raw content bytes (no stored text, parsed, no child elements).
    var hasPlainText: Bool { !hasStoredText && hasSource && !hadChildElements }
    /// Written `<name/>` in the source.
    var wasSelfClosingInSource: Bool { endTagStart == end }
}

enum NodeKind: UInt8, CaseIterable {
    case dict, array, key, string, integer, real, `true`, `false`, date, data, plist, other

    init(_ kind: PlistKind) {
        self = Self.allCases.first { $0.plistKind == kind }!
    }

    var plistKind: PlistKind? {
        switch self {
        case .dict: .dict
        case .array: .array
        case .key: .key
        case .string: .string
        case .integer: .integer
        case .real: .real
        case .true: .true
        case .false: .false
        case .date: .date
        case .data: .data
        case .plist, .other: nil
        }
    }

    var name: String? {
        switch self {
        case .plist: "plist"
        case .other: nil
        default: plistKind?.rawValue
        }
    }
}

/// A piece of bytes an edit puts into the document: literal bytes, or an element made (or
/// rewritten) by an edit, printed from its fragment.
enum Item {
    case bytes([UInt8])
    case node(Int32)
}

/// The bytes of an element made or rewritten by an edit.
struct Fragment {
    var startTag: [UInt8]
    var content: [Item]
    /// `nil` for an empty-element tag.
    var endTag: [UInt8]?
}

/// One edit of the source: the bytes `lower..<upper` are replaced by `items` when the document
/// prints. Insertions are empty ranges next to the element they follow or precede; they print
/// while their dict (`anchor`) is still in the tree, even when that neighbour was removed.
struct Splice {
    enum Role: UInt8 {
        /// Entries inserted after the anchor value (prints before anything else at its offset).
        case afterValue
        /// Entries inserted before the anchor key.
        case beforeKey
        /// Replaces bytes: a renamed key's content, a rewritten value, a removed entry.
        case replacement
    }

    var lower: Int
    var upper: Int
    var role: Role
    /// Insertions: the dict they insert into. Replacements: the element rewritten, or -1 for
    /// a removal.
    var anchor: Int32 = -1
    var items: [Item]
}
