import PlistDOM

/// The keys Apple documents at each level of NSAppTransportSecurity, with their value types,
/// for spelling fixes, type checks and lint.
public enum ATSKeyCatalog {
    public enum ValueType: String, Sendable { case bool, string, dict, array }

    public enum Level: String, Sendable, CaseIterable {
        /// Directly inside NSAppTransportSecurity.
        case global
        /// Inside one domain of NSExceptionDomains.
        case exceptionDomain
        /// Inside one domain of NSPinnedDomains.
        case pinnedDomain

        /// Hashed by its case, not by its raw value: the default for a `String`-backed enum
        /// hashes the string, and the tables keyed by level are looked up per dict and pass.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(self == .global ? 0 : self == .exceptionDomain ? 1 : 2)
        }
    }

    public static let keys: [Level: [String: ValueType]] = [
        .global: [
            "NSAllowsArbitraryLoads": .bool, "NSAllowsArbitraryLoadsForMedia": .bool,
            "NSAllowsArbitraryLoadsInWebContent": .bool, "NSAllowsLocalNetworking": .bool,
            "NSExceptionDomains": .dict, "NSPinnedDomains": .dict,
            // Not read by the system, but known: ATS002 renames it.
            "NSAllowsArbitraryLoadsInMedia": .bool,
        ],
        .exceptionDomain: [
            "NSIncludesSubdomains": .bool, "NSExceptionAllowsInsecureHTTPLoads": .bool,
            "NSExceptionMinimumTLSVersion": .string, "NSExceptionRequiresForwardSecrecy": .bool,
            "NSRequiresCertificateTransparency": .bool,
            "NSThirdPartyExceptionAllowsInsecureHTTPLoads": .bool, "NSThirdPartyExceptionMinimumTLSVersion": .string,
            "NSThirdPartyExceptionRequiresForwardSecrecy": .bool,
            "NSTemporaryExceptionAllowsInsecureHTTPLoads": .bool, "NSTemporaryExceptionMinimumTLSVersion": .string,
            "NSTemporaryExceptionRequiresForwardSecrecy": .bool,
        ],
        .pinnedDomain: [
            "NSIncludesSubdomains": .bool, "NSPinnedCAIdentities": .array, "NSPinnedLeafIdentities": .array,
        ],
    ]

    /// Whether `key` (a `<key>` element) spells a key documented at `level`, compared on its
    /// bytes: most keys are, and they need no decoded name.
    public static func isKnown(_ key: PlistElement, at level: Level) -> Bool {
        let names = switch level {
        case .global: globalNames
        case .exceptionDomain: exceptionDomainNames
        case .pinnedDomain: pinnedDomainNames
        }
        return key.firstIndex(ofTextIn: names) != nil
    }

    private static let globalNames = Array(keys[.global]!.keys)
    private static let exceptionDomainNames = Array(keys[.exceptionDomain]!.keys)
    private static let pinnedDomainNames = Array(keys[.pinnedDomain]!.keys)

    public static let minimumTLSKeys: Set<String> = [
        "NSExceptionMinimumTLSVersion", "NSThirdPartyExceptionMinimumTLSVersion", "NSTemporaryExceptionMinimumTLSVersion",
    ]

    public static let tlsVersions: Set<String> = ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]

    /// The keys that spell the same setting, the documented one first: a documented key and its
    /// deprecated NSThirdParty…/NSTemporary… aliases, or NSAllowsArbitraryLoadsForMedia and the
    /// NSAllowsArbitraryLoadsInMedia that ATS002 renames.
    public static func family(of key: String) -> [String] {
        let media = ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInMedia"]
        if media.contains(key) { return media }
        for prefix in ["NSThirdPartyException", "NSTemporaryException", "NSException"] where key.hasPrefix(prefix) {
            let setting = key.dropFirst(prefix.count)
            let members = ["NSException", "NSThirdPartyException", "NSTemporaryException"].map { $0 + setting }
            if members.allSatisfy({ keys[.exceptionDomain]?[$0] != nil }) { return members }
        }
        return [key]
    }

    /// The documented key a misspelled `key` stands for, when its close candidates all spell one
    /// setting: straight to the documented name, so that no later pass has to rename it again
    /// (`NSThirdPartyExceptionAllowsInsecreuHTTPLoads` → `NSExceptionAllowsInsecureHTTPLoads`).
    public static func correction(for key: String, at level: Level) -> String? {
        let documented = Set(candidates(for: key, at: level).map { family(of: $0)[0] })
        return documented.count == 1 ? documented.first : nil
    }

    /// The known keys of `level` that `key` is a likely misspelling of: equal ignoring case, or
    /// within a small edit distance (1 for keys under 16 characters, else 2).
    public static func candidates(for key: String, at level: Level) -> [String] {
        guard let known = keys[level], known[key] == nil, let sorted = sortedKeys[level] else { return [] }
        let lower = key.lowercased(), length = key.count
        return sorted.filter { candidate in
            if candidate.lower == lower { return true }
            let limit = candidate.length < 16 ? 1 : 2
            return abs(candidate.length - length) <= limit && editDistance(candidate.lower, lower, limit: limit) <= limit
        }.map(\.key)
    }

    /// Each level's keys in order, with what `candidates` compares, worked out once.
    private static let sortedKeys: [Level: [(key: String, lower: String, length: Int)]] = keys.mapValues { known in
        known.keys.sorted().map { ($0, $0.lowercased(), $0.count) }
    }

    /// Whether `key` is within the misspelling distance of `correct` (1 under 16 characters, else 2).
    public static func editDistanceIsSmall(_ key: String, _ correct: String) -> Bool {
        // ASCII (nearly always): a character is a byte, and counting characters is slow.
        let ascii = key.utf8.isASCII && correct.utf8.isASCII
        let correctCount = ascii ? correct.utf8.count : correct.count, keyCount = ascii ? key.utf8.count : key.count
        let limit = correctCount < 16 ? 1 : 2
        return abs(correctCount - keyCount) <= limit && editDistance(correct.lowercased(), key.lowercased(), limit: limit) <= limit
    }

    /// Levenshtein distance of the UTF-8 bytes, stopping early past `limit` (any value above
    /// `limit` then stands for "too far").
    public static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        var a = a, b = b
        return a.withUTF8 { a in b.withUTF8 { b in editDistance(a, b, limit: limit) } }
    }

    /// Most keys compared differ at once or share long runs: the common prefix and suffix are
    /// cut first (that does not change the distance), and the rows live on the stack.
    private static func editDistance(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        var start = 0, aEnd = a.count, bEnd = b.count
        while start < aEnd, start < bEnd, a[start] == b[start] { start += 1 }
        while aEnd > start, bEnd > start, a[aEnd - 1] == b[bEnd - 1] { aEnd -= 1; bEnd -= 1 }
        let n = aEnd - start, m = bEnd - start
        guard n > 0, m > 0 else { return max(n, m) }
        if abs(n - m) > limit { return abs(n - m) }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (m + 1)) { rows in
            var previous = rows.baseAddress!, current = previous + (m + 1)
            for j in 0...m { previous[j] = j }
            for i in 1...n {
                current[0] = i
                var rowMinimum = i
                let ai = a[start + i - 1]
                for j in 1...m {
                    let substitution = previous[j - 1] + (ai == b[start + j - 1] ? 0 : 1)
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                    rowMinimum = min(rowMinimum, current[j])
                }
                if rowMinimum > limit { return limit + 1 }
                swap(&previous, &current)
            }
            return previous[m]
        }
    }
}
