import PlistDOM

/// The part of the policy a setting can affect when it is written as the documentation says:
/// which hosts and which kinds of load. A pass that only makes a setting take effect may change
/// the policy inside the reach of the keys it edited and nowhere else.
public struct PolicyReach: Sendable, Equatable {
    /// Every host and kind (`NSAllowsArbitraryLoads`).
    public var everything = false
    /// Every host, these kinds (`NSAllowsArbitraryLoadsForMedia`: media; `…InWebContent`: web views).
    public var kinds: Set<LoadKind> = []
    /// Local hosts, every kind (`NSAllowsLocalNetworking`).
    public var localHosts = false
    /// The hosts a domain key names, with their subdomains, every kind.
    public var domains: Set<String> = []

    public init() {}

    public static let nothing = PolicyReach()

    /// The reach of `key` written in the dict at `dictPath` (key path from the plist root). A
    /// key the system does not read reaches nothing by itself. `domainKeys` are the keys of the
    /// exception and pinned domains, for a rename of `NSExceptionDomains`/`NSPinnedDomains`.
    public static func of(key: String, inDict dictPath: [String], domainKeys: [String]) -> PolicyReach {
        var reach = PolicyReach()
        reach.add(key: key, inDict: dictPath, domainKeys: domainKeys)
        return reach
    }

    /// Widens this reach by that of `key` written in the dict at `dictPath` (see `of`).
    public mutating func add(key: String, inDict dictPath: [String], domainKeys: [String]) {
        let path = dictPath.drop { $0 != "NSAppTransportSecurity" }.dropFirst()
        add(key: key, depthInATS: path.count, domain: path.dropFirst().first, domainKeys: { domainKeys })
    }

    /// `add(key:inDict:domainKeys:)` told only what it reads of the dict's path: how many keys
    /// below the ATS dict it lies (0 for the ATS dict itself, or a path without it), and its
    /// second key below it (the domain, when there are two or more). A caller with many edits
    /// makes no path of strings for each, and lists the domain keys only if a key names them.
    public mutating func add(key: String, depthInATS depth: Int, domain: String?, domainKeys: () -> [String]) {
        if depth == 0 {
            switch key {
            case "NSAllowsArbitraryLoads": everything = true
            case "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInMedia": kinds.insert(.media)
            case "NSAllowsArbitraryLoadsInWebContent": kinds.insert(.webView)
            case "NSAllowsLocalNetworking": localHosts = true
            case "NSExceptionDomains", "NSPinnedDomains": domains.formUnion(domainKeys())
            default: break
            }
        } else if depth == 1 {
            // A domain key itself (renamed, inserted or removed).
            domains.insert(key)
        } else if let domain {
            // A setting inside one domain's dict.
            domains.insert(domain)
        }
    }

    public mutating func formUnion(_ other: PolicyReach) {
        everything = everything || other.everything
        kinds.formUnion(other.kinds)
        localHosts = localHosts || other.localHosts
        domains.formUnion(other.domains)
    }

    /// Whether a change to `kind` loads of `host` lies inside this reach.
    public func contains(_ host: Host, _ kind: LoadKind) -> Bool {
        matcher()(host, kind)
    }

    /// `contains` with the domain keys' host names worked out once, for many questions.
    public func matcher() -> @Sendable (Host, LoadKind) -> Bool {
        // Substrings, so that a host's suffixes are looked up without a copy of each.
        let names = Set(domains.map { Substring(Self.hostName(ofDomainKey: $0)) }.filter { !$0.isEmpty })
        let everything = everything, kinds = kinds, localHosts = localHosts
        return { host, kind in
            if everything || kinds.contains(kind) { return true }
            if localHosts && host.isLocal { return true }
            return names.containsNameOrParent(of: host.name)
        }
    }

    /// The host a domain key is meant to name: `https://*.Example.com:8443/x` → `example.com`.
    static func hostName(ofDomainKey key: String) -> String {
        // Most keys are already a plain lowercase host name: nothing to strip.
        if key.utf8AllSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }) {
            return key
        }
        var text = key
        // An ASCII key is cut on its own bytes and lowercased as it is copied out, byte by byte
        // as `lowercased()` does, without Unicode tables or a lowered copy first.
        if let host = text.withUTF8({ bytes -> String? in
            guard bytes.isASCII else { return nil }
            let cut = hostNameBounds(bytes)
            return String(unsafeUninitializedCapacity: cut.count) { out in
                for (place, byte) in zip(out.indices, bytes[cut]) { out[place] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
                return cut.count
            }
        }) { return host }
        let lowered = Array(key.lowercased().utf8)
        return String(decoding: lowered[lowered.withUnsafeBufferPointer(hostNameBounds)], as: UTF8.self)
    }

    /// Where the host name lies in a domain key's bytes: after a `scheme://`, a leading `*.`,
    /// before a path and a port. Plain index loops over the bytes: a key is read a few times
    /// for each domain of a file.
    private static func hostNameBounds(_ key: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
        var start = 0, end = key.count
        var index = 0
        while index + 2 < end {
            if key[index] == colon, key[index + 1] == slash, key[index + 2] == slash {
                start = index + 3
                break
            }
            index += 1
        }
        if end - start >= 2, key[start] == UInt8(ascii: "*"), key[start + 1] == UInt8(ascii: ".") { start += 2 }
        index = start
        while index < end, key[index] != slash { index += 1 }
        end = index
        // One colon is a port; more are an IPv6 address, kept whole.
        var firstColon: Int?
        index = start
        while index < end {
            if key[index] == colon {
                if firstColon != nil { return start..<end }
                firstColon = index
            }
            index += 1
        }
        return start..<(firstColon ?? end)
    }
}

extension Set<Substring> {
    /// Whether `name` or a domain it lies below (each suffix after a dot) is in the set. Stepped
    /// over as UTF-8 (a dot is ASCII), without a copy of each suffix.
    func containsNameOrParent(of name: String) -> Bool {
        var rest = Substring(name)
        if contains(rest) { return true }
        while let dot = rest.utf8.firstIndex(of: UInt8(ascii: ".")) {
            rest = rest[rest.utf8.index(after: dot)...]
            if contains(rest) { return true }
        }
        return false
    }
}

/// Two bits for the hash of each changed key's bytes, hashed from the last byte back: one pass
/// over a name, from its end, gives the hash of the name and of every domain it lies below, so
/// that the set of keys is asked only for the few whose bits are set, not with a `Substring`
/// hashed for each. Made only when every key is ASCII: a key of other characters can equal an
/// ASCII name as a string (canonical equivalence, the Kelvin sign and `K`), not as bytes.
struct ChangedKeyFilter {
    private let changed: Set<Substring>
    private var bits: [UInt64]
    private let mask: Int

    init?(_ changed: Set<Substring>) {
        guard changed.allSatisfy({ $0.utf8.isASCII }) else { return nil }
        self.changed = changed
        var size = 64
        while size < 32 * changed.count { size *= 2 }
        bits = Array(repeating: 0, count: size / 64)
        mask = size - 1
        for key in changed {
            var hash = Self.start
            for byte in key.utf8.reversed() { Self.add(byte, to: &hash) }
            let (first, second) = positions(hash)
            bits[first >> 6] |= 1 << UInt64(first & 63)
            bits[second >> 6] |= 1 << UInt64(second & 63)
        }
    }

    /// `changed.containsNameOrParent(of: name)` for an ASCII `name`.
    func containsNameOrParent(of name: String) -> Bool {
        var copy = name
        return copy.withUTF8 { bytes in
            var hash = Self.start
            var index = bytes.count
            while index > 0 {
                index -= 1
                // The bytes after this dot are a domain the name lies below.
                if bytes[index] == UInt8(ascii: "."), mayHold(hash), holds(name, from: index + 1) { return true }
                Self.add(bytes[index], to: &hash)
            }
            return mayHold(hash) && holds(name, from: 0)
        }
    }

    private func holds(_ name: String, from offset: Int) -> Bool {
        changed.contains(name[name.utf8.index(name.utf8.startIndex, offsetBy: offset)...])
    }

    private func mayHold(_ hash: UInt64) -> Bool {
        let (first, second) = positions(hash)
        return bits[first >> 6] & (1 << UInt64(first & 63)) != 0 && bits[second >> 6] & (1 << UInt64(second & 63)) != 0
    }

    /// A hash's two bits: its low and its high half, each cut to the table's size.
    private func positions(_ hash: UInt64) -> (Int, Int) {
        (Int(truncatingIfNeeded: hash) & mask, Int(truncatingIfNeeded: hash >> 32) & mask)
    }

    // FNV-1a, 64-bit.
    private static let start: UInt64 = 0xcbf2_9ce4_8422_2325
    @inline(__always) private static func add(_ byte: UInt8, to hash: inout UInt64) {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
}
