import Testing
@testable import PlistMigrate

@Suite struct UnifiedDiffTests {
    func diff(_ old: String, _ new: String) -> String? {
        UnifiedDiff.make(from: Array(old.utf8), to: Array(new.utf8), path: "f")
    }

    /// The vectorised count agrees with a byte-by-byte one on every length around its blocks
    /// of 32 and its 255-block flush, newlines dense and sparse.
    @Test func newlinesBeforeAnOffsetAreCountedExactly() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...70) + [255 * 32 - 1, 255 * 32, 255 * 32 + 33, 20_000] {
            for density in [0, 1, 2, 40, 255] {
                let bytes = (0..<length).map { _ in
                    density > 0 && Int.random(in: 0..<density, using: &generator) == 0 ? UInt8(0x0A) : UInt8.random(in: 0x20...0x7E, using: &generator)
                }
                for end in Set([0, length / 3, length - 1, length].filter { $0 >= 0 }) {
                    #expect(UnifiedDiff.Window.newlines(in: bytes, before: end) == bytes[..<end].filter { $0 == 0x0A }.count,
                            "length \(length) density \(density) end \(end)")
                }
            }
        }
    }

    @Test func equalInputsHaveNoDiff() {
        #expect(diff("a\nb\n", "a\nb\n") == nil)
    }

    @Test func hunksCarryThreeLinesOfContextAndMergeWhenClose() {
        let old = (1...20).map { "l\($0)\n" }.joined()
        var lines = (1...20).map { "l\($0)\n" }
        lines[4] = "X\n"
        lines[9] = "Y\n"
        #expect(diff(old, lines.joined()) == """
            --- a/f
            +++ b/f
            @@ -2,12 +2,12 @@
             l2
             l3
             l4
            -l5
            +X
             l6
             l7
             l8
             l9
            -l10
            +Y
             l11
             l12
             l13

            """)
    }

    @Test func separateHunksWhenFarApart() {
        let old = (1...30).map { "l\($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "l2\n", with: "").replacingOccurrences(of: "l28\n", with: "l28\nnew\n")
        #expect(diff(old, new) == """
            --- a/f
            +++ b/f
            @@ -1,5 +1,4 @@
             l1
            -l2
             l3
             l4
             l5
            @@ -26,5 +25,6 @@
             l26
             l27
             l28
            +new
             l29
             l30

            """)
    }

    @Test func missingFinalNewlineIsMarked() {
        #expect(diff("a\nb", "a\nc") == "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n")
    }

    @Test func crlfLinesKeepTheirCarriageReturns() {
        #expect(diff("a\r\nb\r\n", "a\r\nc\r\n") == "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n")
    }

    @Test func insertionIntoEmptyFileStartsAtZero() {
        #expect(diff("", "a\n") == "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+a\n")
    }

    /// The window (only changed lines and their context are diffed) must not change a single
    /// byte of the output, and the output must turn the old text into the new one.
    @Test func windowedDiffEqualsWholeFileDiffAndApplies() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let terminator = Bool.random(using: &generator) ? "\n" : "\r\n"
            var lines = (0..<Int.random(in: 0...25, using: &generator)).map { _ in
                ["<key>", "<true/>", "</dict>", "x", ""].randomElement(using: &generator)! + terminator
            }
            let old = lines.joined() + (Bool.random(using: &generator) ? "tail" : "")
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = Int.random(in: 0...lines.count, using: &generator)
                switch Int.random(in: 0...2, using: &generator) {
                case 0: lines.insert("new" + terminator, at: index)
                case 1 where index < lines.count: lines.remove(at: index)
                default: if index < lines.count { lines[index] = "changed" + terminator }
                }
            }
            let new = lines.joined() + (Bool.random(using: &generator) ? "tail" : "")
            let windowed = diff(old, new)
            let whole = UnifiedDiff.make(from: Array(old.utf8), to: Array(new.utf8), path: "f", window: nil)
            #expect(windowed == whole, "old: \(old.debugDescription) new: \(new.debugDescription)")
            if let windowed { #expect(Self.apply(windowed, to: old) == new, "\(old.debugDescription) \(windowed.debugDescription)") }
        }
    }

    /// Past `wholeDiffLimit` lines the diff is cut into segments where the files agree again:
    /// it still applies, and a file with thousands of scattered edits still gets its diff.
    @Test func longFilesWithScatteredEditsAreDiffedInSegmentsThatApply() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            var lines = (0..<(3_000 + round * 100)).map { index in
                ["\t<key>d\(index).example.com</key>\n", "\t<true/>\n", "\t<dict>\n", "\t</dict>\n"][index % 4]
            }
            let old = lines.joined()
            for _ in 0..<Int.random(in: 50...600, using: &generator) {
                let index = Int.random(in: 0..<lines.count, using: &generator)
                switch Int.random(in: 0...2, using: &generator) {
                case 0: lines.insert("\t<key>NSIncludesSubdomains</key>\n", at: index)
                case 1: lines.remove(at: index)
                default: lines[index] = lines[index].lowercased().replacingOccurrences(of: "d", with: "D")
                }
            }
            let new = lines.joined()
            #expect(lines.count > UnifiedDiff.wholeDiffLimit / 2, "long enough to be cut into segments")
            guard let patch = diff(old, new) else { continue }
            #expect(Self.apply(patch, to: old) == new)
        }
    }

    /// A minimal unified-diff applier for the test above (bytes: Swift's String would treat
    /// `\r\n` as one character).
    static func apply(_ patch: String, to text: String) -> String {
        func lines(_ text: String) -> [[UInt8]] {
            var result = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
            result[result.count - 1].removeLast()
            if result.last == [] { result.removeLast() }
            return result
        }
        let old = lines(text)
        var out: [[UInt8]] = []
        var cursor = 0
        var previous: UInt8?
        for row in lines(patch).dropFirst(2) {
            if row.starts(with: Array("@@".utf8)) {
                let field = String(decoding: row, as: UTF8.self).split(separator: " ")[1].dropFirst()
                let range = field.split(separator: ",").map { Int($0)! }
                let target = range.count == 2 && range[1] == 0 ? range[0] : range[0] - 1
                while cursor < target { out.append(old[cursor]); cursor += 1 }
            } else if row.first == UInt8(ascii: "\\") {
                if previous == UInt8(ascii: "+") { out[out.count - 1].removeLast() }
            } else {
                previous = row.first
                switch row.first {
                case UInt8(ascii: " "): out.append(old[cursor]); cursor += 1
                case UInt8(ascii: "-"): cursor += 1
                default: out.append(Array(row.dropFirst()))
                }
            }
        }
        while cursor < old.count { out.append(old[cursor]); cursor += 1 }
        return String(decoding: out.joined(), as: UTF8.self)
    }
}
