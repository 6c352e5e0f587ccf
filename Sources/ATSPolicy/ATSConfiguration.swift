import PlistDOM

/// The root NSAppTransportSecurity dict, read into the keys the policy engine understands,
/// each with the line it was written on.
public struct ATSConfiguration: Sendable, Equatable {
    public struct Setting<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var key: String
        public var line: Int
        /// A Boolean written as a number (`<integer>1</integer>`): its element and text, for
        /// explanations (`integer 1`); `nil` for `<true/>`/`<false/>` and strings.
        public var writtenAsNumber: String? = nil
    }

    /// A key present in the file that Apple's reader does not take: a Boolean key holding a
    /// string or a dict, or a domain entry that is not a dict.
    public struct Unread: Sendable, Equatable {
        public var key: String
        public var line: Int
        /// `a string`, `an array`.
        public var written: String
    }

    /// A domain entry's rule. Its fields live in one shared box, copied only when a copy is
    /// changed: rules are copied far more often than changed (every decision reads one, every
    /// configuration holds them all), and a copy of a dozen strings and arrays would cost a
    /// retain each.
    public struct DomainRule: Sendable, Equatable {
        /// How a key can match hosts, decided once when the configuration is read.
        public enum Matcher: Sendable, Equatable {
            /// Wildcards and keys with capitals match nothing.
            case nothing
            case name
            /// An IP address or range (`prefix` bits of `network`): valid keys from iOS 17/macOS 14.
            case address(network: IPAddress, prefix: Int)
            /// `$(API_HOST)`: a build setting Xcode substitutes; which host it names is not known here.
            case resolvedAtBuildTime
        }

        /// The same key, read the same way, with the same settings (lines aside).
        func decidesAlike(_ other: DomainRule) -> Bool {
            if fields === other.fields { return true }
            return key == other.key && matcher == other.matcher
                && includesSubdomains?.value == other.includesSubdomains?.value
                && allowsInsecureHTTP?.value == other.allowsInsecureHTTP?.value
                && minimumTLS?.value == other.minimumTLS?.value
                && requiresForwardSecrecy?.value == other.requiresForwardSecrecy?.value
                && requiresCertificateTransparency?.value == other.requiresCertificateTransparency?.value
                && pinnedCAIdentities == other.pinnedCAIdentities && pinnedLeafIdentities == other.pinnedLeafIdentities
        }

        public init(key: String, line: Int) {
            fields = Fields(key: key, line: line)
        }

        public static func == (lhs: DomainRule, rhs: DomainRule) -> Bool {
            lhs.fields === rhs.fields || lhs.fields.values == rhs.fields.values
        }

        /// The values, compared and copied as one.
        fileprivate struct Values: Sendable, Equatable {
            var key: String
            var line: Int
            var matcher: Matcher = .nothing
            var meantHost: String = ""
            var includesSubdomains: Setting<Bool>?
            var allowsInsecureHTTP: Setting<Bool>?
            var minimumTLS: Setting<String>?
            var requiresForwardSecrecy: Setting<Bool>?
            var requiresCertificateTransparency: Setting<Bool>?
            var pinnedCAIdentities: [String] = []
            var pinnedLeafIdentities: [String] = []
        }

        /// Never changed while shared: `values` copies it first (`isKnownUniquelyReferenced`).
        fileprivate final class Fields: @unchecked Sendable {
            var values: Values
            init(key: String, line: Int) { values = Values(key: key, line: line) }
            init(_ values: Values) { self.values = values }
        }

        private var fields: Fields

        /// The fields to read, or to change once this rule holds them alone.
        private var values: Values {
            get { fields.values }
            _modify {
                if !isKnownUniquelyReferenced(&fields) { fields = Fields(fields.values) }
                yield &fields.values
            }
        }

        public var key: String { get { values.key } set { values.key = newValue } }
        public var line: Int { get { values.line } set { values.line = newValue } }
        public var matcher: Matcher { get { values.matcher } set { values.matcher = newValue } }
        /// The host the key is meant to name, however it is written (`PolicyReach.hostName`).
        public var meantHost: String { get { values.meantHost } set { values.meantHost = newValue } }
        public var includesSubdomains: Setting<Bool>? { get { values.includesSubdomains } set { values.includesSubdomains = newValue } }
        public var allowsInsecureHTTP: Setting<Bool>? { get { values.allowsInsecureHTTP } set { values.allowsInsecureHTTP = newValue } }
        public var minimumTLS: Setting<String>? { get { values.minimumTLS } set { values.minimumTLS = newValue } }
        public var requiresForwardSecrecy: Setting<Bool>? {
            get { values.requiresForwardSecrecy } set { values.requiresForwardSecrecy = newValue }
        }
        public var requiresCertificateTransparency: Setting<Bool>? {
            get { values.requiresCertificateTransparency } set { values.requiresCertificateTransparency = newValue }
        }
        public var pinnedCAIdentities: [String] { get { values.pinnedCAIdentities } set { values.pinnedCAIdentities = newValue } }
        public var pinnedLeafIdentities: [String] { get { values.pinnedLeafIdentities } set { values.pinnedLeafIdentities = newValue } }
    }

    public var present: Bool
    public var line: Int
    public var allowsArbitraryLoads: Setting<Bool>?
    public var allowsArbitraryLoadsForMedia: Setting<Bool>?
    public var allowsArbitraryLoadsInWebContent: Setting<Bool>?
    public var allowsLocalNetworking: Setting<Bool>?
    public var exceptionDomains: [DomainRule] = []
    public var pinnedDomains: [DomainRule] = []
    /// Every key written directly in the ATS dict, with its line, whatever its value.
    public var keyLines: [String: Int] = [:]
    /// The global Boolean keys present with a value the reader does not take (a string, a dict):
    /// Apple's reader treats them as absent.
    public var unreadGlobalKeys: [Unread] = []
    /// NSExceptionDomains/NSPinnedDomains entries whose value is not a dict: the reader skips them.
    public var skippedDomainEntries: [Unread] = []

    /// No ATS settings at all: the operating system's own policy.
    public init() {
        present = false
        line = 0
    }

    /// The configuration of a document (an absent ATS dict is the default policy).
    public init(document: PlistDocument) {
        self.init(document: document, reusing: nil)
    }

    /// `init(document:)` with a `cache` of an earlier read of the same document: a domain whose
    /// dict and key were not edited since (as the editor told the cache) keeps the rule read then.
    public init(document: PlistDocument, reusing cache: DomainRuleCache?) {
        WorkCounts.add(.readings)
        let root = document.rootValue
        guard root.name == "dict", let entry = root.entry("NSAppTransportSecurity"), entry.value.name == "dict" else {
            present = false
            line = 0
            return
        }
        present = true
        line = entry.key.line ?? 0
        // One pass over the ATS dict finds every key read here; with a key written twice the
        // last one counts, as Apple's reader keeps the last.
        var globals = [DictEntry?](repeating: nil, count: Self.globalBooleanKeys.count)
        var exceptionDomainsValue: PlistElement?, pinnedDomainsValue: PlistElement?
        for entry in entry.value.entries {
            let name = entry.name
            keyLines[name] = entry.key.line ?? 0
            if let index = Self.globalBooleanKeys.firstIndex(of: name) {
                globals[index] = entry
            } else if name == "NSExceptionDomains" {
                exceptionDomainsValue = entry.value
            } else if name == "NSPinnedDomains" {
                pinnedDomainsValue = entry.value
            }
        }
        let settings = zip(globals, Self.globalBooleanKeys).map { Self.bool($0, $1) }
        (allowsArbitraryLoads, allowsArbitraryLoadsForMedia, allowsArbitraryLoadsInWebContent, allowsLocalNetworking)
            = (settings[0], settings[1], settings[2], settings[3])
        for (index, key) in Self.globalBooleanKeys.enumerated() {
            guard let entry = globals[index], settings[index] == nil else { continue }
            unreadGlobalKeys.append(Unread(key: key, line: entry.key.line ?? 0, written: Self.article(entry.value.name)))
        }
        exceptionDomains = Self.domains(exceptionDomainsValue, parent: "NSExceptionDomains", skipped: &skippedDomainEntries, cache: cache)
        pinnedDomains = Self.domains(pinnedDomainsValue, parent: "NSPinnedDomains", skipped: &skippedDomainEntries, cache: cache)
        cache?.touched = []
    }

    /// Domain rules read from one document, by the dict each was read from, so that reading the
    /// document again after edits reads only the domains edited (a pass that edits 800 of 20,000
    /// domains). The editor says what it edited: `touch` for a domain whose dict or key changed,
    /// `clear` for an edit it cannot place. Used by one thread.
    public final class DomainRuleCache {
        fileprivate var rules: [PlistElement: DomainRule] = [:]
        /// Keys (of either domain dict) edited since the last read.
        fileprivate var touched: Set<String> = []
        /// Set once edits touched most rules (a pass rewriting every domain): this document's
        /// passes are not worth following, so reads no longer keep their rules.
        fileprivate var retired = false

        public init() {}

        /// Whether it holds no rule (nothing to follow edits for).
        public var isEmpty: Bool { rules.isEmpty }

        /// The domain keyed `key` (in NSExceptionDomains or NSPinnedDomains) was edited: its
        /// dict, or the key itself renamed, inserted or removed. Once more than half the rules
        /// are touched the cache is emptied: reading them all again costs less than following.
        public func touch(_ key: String) {
            touched.insert(key)
            if touched.count * 2 > rules.count {
                clear()
                retired = true
            }
        }

        /// Forgets every rule.
        public func clear() {
            rules = [:]
            touched = []
        }
    }

    /// The keys whose presence makes iOS 10+/macOS 10.12+ ignore NSAllowsArbitraryLoads, as
    /// Apple's reader counts presence (a Boolean or number), in that order.
    public var laterKeySettings: [Setting<Bool>] {
        [allowsArbitraryLoadsForMedia, allowsArbitraryLoadsInWebContent, allowsLocalNetworking].compactMap { $0 }
    }

    static let globalBooleanKeys = ["NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent",
                                    "NSAllowsLocalNetworking"]

    static func article(_ noun: String) -> String {
        (noun.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + noun
    }

    /// Whether two configurations decide every case the same way: the same values, whatever
    /// the keys were spelled (aliases) or which lines they are on.
    /// Whether the keys outside the domain dicts are the same, so that a host no domain rule
    /// matches (or one whose rule has the same settings in both) is decided the same way.
    func hasSameGlobalSettings(as other: ATSConfiguration) -> Bool {
        present == other.present
            && allowsArbitraryLoads?.value == other.allowsArbitraryLoads?.value
            && allowsArbitraryLoadsForMedia?.value == other.allowsArbitraryLoadsForMedia?.value
            && allowsArbitraryLoadsInWebContent?.value == other.allowsArbitraryLoadsInWebContent?.value
            && allowsLocalNetworking?.value == other.allowsLocalNetworking?.value
            && Set(keyLines.keys) == Set(other.keyLines.keys)
    }

    /// Whether the two decide every load alike for reasons seen without deciding any: the same
    /// global settings, and the same domain rules once those that match no host are left aside
    /// (a key with capitals or a `*.` wildcard, a build-setting reference): the engine's
    /// decisions never rest on such a rule, only its notes do. An edit inside them changes no
    /// policy, however many domains it touches.
    public func isPolicyEquivalent(to other: ATSConfiguration) -> Bool {
        func same(_ a: [DomainRule], _ b: [DomainRule]) -> Bool {
            // In order, as duplicates are read (the last one counts), without those that cannot decide.
            var left = a.makeIterator(), right = b.makeIterator()
            func next(_ rules: inout IndexingIterator<[DomainRule]>) -> DomainRule? {
                while let rule = rules.next() {
                    switch rule.matcher {
                    case .name, .address: return rule
                    case .nothing, .resolvedAtBuildTime: continue
                    }
                }
                return nil
            }
            while true {
                switch (next(&left), next(&right)) {
                case (nil, nil): return true
                case (let x?, let y?): guard x.decidesAlike(y) else { return false }
                default: return false
                }
            }
        }
        let presence = ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking"]
        return present == other.present
            && allowsArbitraryLoads?.value == other.allowsArbitraryLoads?.value
            && allowsArbitraryLoadsForMedia?.value == other.allowsArbitraryLoadsForMedia?.value
            && allowsArbitraryLoadsInWebContent?.value == other.allowsArbitraryLoadsInWebContent?.value
            && allowsLocalNetworking?.value == other.allowsLocalNetworking?.value
            && presence.allSatisfy { (keyLines[$0] != nil) == (other.keyLines[$0] != nil) }
            && same(exceptionDomains, other.exceptionDomains)
            && same(pinnedDomains, other.pinnedDomains)
    }

    /// `NSThirdPartyException…` and `NSTemporaryException…` keys: no current Apple page lists
    /// them, and Apple's open reader (Security, `protocol/SecProtocolConfiguration.m`) never
    /// reads them. The engine reads them as their `NSException…` twins (`decidesByLegacyKeys`
    /// says where that matters); `ignoringLegacyKeys()` is the other reading.
    public static func isLegacyKey(_ key: String) -> Bool {
        key.hasPrefix("NSThirdPartyException") || key.hasPrefix("NSTemporaryException")
    }

    /// Whether some exception-domain setting rests on a legacy key (its twin absent or not
    /// read): only then do the two readings differ. Asked for every pass of every file, so it
    /// looks without building anything.
    public var decidesByLegacyKeys: Bool {
        exceptionDomains.contains { rule in
            rule.allowsInsecureHTTP.map { Self.isLegacyKey($0.key) } == true || rule.minimumTLS.map { Self.isLegacyKey($0.key) } == true
                || rule.requiresForwardSecrecy.map { Self.isLegacyKey($0.key) } == true
        }
    }

    /// This configuration as Apple's open reader reads it: a setting decided by a legacy key is
    /// absent (the entry's ATS default applies), since the reader looks only for the
    /// `NSException…` spelling.
    public func ignoringLegacyKeys() -> ATSConfiguration {
        guard decidesByLegacyKeys else { return self }
        var copy = self
        for index in copy.exceptionDomains.indices {
            if let key = copy.exceptionDomains[index].allowsInsecureHTTP?.key, Self.isLegacyKey(key) { copy.exceptionDomains[index].allowsInsecureHTTP = nil }
            if let key = copy.exceptionDomains[index].minimumTLS?.key, Self.isLegacyKey(key) { copy.exceptionDomains[index].minimumTLS = nil }
            if let key = copy.exceptionDomains[index].requiresForwardSecrecy?.key, Self.isLegacyKey(key) { copy.exceptionDomains[index].requiresForwardSecrecy = nil }
        }
        return copy
    }

    /// Deprecated spellings read as their NSException… twins (the documented key wins), per
    /// setting.
    static let allowsInsecureHTTPKeys = ["NSExceptionAllowsInsecureHTTPLoads", "NSThirdPartyExceptionAllowsInsecureHTTPLoads",
                                         "NSTemporaryExceptionAllowsInsecureHTTPLoads"]
    static let minimumTLSKeys = ["NSExceptionMinimumTLSVersion", "NSThirdPartyExceptionMinimumTLSVersion",
                                 "NSTemporaryExceptionMinimumTLSVersion"]
    static let requiresForwardSecrecyKeys = ["NSExceptionRequiresForwardSecrecy", "NSThirdPartyExceptionRequiresForwardSecrecy",
                                             "NSTemporaryExceptionRequiresForwardSecrecy"]

    /// Every key a domain's settings are read from, and where each setting's keys start in it.
    private enum DomainSetting {
        /// At most 32 (`readRule` marks the slots it fills in a `UInt32`).
        static let keys = ["NSIncludesSubdomains", "NSRequiresCertificateTransparency", "NSPinnedCAIdentities", "NSPinnedLeafIdentities"]
            + allowsInsecureHTTPKeys + minimumTLSKeys + requiresForwardSecrecyKeys
        static let includesSubdomains = 0, requiresCertificateTransparency = 1, pinnedCAIdentities = 2, pinnedLeafIdentities = 3
        static let allowsInsecureHTTP = 4
        static let minimumTLS = allowsInsecureHTTP + allowsInsecureHTTPKeys.count
        static let requiresForwardSecrecy = minimumTLS + minimumTLSKeys.count
    }

    /// Apple's reader (Security, `protocol/SecProtocolConfiguration.m`,
    /// `sec_protocol_configuration_set_ats_overrides`) skips an entry whose value is not a
    /// dictionary: the host it names is then decided by the global keys, not by ATS defaults.
    private static func domains(_ element: PlistElement?, parent: String, skipped: inout [Unread], cache: DomainRuleCache?) -> [DomainRule] {
        guard let element, element.name == "dict" else { return [] }
        let entries = element.entries
        // With a key written twice the last copy is the one read (CFPropertyList keeps the last
        // value): when that copy is not a dict, Apple's reader skips it, and an earlier dict
        // copy is gone with it, so no rule comes of either. Only the keys of
        // entries that are no dict (nearly always none) are remembered, with their last place.
        var lastNotADict: [String: Int] = [:]
        for (position, entry) in entries.enumerated() where entry.value.name != "dict" { lastNotADict[entry.name] = position }
        if let cache, !cache.retired, cache.rules.isEmpty { cache.rules.reserveCapacity(entries.count) }
        return entries.enumerated().compactMap { position, entry in
            let key = entry.name
            guard entry.value.name == "dict" else {
                skipped.append(Unread(key: "\(parent) › \(key)", line: entry.key.line ?? 0, written: article(entry.value.name)))
                return nil
            }
            if !lastNotADict.isEmpty, let later = lastNotADict[key], later > position { return nil }
            if let cache, let known = cache.rules[entry.value], known.key == key, cache.touched.isEmpty || !cache.touched.contains(key) {
                return known
            }
            let rule = readRule(key: key, entry: entry)
            if let cache, !cache.retired { cache.rules[entry.value] = rule }
            return rule
        }
    }

    /// The rule of one domain entry whose value is a dict.
    private static func readRule(key: String, entry: DictEntry) -> DomainRule {
        var rule = DomainRule(key: key, line: entry.key.line ?? 0)
        rule.matcher = matcher(for: key)
        // A key that matches nothing may still be an address written otherwise: it is meant
        // for that address (only such keys are parsed again).
        let meantAddress = rule.matcher == .nothing ? IPAddress(key)?.text : nil
        rule.meantHost = rule.matcher.networkText ?? meantAddress ?? PolicyReach.hostName(ofDomainKey: key)
        // One pass over the domain's entries finds every key read below (compared as bytes);
        // with duplicates the last one counts, as for `PlistElement.entry`.
        // Kept on the stack: one list per rule read, of every domain, adds up.
        withUnsafeTemporaryAllocation(of: DictEntry?.self, capacity: DomainSetting.keys.count) { found in
            found.initialize(repeating: nil)
            // Only the slots a setting filled hold references (a domain has a key or two of the
            // list): those alone are deinitialized, not the whole list, one witness call each.
            var filled: UInt32 = 0
            defer {
                while filled != 0 {
                    let slot = filled.trailingZeroBitCount
                    (found.baseAddress! + slot).deinitialize(count: 1)
                    filled &= filled - 1
                }
            }
            entry.value.forEachEntry(named: DomainSetting.keys) { index, setting in
                found[index] = setting
                filled |= 1 << UInt32(index)
            }
            func first<Value>(_ keys: [String], at offset: Int, _ read: (DictEntry?, String) -> Value?) -> Value? {
                for index in keys.indices { if let value = read(found[offset + index], keys[index]) { return value } }
                return nil
            }
            rule.includesSubdomains = bool(found[DomainSetting.includesSubdomains], "NSIncludesSubdomains")
            rule.allowsInsecureHTTP = first(allowsInsecureHTTPKeys, at: DomainSetting.allowsInsecureHTTP, bool)
            rule.minimumTLS = first(minimumTLSKeys, at: DomainSetting.minimumTLS, string)
            rule.requiresForwardSecrecy = first(requiresForwardSecrecyKeys, at: DomainSetting.requiresForwardSecrecy, bool)
            rule.requiresCertificateTransparency = bool(found[DomainSetting.requiresCertificateTransparency], "NSRequiresCertificateTransparency")
            rule.pinnedCAIdentities = identities(found[DomainSetting.pinnedCAIdentities]?.value)
            rule.pinnedLeafIdentities = identities(found[DomainSetting.pinnedLeafIdentities]?.value)
        }
        return rule
    }

    /// NSExceptionDomains: "Use lowercase — Use `example.com`, not `EXAMPLE.COM`"; wildcards are
    /// not supported; "keys that name specific domains, IP addresses, or IP address ranges".
    /// A key with a `/` is a range read as Apple's reader reads it (`ReaderCIDR`: `10/8`,
    /// `2001:DB8/32`, and `10.0.0.0/08` as prefix 0); a key without one is compared with the
    /// host as written, so an address key matches that address, and a name key matches only if
    /// it is a host name a URL loader can hand over (`HostNameKey`): `.example.com`,
    /// `example.com ` or `127.0.0.1.` match nothing.
    public static func matcher(for key: String) -> DomainRule.Matcher {
        // The usual key, a lowercase host name with a letter in it, is a name: no searching.
        if HostNameKey.isPlainName(key) { return .name }
        let bytes = Array(key.utf8)
        if zip(bytes, bytes.dropFirst()).contains(where: { $0 == UInt8(ascii: "$") && ($1 == UInt8(ascii: "(") || $1 == UInt8(ascii: "{")) }) {
            return .resolvedAtBuildTime
        }
        if bytes.contains(UInt8(ascii: "/")) {
            guard let range = ReaderCIDR(key) else { return .nothing }
            return .address(network: range.network, prefix: range.prefix)
        }
        // An ASCII key is lowercase when no byte is an uppercase letter: no Unicode tables asked.
        let isLowercase = bytes.isASCII ? !bytes.contains { $0 >= 0x41 && $0 <= 0x5A } : key == key.lowercased()
        guard !bytes.contains(UInt8(ascii: "*")), isLowercase else { return .nothing }
        // An address key is looked up by its text, as the system writes addresses: one written
        // otherwise (`2001:0db8::1`, `010.0.0.1`) matches nothing in Apple's reader.
        if let address = IPAddress(key) {
            return address.text == key ? .address(network: address, prefix: address.isIPv4 ? 32 : 128) : .nothing
        }
        return HostNameKey.canMatch(key) ? .name : .nothing
    }

    private static func identities(_ element: PlistElement?) -> [String] {
        guard let element, element.name == "array" else { return [] }
        return element.children.compactMap { $0[key: "SPKI-SHA256-BASE64"]?.text }
    }

    /// A Boolean key as Apple's reader takes it (Security, `protocol/SecProtocolConfiguration.m`,
    /// `sec_protocol_configuration_set_ats_overrides`): any number is read — `<true/>`,
    /// `<false/>`, `<integer>`, `<real>` — and is YES exactly when it equals 1 (`isEqual:@YES`);
    /// any other type (`<string>YES</string>`) is as if the key were absent.
    static func bool(_ dict: PlistElement, _ key: String) -> Setting<Bool>? {
        bool(dict.entry(key), key)
    }

    /// `entry` (the one found for `key`) as a boolean setting.
    static func bool(_ entry: DictEntry?, _ key: String) -> Setting<Bool>? {
        guard let entry else { return nil }
        let line = entry.key.line ?? 0
        switch entry.value.kind {
        case .true, .false:
            return Setting(value: entry.value.isTrue, key: key, line: line)
        case .integer, .real:
            guard let number = number(entry.value.text) else { return nil }
            let text = entry.value.text.trimmingWhitespace
            return Setting(value: number == 1, key: key, line: line, writtenAsNumber: "\(entry.value.name) \(text)")
        default:
            return nil
        }
    }

    /// The value of an `<integer>` (decimal or `0x` hex, signed) or `<real>` element's text.
    public static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace
        var digits = Substring(trimmed)
        let negative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        if digits.lowercased().hasPrefix("0x"), let value = UInt64(digits.dropFirst(2), radix: 16) {
            return (negative ? -1 : 1) * Double(value)
        }
        return Double(trimmed)
    }

    static func string(_ entry: DictEntry?, _ key: String) -> Setting<String>? {
        guard let entry, entry.value.kind == .string else { return nil }
        return Setting(value: entry.value.text, key: key, line: entry.key.line ?? 0)
    }

}
