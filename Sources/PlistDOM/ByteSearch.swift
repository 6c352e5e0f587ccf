#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UnsafeBufferPointer where Element == UInt8 {
    /// Where `byte` first stands in `range` (`memchr`, a block at a time), as an offset from the
    /// start of the buffer.
    @inlinable public func firstOffset(of byte: UInt8, in range: Range<Int>) -> Int? {
        guard let base = baseAddress, !range.isEmpty, let hit = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
    }

    /// Where `needle` first starts (memchr for its first byte, then memcmp), as an offset from
    /// the start of the buffer.
    public func firstOffset(of needle: [UInt8]) -> Int? {
        guard let first = needle.first else { return 0 }
        guard needle.count <= count, let base = baseAddress else { return nil }
        return needle.withUnsafeBufferPointer { pattern -> Int? in
            var offset = 0
            while count - offset >= pattern.count {
                guard let raw = memchr(base + offset, Int32(first), count - offset) else { return nil }
                let hit = UnsafePointer(raw.assumingMemoryBound(to: UInt8.self)) - base
                if count - hit < pattern.count { return nil }
                // The second byte rules out most hits without a call.
                if pattern.count < 2 || base[hit + 1] == pattern[1], memcmp(base + hit, pattern.baseAddress!, pattern.count) == 0 {
                    return hit
                }
                offset = hit + 1
            }
            return nil
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in the array.
    public func containsBytes(_ needle: [UInt8]) -> Bool {
        withUnsafeBufferPointer { $0.firstOffset(of: needle) } != nil
    }
}

extension ArraySlice where Element == UInt8 {
    /// The index where `needle` first starts.
    public func firstOffset(of needle: [UInt8]) -> Int? {
        withUnsafeBufferPointer { $0.firstOffset(of: needle) }.map { startIndex + $0 }
    }
}

extension Sequence<UInt8> {
    /// Whether every byte is ASCII (as UTF-8: every character is one byte, and one scalar).
    @inlinable public var isASCII: Bool { allSatisfy { $0 < 0x80 } }
}

extension String.UTF8View {
    /// `isASCII` with the bytes read in place (walking the view costs several instructions a byte).
    @inlinable public var isASCII: Bool { String(self).utf8AllSatisfy { $0 < 0x80 } }
}

extension Substring.UTF8View {
    /// `isASCII` with the bytes read in place.
    @inlinable public var isASCII: Bool {
        var text = Substring(self)
        return text.withUTF8 { $0.allSatisfy { $0 < 0x80 } }
    }
}

extension BidirectionalCollection<UInt8> {
    /// Whether the bytes end with `suffix`: compared in place where the bytes are contiguous (a
    /// native string's UTF-8, an array), else walked backwards.
    @inlinable public func hasSuffix(bytes suffix: [UInt8]) -> Bool {
        let inPlace = withContiguousStorageIfAvailable { own in
            own.count >= suffix.count && own[(own.count - suffix.count)...].elementsEqual(suffix)
        }
        return inPlace ?? reversed().starts(with: suffix.reversed())
    }

    /// Whether the bytes start with `prefix`, compared in place where they are contiguous.
    @inlinable public func hasPrefix(bytes prefix: [UInt8]) -> Bool {
        let inPlace = withContiguousStorageIfAvailable { own in
            own.count >= prefix.count && own[..<prefix.count].elementsEqual(prefix)
        }
        return inPlace ?? starts(with: prefix)
    }
}

extension String {
    /// Whether the string holds `character` (an ASCII one) as a whole character. An ASCII string
    /// is searched as bytes, each byte being a character there; any other by characters, as a
    /// combining mark can join the one it follows.
    public func contains(ascii character: Unicode.Scalar) -> Bool {
        // The UTF-8 is read in place (walking `utf8` costs several instructions a byte).
        var text = self
        let inASCII = text.withUTF8 { utf8 -> Bool? in utf8.isASCII ? utf8.contains(UInt8(character.value)) : nil }
        return inASCII ?? contains(Character(character))
    }

    /// `utf8.allSatisfy(predicate)`, the bytes read in place.
    @inlinable public func utf8AllSatisfy(_ predicate: (UInt8) -> Bool) -> Bool {
        var text = self
        return text.withUTF8 { $0.allSatisfy(predicate) }
    }

    /// `utf8.contains(where: predicate)`, the bytes read in place.
    @inlinable public func utf8Contains(where predicate: (UInt8) -> Bool) -> Bool {
        var text = self
        return text.withUTF8 { $0.contains(where: predicate) }
    }
}
