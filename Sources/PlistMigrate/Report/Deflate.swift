/// Raw DEFLATE (RFC 1951) with the fixed Huffman codes and LZ77 matches found through hash
/// chains: what a browser's `DecompressionStream("deflate-raw")` reads. The review page of a
/// large fleet carries most of its kinds this way (a page under 300 KB for a
/// 10,000-file tree); its HTML, made of many near-identical kinds, shrinks about tenfold.
/// A few dozen lines of ours rather than zlib: `libxml2-dev` does not bring zlib's header
/// everywhere, and the page needs only the encoder.
enum Deflate {
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL: the only block
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        let window = 32_768, minimum = 3, maximum = 258, chainLimit = 64
        let hashSize = 1 << 15
        var head = [Int](repeating: -1, count: hashSize)
        var previous = [Int](repeating: -1, count: window)
        func hash(_ at: Int) -> Int {
            (Int(input[at]) << 10 ^ Int(input[at + 1]) << 5 ^ Int(input[at + 2])) & (hashSize - 1)
        }
        func insert(_ at: Int) {
            guard at + 2 < input.count else { return }
            let h = hash(at)
            previous[at & (window - 1)] = head[h]
            head[h] = at
        }
        var at = 0
        while at < input.count {
            var bestLength = 0, bestDistance = 0
            if at + minimum <= input.count {
                var candidate = head[hash(at)]
                var chain = 0
                let limit = min(maximum, input.count - at)
                while candidate >= 0, at - candidate <= window, chain < chainLimit {
                    var length = 0
                    while length < limit, input[candidate + length] == input[at + length] { length += 1 }
                    if length > bestLength {
                        bestLength = length
                        bestDistance = at - candidate
                        if length == limit { break }
                    }
                    let next = previous[candidate & (window - 1)]
                    // A chain entry from an older pass over the window slot: the chain ends.
                    if next >= candidate { break }
                    candidate = next
                    chain += 1
                }
            }
            if bestLength >= minimum {
                writeLength(bestLength, into: &bits)
                writeDistance(bestDistance, into: &bits)
                for position in at..<(at + bestLength) { insert(position) }
                at += bestLength
            } else {
                writeLiteral(Int(input[at]), into: &bits)
                insert(at)
                at += 1
            }
        }
        writeLiteral(256, into: &bits)  // end of block
        return bits.finish()
    }

    /// A literal or length symbol in the fixed code (RFC 1951 §3.2.6), most significant bit first.
    private static func writeLiteral(_ symbol: Int, into bits: inout BitWriter) {
        switch symbol {
        case 0...143: bits.writeCode(0x30 + symbol, count: 8)
        case 144...255: bits.writeCode(0x190 + symbol - 144, count: 9)
        case 256...279: bits.writeCode(symbol - 256, count: 7)
        default: bits.writeCode(0xC0 + symbol - 280, count: 8)
        }
    }

    private static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                        4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    private static func writeLength(_ length: Int, into bits: inout BitWriter) {
        var code = lengthBases.count - 1
        while lengthBases[code] > length { code -= 1 }
        writeLiteral(257 + code, into: &bits)
        bits.write(length - lengthBases[code], count: lengthExtra[code])
    }

    private static func writeDistance(_ distance: Int, into bits: inout BitWriter) {
        var code = distanceBases.count - 1
        while distanceBases[code] > distance { code -= 1 }
        bits.writeCode(code, count: 5)
        bits.write(distance - distanceBases[code], count: distanceExtra[code])
    }

    /// Bits packed from each byte's least significant bit up, as DEFLATE reads them.
    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var buffer = 0, filled = 0

        /// A value's `count` low bits, least significant first (header fields, extra bits).
        mutating func write(_ value: Int, count: Int) {
            buffer |= value << filled
            filled += count
            while filled >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                filled -= 8
            }
        }

        /// A Huffman code, most significant bit first.
        mutating func writeCode(_ code: Int, count: Int) {
            var reversed = 0
            for bit in 0..<count where code & (1 << bit) != 0 { reversed |= 1 << (count - 1 - bit) }
            write(reversed, count: count)
        }

        mutating func finish() -> [UInt8] {
            if filled > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            return bytes
        }
    }
}
