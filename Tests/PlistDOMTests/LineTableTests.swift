import Testing
@testable import PlistDOM

/// Locations from the line table agree with a count from the start of the source, with every
/// kind of line break (the table takes a faster path when there is no `\r`).
@Suite struct LineTableTests {
    static func reference(_ bytes: [UInt8], _ offset: Int) -> PlistDOM.SourceLocation {
        var line = 1, column = 1, i = 0
        while i < offset {
            let byte = bytes[i]
            if byte == ASCII.cr, i + 1 < bytes.count, bytes[i + 1] == ASCII.lf, i + 1 < offset {
                line += 1; column = 1; i += 2
                continue
            }
            if byte == ASCII.lf || byte == ASCII.cr {
                line += 1; column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return PlistDOM.SourceLocation(line: line, column: column)
    }

    @Test(arguments: [["\n"], ["\r\n"], ["\r"], ["\n", "\r\n", "\r"]])
    func everyOffsetAgreesWithACountFromTheStart(breaks: [String]) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                text += ["a", "<key>", "é", " ", "\t"].randomElement(using: &generator)!
                if Bool.random(using: &generator) { text += breaks.randomElement(using: &generator)! }
            }
            let bytes = Array(text.utf8)
            let table = LineTable(bytes)
            for offset in 0...bytes.count where offset == bytes.count || bytes[offset] & 0xC0 != 0x80 {
                // An offset inside a `\r\n` pair is not a place anything starts.
                if offset > 0, bytes[offset - 1] == ASCII.cr, offset < bytes.count, bytes[offset] == ASCII.lf { continue }
                #expect(table.location(of: offset) == Self.reference(bytes, offset), "\(bytes) at \(offset)")
                #expect(table.line(of: offset) == Self.reference(bytes, offset).line, "\(bytes) at \(offset)")
            }
        }
    }
}
