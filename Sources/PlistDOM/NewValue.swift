/// A value to write into a document by an edit.
public enum NewValue: Sendable, Equatable {
    case bool(Bool)
    case string(String)
    case integer(Int)
    /// An empty dict, written `<dict/>`.
    case emptyDict

    var made: MadeElement {
        switch self {
        case .bool(let value): MadeElement(value ? .true : .false, text: nil)
        case .string(let text): MadeElement(.string, text: text)
        case .integer(let value): MadeElement(.integer, text: String(value))
        case .emptyDict: MadeElement(.dict, text: nil)
        }
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
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            default: out.append(byte)
            }
        }
        return out
    }
}
