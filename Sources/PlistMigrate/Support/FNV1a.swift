/// FNV-1a, 64-bit: a hash that is the same on every machine and in every run (shards split a
/// monorepo by it; the diff numbers lines with it).
enum FNV1a {
    static let start: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash = start
        add(bytes, to: &hash)
        return hash
    }

    /// Goes on hashing: `add(b, to: &h)` after `h = hash(a)` gives `hash(a + b)`.
    @inline(__always)
    static func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes, to hash: inout UInt64) {
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
    }
}
