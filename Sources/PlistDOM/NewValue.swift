/// A value to write into a document by an edit. Dicts keep the order their entries are given
/// in, except in a file that keeps every dict in Apple's key order: there they are written in
/// that order (see `PlistDocument.keysSortedThroughout`).
public indirect enum NewValue: Sendable, Hashable {
    case bool(Bool)
    case string(String)
    case integer(Int)
    case real(Double)
    /// ISO 8601 text, e.g. `2026-11-21T12:00:00Z`.
    case date(String)
    case data([UInt8])
    /// An empty dict, written `<dict/>`.
    case emptyDict
    /// An empty array, written `<array/>`.
    case emptyArray
    case array([NewValue])
    case dict([Entry])

    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: NewValue
        public init(_ key: String, _ value: NewValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value as written, copied from an element of a document (entry order kept).
    public init(_ element: PlistElement) {
        switch element.kind {
        case .true?: self = .bool(true)
        case .false?: self = .bool(false)
        case .integer?: self = .integer(Int(PlistValue.parseInteger(element.text.trimmingWhitespace) ?? 0))
        case .real?: self = .real(PlistValue.parseReal(element.text.trimmingWhitespace) ?? .nan)
        case .date?: self = .date(String(element.text.trimmingWhitespace))
        case .data?: self = .data(Base64.decode(element.text) ?? [])
        case .array?: self = .array(element.children.map(NewValue.init))
        case .dict?: self = .dict(element.entries.map { Entry($0.name, NewValue($0.value)) })
        case .string?, .key?, nil: self = .string(element.text)
        }
    }

    /// The element made first; `contents` then go into it one by one.
    var made: MadeElement {
        switch self {
        case .bool(let value): MadeElement(value ? .true : .false, text: nil)
        case .string(let text): MadeElement(.string, text: text)
        case .integer(let value): MadeElement(.integer, text: String(value))
        case .real(let value): MadeElement(.real, text: Self.spell(value))
        case .date(let text): MadeElement(.date, text: text)
        case .data(let bytes): MadeElement(.data, text: Base64.encode(bytes))
        case .emptyDict, .dict: MadeElement(.dict, text: nil)
        case .emptyArray, .array: MadeElement(.array, text: nil)
        }
    }

    /// The entries or items that go into the element `made` makes.
    var contents: (entries: [Entry], items: [NewValue]) {
        switch self {
        case .dict(let entries): (entries, [])
        case .array(let items): ([], items)
        default: ([], [])
        }
    }

    /// A real as plist readers read it back: the shortest text that round-trips.
    static func spell(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "+inf" }
        return "\(value)"
    }
}

/// An element an edit writes: `<name>escaped text</name>`, or `<name/>` without text.
struct MadeElement {
    let kind: NodeKind
    let fragment: Fragment
    let text: String

    init(_ kind: NodeKind, text: String?) {
        let name = kind.name ?? ""
        self.kind = kind
        self.text = text ?? ""
        if let text {
            let escaped = XMLEscaping.escape(text)
            fragment = Fragment(
                startTag: Array("<\(name)>".utf8), content: escaped.isEmpty ? [] : [.bytes(escaped)],
                endTag: Array("</\(name)>".utf8))
        } else {
            fragment = Fragment(startTag: Array("<\(name)/>".utf8), content: [], endTag: nil)
        }
    }

    static func key(_ name: String) -> MadeElement { MadeElement(.key, text: name) }
}

enum XMLEscaping {
    static func escape(_ text: String) -> [UInt8] {
        let plain = Array(text.utf8)
        // A carriage return is written as a reference: XML reads a raw one back as a line feed.
        // A line of the value that starts like git's `=======` marker starts with `&#61;`:
        // written raw, the file would read as an unresolved merge conflict.
        // Nearly every key and value needs no escape: copied whole, not byte by byte.
        guard plain.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == 0x0D })
            || startsAMarkerLine(plain)
        else { return plain }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for (index, byte) in plain.enumerated() {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case 0x0D: out += Array("&#13;".utf8)
            case UInt8(ascii: "=") where index > 0 && plain[index - 1] == 0x0A && isMarker(plain, at: index):
                out += Array("&#61;".utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    private static func startsAMarkerLine(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while let newline = bytes[index...].firstIndex(of: 0x0A) {
            if isMarker(bytes, at: newline + 1) { return true }
            index = newline + 1
        }
        return false
    }

    private static func isMarker(_ bytes: [UInt8], at start: Int) -> Bool {
        start + 7 <= bytes.count && bytes[start..<(start + 7)].allSatisfy { $0 == UInt8(ascii: "=") }
    }
}
