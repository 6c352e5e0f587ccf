import PlistDOM

/// What a file's ATS dict holds, in outline, worked out once per state of the file: which
/// Boolean switches it sets, and whether its domains hold documented keys only. Most ATS dicts
/// hold a switch or two (`NSAllowsArbitraryLoads` = `<true/>` is the whole of most apps'), and
/// most domains a few documented settings. When a pass says there is nothing in such a dict for
/// it to do (`Migration.isInert(on:)`), it is not run on the file: no session and no walk.
public struct ATSOutline: Sendable {
    /// The documented top-level keys whose values are Booleans, sorted.
    public static let switchKeys: [String] = ATSKeyCatalog.keys[.global]!
        .filter { $0.value == .bool }.map(\.key).sorted()
    /// The keys documented inside a domain of either kind, sorted.
    public static let domainKeys: [String] = Set(ATSKeyCatalog.keys[.exceptionDomain]!.keys)
        .union(ATSKeyCatalog.keys[.pinnedDomain]!.keys).sorted()
    /// The minimum-TLS keys of a domain, as a set to ask `domainsMayHoldAny(of:)` about.
    public static let minimumTLSKeys = domainKeySet(ATSKeyCatalog.minimumTLSKeys)
    /// Bits over `domainKeys`: those documented in an exception domain, in a pinned domain.
    private static let exceptionDomainBits = domainKeySet(ATSKeyCatalog.keys[.exceptionDomain]!.keys)
    private static let pinnedDomainBits = domainKeySet(ATSKeyCatalog.keys[.pinnedDomain]!.keys)
    private static let containers = [ATSKey.exceptionDomains, ATSKey.pinnedDomains]

    /// Keys of `switchKeys` or of `domainKeys` as bits, worked out once by the pass that asks.
    public struct KeySet: Sendable {
        fileprivate let bits: UInt32
    }

    /// `keys`, each one of `switchKeys`, as a set to ask `hasAny(of:)` about.
    public static func switchSet(_ keys: some Sequence<String>) -> KeySet {
        keySet(keys, of: switchKeys)
    }

    /// `keys`, each one of `domainKeys`, as a set to ask `domainsMayHoldAny(of:)` about.
    public static func domainKeySet(_ keys: some Sequence<String>) -> KeySet {
        keySet(keys, of: domainKeys)
    }

    private static func keySet(_ keys: some Sequence<String>, of known: [String]) -> KeySet {
        KeySet(bits: keys.reduce(0) { $0 | bit(of: $1, in: known) })
    }

    /// Every top-level entry is a key of `switchKeys` holding `<true/>` or `<false/>`, or
    /// NSExceptionDomains or NSPinnedDomains, and no key appears twice. A file without the ATS
    /// dict counts as an empty one.
    public let topIsPlain: Bool
    /// `topIsPlain`, without NSExceptionDomains or NSPinnedDomains.
    public let isSwitchesOnly: Bool
    /// `topIsPlain`, NSExceptionDomains and NSPinnedDomains (when present) are dicts of dicts,
    /// and every key in a domain is documented for its kind of domain (NSIncludesSubdomains and
    /// the NSException… keys, or NSIncludesSubdomains and the NSPinned… keys).
    public let domainsAreDocumented: Bool
    /// `domainsAreDocumented`, and no domain holds a string but under a minimum-TLS key.
    public let domainStringsAreTLSVersionsOnly: Bool
    /// Bit `i` is set when `switchKeys[i]` is present, or when it holds `<true/>`.
    private let present: UInt32, truths: UInt32
    /// Bit `i` is set when some domain holds `domainKeys[i]` (valid with `domainsAreDocumented`).
    private let inDomains: UInt32

    public init(appTransportSecurity ats: PlistElement?) {
        var plain = true, present: UInt32 = 0, truths: UInt32 = 0
        var containers: [PlistElement?] = [nil, nil]
        ats?.forEachEntry { entry in
            guard plain else { return }
            if let container = entry.key.firstIndex(ofTextIn: Self.containers) {
                // Each once: a second is not plain.
                if containers[container] != nil { return plain = false }
                containers[container] = entry.value
                return
            }
            let kind = entry.value.kind
            guard kind == .true || kind == .false, let index = entry.key.firstIndex(ofTextIn: Self.switchKeys),
                present & (1 << index) == 0
            else { return plain = false }
            present |= 1 << index
            if kind == .true { truths |= 1 << index }
        }
        var documented = plain, onlyTLSStrings = plain, inDomains: UInt32 = 0
        if plain {
            for (container, documentedKeys) in zip(containers, [Self.exceptionDomainBits.bits, Self.pinnedDomainBits.bits]) {
                guard let container, documented else { continue }
                guard container.kind == .dict else {
                    documented = false
                    break
                }
                container.forEachEntry { domain in
                    guard documented else { return }
                    guard domain.value.kind == .dict else { return documented = false }
                    domain.value.forEachEntry { setting in
                        guard documented, let index = setting.key.firstIndex(ofTextIn: Self.domainKeys),
                            documentedKeys & (1 << index) != 0
                        else { return documented = false }
                        inDomains |= 1 << index
                        if setting.value.kind == .string, Self.minimumTLSKeys.bits & (1 << index) == 0 { onlyTLSStrings = false }
                    }
                }
            }
        }
        topIsPlain = plain
        isSwitchesOnly = plain && containers[0] == nil && containers[1] == nil
        domainsAreDocumented = documented
        domainStringsAreTLSVersionsOnly = documented && onlyTLSStrings
        self.present = present
        self.truths = truths
        self.inDomains = inDomains
    }

    /// Whether the top is plain and `key` is one of its switches.
    public func has(_ key: String) -> Bool {
        topIsPlain && Self.bit(of: key, in: Self.switchKeys) & present != 0
    }

    /// Whether the top is plain and `key` holds `<true/>`.
    public func isTrue(_ key: String) -> Bool {
        topIsPlain && Self.bit(of: key, in: Self.switchKeys) & truths != 0
    }

    /// Whether the top is plain and holds one of `keys` (a `switchSet`).
    public func hasAny(of keys: KeySet) -> Bool {
        topIsPlain && keys.bits & present != 0
    }

    /// Whether some domain may hold one of `keys` (a `domainKeySet`): always, unless the
    /// domains are documented.
    public func domainsMayHoldAny(of keys: KeySet) -> Bool {
        !domainsAreDocumented || keys.bits & inDomains != 0
    }

    /// The bit of `key` among `keys`; every question asks through it, key sets and `has`/`isTrue` alike.
    private static func bit(of key: String, in keys: [String]) -> UInt32 {
        // A key it cannot hold would make a pass inert where it is not.
        guard let index = keys.firstIndex(of: key) else { preconditionFailure("\(key) is not a key an outline records") }
        return 1 << index
    }
}
