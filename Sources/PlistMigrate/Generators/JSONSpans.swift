import Migrations
import PlistDOM
import FileAccess

/// A JSON document read for its byte spans: every value knows where it starts and ends, every
/// member where its key is, so an edit replaces only the bytes it must (Expo's `app.json`).
/// Strict JSON (RFC 8259): what is not is an error with its line and column.
struct JSONSpans {
    indirect enum Kind {
        case object([Member])
        case array([Node])
        case string(String)
        case number(String)
        case literal(String)
    }

    struct Member {
        var key: String
        /// The key's bytes, quotes included.
        var keyRange: Range<Int>
        var value: Node
    }

    struct Node {
        var kind: Kind
        var range: Range<Int>
    }

    struct SyntaxError: Error {
        var offset: Int
        var message: String
    }

    let bytes: [UInt8]
    let root: Node
    /// Where each line starts, for the lines of keys (a binary search each, not a scan).
    let lines: LineTable

    /// Nesting deeper than this is refused (a hostile file cannot exhaust the stack).
    static let maximumDepth = 256

    init(_ bytes: [UInt8]) throws(SyntaxError) {
        self.bytes = bytes
        lines = LineTable(bytes)
        var parser = Parser(bytes: bytes)
        // A UTF-8 byte order mark is allowed before the value.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.at = 3 }
        parser.skipSpace()
        root = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.at == bytes.count else { throw SyntaxError(offset: parser.at, message: "unexpected text after the value") }
    }

    /// `init`, its error said as the run says a file's: `not valid JSON: …` at its line and column.
    static func parsed(_ bytes: [UInt8]) throws(FileError) -> JSONSpans {
        do { return try JSONSpans(bytes) } catch {
            let place = place(of: error.offset, in: LineTable(bytes))
            throw FileError("not valid JSON: \(error.message)", at: SourceLocation(line: place.line, column: place.column))
        }
    }

    /// The node at `path` (object keys and array positions), the last of duplicate keys.
    func node(at path: some Collection<PathStep>) -> Node? {
        var current = root
        for step in path {
            switch (current.kind, step) {
            case (.object(let members), .key(let key)):
                guard let member = members.last(where: { $0.key == key }) else { return nil }
                current = member.value
            case (.array(let items), .index(let index)) where items.indices.contains(index):
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// 1-based line and column (in bytes) of a byte offset.
    func place(of offset: Int) -> (line: Int, column: Int) {
        Self.place(of: offset, in: lines)
    }

    static func place(of offset: Int, in lines: LineTable) -> (line: Int, column: Int) {
        let line = lines.line(of: offset)
        return (line, offset - lines.start(ofLine: line) + 1)
    }

    /// The value as a plist reader of a generator's output sees it: `true`/`false`, numbers,
    /// strings, objects as dicts and arrays; `null` is left out (Expo drops it).
    func value(of node: Node) -> SourceValue? {
        switch node.kind {
        case .object(let members):
            return .dict(members.compactMap { member in value(of: member.value).map { (member.key, $0, place(of: member.keyRange.lowerBound).line) } })
        case .array(let items): return .array(items.compactMap(value(of:)))
        case .string(let text): return .scalar(.string(text))
        case .literal(let word): return word == "null" ? nil : .scalar(.bool(word == "true"))
        case .number(let text):
            if let integer = Int128(text) { return .scalar(.integer(integer)) }
            return Double(text).map { .scalar(.real($0)) }
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> Node {
            guard depth < JSONSpans.maximumDepth else { throw SyntaxError(offset: at, message: "nested deeper than \(JSONSpans.maximumDepth)") }
            guard at < bytes.count else { throw SyntaxError(offset: at, message: "a value was expected") }
            let start = at
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var members: [Member] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                    at += 1
                    return Node(kind: .object([]), range: start..<at)
                }
                while true {
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw SyntaxError(offset: at, message: "a key in quotes was expected") }
                    let keyStart = at
                    let key = try string()
                    let keyRange = keyStart..<at
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw SyntaxError(offset: at, message: "':' was expected") }
                    at += 1
                    skipSpace()
                    members.append(Member(key: key, keyRange: keyRange, value: try value(depth: depth + 1)))
                    skipSpace()
                    guard at < bytes.count else { throw SyntaxError(offset: at, message: "'}' was expected") }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    guard bytes[at] == UInt8(ascii: "}") else { throw SyntaxError(offset: at, message: "',' or '}' was expected") }
                    at += 1
                    return Node(kind: .object(members), range: start..<at)
                }
            case UInt8(ascii: "["):
                at += 1
                var items: [Node] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return Node(kind: .array([]), range: start..<at)
                }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard at < bytes.count else { throw SyntaxError(offset: at, message: "']' was expected") }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    guard bytes[at] == UInt8(ascii: "]") else { throw SyntaxError(offset: at, message: "',' or ']' was expected") }
                    at += 1
                    return Node(kind: .array(items), range: start..<at)
                }
            case UInt8(ascii: "\""):
                let text = try string()
                return Node(kind: .string(text), range: start..<at)
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                for word in ["true", "false", "null"] where bytes[at...].starts(with: word.utf8) {
                    at += word.utf8.count
                    return Node(kind: .literal(word), range: start..<at)
                }
                throw SyntaxError(offset: at, message: "a value was expected")
            default:
                // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
                var end = at
                if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
                let bytes = self.bytes
                func digits(_ from: Int) -> Int {
                    var index = from
                    while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                    return index
                }
                let integerEnd = digits(end)
                guard integerEnd > end, bytes[end] != 0x30 || integerEnd == end + 1 else { throw SyntaxError(offset: at, message: "a value was expected") }
                end = integerEnd
                if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
                    let fraction = digits(end + 1)
                    guard fraction > end + 1 else { throw SyntaxError(offset: end, message: "digits were expected after '.'") }
                    end = fraction
                }
                if end < bytes.count, bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E") {
                    var exponent = end + 1
                    if exponent < bytes.count, bytes[exponent] == UInt8(ascii: "+") || bytes[exponent] == UInt8(ascii: "-") { exponent += 1 }
                    let exponentEnd = digits(exponent)
                    guard exponentEnd > exponent else { throw SyntaxError(offset: end, message: "digits were expected in the exponent") }
                    end = exponentEnd
                }
                at = end
                return Node(kind: .number(String(decoding: bytes[start..<end], as: UTF8.self)), range: start..<end)
            }
        }

        /// A string at `at` (its opening quote), decoded.
        mutating func string() throws(SyntaxError) -> String {
            let open = at
            at += 1
            var scalars = String.UnicodeScalarView()
            var run = at
            func flush(to end: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") {
                    flush(to: at)
                    at += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw SyntaxError(offset: at, message: "a control character in a string") }
                guard byte == UInt8(ascii: "\\") else { at += 1; continue }
                flush(to: at)
                guard at + 1 < bytes.count else { break }
                let escaped = bytes[at + 1]
                at += 2
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800..<0xDC00).contains(unit), at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                        at += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw SyntaxError(offset: at - 6, message: "an unpaired surrogate") }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(unit) else { throw SyntaxError(offset: at - 6, message: "an unpaired surrogate") }
                    scalars.append(scalar)
                default:
                    throw SyntaxError(offset: at - 2, message: "an unknown escape in a string")
                }
                run = at
            }
            throw SyntaxError(offset: open, message: "a string that is not closed")
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard at + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16) else {
                throw SyntaxError(offset: at, message: "four hex digits were expected after \\u")
            }
            at += 4
            return value
        }
    }
}
