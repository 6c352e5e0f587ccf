/// A value to write into a document by an edit.
public enum NewValue: Sendable, Equatable {
    case bool(Bool)
    case string(String)
    case integer(Int)
    /// An empty dict, written `<dict/>`.
    case emptyDict

    func makeElement(style: LayoutStyle, indent: [UInt8]) -> PlistElement {
        let element: PlistElement
        switch self {
        case .bool(let value):
            element = Self.element(value ? "true" : "false", text: nil)
        case .string(let text):
            element = Self.element("string", text: text)
        case .integer(let value):
            element = Self.element("integer", text: String(value))
        case .emptyDict:
            element = Self.element("dict", text: nil)
        }
        element.indentHint = indent
        return element
    }

    static func keyElement(_ name: String) -> PlistElement {
        element("key", text: name)
    }

    /// `<name>escaped text</name>`, or `<name/>` when `text` is nil.
    private static func element(_ name: String, text: String?) -> PlistElement {
        guard let text else {
            return PlistElement(
                name: name, startTag: ArraySlice("<\(name)/>".utf8), endTag: nil,
                pieces: [], text: "", sourceOffset: nil, kind: PlistKind(rawValue: name))
        }
        return PlistElement(
            name: name, startTag: ArraySlice("<\(name)>".utf8), endTag: ArraySlice("</\(name)>".utf8),
            pieces: text.isEmpty ? [] : [.gap(ArraySlice(XMLEscaping.escape(text)))],
            text: text, sourceOffset: nil, kind: PlistKind(rawValue: name))
    }
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
