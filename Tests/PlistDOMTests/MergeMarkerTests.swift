import Testing
@testable import PlistDOM

/// The merge-marker scan reads only every seventh byte first: it must still find every marker
/// line a line-by-line reading finds, wherever the line starts.
@Suite struct MergeMarkerTests {
    /// A line that starts with seven `<`, `=` or `>` and then ends or has a space or tab.
    static func reference(_ bytes: [UInt8]) -> PlistDOM.SourceLocation? {
        var line = 1
        var start = 0
        var index = 0
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == ASCII.lf || bytes[index] == ASCII.cr {
                let text = Array(bytes[start..<index])
                for marker in ["<", "=", ">"].map({ UInt8(ascii: Unicode.Scalar($0)!) }) {
                    let isRun = text.count >= 7 && text.prefix(7).allSatisfy { $0 == marker }
                    if isRun, text.count == 7 || text[7] == ASCII.space || text[7] == ASCII.tab {
                        return PlistDOM.SourceLocation(line: line, column: 1)
                    }
                }
                if index + 1 < bytes.count, bytes[index] == ASCII.cr, bytes[index + 1] == ASCII.lf { index += 1 }
                line += 1
                start = index + 1
            }
            index += 1
        }
        return nil
    }

    @Test(arguments: ["<<<<<<< ours", "=======", ">>>>>>> theirs"])
    func aMarkerIsFoundAtEveryOffset(_ marker: String) {
        for padding in 0..<15 {
            for eol in ["\n", "\r", "\r\n"] {
                let text = String(repeating: "a", count: padding) + eol + marker + eol + "<plist/>"
                #expect(Preflight.mergeConflictMarker(in: Array(text.utf8)) == PlistDOM.SourceLocation(line: 2, column: 1), "\(padding) \(eol.utf8.map { $0 })")
            }
        }
    }

    @Test func randomTextAgreesWithALineByLineReading() {
        var generator = PropertyTests.SplitMix64(state: 0x5EED_0007)
        let pieces = ["<", "=", ">", "=======", "<<<<<<<", ">>>>>>", "\n", "\r", "\r\n", " ", "\t", "a", "<key>"]
        var found = 0
        for _ in 0..<4_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...30, using: &generator) { text += pieces.randomElement(using: &generator)! }
            let bytes = Array(text.utf8)
            let expected = Self.reference(bytes)
            if expected != nil { found += 1 }
            #expect(Preflight.mergeConflictMarker(in: bytes) == expected, "\(bytes)")
        }
        // Both answers occur often enough for the comparison to mean something.
        #expect(found > 400 && found < 3_600)
    }

    @Test func aLongRunOfMarkerBytesIsNotAMarkerLine() {
        let text = String(repeating: "=", count: 10_000) + "\n<plist/>"
        #expect(Preflight.mergeConflictMarker(in: Array(text.utf8)) == nil)
    }
}
