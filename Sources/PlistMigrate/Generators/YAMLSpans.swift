import Foundation
import Migrations
import PlistDOM
import Yams
import Project
import FileAccess

/// An XcodeGen spec read for the byte spans of its block mappings: libyaml (through Yams) gives
/// each key and value with its line and column, and each entry's lines follow from the
/// indentation. Only what can be edited without touching another byte is given a span: a key
/// (plain or quoted) of a block mapping, a one-line scalar value, an entry's lines. A value in
/// flow style (`{a: 1}`), a multi-line scalar, a sequence is opaque: read, never edited inside.
struct YAMLSpans {
    let bytes: [UInt8]
    let root: Node?
    /// Where each line starts (libyaml's marks count lines as the table does).
    let lines: LineTable

    init(_ bytes: [UInt8]) throws(FileError) {
        self.bytes = bytes
        root = try BoundedYAML.compose(bytes)
        lines = LineTable(bytes)
    }

    /// One entry of a block mapping.
    struct Entry {
        var key: String
        var keyNode: Node
        var value: Node
        /// The key's bytes (quotes included).
        var keyRange: Range<Int>
        /// A one-line scalar value's bytes (quotes included); `nil` for any other value.
        var scalarRange: Range<Int>?
        /// The entry's whole lines, from its key's line start through its last line's end.
        var lines: Range<Int>
        /// The leading white space of the key's line.
        var indent: [UInt8]
    }

    /// The byte offset of a mark (libyaml counts columns in Unicode scalars, from 1).
    func offset(of mark: Mark) -> Int {
        guard mark.line >= 1, mark.line <= lines.lineCount else { return bytes.count }
        var at = lines.start(ofLine: mark.line)
        var scalars = 1
        while scalars < mark.column, at < bytes.count, bytes[at] != 0x0A {
            at += 1
            // Continuation bytes belong to the scalar before them.
            while at < bytes.count, bytes[at] & 0xC0 == 0x80 { at += 1 }
            scalars += 1
        }
        return at
    }

    /// The value at `path` (mapping keys only), the last of duplicate keys.
    func node(at path: some Collection<PathStep>) -> Node? {
        var current = root
        for step in path {
            guard let key = step.key, case .mapping(let mapping)? = current else { return nil }
            current = mapping.reversed().first { pair in pair.key.string == key }?.value
        }
        return current
    }

    /// The entries of a block mapping, with their spans; `nil` for a flow mapping or no mapping.
    func entries(of node: Node) -> [Entry]? {
        guard case .mapping(let mapping) = node, mapping.style != .flow else { return nil }
        var entries: [Entry] = []
        for (key, value) in mapping {
            guard case .scalar(let keyScalar) = key, let keyMark = keyScalar.mark else { return nil }
            let keyStart = offset(of: keyMark)
            guard let keyEnd = scalarEnd(from: keyStart, style: keyScalar.style, isKey: true) else { return nil }
            let line = keyMark.line
            let lineStart = lines.start(ofLine: line)
            let indent = Array(bytes[lineStart..<keyStart])
            // A key not first on its line (after `- `) is not an entry this edits.
            guard indent.allSatisfy({ $0 == 0x20 }) else { return nil }
            var scalarRange: Range<Int>?
            if case .scalar(let valueScalar) = value, let valueMark = valueScalar.mark, valueMark.line == line,
                [.plain, .singleQuoted, .doubleQuoted].contains(valueScalar.style)
            {
                let start = offset(of: valueMark)
                if let end = scalarEnd(from: start, style: valueScalar.style, isKey: false), !continues(after: line, indent: indent.count) {
                    scalarRange = start..<end
                }
            }
            let last = lastLine(of: line, indent: indent.count)
            let end = last < lines.lineCount ? lines.start(ofLine: last + 1) : bytes.count
            entries.append(Entry(key: keyScalar.string, keyNode: key, value: value, keyRange: keyStart..<keyEnd,
                                 scalarRange: scalarRange, lines: lineStart..<end, indent: indent))
        }
        return entries
    }

    /// Where a one-line scalar that starts at `start` ends: a plain one before ` #`, the line's
    /// end or (a key) its `:`; a quoted one after its closing quote. `nil` when it does not end
    /// on its line.
    func scalarEnd(from start: Int, style: Node.Scalar.Style, isKey: Bool) -> Int? {
        var at = start
        switch style {
        case .singleQuoted, .doubleQuoted:
            let quote = bytes[start]
            at += 1
            while at < bytes.count, bytes[at] != 0x0A {
                if quote == UInt8(ascii: "\""), bytes[at] == UInt8(ascii: "\\") { at += 2; continue }
                if bytes[at] == quote {
                    if quote == UInt8(ascii: "'"), at + 1 < bytes.count, bytes[at + 1] == quote { at += 2; continue }
                    return at + 1
                }
                at += 1
            }
            return nil
        default:
            var end = start
            while at < bytes.count, bytes[at] != 0x0A, bytes[at] != 0x0D {
                let byte = bytes[at]
                if byte == UInt8(ascii: "#"), at > start, bytes[at - 1] == 0x20 || bytes[at - 1] == 0x09 { break }
                if isKey, byte == UInt8(ascii: ":"), at + 1 >= bytes.count || [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at + 1]) { break }
                if byte != 0x20, byte != 0x09 { end = at + 1 }
                at += 1
            }
            return end > start ? end : nil
        }
    }

    /// The first byte of line `line` that is neither a space nor a tab; `nil` for a blank line.
    private func contentStart(ofLine line: Int) -> Int? {
        guard line >= 1, line <= lines.lineCount else { return nil }
        var at = lines.start(ofLine: line)
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 { at += 1 }
        guard at < bytes.count, bytes[at] != 0x0A, bytes[at] != 0x0D else { return nil }
        return at
    }

    /// Whether the lines after `line` continue its value (a plain scalar over several lines).
    private func continues(after line: Int, indent: Int) -> Bool {
        var next = line + 1
        while next <= lines.lineCount {
            if let start = contentStart(ofLine: next) {
                if bytes[start] == UInt8(ascii: "#") { next += 1; continue }
                return start - lines.start(ofLine: next) > indent
            }
            next += 1
        }
        return false
    }

    /// The last line of the entry whose key is on `line` at `indent`: the last line after it,
    /// before one indented no deeper, that holds more than white space.
    private func lastLine(of line: Int, indent: Int) -> Int {
        var last = line
        var next = line + 1
        while next <= lines.lineCount {
            if let start = contentStart(ofLine: next) {
                guard start - lines.start(ofLine: next) > indent else { break }
                last = next
            }
            next += 1
        }
        return last
    }

    /// The first line in `range` that uses what an edit cannot keep: an anchor (`&a`), an alias
    /// (`*a`), a tag (`!str`) or a merge key (`<<:`), outside quotes and comments.
    func specialTokenLine(in range: Range<Int>) -> Int? {
        var at = range.lowerBound
        var quote: UInt8?
        var previous: UInt8 = 0x0A
        while at < range.upperBound {
            let byte = bytes[at]
            if let open = quote {
                if byte == open { quote = nil } else if byte == 0x0A { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                if [0x20, 0x09, 0x0A, UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: "-")].contains(previous) {
                    quote = byte
                }
            } else if byte == UInt8(ascii: "#"), [0x20, 0x09, 0x0A].contains(previous) {
                while at < range.upperBound, bytes[at] != 0x0A { at += 1 }
                previous = 0x0A
                continue
            } else if [UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!")].contains(byte),
                [0x20, 0x09, 0x0A, UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ",")].contains(previous)
            {
                return line(of: at)
            } else if byte == UInt8(ascii: "<"), at + 2 < range.upperBound, bytes[at + 1] == byte, [0x20, 0x09, 0x0A].contains(previous) {
                return line(of: at)
            }
            previous = byte
            at += 1
        }
        return nil
    }

    /// The 1-based line of a byte offset.
    func line(of offset: Int) -> Int {
        lines.line(of: offset)
    }

    /// The value as XcodeGen writes it into a plist: Yams' types (a YAML `true` is a Boolean, `42`
    /// an integer), keys in order; `null` left out. `nil` for what XcodeGen would not write.
    static func value(of node: Node) -> SourceValue? {
        switch node {
        case .scalar:
            switch Constructor.default.any(from: node) {
            case let flag as Bool: return .scalar(.bool(flag))
            case let number as Int: return .scalar(.integer(Int128(number)))
            case let number as Double: return .scalar(.real(number))
            case let text as String: return .scalar(.string(text))
            case is NSNull: return nil
            default: return .scalar(.string(node.string ?? ""))
            }
        case .mapping(let mapping):
            return .dict(mapping.compactMap { pair in
                guard let key = pair.key.string, let value = value(of: pair.value) else { return nil }
                return (key, value, pair.key.mark?.line ?? 1)
            })
        case .sequence(let sequence):
            return .array(sequence.compactMap(value(of:)))
        case .alias:
            return nil
        }
    }
}
