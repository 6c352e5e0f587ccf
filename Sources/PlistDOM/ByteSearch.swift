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
