#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps byte offsets of a source to lines and columns. `\n`, `\r\n` and a lone `\r` each end a line.
/// Shared by every element of a document, which asks it for its location only when needed;
/// the readers of other formats a plist is made from (YAML, JSON) place their bytes with it too.
public final class LineTable {
    private let source: [UInt8]
    /// Built on first use: most parses never need a line number.
    private lazy var lineStarts: [Int] = source.withUnsafeBufferPointer { bytes in
        var starts = [0]
        starts.reserveCapacity(bytes.count / 24 + 1)
        guard let base = bytes.baseAddress else { return starts }
        // Without a `\r` (nearly every file), `memchr` finds each `\n` a block at a time.
        if memchr(base, Int32(ASCII.cr), bytes.count) == nil {
            var from = 0
            while let hit = bytes.firstOffset(of: ASCII.lf, in: from..<bytes.count) {
                from = hit + 1
                starts.append(from)
            }
            return starts
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            // Line breaks are the only bytes this low that a plist holds (a tab is 0x09).
            if byte <= ASCII.cr {
                if byte == ASCII.lf {
                    starts.append(i + 1)
                } else if byte == ASCII.cr {
                    if i + 1 < bytes.count, bytes[i + 1] == ASCII.lf { i += 1 }
                    starts.append(i + 1)
                }
            }
            i += 1
        }
        return starts
    }

    public init(_ source: [UInt8]) {
        self.source = source
    }

    /// How many lines the source has (one more than its line breaks).
    public var lineCount: Int { lineStarts.count }

    /// Where line `line` (1-based, at most `lineCount`) starts.
    public func start(ofLine line: Int) -> Int { lineStarts[line - 1] }

    public func location(of offset: Int) -> SourceLocation {
        let clamped = min(max(offset, 0), source.count)
        let low = lineIndex(of: clamped)
        let start = lineStarts[low]
        // Count scalars, not bytes: skip UTF-8 continuation bytes.
        let scalars = source[start..<clamped].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return SourceLocation(line: low + 1, column: scalars + 1)
    }

    /// The line (1-based) of `offset`, without the column's count of characters.
    public func line(of offset: Int) -> Int {
        lineIndex(of: min(max(offset, 0), source.count)) + 1
    }

    private func lineIndex(of clamped: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= clamped { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Leading spaces and tabs of the line containing `offset` (a scan back to the line start,
    /// no table needed).
    func indentation(ofLineContaining offset: Int) -> ArraySlice<UInt8> {
        let start = lineStart(of: offset)
        var end = start
        while end < source.count, source[end] == ASCII.space || source[end] == ASCII.tab { end += 1 }
        return source[start..<end]
    }

    /// Whether a line break lies between two offsets.
    func onDifferentLines(_ a: Int, _ b: Int) -> Bool {
        source[min(a, b)..<min(max(a, b), source.count)].contains { $0 == ASCII.lf || $0 == ASCII.cr }
    }

    private func lineStart(of offset: Int) -> Int {
        var start = min(offset, source.count)
        while start > 0, source[start - 1] != ASCII.lf, source[start - 1] != ASCII.cr { start -= 1 }
        return start
    }
}

enum ASCII {
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let tab: UInt8 = 0x09
    static let space: UInt8 = 0x20
    static let lt: UInt8 = 0x3C
    static let gt: UInt8 = 0x3E
    static let slash: UInt8 = 0x2F

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == lf || byte == cr
    }
}

extension Collection<UInt8> {
    var isAllWhitespace: Bool { allSatisfy(ASCII.isWhitespace) }
}

extension Array<UInt8> {
    /// `==` by `memcmp` (the generic `==` compares one byte at a time).
    public func bytesEqual(_ other: [UInt8]) -> Bool {
        self[...].bytesEqual(other[...])
    }
}

extension ArraySlice<UInt8> {
    /// Byte equality by `memcmp` (the generic `elementsEqual` walks one byte at a time).
    public func bytesEqual(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return withUnsafeBufferPointer { memcmp($0.baseAddress!, other.baseAddress!, count) == 0 }
    }

    /// `bytesEqual` for two slices (what `==` on slices answers, by `memcmp`).
    public func bytesEqual(_ other: ArraySlice<UInt8>) -> Bool {
        other.withUnsafeBufferPointer { bytesEqual($0) }
    }

    /// The whitespace run at the end of this slice.
    var trailingWhitespace: ArraySlice<UInt8> {
        var start = endIndex
        while start > startIndex, ASCII.isWhitespace(self[start - 1]) { start -= 1 }
        return self[start...]
    }

    /// From the start of the last line break (`\n`, `\r\n` or `\r`) to the end; `nil` without one.
    var fromLastLineBreak: ArraySlice<UInt8>? {
        guard let last = lastIndex(where: { $0 == ASCII.lf || $0 == ASCII.cr }) else { return nil }
        if self[last] == ASCII.lf, last > startIndex, self[last - 1] == ASCII.cr {
            return self[(last - 1)...]
        }
        return self[last...]
    }
}
