import Foundation
import Migrations
import PlistDOM

/// A value of a generator's settings file (XcodeGen's `project.yml`, Expo's `app.json`) as the
/// generator writes it into the Info.plist, with its keys in the file's order: what the passes
/// read, through a plist made from it (`plist`).
indirect enum SourceValue: Equatable {
    case scalar(PlistValue)
    /// Each entry with the line of its key in the generator's file.
    case dict([(key: String, value: SourceValue, line: Int)])
    case array([SourceValue])

    static func == (lhs: SourceValue, rhs: SourceValue) -> Bool { lhs.plistValue == rhs.plistValue }

    /// The value as a plist reader sees it (a later duplicate key wins).
    var plistValue: PlistValue {
        switch self {
        case .scalar(let value): value
        case .array(let items): .array(items.map(\.plistValue))
        case .dict(let entries):
            .dict(entries.reduce(into: [:]) { dict, entry in dict[entry.key] = entry.value.plistValue })
        }
    }

    /// The keys of the dict at `path` (steps below this value), in order; `nil` where there is none.
    func keys(at path: ArraySlice<PathStep>) -> [String]? {
        guard let step = path.first else {
            if case .dict(let entries) = self { return entries.map(\.key) }
            return nil
        }
        switch (self, step) {
        case (.dict(let entries), .key(let key)): return entries.last { $0.key == key }?.value.keys(at: path.dropFirst())
        case (.array(let items), .index(let index)) where items.indices.contains(index): return items[index].keys(at: path.dropFirst())
        default: return nil
        }
    }

    /// A plist whose root dict holds `key` (on `line`) = this value, one entry a line, tabs as
    /// Xcode writes: the file the passes run on; and for each of its lines, the line of the
    /// generator's file it stands for (index 0 is line 1).
    func plist(under key: String, line: Int) -> (bytes: [UInt8], lines: [Int]) {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
        var lines = [line, line, line]
        out += "\t<key>\(SourcePlistText.escape(key))</key>\n"
        lines.append(line)
        Self.write(self, depth: 1, line: line, into: &out, &lines)
        out += "</dict>\n</plist>\n"
        lines += [line, line]
        return (Array(out.utf8), lines)
    }

    private static func write(_ value: SourceValue, depth: Int, line: Int, into out: inout String, _ lines: inout [Int]) {
        let indent = String(repeating: "\t", count: depth)
        switch value {
        case .dict(let entries):
            guard !entries.isEmpty else { out += indent + "<dict/>\n"; lines.append(line); return }
            out += indent + "<dict>\n"
            lines.append(line)
            for entry in entries {
                out += indent + "\t<key>\(SourcePlistText.escape(entry.key))</key>\n"
                lines.append(entry.line)
                write(entry.value, depth: depth + 1, line: entry.line, into: &out, &lines)
            }
            out += indent + "</dict>\n"
            lines.append(line)
        case .array(let items):
            guard !items.isEmpty else { out += indent + "<array/>\n"; lines.append(line); return }
            out += indent + "<array>\n"
            lines.append(line)
            for item in items { write(item, depth: depth + 1, line: line, into: &out, &lines) }
            out += indent + "</array>\n"
            lines.append(line)
        case .scalar(let scalar):
            out += indent + SourcePlistText.element(scalar) + "\n"
            lines.append(line)
        }
    }
}

/// Plist XML for the scalars of a generator's file.
enum SourcePlistText {
    /// Markup characters as references, and a carriage return (which XML reads back as a line
    /// feed); every other character as it is, so the plist holds exactly the file's text.
    static func escape(_ text: String) -> String {
        TextEscaping.replacing(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\r": "&#13;"
            default: nil
            }
        }
    }

    static func element(_ value: PlistValue) -> String {
        switch value {
        case .bool(let flag): flag ? "<true/>" : "<false/>"
        case .integer(let number): "<integer>\(number)</integer>"
        case .real(let number): "<real>\(number)</real>"
        case .string(let text): "<string>\(escape(text))</string>"
        case .date(let text): "<date>\(escape(text))</date>"
        case .data(let bytes): "<data>\(Data(bytes).base64EncodedString())</data>"
        case .array, .dict: "<string></string>"
        }
    }
}
