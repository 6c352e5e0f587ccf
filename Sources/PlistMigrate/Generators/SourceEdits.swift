import Foundation
import Migrations
import PlistDOM
import Yams

/// The passes' value edits (`PlannedEdit`) applied to a generator's file, byte for byte as the
/// file writes itself: a key renamed in place in its own quoting, an entry removed with its
/// lines, a new entry with its siblings' indentation and separator, a scalar replaced in place.
/// What cannot be edited so is refused with the reason and line, never rewritten.
enum SourceEdits {
    struct Refusal: Error {
        var message: String
        var line: Int?
    }

    enum Format {
        case yaml, json
    }

    /// `bytes` with `edit` made; `prefix` leads from the file's root to the dict the plist's root
    /// dict stands for (`targets.App.info.properties`); `after` names the entry an inserted one
    /// follows (`nil`: first).
    static func apply(_ edit: PlannedEdit, to bytes: [UInt8], format: Format, prefix: [PathStep], after: String?) throws(Refusal) -> [UInt8] {
        switch format {
        case .json: try JSONEditing(bytes: bytes, prefix: prefix).apply(edit, after: after)
        case .yaml: try YAMLEditing(bytes: bytes, prefix: prefix).apply(edit, after: after)
        }
    }

    /// The line ending the file uses (`\r\n` where its first line ends so).
    static func lineEnding(of bytes: [UInt8]) -> [UInt8] {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return [0x0A] }
        return newline > 0 && bytes[newline - 1] == 0x0D ? [0x0D, 0x0A] : [0x0A]
    }

    /// `text` in double quotes as JSON and YAML both read them: `"` and `\` escaped, line breaks
    /// and tabs as `\n`, `\r`, `\t`; the other control characters as `\u00XX` where asked.
    static func doubleQuoted(_ text: String, otherControlsEscaped: Bool) -> [UInt8] {
        Array(("\"" + TextEscaping.replacing(text) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: otherControlsEscaped && scalar.value < 0x20 ? String(format: "\\u%04x", scalar.value) : nil
            }
        } + "\"").utf8)
    }

    static func replacing(_ bytes: [UInt8], _ range: Range<Int>, with new: [UInt8]) -> [UInt8] {
        var out = bytes
        out.replaceSubrange(range, with: new)
        return out
    }
}

/// Edits of a JSON file (Expo's `app.json`).
private struct JSONEditing {
    let bytes: [UInt8]
    let prefix: [PathStep]

    func apply(_ edit: PlannedEdit, after: String?) throws(SourceEdits.Refusal) -> [UInt8] {
        let document: JSONSpans
        do { document = try JSONSpans.parsed(bytes) } catch { throw SourceEdits.Refusal(message: error.message, line: nil) }
        guard let container = document.node(at: prefix + edit.container), case .object(let members) = container.kind else {
            throw SourceEdits.Refusal(message: "an edit inside a list is not made in JSON", line: nil)
        }
        let line = document.place(of: container.range.lowerBound).line
        switch edit {
        case .rename(_, let from, let to):
            guard let member = members.last(where: { $0.key == from }) else { throw SourceEdits.Refusal(message: "\(from) is not there", line: line) }
            return SourceEdits.replacing(bytes, member.keyRange, with: Self.encode(to))
        case .remove(_, let key):
            guard let index = members.lastIndex(where: { $0.key == key }) else { throw SourceEdits.Refusal(message: "\(key) is not there", line: line) }
            let range: Range<Int>
            if members.count == 1 {
                range = (container.range.lowerBound + 1)..<(container.range.upperBound - 1)
            } else if index > 0 {
                range = members[index - 1].value.range.upperBound..<members[index].value.range.upperBound
            } else {
                range = members[0].keyRange.lowerBound..<members[1].keyRange.lowerBound
            }
            return SourceEdits.replacing(bytes, range, with: [])
        case .replace(_, let key, let value):
            guard let member = members.last(where: { $0.key == key }) else { throw SourceEdits.Refusal(message: "\(key) is not there", line: line) }
            return SourceEdits.replacing(bytes, member.value.range, with: encode(value, indent: indentation(before: member.keyRange.lowerBound)))
        case .insert(_, let key, let value):
            let newline = SourceEdits.lineEnding(of: bytes)
            guard let first = members.first else {
                // `{}`: the entry on its own line, one step in from the object's line.
                let outer = indentation(before: container.range.lowerBound)
                let inner = outer + step
                let text = newline + inner + Self.encode(key) + Array(": ".utf8) + encode(value, indent: inner) + newline + outer
                return SourceEdits.replacing(bytes, (container.range.lowerBound + 1)..<(container.range.upperBound - 1), with: text)
            }
            let indent = indentation(before: first.keyRange.lowerBound)
            let separator = Array(bytes[first.keyRange.upperBound..<first.value.range.lowerBound])
            let text = Self.encode(key) + separator + encode(value, indent: indent)
            // On separate lines where the members are; on one line where they share it.
            let between = onOwnLine(first.keyRange.lowerBound) ? newline + indent : [0x20]
            if let after, let previous = members.last(where: { $0.key == after }) {
                return SourceEdits.replacing(bytes, previous.value.range.upperBound..<previous.value.range.upperBound, with: [UInt8(ascii: ",")] + between + text)
            }
            return SourceEdits.replacing(bytes, first.keyRange.lowerBound..<first.keyRange.lowerBound, with: text + [UInt8(ascii: ",")] + between)
        case .removeItem, .insertItem, .replaceItem:
            throw SourceEdits.Refusal(message: "an edit inside a list is not made in JSON", line: line)
        }
    }

    /// The white space from the start of the line to `offset` (empty when text precedes it).
    func indentation(before offset: Int) -> [UInt8] {
        var start = offset
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        guard start == 0 || bytes[start - 1] == 0x0A else { return [] }
        return Array(bytes[start..<offset])
    }

    func onOwnLine(_ offset: Int) -> Bool {
        var start = offset
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        return start == 0 || bytes[start - 1] == 0x0A
    }

    /// The file's indentation step: the first indented line's white space (two spaces if none).
    var step: [UInt8] {
        var at = 0
        while let newline = bytes[at...].firstIndex(of: 0x0A) {
            var end = newline + 1
            while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
            if end > newline + 1 { return Array(bytes[(newline + 1)..<end]) }
            at = newline + 1
        }
        return Array("  ".utf8)
    }

    static func encode(_ text: String) -> [UInt8] {
        SourceEdits.doubleQuoted(text, otherControlsEscaped: true)
    }

    func encode(_ value: PlistValue, indent: [UInt8]) -> [UInt8] {
        let newline = SourceEdits.lineEnding(of: bytes)
        switch value {
        case .bool(let flag): return Array((flag ? "true" : "false").utf8)
        case .integer(let number): return Array("\(number)".utf8)
        case .real(let number): return Array("\(number)".utf8)
        case .string(let text), .date(let text): return Self.encode(text)
        case .data(let data): return Self.encode(Data(data).base64EncodedString())
        case .array(let items):
            guard !items.isEmpty else { return Array("[]".utf8) }
            let inner = indent + step
            return [UInt8(ascii: "[")] + items.map { newline + inner + encode($0, indent: inner) }.joined(separator: [UInt8(ascii: ",")]) + newline + indent
                + [UInt8(ascii: "]")]
        case .dict(let entries):
            guard !entries.isEmpty else { return Array("{}".utf8) }
            let inner = indent + step
            let members = entries.keys.sorted { PlistDocument.keyPrecedes($0, $1) }.map { key in
                newline + inner + Self.encode(key) + Array(": ".utf8) + encode(entries[key]!, indent: inner)
            }
            return [UInt8(ascii: "{")] + members.joined(separator: [UInt8(ascii: ",")]) + newline + indent + [UInt8(ascii: "}")]
        }
    }
}

/// Edits of a YAML file (XcodeGen's `project.yml`): block mappings only.
private struct YAMLEditing {
    let bytes: [UInt8]
    let prefix: [PathStep]

    func apply(_ edit: PlannedEdit, after: String?) throws(SourceEdits.Refusal) -> [UInt8] {
        let document: YAMLSpans
        do { document = try YAMLSpans(bytes) } catch { throw SourceEdits.Refusal(message: error.message, line: nil) }
        let path = prefix + edit.container
        guard let container = document.node(at: path) else { throw SourceEdits.Refusal(message: "an edit inside a list is not made in YAML", line: nil) }
        let line = container.mark?.line
        guard let entries = document.entries(of: container) else {
            throw SourceEdits.Refusal(message: "a mapping in flow style ({…}) or with keys that are not plain values is not edited", line: line)
        }
        switch edit {
        case .rename(_, let from, let to):
            guard let entry = entries.last(where: { $0.key == from }) else { throw SourceEdits.Refusal(message: "\(from) is not there", line: line) }
            return SourceEdits.replacing(bytes, entry.keyRange, with: text(to, like: Array(bytes[entry.keyRange])))
        case .remove(_, let key):
            guard let entry = entries.last(where: { $0.key == key }) else { throw SourceEdits.Refusal(message: "\(key) is not there", line: line) }
            guard entries.count > 1 else {
                throw SourceEdits.Refusal(message: "removing \(key) would leave an empty mapping, which YAML writes as null", line: document.line(of: entry.keyRange.lowerBound))
            }
            return SourceEdits.replacing(bytes, entry.lines, with: [])
        case .replace(_, let key, let value):
            guard let entry = entries.last(where: { $0.key == key }) else { throw SourceEdits.Refusal(message: "\(key) is not there", line: line) }
            if let scalar = entry.scalarRange, let text = self.scalar(value, like: Array(bytes[scalar])) {
                return SourceEdits.replacing(bytes, scalar, with: text)
            }
            throw SourceEdits.Refusal(message: "\(key)'s value is not a one-line scalar", line: document.line(of: entry.keyRange.lowerBound))
        case .insert(_, let key, let value):
            guard let first = entries.first else { throw SourceEdits.Refusal(message: "an empty mapping is not edited", line: line) }
            let newline = SourceEdits.lineEnding(of: bytes)
            let text = try lines(key: key, value: value, indent: first.indent, newline: newline, step: step(document, entries))
            if let after, let previous = entries.last(where: { $0.key == after }) {
                // After the previous entry's last line (which may end the file without a newline).
                let at = previous.lines.upperBound
                let lead = at == bytes.count && bytes.last != 0x0A ? newline : []
                return SourceEdits.replacing(bytes, at..<at, with: lead + text)
            }
            return SourceEdits.replacing(bytes, first.lines.lowerBound..<first.lines.lowerBound, with: text)
        case .removeItem, .insertItem, .replaceItem:
            throw SourceEdits.Refusal(message: "an edit inside a list is not made in YAML", line: line)
        }
    }

    /// The indentation one level adds: a nested mapping's offset from its parent, else two spaces.
    func step(_ document: YAMLSpans, _ entries: [YAMLSpans.Entry]) -> [UInt8] {
        for entry in entries {
            if let children = document.entries(of: entry.value), let child = children.first, child.indent.count > entry.indent.count {
                return Array(repeating: 0x20, count: child.indent.count - entry.indent.count)
            }
        }
        return Array("  ".utf8)
    }

    func lines(key: String, value: PlistValue, indent: [UInt8], newline: [UInt8], step: [UInt8]) throws(SourceEdits.Refusal) -> [UInt8] {
        let name = self.text(key, like: [])
        switch value {
        case .dict(let entries) where !entries.isEmpty:
            var out = indent + name + [UInt8(ascii: ":")] + newline
            for child in entries.keys.sorted(by: PlistDocument.keyPrecedes) {
                out += try lines(key: child, value: entries[child]!, indent: indent + step, newline: newline, step: step)
            }
            return out
        case .array, .dict, .data:
            throw SourceEdits.Refusal(message: "a new \(key) of this kind is not written into YAML", line: nil)
        default:
            guard let text = scalar(value, like: []) else { throw SourceEdits.Refusal(message: "\(key)'s new value cannot be written in YAML", line: nil) }
            return indent + name + Array(": ".utf8) + text + newline
        }
    }

    /// Text (a key or a string value) as YAML reads it back: plain where that reads as the same
    /// text, else quoted as `original` is (double quotes when it is plain).
    func text(_ text: String, like original: [UInt8]) -> [UInt8] {
        if original.first != UInt8(ascii: "'"), original.first != UInt8(ascii: "\""), Self.readsAsString(text, plain: text) {
            return Array(text.utf8)
        }
        return original.first == UInt8(ascii: "'") && !text.contains("\n") ? Self.singleQuoted(text) : Self.doubleQuoted(text)
    }

    /// A scalar as the file would write it: Booleans `true`/`false`, numbers as digits, text
    /// plain where it reads back as that text, else in the quotes `original` uses.
    func scalar(_ value: PlistValue, like original: [UInt8]) -> [UInt8]? {
        switch value {
        case .bool(let flag): return Array((flag ? "true" : "false").utf8)
        case .integer(let number): return Array("\(number)".utf8)
        case .real(let number) where number.isFinite: return Array("\(number)".utf8)
        case .string(let string): return text(string, like: original)
        default: return nil
        }
    }

    /// Whether `plain`, written as a plain YAML scalar, reads back as the string `text`.
    static func readsAsString(_ text: String, plain: String) -> Bool {
        guard !text.isEmpty, text.first != " ", text.last != " ", !text.contains("\n"), !text.contains(": "), !text.contains(" #"),
            !text.hasSuffix(":"), let first = text.unicodeScalars.first, !"-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first)
        else { return false }
        // As a key and as a value, it must read back as this text (not `true`, `1.2` or null).
        guard let node = try? Yams.compose(yaml: plain + ": " + plain), case .mapping(let mapping) = node, let pair = mapping.first,
            pair.key.string == text
        else { return false }
        return (Constructor.default.any(from: pair.value) as? String) == text
    }

    static func singleQuoted(_ text: String) -> [UInt8] {
        Array(("'" + text.replacingOccurrences(of: "'", with: "''") + "'").utf8)
    }

    static func doubleQuoted(_ text: String) -> [UInt8] {
        SourceEdits.doubleQuoted(text, otherControlsEscaped: false)
    }
}
