#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cheap checks that recognise inputs libxml2 would reject with a confusing message, or
/// accept although they are not something this library can edit losslessly.
enum Preflight {
    static let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]

    static func check(_ bytes: [UInt8]) throws(ParseError) {
        let start = SourceLocation(line: 1, column: 1)
        if bytes.isEmpty { throw ParseError("empty file", at: start, kind: .notAPropertyList) }
        if bytes.starts(with: Array("bplist".utf8)) {
            throw ParseError(
                "binary property list: not supported, convert with `plutil -convert xml1 FILE`", at: start,
                kind: .notAPropertyList)
        }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00])
            || bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) || bytes.starts(with: [0x00, 0x00, 0x00, 0x3C])
        {
            throw ParseError(
                "UTF-32 property list: not supported, convert with `iconv -f UTF-32 -t UTF-8` "
                    + "or `plutil -convert xml1 FILE`", at: start, kind: .unsupported)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
            || bytes.starts(with: [0x3C, 0x00]) || bytes.starts(with: [0x00, 0x3C])
        {
            throw ParseError(
                "UTF-16 property list: not supported, convert with `iconv -f UTF-16 -t UTF-8` "
                    + "or `plutil -convert xml1 FILE`", at: start, kind: .unsupported)
        }
        if let nul = firstIndex(of: 0, in: bytes) {
            // libxml2 stops at a NUL: whatever follows it would be accepted unseen.
            throw ParseError("NUL byte in the file (corrupted, or not a text property list)",
                             at: LineTable(bytes).location(of: nul))
        }
        if let surrogate = encodedSurrogate(in: bytes) {
            throw ParseError("invalid UTF-8: an encoded UTF-16 surrogate (bytes ED \(hex(bytes[surrogate + 1])) …, "
                + "as CESU-8 or Java's modified UTF-8 write them); re-save the file as UTF-8",
                at: LineTable(bytes).location(of: surrogate))
        }
        let body = bytes.starts(with: utf8BOM) ? bytes[3...] : bytes[...]
        guard let first = body.firstIndex(where: { !ASCII.isWhitespace($0) }) else {
            throw ParseError("empty file (only whitespace)", at: start, kind: .notAPropertyList)
        }
        if let marker = mergeConflictMarker(in: bytes) {
            throw ParseError("unresolved merge conflict markers", at: marker)
        }
        if body[first] != ASCII.lt {
            let table = LineTable(bytes)
            throw ParseError(
                "not an XML property list (JSON, OpenStep or other text)", at: table.location(of: first),
                kind: .notAPropertyList)
        }
    }

    static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int = 0) -> Int? {
        bytes.withUnsafeBufferPointer { $0.firstOffset(of: byte, in: start..<max(start, $0.count)) }
    }

    /// Where UTF-8 encodes a surrogate code point (U+D800–U+DFFF: `ED A0…BF xx`), which is not
    /// a character; libxml2 would say only "Char 0xD800 out of allowed range".
    static func encodedSurrogate(in bytes: [UInt8]) -> Int? {
        var offset = 0
        while let index = firstIndex(of: 0xED, in: bytes, from: offset) {
            if index + 1 < bytes.count, bytes[index + 1] >= 0xA0, bytes[index + 1] <= 0xBF { return index }
            offset = index + 1
        }
        return nil
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// A file that does not parse and has C preprocessor directives at line starts is an
    /// Info.plist Xcode preprocesses (`INFOPLIST_PREPROCESS`): said at the directive, not where
    /// the parser stumbled. (A valid plist may hold such lines inside a string: it parses.)
    static func explain(_ failure: ParseError, in bytes: [UInt8]) -> ParseError {
        guard failure.kind == .malformed, let directive = preprocessorDirective(in: bytes) else { return failure }
        return ParseError(
            "C preprocessor directive `#\(directive.name)`: this Info.plist is preprocessed when the app is built "
                + "(INFOPLIST_PREPROCESS), so it is not a plist as written; migrate it by hand, or move the "
                + "conditional settings into build settings", at: directive.location, kind: .preprocessed)
    }

    static let directives: Set<String> = [
        "if", "ifdef", "ifndef", "elif", "else", "endif", "define", "undef", "include", "import", "error", "warning", "pragma", "line",
    ]

    /// The first line whose first non-blank character is `#` followed by a C preprocessor
    /// directive name (`#ifdef DEBUG`, `#  endif`).
    static func preprocessorDirective(in bytes: [UInt8]) -> (name: String, location: SourceLocation)? {
        var offset = 0
        while let hash = firstIndex(of: UInt8(ascii: "#"), in: bytes, from: offset) {
            offset = hash + 1
            var start = hash
            while start > 0, bytes[start - 1] == ASCII.space || bytes[start - 1] == ASCII.tab { start -= 1 }
            guard start == 0 || bytes[start - 1] == ASCII.lf || bytes[start - 1] == ASCII.cr else { continue }
            var index = hash + 1
            while index < bytes.count, bytes[index] == ASCII.space || bytes[index] == ASCII.tab { index += 1 }
            let nameStart = index
            while index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            let ends = index == bytes.count || [ASCII.space, ASCII.tab, ASCII.lf, ASCII.cr].contains(bytes[index])
            if directives.contains(name), ends { return (name, LineTable(bytes).location(of: hash)) }
        }
        return nil
    }

    /// The first line that starts with `<<<<<<<`, `=======` or `>>>>>>>` (as git writes them).
    static func mergeConflictMarker(in bytes: [UInt8]) -> SourceLocation? {
        guard hasMarkerAtALineStart(bytes) else { return nil }
        return scanForMarkerLine(bytes)
    }

    /// Fast pre-check: whether some line starts with seven equal `<`, `=` or `>` bytes.
    ///
    /// Seven consecutive offsets hold exactly one that is 6 more than a multiple of 7, so only
    /// those bytes are read first; from a marker byte there, the run must start at a line start
    /// at most six bytes back and reach seven bytes.
    private static func hasMarkerAtALineStart(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var probe = 6
            while probe < buffer.count {
                let byte = buffer[probe]
                if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">") {
                    // At most six back: a run longer than that was found from the probe before.
                    var start = probe
                    while start > 0, probe - start < 6, buffer[start - 1] == byte { start -= 1 }
                    if start == 0 || buffer[start - 1] == ASCII.lf || buffer[start - 1] == ASCII.cr {
                        var end = probe + 1
                        while end < buffer.count, end - start < 7, buffer[end] == byte { end += 1 }
                        if end - start >= 7 { return true }
                    }
                }
                probe += 7
            }
            return false
        }
    }

    private static func scanForMarkerLine(_ bytes: [UInt8]) -> SourceLocation? {
        let markers: [[UInt8]] = [Array("<<<<<<<".utf8), Array("=======".utf8), Array(">>>>>>>".utf8)]
        var line = 1
        var lineStart = 0
        var i = 0
        while i <= bytes.count {
            if i == bytes.count || bytes[i] == ASCII.lf || bytes[i] == ASCII.cr {
                let text = bytes[lineStart..<i]
                for marker in markers where text.starts(with: marker) {
                    let rest = text.dropFirst(marker.count)
                    if rest.isEmpty || rest.first == ASCII.space || rest.first == ASCII.tab {
                        return SourceLocation(line: line, column: 1)
                    }
                }
                if i < bytes.count, bytes[i] == ASCII.cr, i + 1 < bytes.count, bytes[i + 1] == ASCII.lf {
                    i += 1
                }
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return nil
    }
}
