import PlistDOM

/// A host name as ATS classifies it.
public struct Host: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    /// An IPv4 or IPv6 literal.
    public let isIPAddress: Bool
    /// Unqualified names, `.local` names and IP addresses: what Apple's NSAllowsLocalNetworking
    /// page calls local.
    public let isLocal: Bool
    /// The address as 16 bytes (IPv4 as `::ffff:a.b.c.d`), for an IP literal.
    let address: IPAddress?
    /// Read as Apple's reader reads the text it is given (`init(asWritten:)`): an exact address
    /// key matches only the same text, as a dictionary look-up does.
    public let isAsWritten: Bool

    public init(_ name: String) {
        isAsWritten = false
        // Most names are lowercase ASCII already: kept as they are, without a copy.
        let lowercase = name.utf8AllSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        self.name = lowercase ? name : name.lowercased()
        let bytes = self.name.utf8
        // An IP literal is hex digits, dots and colons: most names are ruled out without a parse.
        let mayBeAddress = self.name.utf8AllSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":")
        }
        address = mayBeAddress ? IPAddress(self.name) : nil
        isIPAddress = address != nil
        let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        isLocal = isIPAddress || dot == nil || bytes.hasSuffix(bytes: Self.localSuffix)
            || bytes.hasSuffix(bytes: Self.localRootedSuffix)
    }

    /// The host as Apple's reader looks it up (Security, SecProtocolConfiguration.m,
    /// `sec_protocol_configuration_find_exception_for_host` and `…_for_address`): the text as
    /// given, its case, a trailing dot and an IPv4-mapped IPv6 form kept, for a dictionary
    /// look-up by text; a range matches what `inet_pton` reads in it (a dotted quad of at most
    /// 15 characters without leading zeros, or IPv6 of at most 39, `::ffff:a.b.c.d` being IPv6).
    public init(asWritten text: String) {
        name = text
        isAsWritten = true
        let bytes = text.utf8
        if bytes.count <= 15, let v4 = IPAddress(text), v4.isIPv4,
            !text.split(separator: ".").contains(where: { $0.count > 1 && $0.hasPrefix("0") })
        {
            address = v4
        } else if bytes.count <= 39, text.contains(":"), let v6 = IPAddress.parseIPv6(Substring(text)) {
            address = IPAddress(bytes: v6, isIPv4: false)
        } else {
            address = nil
        }
        isIPAddress = address != nil
        isLocal = isIPAddress || !bytes.contains(UInt8(ascii: ".")) || bytes.hasSuffix(bytes: Self.localSuffix)
            || bytes.hasSuffix(bytes: Self.localRootedSuffix)
    }

    private static let localSuffix = Array(".local".utf8), localRootedSuffix = Array(".local.".utf8)

    public var description: String { name }

    /// Whether an exact address key (no `/`) written `key` covers this host, whose address lies
    /// in it: by value, or for a host read as written, by its text alone.
    func isNamedExactly(byAddressKey key: String) -> Bool { !isAsWritten || key == name }

    // Everything else a host holds follows from its name and reading: only the name is hashed.
    public static func == (lhs: Host, rhs: Host) -> Bool { lhs.name == rhs.name && lhs.isAsWritten == rhs.isAsWritten }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// 10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, and IPv6 loopback, link-local and ULA.
    public var isPrivateAddress: Bool {
        guard let address else { return false }
        if isLoopbackOrLinkLocal { return true }
        let b = address.bytes
        if address.isIPv4 { return b[12] == 10 || (b[12] == 172 && (16...31).contains(b[13])) || (b[12] == 192 && b[13] == 168) }
        return b[0] & 0xFE == 0xFC
    }

    /// 127/8, 169.254/16, `::1` and fe80::/10: the addresses Apple's reader tests pass as a
    /// "direct" connection.
    public var isLoopbackOrLinkLocal: Bool {
        guard let address else { return false }
        let b = address.bytes
        if address.isIPv4 { return b[12] == 127 || (b[12] == 169 && b[13] == 254) }
        return b == Array(repeating: 0, count: 15) + [1] || (b[0] == 0xFE && b[1] & 0xC0 == 0x80)
    }

    /// The IPv4 address as a number (kept for callers that only know IPv4).
    static func parseIPv4(_ text: String) -> UInt32? {
        IPAddress.parseIPv4(Substring(text))
    }
}

/// An IPv4 or IPv6 address as 16 bytes, compared by value: `2001:db8::1` and `2001:db8:0::1`
/// are one address. IPv4 is held as `::ffff:a.b.c.d`, so an IPv4 range is a range of those.
public struct IPAddress: Sendable, Hashable {
    var bytes: [UInt8]
    public internal(set) var isIPv4: Bool

    init?(_ text: String) {
        // Both forms (and the signs `UInt8(_:)` and `UInt16(_:radix:)` take) are ASCII hex
        // digits, dots, colons, `+` and `-`: any other byte rules the text out before a split.
        guard text.utf8AllSatisfy(Self.mayBeInAnAddress) else { return nil }
        if let v4 = Self.parseIPv4(Substring(text)) {
            bytes = Array(repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: v4.bigEndian, Array.init)
            isIPv4 = true
        } else if let v6 = Self.parseIPv6(Substring(text)) {
            bytes = v6
            isIPv4 = false
        } else {
            return nil
        }
    }

    private static func mayBeInAnAddress(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "+"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Whether this address lies in `network`/`prefix` (prefix counted as the written form's:
    /// 0–32 for IPv4, 0–128 for IPv6).
    func isIn(_ network: IPAddress, prefix: Int) -> Bool {
        guard isIPv4 == network.isIPv4 else { return false }
        var bits = prefix + (isIPv4 ? 96 : 0)
        for index in 0..<16 where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            if bytes[index] & mask != network.bytes[index] & mask { return false }
            bits -= 8
        }
        return true
    }

    static func parseIPv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let octet = UInt8(part) else { return nil }
            value = value << 8 | UInt32(octet)
        }
        return value
    }

    /// RFC 4291 text forms: eight groups, `::` once, an embedded IPv4 tail.
    static func parseIPv6(_ text: Substring) -> [UInt8]? {
        guard text.contains(":"), text.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        let halves = text.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count <= 2, !(halves.count == 2 && halves[1].contains("::")) else { return nil }
        func groups(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, field) in fields.enumerated() {
                if index == fields.count - 1, field.contains("."), let v4 = parseIPv4(field) {
                    result += [UInt16(v4 >> 16), UInt16(v4 & 0xFFFF)]
                } else {
                    guard (1...4).contains(field.count), let value = UInt16(field, radix: 16) else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
            all += Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}

/// What `explain --host` was given, made into a host: a URL yields its host, a port is dropped,
/// each with a note; anything that is neither a host name nor an IP address is refused (`nil`).
public struct HostInput: Sendable, Equatable {
    /// The host as this tool reads it: lowercase, an IPv4-mapped address as IPv4, a name ending
    /// in a number as the address a resolver makes of it.
    public var host: String
    public var notes: [String]
    /// The host's text as given (a URL's host without brackets or port): what Apple's reader
    /// looks up, by its text, when the system passes it on unchanged.
    public var asWritten: String

    /// Whether Apple's reader, looking `asWritten` up by its text, may answer otherwise than
    /// `host` does: another case, a trailing dot, another spelling of the address.
    public var isReadDifferently: Bool { asWritten != readAs }

    /// The host as this tool reads it, an address in its shortest form (`::1` for
    /// `0:0:0:0:0:0:0:1`).
    public var readAs: String { IPAddress(host)?.text ?? host }

    /// Why `text` is refused rather than read otherwise than Apple's reader reads it, or `nil`:
    /// white space around it (the reader looks the text up with it, and matches nothing), or a
    /// bracketed address outside a URL (brackets are a URL's; the reader looks the text up with
    /// them, and finds no address).
    public static func refusal(_ text: String) -> String? {
        if text != text.trimmingWhitespace {
            return "has white space around it, which Apple's reader would look up with it and match nothing; give it without"
        }
        if text.hasPrefix("["), !text.contains("://") {
            let inside = text.dropFirst().prefix { $0 != "]" }
            return "is in brackets, as in a URL; Apple's reader looks the text up with them and finds no address: give the address ("
                + inside + ") or a URL (http://" + text + "/)"
        }
        return nil
    }

    public init?(_ text: String) {
        var rest = Substring(text.trimmingWhitespace)
        var notes: [String] = []
        if let scheme = rest.firstRange(of: "://") {
            // As WebKit's URL parser (the WHATWG URL standard) reads it: for the special schemes a
            // backslash ends the host as a slash does, so `http://example.com\@evil.com/` is example.com.
            let special = Self.specialSchemes.contains(rest[..<scheme.lowerBound].lowercased())
            rest = rest[scheme.upperBound...]
            if let end = rest.firstIndex(where: { "/?#".contains($0) || (special && $0 == "\\") }) { rest = rest[..<end] }
            if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
            notes.append("\(text) is a URL: its host is explained")
        }
        if rest.hasPrefix("[") {
            // Brackets hold an IPv6 address and nothing else: `[example.com]` is no host.
            guard let close = rest.firstIndex(of: "]"), IPAddress.parseIPv6(rest[rest.index(after: rest.startIndex)..<close]) != nil
            else { return nil }
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                guard let port = Self.port(after.dropFirst()) else { return nil }
                notes.append("port \(port) dropped: ATS settings do not depend on the port")
            } else if !after.isEmpty {
                return nil
            }
            rest = rest[rest.index(after: rest.startIndex)..<close]
        } else if rest.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
            guard let port = Self.port(rest[rest.index(after: colon)...]) else { return nil }
            notes.append("port \(port) dropped: ATS settings do not depend on the port")
            rest = rest[..<colon]
        }
        asWritten = String(rest)
        var candidate = rest.lowercased()
        if candidate.contains(":") {
            // An IPv4-mapped IPv6 address is the IPv4 address it maps, as a connection to it is.
            guard let bytes = IPAddress.parseIPv6(Substring(candidate)) else { return nil }
            if bytes[..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                let quad = bytes[12...].map(String.init).joined(separator: ".")
                notes.append("\(candidate) is an IPv4-mapped IPv6 address: read as the IPv4 address \(quad)")
                candidate = quad
            }
        } else {
            // A name whose last label is a number is no host name: resolvers and URL parsers read it
            // as an IPv4 address in any of inet_aton's forms (2130706433, 0x7f000001, 0177.1,
            // 127.1), a trailing dot dropped first (`127.0.0.1.`). Read the same way, or refused,
            // never taken for an unqualified name.
            let unrooted = candidate.hasSuffix(".") && candidate.count > 1 ? String(candidate.dropLast()) : candidate
            if Self.lastLabelIsNumeric(unrooted), IPAddress(candidate) == nil || candidate != Self.dottedQuad(unrooted) {
                guard let quad = Self.dottedQuad(unrooted) else { return nil }
                notes.append("\(candidate) is read as the IPv4 address \(quad), as the system's resolver reads it"
                    + (unrooted.split(separator: ".").contains { $0.count > 1 && $0.hasPrefix("0") && !$0.hasPrefix("0x") }
                        ? " (a part with a leading 0 is octal)" : ""))
                candidate = quad
            }
        }
        guard IPAddress(candidate) != nil || Self.isHostName(candidate) else { return nil }
        host = candidate
        self.notes = notes
    }

    /// The WHATWG URL standard's special schemes, whose URLs parse `\` as `/`.
    static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp", "file"]

    /// A port: 1–5 digits, at most 65535.
    static func port(_ text: Substring) -> Int? {
        guard (1...5).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), value <= 65535 else {
            return nil
        }
        return value
    }

    static func lastLabelIsNumeric(_ text: String) -> Bool {
        guard let last = text.split(separator: ".", omittingEmptySubsequences: false).last, !last.isEmpty else { return false }
        if last.hasPrefix("0x") { return last.dropFirst(2).allSatisfy(\.isHexDigit) }
        return last.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `text` as inet_aton reads it (1 to 4 parts, each decimal, `0x` hex or `0` octal; the
    /// last fills the bytes left), as a dotted quad; `nil` when it reads as no address.
    static func dottedQuad(_ text: String) -> String? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            let (digits, radix): (Substring, Int) = part.hasPrefix("0x") ? (part.dropFirst(2), 16)
                : part.count > 1 && part.hasPrefix("0") ? (part.dropFirst(), 8) : (part, 10)
            guard !digits.isEmpty || radix == 16 && false, digits.count <= 12, let value = UInt64(digits, radix: radix) else { return nil }
            values.append(value)
        }
        let last = values.removeLast()
        guard values.allSatisfy({ $0 <= 0xFF }), last < (UInt64(1) << (8 * UInt64(4 - values.count))) else { return nil }
        var address = last
        for (index, value) in values.enumerated() { address |= value << (8 * UInt64(3 - index)) }
        return [24, 16, 8, 0].map { String((address >> UInt64($0)) & 0xFF) }.joined(separator: ".")
    }

    /// Letters, digits, `-` and `_` in dot-separated labels of 1–63 characters (a trailing dot allowed).
    static func isHostName(_ text: String) -> Bool {
        let name = text.hasSuffix(".") ? String(text.dropLast()) : text
        guard !name.isEmpty, name.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.count) && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
                && label.first != "-" && label.last != "-"
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}

/// What is wrong with an exception-domain key that looks like an address, is not ASCII, or can
/// name no host: such keys match no host, and nobody should believe otherwise.
/// Ranges are judged as Apple's reader reads them (`ReaderCIDR`).
public enum ExceptionKeyCheck {
    /// Why `key` matches nothing (or matches other than it reads), or `nil` for a key without
    /// such a problem.
    public static func problem(_ key: String) -> String? {
        if !key.allSatisfy(\.isASCII) {
            return "\(key) is an internationalised name: ATS compares host names in their punycode form (xn--…), so this key matches nothing; write it in punycode"
        }
        if let problem = HostNameKey.problem(key) { return problem }
        let parts = key.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let host = String(parts[0])
        // An address's characters only: a URL (`http://…`) or `host:port` key is another matter.
        let address = host.split(separator: "%", maxSplits: 1).first.map(String.init) ?? host
        let isV6 = address.contains(":") && address.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        let isV4 = !isV6 && !host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." }
            && (host.contains(".") || parts.count == 2)
        guard isV4 || isV6 else { return nil }
        if host.contains("%") {
            return "\(key) carries a zone index (%…): an exception key names an address or range without one, so this key matches nothing"
        }
        if parts.count == 2 {
            // A range: what Apple's reader makes of it (SecProtocolConfiguration.m, cidr_string_to_subnet_and_mask).
            let limit = isV6 ? 128 : 32
            guard let range = ReaderCIDR(key) else {
                if let prefix = Int(parts[1]), !(0...limit).contains(prefix) {
                    return "\(key) has no valid prefix length (0–\(limit) for an IPv\(isV6 ? 6 : 4) range), so this key matches nothing"
                }
                if parts[1].isEmpty || !parts[1].allSatisfy(\.isNumber) {
                    return "\(key) has no valid prefix length (digits after the /), so this key matches nothing"
                }
                return "\(key) is not a range Apple's reader accepts (SecProtocolConfiguration.m, cidr_string_to_subnet_and_mask: "
                    + "a valid network of at most \(isV6 ? 37 : 13) characters), so this key matches nothing"
            }
            if let written = Int(parts[1]), written != range.prefix {
                return "\(key) is read by Apple's reader as prefix \(range.prefix), not \(written): a leading 0 makes the prefix octal "
                    + "(SecProtocolConfiguration.m, cidr_string_to_subnet_and_mask reads it with strtol in base 0)"
                    + (range.prefix == 0 ? ", so this entry covers every IPv\(range.network.isIPv4 ? 4 : 6) address" : "")
            }
            return nil
        }
        if host.contains(where: \.isUppercase) {
            return "\(key) has capital letters: ATS matches keys as written in lowercase, so this key matches nothing; write it in lowercase"
        }
        if host.hasSuffix("."), IPAddress(String(host.dropLast())) != nil {
            return "\(key) is an address with a trailing dot: a URL loader reads such a host as the address \(host.dropLast()), "
                + "so this key matches nothing"
        }
        guard IPAddress(host) != nil else { return "\(key) is not a valid IP address, so this key matches nothing" }
        return nil
    }
}
