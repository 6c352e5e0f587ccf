/// FNV-1a, 64-bit: a hash that is the same on every machine and in every run (shards split a
/// monorepo by it; the diff numbers lines with it).
enum FNV1a {
    @inline(__always)
    static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
