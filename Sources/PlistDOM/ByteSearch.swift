#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in the array (memchr for its first byte, then memcmp).
    public func containsBytes(_ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= count else { return false }
        let found: Bool = withUnsafeBufferPointer { (haystack: UnsafeBufferPointer<UInt8>) -> Bool in
            needle.withUnsafeBufferPointer { (pattern: UnsafeBufferPointer<UInt8>) -> Bool in
                guard let base = haystack.baseAddress, let patternBase = pattern.baseAddress else { return false }
                var offset = 0
                while haystack.count - offset >= pattern.count {
                    guard let raw = memchr(base + offset, Int32(first), haystack.count - offset) else { return false }
                    let hit = UnsafePointer(raw.assumingMemoryBound(to: UInt8.self)) - base
                    if haystack.count - hit < pattern.count { return false }
                    if memcmp(base + hit, patternBase, pattern.count) == 0 { return true }
                    offset = hit + 1
                }
                return false
            }
        }
        return found
    }
}

extension ArraySlice where Element == UInt8 {
    /// The index where `needle` first starts, by a plain scan (for short slices).
    func firstOffset(of needle: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty ? startIndex : nil }
        var index = startIndex
        while index + needle.count <= endIndex {
            if self[index] == needle[0] && self[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
