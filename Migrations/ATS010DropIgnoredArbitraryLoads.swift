import PlistDOM

/// Removes `NSAllowsArbitraryLoads` where every OS the app supports ignores it: on iOS 10+/macOS
/// 10.12+ the key is ignored once `NSAllowsArbitraryLoadsForMedia`,
/// `NSAllowsArbitraryLoadsInWebContent` or `NSAllowsLocalNetworking` is present, yet App Review
/// still asks for a justification whenever it is YES.
///
/// Whether the key is ignored on *every supported* OS is the policy engine's call, not this
/// pass's: its intent is `provablyNoPolicyChange`, so the edit stands only where the engine
/// computes no policy change for the app's deployment target, and with no known deployment
/// target (iOS 9 still honours the key) it is held back with a note.
public struct DropIgnoredArbitraryLoads: Migration {
    public let id = "ATS010"
    public let version = 10
    public let name = "drop-ignored-arbitrary-loads"
    public let title = "Remove NSAllowsArbitraryLoads where every supported OS ignores it"
    public let rationale = """
        Apple's NSAllowsArbitraryLoads reference: in iOS 10 and later and macOS 10.12 and later, \
        the value of this key is ignored if NSAllowsArbitraryLoadsForMedia, \
        NSAllowsArbitraryLoadsInWebContent or NSAllowsLocalNetworking is present in the app's \
        Info.plist. A key no supported system reads changes nothing but still draws App Review's \
        request for a justification.
        """
    public let impact = Impact.spelling
    public let intent = PolicyIntent.provablyNoPolicyChange

    /// The keys whose presence makes iOS 10+/macOS 10.12+ ignore `NSAllowsArbitraryLoads`.
    public static let overridingKeys = [
        ATSKey.allowsArbitraryLoadsForMedia, ATSKey.allowsArbitraryLoadsInWebContent, ATSKey.allowsLocalNetworking,
    ]

    private static let overriding = ATSOutline.switchSet(overridingKeys)

    public init() {}

    /// Nothing to drop unless NSAllowsArbitraryLoads and a key that overrides it are both present.
    public func isInert(on outline: ATSOutline) -> Bool {
        outline.topIsPlain && !(outline.has(ATSKey.allowsArbitraryLoads) && outline.hasAny(of: Self.overriding))
    }

    public func apply(to session: MigrationSession) {
        // An overriding key counts only as Apple's reader counts it: with a Boolean or number
        // (SecProtocolConfiguration.m reads a `<string>YES</string>` as absent, and then
        // NSAllowsArbitraryLoads is in effect).
        guard let ats = session.appTransportSecurity, let arbitrary = ats.entry(ATSKey.allowsArbitraryLoads),
            Self.overridingKeys.contains(where: { key in
                guard let kind = ats.entry(key)?.value.kind else { return false }
                return kind == .true || kind == .false || kind == .integer || kind == .real
            })
        else { return }
        session.remove(arbitrary, from: ats)
    }
}
