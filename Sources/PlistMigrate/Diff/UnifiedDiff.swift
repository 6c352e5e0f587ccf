// Room: Diff. Unified diffs of two byte arrays (Myers, linear space), as `git apply` takes
// them. May call Support only.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlistDOM
import FileAccess

/// Unified diffs (`diff -u` / `git apply` format) between two byte buffers: the lines that
/// differ are matched by `MyersDiff`, which picks the hunks the standard library's
/// `difference(from:)` would.
///
/// Lines keep their own terminators, so a CRLF file yields `-line\r\n` rows that `git apply`
/// applies to the CRLF file as it is, and a missing final newline is marked the standard way.
public enum UnifiedDiff {
    public static let contextLines = 3

    /// `nil` when the buffers are equal.
    public static func make(from old: [UInt8], to new: [UInt8], path: String) -> String? {
        make(from: old, to: new, path: path, window: Window(old, new))
    }

    /// With `window` nil the whole buffers are diffed (the tests' reference for the window).
    static func make(from old: [UInt8], to new: [UInt8], path: String, window: Window?) -> String? {
        guard !old.bytesEqual(new) else { return nil }
        // Only the changed lines and their context are cut into lines and diffed; the lines
        // before that window are counted, for the hunk headers.
        let window = window ?? Window(start: 0, oldEnd: old.count, newEnd: new.count, linesBefore: 0)
        let oldLines = Lines(old, window.start..<window.oldEnd)
        let newLines = Lines(new, window.start..<window.newEnd)
        let operations = editScript(from: oldLines, to: newLines)
        // Names are quoted as `git diff` quotes them, which `git apply` reads.
        var out: [UInt8] = Array("--- \(PathBytes.display("a/" + path))\n+++ \(PathBytes.display("b/" + path))\n".utf8)
        // The lines before each hunk are counted on from the hunk before (hunks come in order).
        var counted = (operations: 0, old: window.linesBefore, new: window.linesBefore)
        for hunk in hunks(operations) {
            for operation in operations[counted.operations..<hunk.lowerBound] {
                switch operation {
                case .equal: counted.old += 1; counted.new += 1
                case .delete: counted.old += 1
                case .insert: counted.new += 1
                }
            }
            counted.operations = hunk.lowerBound
            appendHunk(hunk, operations: operations, oldLines: oldLines, newLines: newLines,
                       linesBefore: window.linesBefore, oldBefore: counted.old, newBefore: counted.new, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    enum Operation: Equatable {
        case equal(old: Int, new: Int)
        case delete(old: Int)
        case insert(new: Int)

        var isChange: Bool { if case .equal = self { false } else { true } }
    }

    /// The byte span of both buffers that holds every changed line plus `contextLines` lines
    /// around them; outside it the buffers are equal (`start` is common to both).
    struct Window {
        var start: Int
        var oldEnd: Int
        var newEnd: Int
        /// Lines before `start`.
        var linesBefore: Int

        init(start: Int, oldEnd: Int, newEnd: Int, linesBefore: Int) {
            self.start = start
            self.oldEnd = oldEnd
            self.newEnd = newEnd
            self.linesBefore = linesBefore
        }

        init(_ old: [UInt8], _ new: [UInt8]) {
            let shorter = min(old.count, new.count)
            let (prefix, suffix) = old.withUnsafeBufferPointer { a in
                new.withUnsafeBufferPointer { b -> (Int, Int) in
                    // Whole blocks by memcmp first, then the bytes of the block that differs.
                    let block = 64
                    var prefix = 0
                    while prefix + block <= shorter, memcmp(a.baseAddress! + prefix, b.baseAddress! + prefix, block) == 0 { prefix += block }
                    while prefix < shorter, a[prefix] == b[prefix] { prefix += 1 }
                    let firstChanged = Self.lineStart(at: prefix, in: old)
                    let limit = shorter - firstChanged
                    var suffix = 0
                    while suffix + block <= limit,
                        memcmp(a.baseAddress! + a.count - suffix - block, b.baseAddress! + b.count - suffix - block, block) == 0
                    { suffix += block }
                    while suffix < limit, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
                    return (prefix, suffix)
                }
            }
            let firstChanged = Self.lineStart(at: prefix, in: old)
            // The common tail starts at the first line start inside the common suffix of both.
            var oldTail = old.count - suffix
            while oldTail < old.count {
                let newTail = oldTail - old.count + new.count
                if Self.isLineStart(oldTail, in: old) && Self.isLineStart(newTail, in: new) { break }
                oldTail += 1
            }
            let newTail = oldTail - old.count + new.count
            start = firstChanged
            for _ in 0..<contextLines where start > 0 { start = Self.lineStart(at: start - 1, in: old) }
            // Context after the last change, and as many lines again for a run to slide into
            // (`slideToEntries`), so that the window's diff is the whole file's.
            oldEnd = Self.lineEnd(after: oldTail, lines: 2 * contextLines, in: old)
            newEnd = Self.lineEnd(after: newTail, lines: 2 * contextLines, in: new)
            linesBefore = Self.newlines(in: old, before: start)
        }

        /// The `\n` bytes before `end`, found by `memchr` (a block at a time).
        static func newlines(in bytes: [UInt8], before end: Int) -> Int {
            bytes.withUnsafeBufferPointer { buffer in
                var count = 0, from = 0
                while let hit = buffer.firstOffset(of: 0x0A, in: from..<end) {
                    from = hit + 1
                    count += 1
                }
                return count
            }
        }

        static func isLineStart(_ offset: Int, in bytes: [UInt8]) -> Bool {
            offset == 0 || offset == bytes.count || bytes[offset - 1] == 0x0A
        }

        /// The start of the line holding `offset`.
        static func lineStart(at offset: Int, in bytes: [UInt8]) -> Int {
            var offset = min(offset, bytes.count)
            while offset > 0, bytes[offset - 1] != 0x0A { offset -= 1 }
            return offset
        }

        /// Past the end of `lines` more lines from the line start `offset`.
        static func lineEnd(after offset: Int, lines: Int, in bytes: [UInt8]) -> Int {
            var offset = offset
            for _ in 0..<lines where offset < bytes.count {
                while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
                if offset < bytes.count { offset += 1 }
            }
            return offset
        }
    }

    /// Numbers distinct lines in order of first appearance: an open-addressing table of FNV-1a
    /// hashes over the lines' bytes (valid while the buffers they point into are).
    struct LineNumbers {
        // 24 bytes a slot: a line's length and number fit in 32 bits (files are far smaller).
        private var slots: [(hash: UInt64, start: UnsafePointer<UInt8>?, count: Int32, number: Int32)]
        private var mask: Int
        private(set) var count = 0

        /// Room for `capacity` lines before the table grows: most lines of a plist repeat
        /// (`<dict>`, `<true/>`), so it is seldom more than half full at that size.
        init(capacity: Int) {
            var size = 16
            while size < capacity { size *= 2 }
            slots = Array(repeating: (0, nil, 0, -1), count: size)
            mask = size - 1
        }

        mutating func number(of buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
            let start = buffer.baseAddress! + range.lowerBound
            let hash = FNV1a.hash(UnsafeBufferPointer(start: start, count: range.count))
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while slots[slot].number >= 0 {
                let known = slots[slot]
                if known.hash == hash, Int(known.count) == range.count, range.count == 0 || memcmp(known.start!, start, range.count) == 0 {
                    return Int(known.number)
                }
                slot = (slot + 1) & mask
            }
            slots[slot] = (hash, start, Int32(range.count), Int32(count))
            count += 1
            if count * 2 > slots.count { grow() }
            return count - 1
        }

        private mutating func grow() {
            let old = slots
            slots = Array(repeating: (0, nil, 0, -1), count: old.count * 2)
            mask = slots.count - 1
            for entry in old where entry.number >= 0 {
                var slot = Int(truncatingIfNeeded: entry.hash ^ (entry.hash >> 29)) & mask
                while slots[slot].number >= 0 { slot = (slot + 1) & mask }
                slots[slot] = entry
            }
        }
    }

    /// Part of a buffer cut into lines (each with its terminator), as ranges rather than copies.
    struct Lines {
        let bytes: [UInt8]
        let ranges: [Range<Int>]

        init(_ bytes: [UInt8], _ span: Range<Int>) {
            self.bytes = bytes
            var ranges: [Range<Int>] = []
            bytes.withUnsafeBufferPointer { buffer in
                var start = span.lowerBound
                while let hit = buffer.firstOffset(of: 0x0A, in: start..<span.upperBound) {
                    ranges.append(start..<(hit + 1))
                    start = hit + 1
                }
                if start < span.upperBound { ranges.append(start..<span.upperBound) }
            }
            self.ranges = ranges
        }

        var count: Int { ranges.count }
        subscript(index: Int) -> ArraySlice<UInt8> { bytes[ranges[index]] }

        func line(_ index: Int, equals otherIndex: Int, in other: Lines) -> Bool {
            let mine = ranges[index], theirs = other.ranges[otherIndex]
            guard mine.count == theirs.count else { return false }
            return bytes.withUnsafeBufferPointer { a in
                other.bytes.withUnsafeBufferPointer { b in
                    memcmp(a.baseAddress! + mine.lowerBound, b.baseAddress! + theirs.lowerBound, mine.count) == 0
                }
            }
        }
    }

    static func editScript(from old: Lines, to new: Lines) -> [Operation] {
        // Migrations touch one dict: diff only what lies between the common head and tail.
        var head = 0
        while head < old.count, head < new.count, old.line(head, equals: head, in: new) { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head,
            old.line(old.count - 1 - tail, equals: new.count - 1 - tail, in: new)
        {
            tail += 1
        }
        // Equal lines get equal numbers (in order of first appearance), so Myers compares
        // integers, not bytes.
        let (oldMiddle, newMiddle) = old.bytes.withUnsafeBufferPointer { oldBytes in
            new.bytes.withUnsafeBufferPointer { newBytes in
                var numbers = LineNumbers(capacity: old.count + new.count - 2 * (head + tail))
                let oldMiddle = (head..<(old.count - tail)).map { numbers.number(of: oldBytes, old.ranges[$0]) }
                let newMiddle = (head..<(new.count - tail)).map { numbers.number(of: newBytes, new.ranges[$0]) }
                return (oldMiddle, newMiddle)
            }
        }
        // Per line of each side: whether the script removes (old) or inserts (new) it.
        var removed = [Bool](repeating: false, count: old.count)
        var inserted = [Bool](repeating: false, count: new.count)
        for (oldRange, newRange) in segments(oldMiddle, newMiddle) {
            // Small segments with no line in common (a renamed key): every line goes and comes,
            // as Myers would say, without building its tables.
            if oldRange.count <= 8, newRange.count <= 8,
                !oldMiddle[oldRange].contains(where: { newMiddle[newRange].contains($0) })
            {
                for offset in oldRange { removed[head + offset] = true }
                for offset in newRange { inserted[head + offset] = true }
                continue
            }
            let (gone, come) = oldMiddle[oldRange].withUnsafeBufferPointer { oldLines in
                newMiddle[newRange].withUnsafeBufferPointer { MyersDiff.changes(from: oldLines, to: $0) }
            }
            for offset in gone { removed[head + oldRange.lowerBound + offset] = true }
            for offset in come { inserted[head + newRange.lowerBound + offset] = true }
        }
        var operations: [Operation] = []
        operations.reserveCapacity(old.count + new.count)
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, removed[i] {
                operations.append(.delete(old: i))
                i += 1
            } else if j < new.count, inserted[j] {
                operations.append(.insert(new: j))
                j += 1
            } else {
                operations.append(.equal(old: i, new: j))
                i += 1
                j += 1
            }
        }
        slideToEntries(&operations, old: old, new: new)
        return operations
    }

    /// Moves each run of only added (or only removed) lines, where equal lines let it slide,
    /// to start at a `<key>` line, so that a reviewer reads whole entries: `+<key>B</key>`
    /// `+<true/>`, not `+<true/>` `+<key>B</key>` between two `<true/>` lines that are equal
    /// (git's diff slides such runs by indentation; a plist's entries are known by their key).
    /// A run that starts at a key already, or cannot reach one within `contextLines` lines,
    /// stays where it is: the window a diff is made in holds that many lines after the last
    /// change, so the diff is the same whether the window or the whole file is diffed.
    static func slideToEntries(_ operations: inout [Operation], old: Lines, new: Lines) {
        var start = 0
        while start < operations.count {
            guard operations[start].isChange else {
                start += 1
                continue
            }
            var end = start
            while end < operations.count, operations[end].isChange { end += 1 }
            // One block of changes between equal lines: it slides only if all are of one kind.
            let inserting = operations[start..<end].allSatisfy { if case .insert = $0 { true } else { false } }
            let deleting = operations[start..<end].allSatisfy { if case .delete = $0 { true } else { false } }
            guard inserting || deleting else {
                start = end
                continue
            }
            let lines = inserting ? new : old
            let first = Self.side(operations[start], new: inserting)
            let count = end - start
            var by = 0
            var reachesKey = false
            while by < contextLines, !Self.isKey(lines[first + by]), end + by < operations.count, case .equal = operations[end + by] {
                // The run moves down one line where the line after it equals its first.
                let after = Self.side(operations[end + by], new: inserting)
                guard after == first + count + by, lines.line(first + by, equals: after, in: lines) else { break }
                by += 1
                reachesKey = Self.isKey(lines[first + by])
            }
            guard reachesKey else {
                start = end
                continue
            }
            var moved: [Operation] = []
            for k in 0..<by {
                // The equal line now pairs the other side's line with the run's first lines.
                guard case .equal(let oldLine, let newLine) = operations[end + k] else { return }
                moved.append(inserting ? .equal(old: oldLine, new: first + k) : .equal(old: first + k, new: newLine))
            }
            for k in 0..<count { moved.append(inserting ? .insert(new: first + by + k) : .delete(old: first + by + k)) }
            operations.replaceSubrange(start..<(end + by), with: moved)
            start = end + by
        }
    }

    private static let keyOpen = Array("<key>".utf8)

    /// Whether a line, past its indentation, opens a `<key>`.
    static func isKey(_ line: ArraySlice<UInt8>) -> Bool {
        line.drop { $0 == 0x20 || $0 == 0x09 }.starts(with: keyOpen)
    }

    /// The line an operation names on the new side (`new`) or the old.
    private static func side(_ operation: Operation, new: Bool) -> Int {
        switch operation {
        case .equal(let old, let newLine): return new ? newLine : old
        case .insert(let newLine): return newLine
        case .delete(let old): return old
        }
    }

    /// Lines the standard library's Myers diff takes in one piece (its cost grows with lines ×
    /// changes): every plist in the corpus. Beyond it the lines are cut into segments.
    static let wholeDiffLimit = 4_000

    /// The parts of two line lists to diff separately: the whole when they are short; else the
    /// runs between resynchronisation points, where `resyncLines` lines agree again after a
    /// change (nearest first), so a file with thousands of scattered edits costs about the
    /// number of its lines.
    static func segments(_ old: [Int], _ new: [Int]) -> [(Range<Int>, Range<Int>)] {
        guard old.count + new.count > wholeDiffLimit else { return [(0..<old.count, 0..<new.count)] }
        var result: [(Range<Int>, Range<Int>)] = []
        var i = 0, j = 0
        func agree(_ a: Int, _ b: Int) -> Bool {
            guard a + resyncLines <= old.count, b + resyncLines <= new.count else { return false }
            for k in 0..<resyncLines where old[a + k] != new[b + k] { return false }
            return true
        }
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                i += 1
                j += 1
                continue
            }
            var resync: (Int, Int)?
            search: for distance in 1...resyncSearch {
                for a in 0...distance where agree(i + a, j + distance - a) {
                    resync = (i + a, j + distance - a)
                    break search
                }
            }
            let (oldEnd, newEnd) = resync ?? (old.count, new.count)
            result.append((i..<oldEnd, j..<newEnd))
            i = oldEnd
            j = newEnd
        }
        return result
    }

    static let resyncLines = 3
    static let resyncSearch = 256

    /// Ranges of `operations` to print: each change with its context, overlapping ones merged.
    static func hunks(_ operations: [Operation]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for (index, operation) in operations.enumerated() where operation.isChange {
            let range = max(0, index - contextLines)..<min(operations.count, index + contextLines + 1)
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    private static func appendHunk(
        _ hunk: Range<Int>, operations: [Operation],
        oldLines: Lines, newLines: Lines, linesBefore: Int, oldBefore: Int, newBefore: Int, to out: inout [UInt8]
    ) {
        // `oldBefore`, `newBefore`: the lines before the hunk, for the start of an empty side.
        var oldStart = 0, oldCount = 0, newStart = 0, newCount = 0
        var foundOld = false, foundNew = false
        for operation in operations[hunk] {
            switch operation {
            case .equal(let o, let n):
                if !foundOld { oldStart = linesBefore + o + 1; foundOld = true }
                if !foundNew { newStart = linesBefore + n + 1; foundNew = true }
                oldCount += 1; newCount += 1
            case .delete(let o):
                if !foundOld { oldStart = linesBefore + o + 1; foundOld = true }
                oldCount += 1
            case .insert(let n):
                if !foundNew { newStart = linesBefore + n + 1; foundNew = true }
                newCount += 1
            }
        }
        if oldCount == 0 { oldStart = oldBefore }
        if newCount == 0 { newStart = newBefore }
        out += Array("@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n".utf8)
        for operation in operations[hunk] {
            switch operation {
            case .equal(let o, _): appendLine(UInt8(ascii: " "), oldLines[o], to: &out)
            case .delete(let o): appendLine(UInt8(ascii: "-"), oldLines[o], to: &out)
            case .insert(let n): appendLine(UInt8(ascii: "+"), newLines[n], to: &out)
            }
        }
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    private static func appendLine(_ prefix: UInt8, _ line: ArraySlice<UInt8>, to out: inout [UInt8]) {
        out.append(prefix)
        out += line
        if line.last != 0x0A { out += noNewlineMarker }
    }

    private static let noNewlineMarker = Array("\n\\ No newline at end of file\n".utf8)
}
