import Testing
@testable import PlistMigrate

@Suite struct UnifiedDiffTests {
    func diff(_ old: String, _ new: String) -> String? {
        UnifiedDiff.make(from: Array(old.utf8), to: Array(new.utf8), path: "f")
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
}
