/// An exception-domain key holding a `/`, read as Apple's reader reads it (Security,
/// `protocol/SecProtocolConfiguration.m`, `cidr_string_to_subnet_and_mask`, called from
/// `sec_protocol_configuration_set_ats_overrides`). Written from reading that function; what it
/// does that Apple's NSExceptionDomains page does not say:
/// - an IPv4 network may be short: `10/8` is `10.0.0.0/8` (missing parts are zeros);
/// - an IPv6 network without `::` gets one appended: `2001:db8/32` is `2001:db8::/32`;
/// - hex digits may be capitals: `2001:DB8::/32`;
/// - the prefix is read as C's `strtol` reads a number in base 0, so a leading `0` makes it
///   octal and reading stops at the first digit that is not: `/08` is prefix 0, every address;
/// - the network text must fit the reader's buffers: at most 13 characters for IPv4 and 37
///   (35 when `::` is appended) for IPv6, so `255.255.255.255/32` matches nothing.
/// A key the reader refuses is stored but never matches (`nil` here).
public struct ReaderCIDR: Sendable, Equatable {
    public var network: IPAddress
    public var prefix: Int

    public init?(_ key: String) {
        let bytes = Array(key.utf8)
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")), slash > 0 else { return nil }
        let head = bytes[..<slash], tail = bytes[(slash + 1)...]
        // After the slash only digits: a second slash, a dot, a colon or a hex letter is refused.
        guard !tail.isEmpty, tail.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        var dots = 0, colons = 0, hexLetters = 0, doubleColon = false
        for (offset, byte) in head.enumerated() {
            switch byte {
            case UInt8(ascii: "."):
                guard hexLetters == 0, colons == 0, offset > 0 else { return nil }
                dots += 1
            case UInt8(ascii: ":"):
                guard dots == 0 else { return nil }
                colons += 1
                if offset > 0, head[head.startIndex + offset - 1] == UInt8(ascii: ":") {
                    guard !doubleColon else { return nil }
                    doubleColon = true
                }
            case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
                guard dots == 0 else { return nil }
                hexLetters += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            default:
                return nil
            }
        }
        // The character before the slash: not a dot, and a colon only as the end of `::`.
        if dots > 0, head.last == UInt8(ascii: ".") { return nil }
        if colons > 0, head.last == UInt8(ascii: ":"), head.count > 2, head[head.endIndex - 2] != UInt8(ascii: ":") { return nil }
        guard let bits = Self.strtolBase0(tail) else { return nil }
        let text = String(decoding: head, as: UTF8.self)
        if hexLetters == 0, colons == 0 {
            guard bits <= 32, head.count + 1 < 15 else { return nil }
            var padded = text
            var missing = 3 - dots
            while missing > 0, padded.utf8.count + 2 < 15 {
                padded += ".0"
                missing -= 1
            }
            guard let network = Self.strictIPv4(padded) else { return nil }
            self.network = network
        } else {
            guard bits <= 128, head.count + 1 < 39 else { return nil }
            var padded = text
            if !doubleColon, colons < 7 {
                guard head.count + 3 < 39 else { return nil }
                padded += "::"
            }
            guard let bytes = IPAddress.parseIPv6(Substring(padded)) else { return nil }
            network = IPAddress(bytes: bytes, isIPv4: false)
        }
        prefix = bits
    }

    /// A decimal digit string as `strtol(text, NULL, 0)` reads it: a leading `0` means octal and
    /// reading stops at the first non-octal digit; `nil` past any prefix either family allows.
    static func strtolBase0(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        let octal = digits.count > 1 && digits.first == UInt8(ascii: "0")
        for byte in digits {
            let digit = Int(byte - UInt8(ascii: "0"))
            if octal && digit > 7 { break }
            value = value * (octal ? 8 : 10) + digit
            if value > 128 { return nil }
        }
        return value
    }

    /// `inet_pton(AF_INET, …)`: four decimal parts of 0–255, no leading zeros.
    static func strictIPv4(_ text: String) -> IPAddress? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && ($0.count == 1 || $0.first != "0") }) else { return nil }
        return IPAddress(text)
    }
}

/// Whether an exception-domain key without a `/` can name a host a URL loader hands to ATS.
/// Apple's reader looks a host up in the exception dictionary by its exact text (Security,
/// `protocol/SecProtocolConfiguration.m`, `sec_protocol_configuration_find_exception_for_host`),
/// so a key no loader would ever produce as a host matches nothing.
public enum HostNameKey {
    /// Lowercase ASCII letters, digits and `-` in dot-separated labels, with a letter: the
    /// usual key, checked without copies.
    static func isPlainName(_ key: String) -> Bool {
        var sawLetter = false, previousWasDot = true, lastLabelHasLetter = false
        // Over the bytes in place: walking `utf8` costs several instructions a byte.
        var text = key
        return text.withUTF8 { bytes in
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    if previousWasDot { return false }
                    previousWasDot = true
                    lastLabelHasLetter = false
                    continue
                }
                previousWasDot = false
                let letter = (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
                guard letter || (byte >= 0x30 && byte <= 0x39) else { return false }
                if letter { sawLetter = true; lastLabelHasLetter = true }
            }
            return sawLetter && !previousWasDot && lastLabelHasLetter
        }
    }

    /// A name a URL loader can hand over: ASCII without capitals (loaders lowercase the host),
    /// none of the code points the URL standard forbids in a domain (white space and controls,
    /// `# / : < > ? @ [ \\ ] ^ |`, `%`), non-empty labels, an optional trailing dot (the rooted
    /// form, which only a host written with the dot matches), and a last label that is not a
    /// number (a loader reads such a host as an IPv4 address: `127.0.0.1.` is 127.0.0.1).
    public static func canMatch(_ key: String) -> Bool {
        var name = Substring(key)
        if name.hasSuffix("."), name.count > 1 { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.count <= 253,
            name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !($0 >= 0x41 && $0 <= 0x5A) && !forbidden.contains($0) })
        else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 }), let last = labels.last else { return false }
        let numeric = last.allSatisfy(\.isNumber) || (last.hasPrefix("0x") && last.dropFirst(2).allSatisfy(\.isHexDigit))
        return !numeric
    }

    private static let forbidden = Set("#/:<>?@[\\]^|%".utf8)

    /// Why a key without a `/` can match no host, or `nil` when it can (or is an address, a
    /// build setting, or has a problem `ExceptionKeyCheck` names).
    public static func problem(_ key: String) -> String? {
        guard !key.isEmpty, !key.contains("/"), !key.contains("$("), !key.contains("${"), key.allSatisfy(\.isASCII) else { return nil }
        if key.hasPrefix("[") || key.hasSuffix("]") {
            return "\(key) is written in brackets, as in a URL: a key names the address without them, so this key matches nothing"
        }
        if key.contains(where: \.isWhitespace) {
            return "\(key.debugDescription) holds white space: no host has it, so this key matches nothing"
        }
        if key.hasPrefix(".") {
            return "\(key) starts with a dot: no host does, so this key matches nothing (NSIncludesSubdomains on \(key.dropFirst()) covers its subdomains)"
        }
        if key.contains("%"), !key.contains(":") {
            return "\(key) holds %: a URL loader decodes percent-escapes before ATS sees the host, so this key matches nothing"
        }
        return nil
    }
}

extension IPAddress {
    init(bytes: [UInt8], isIPv4: Bool) {
        self.bytes = bytes
        self.isIPv4 = isIPv4
    }

    /// The address as `inet_ntop` writes it: dotted decimal for IPv4, lowercase hex with the
    /// longest run of zero groups (two or more; the first of equal runs) as `::` for IPv6, and
    /// an IPv4-mapped address as `::ffff:a.b.c.d`. Apple's reader looks an address key up by
    /// this text, so a key written otherwise matches nothing.
    public var text: String {
        if isIPv4 { return bytes[12...].map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        if groups[0..<5].allSatisfy({ $0 == 0 }), groups[5] == 0xFFFF {
            return "::ffff:" + bytes[12...].map(String.init).joined(separator: ".")
        }
        var best: Range<Int>?
        var start: Int?
        for index in 0...8 {
            if index < 8, groups[index] == 0 {
                if start == nil { start = index }
            } else if let first = start {
                if index - first >= 2, index - first > (best?.count ?? 0) { best = first..<index }
                start = nil
            }
        }
        func hex(_ slice: ArraySlice<UInt16>) -> String { slice.map { String($0, radix: 16) }.joined(separator: ":") }
        guard let best else { return hex(groups[...]) }
        return hex(groups[..<best.lowerBound]) + "::" + hex(groups[best.upperBound...])
    }
}

extension ATSConfiguration.DomainRule.Matcher {
    /// The network of an address or range, as text.
    public var networkText: String? {
        if case .address(let network, _) = self { return network.text }
        return nil
    }
}
