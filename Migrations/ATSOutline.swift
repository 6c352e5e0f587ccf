import PlistDOM

/// The ATS dict of a file when it holds nothing but top-level Boolean switches, such as
/// `NSAllowsArbitraryLoads` = `<true/>` (the whole ATS dict of most apps). Worked out once per
/// state of the file. When a pass says there is nothing in such a dict for it to do
/// (`Migration.isInert(on:)`), it is not run on the file: no session and no walk of the dict.
public struct ATSOutline: Sendable {
    /// The documented top-level keys whose values are Booleans, sorted.
    public static let switchKeys: [String] = ATSKeyCatalog.keys[.global]!
        .filter { $0.value == .bool }.map(\.key).sorted()

    /// Every entry of the dict is a key of `switchKeys`, appearing only once, holding `<true/>`
    /// or `<false/>`. A file without the dict counts as an empty one.
    public let isSwitchesOnly: Bool
    /// Bit `i` is set when `switchKeys[i]` is present, or when it holds `<true/>`.
    private let present: UInt32
    private let truths: UInt32

    public init(appTransportSecurity ats: PlistElement?) {
        var switchesOnly = true, present: UInt32 = 0, truths: UInt32 = 0
        ats?.forEachEntry { entry in
            guard switchesOnly else { return }
            let kind = entry.value.kind
            guard kind == .true || kind == .false,
                let index = Self.switchKeys.firstIndex(where: { entry.key.hasText($0) }),
                present & (1 << index) == 0
            else { return switchesOnly = false }
            present |= 1 << index
            if kind == .true { truths |= 1 << index }
        }
        isSwitchesOnly = switchesOnly
        self.present = present
        self.truths = truths
    }

    /// Whether the dict holds only switches and `key` is one of them.
    public func has(_ key: String) -> Bool {
        isSwitchesOnly && Self.bit(of: key) & present != 0
    }

    /// Whether the dict holds only switches and `key` holds `<true/>`.
    public func isTrue(_ key: String) -> Bool {
        isSwitchesOnly && Self.bit(of: key) & truths != 0
    }

    private static func bit(of key: String) -> UInt32 {
        switchKeys.firstIndex(of: key).map { 1 << $0 } ?? 0
    }
}
