/// An old-style (OpenStep) ASCII property list, as `project.pbxproj` is written: read-only.
///
/// ```
/// // !$*UTF8*$!
/// { archiveVersion = 1; objects = { 1A2B /* App */ = { isa = PBXNativeTarget; name = App; }; }; }
/// ```
/// Dicts `{ key = value; }`, arrays `( a, b, )`, quoted strings with C escapes, bare strings
/// (letters, digits and `_$+/:.-`), `<hex data>`, and `/* */` and `//` comments anywhere between
/// tokens. Anything else is an error at its `line:column`.
public enum OpenStepValue: Sendable, Equatable {
    case string(String)
    case data([UInt8])
    case array([OpenStepValue])
    /// Entries in file order; a key given twice keeps its last value when read with `[key]`.
    case dict([(key: String, value: OpenStepValue)])

    public static func == (lhs: OpenStepValue, rhs: OpenStepValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dict(let a), .dict(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public var string: String? { if case .string(let text) = self { text } else { nil } }
    public var array: [OpenStepValue]? { if case .array(let items) = self { items } else { nil } }
    public var dictEntries: [(key: String, value: OpenStepValue)]? { if case .dict(let entries) = self { entries } else { nil } }

    /// The value of `key` in a dict (the last, if given twice).
    public subscript(key: String) -> OpenStepValue? {
        dictEntries?.last { $0.key == key }?.value
    }

    /// Parses `bytes` (UTF-8); the whole input must be one value.
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        var parser = OpenStepParser(bytes)
        self = try parser.document()
    }

    /// Parses `bytes` as a `project.pbxproj`, leaving out each object whose `isa` is in
    /// `dropping` (`PBXBuildFile`, build phases: most of a large project). Every byte is still
    /// read and checked; what a reader never asks for is just not kept, so a 30 MB project holds
    /// a fraction of the memory.
    public init(parsing bytes: [UInt8], dropping: Set<String>, keeping: [String: Set<String>] = [:]) throws(ParseError) {
        var parser = OpenStepParser(bytes)
        parser.dropping = dropping
        parser.keeping = keeping
        self = try parser.document()
    }
}

private struct OpenStepParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0
    static let maximumDepth = 256
    /// Objects (dicts two levels down, `objects = { ID = { isa = …; }; }`) of these kinds are
    /// left out.
    var dropping: Set<String> = []
    /// Objects of these kinds keep only the keys named (`isa` too only if named): a project's
    /// file references are most of its objects, and a reader asks each for two keys.
    var keeping: [String: Set<String>] = [:]
    /// One `isa` string per kind, shared by every object of that kind (a kind's name is longer
    /// than a string held inline, so each copy would be an allocation of its own).
    var kinds: [String: String] = [:]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    func fail(_ message: String, at offset: Int? = nil) -> ParseError {
        let at = min(offset ?? index, bytes.count)
        var line = 1, lineStart = 0
        for i in 0..<at where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: bytes[lineStart..<at], as: UTF8.self).count + 1
        return ParseError(message, at: SourceLocation(line: line, column: column))
    }

    mutating func document() throws(ParseError) -> OpenStepValue {
        skipTrivia()
        guard index < bytes.count else { throw fail("empty: no value") }
        let value = try self.value()
        skipTrivia()
        guard index == bytes.count else { throw fail("unexpected \(describe(bytes[index])) after the value") }
        return value
    }

    mutating func skipTrivia() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let start = index
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                guard index + 1 < bytes.count else {
                    index = start  // reported by the caller as what it is
                    return
                }
                index += 2
            } else {
                return
            }
        }
    }

    func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func value() throws(ParseError) -> OpenStepValue {
        skipTrivia()
        guard index < bytes.count else { throw fail("unexpected end of file: a value is missing") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try dict()
        case UInt8(ascii: "("): return try array()
        case UInt8(ascii: "<"): return try data()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try quoted())
        case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
            throw fail("unterminated /* comment")
        default:
            guard let text = bare() else { throw fail("unexpected \(describe(bytes[index])): a value is expected here") }
            return .string(text)
        }
    }

    mutating func nested<T>(_ body: (inout OpenStepParser) throws(ParseError) -> T) throws(ParseError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
        return try body(&self)
    }

    mutating func dict() throws(ParseError) -> OpenStepValue {
        let open = index
        index += 1
        return try nested { parser throws(ParseError) in
            var entries: [(key: String, value: OpenStepValue)] = []
            while true {
                parser.skipTrivia()
                guard parser.index < parser.bytes.count else { throw parser.fail("unterminated dict (opened here)", at: open) }
                if parser.bytes[parser.index] == UInt8(ascii: "}") {
                    parser.index += 1
                    return .dict(entries)
                }
                let keyStart = parser.index
                guard case .string(let key) = try parser.value() else { throw parser.fail("a dict key must be a string", at: keyStart) }
                parser.skipTrivia()
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "=") else {
                    throw parser.fail("expected \"=\" after the key \"\(key)\"")
                }
                parser.index += 1
                let value = try parser.value()
                parser.skipTrivia()
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: ";") else {
                    throw parser.fail("expected \";\" after the value of \"\(key)\"")
                }
                parser.index += 1
                if parser.depth == 2, !parser.dropping.isEmpty || !parser.keeping.isEmpty, case .dict(var object) = value,
                    let isa = object.firstIndex(where: { $0.key == "isa" }), let kind = object[isa].value.string
                {
                    if parser.dropping.contains(kind) { continue }
                    if let shared = parser.kinds[kind] { object[isa].value = .string(shared) } else { parser.kinds[kind] = kind }
                    if let kept = parser.keeping[kind] { object = object.filter { kept.contains($0.key) } }
                    entries.append((key, .dict(object)))
                    continue
                }
                entries.append((key, value))
            }
        }
    }

    mutating func array() throws(ParseError) -> OpenStepValue {
        let open = index
        index += 1
        return try nested { parser throws(ParseError) in
            var items: [OpenStepValue] = []
            while true {
                parser.skipTrivia()
                guard parser.index < parser.bytes.count else { throw parser.fail("unterminated array (opened here)", at: open) }
                if parser.bytes[parser.index] == UInt8(ascii: ")") {
                    parser.index += 1
                    return .array(items)
                }
                items.append(try parser.value())
                parser.skipTrivia()
                guard parser.index < parser.bytes.count else { throw parser.fail("unterminated array (opened here)", at: open) }
                if parser.bytes[parser.index] == UInt8(ascii: ",") {
                    parser.index += 1
                } else if parser.bytes[parser.index] != UInt8(ascii: ")") {
                    throw parser.fail("expected \",\" or \")\" in an array")
                }
            }
        }
    }

    mutating func data() throws(ParseError) -> OpenStepValue {
        let open = index
        index += 1
        var out: [UInt8] = []
        var high: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                guard high == nil else { throw fail("odd number of hex digits in data") }
                index += 1
                return .data(out)
            }
            index += 1
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            guard let nibble = Self.hex(byte) else { throw fail("\(describe(byte)) in <hex data>", at: index - 1) }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        throw fail("unterminated <hex data> (opened here)", at: open)
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
             UInt8(ascii: "-"): true
        default: false
        }
    }

    mutating func bare() -> String? {
        let start = index
        while index < bytes.count, Self.isBare(bytes[index]) {
            // `a//b` is a bare string, but `a /* c */` is not part of it: a comment starts only
            // where the run stopped, which trivia handles.
            index += 1
        }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// The four hex digits of a `\\U` escape.
    private mutating func fourHexDigits() throws(ParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let nibble = Self.hex(bytes[index]) else { throw fail("\\U takes four hex digits") }
            value = value << 4 | UInt32(nibble)
            index += 1
        }
        return value
    }

    mutating func quoted() throws(ParseError) -> String {
        let quote = bytes[index]
        let open = index
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == quote {
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string that is not UTF-8", at: open) }
                return text
            }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                var value = try fourHexDigits()
                // A UTF-16 surrogate pair written as two escapes (`\\UD83D\\UDE00`), as Apple's
                // reader accepts it, is one character.
                if (0xD800...0xDBFF).contains(value), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "U") || bytes[index + 1] == UInt8(ascii: "u")
                {
                    let resume = index
                    index += 2
                    let low = try fourHexDigits()
                    if (0xDC00...0xDFFF).contains(low) {
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = resume
                    }
                }
                guard let scalar = Unicode.Scalar(value) else { throw fail("\\U\(String(value, radix: 16)) is not a character") }
                out.append(contentsOf: Array(String(scalar).utf8))
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(escaped - UInt8(ascii: "0"))
                for _ in 0..<2 where index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                    value = value << 3 | UInt32(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            default: out.append(escaped)
            }
        }
        throw fail("unterminated string (opened here)", at: open)
    }
}
