import PlistDOM

/// Adds `NSAllowsLocalNetworking` = true next to `NSAllowsArbitraryLoads` = true.
///
/// On iOS 10+/macOS 10.12+ the presence of `NSAllowsLocalNetworking` makes the system ignore
/// `NSAllowsArbitraryLoads`: arbitrary loads stay allowed only on iOS 9/macOS 10.11, while
/// newer systems allow just local resources. That narrows the app's policy, so this pass is
/// opt-in (`changesPolicy`).
public struct LocalNetworkingWithArbitraryLoads: Migration {
    public let id = "ATS003"
    public let version = 3
    public let name = "local-networking-with-arbitrary-loads"
    public let title = "Add NSAllowsLocalNetworking where NSAllowsArbitraryLoads is true"
    public let rationale = """
        Apple's NSAllowsArbitraryLoads reference: on iOS 10+ and macOS 10.12+, if \
        NSAllowsLocalNetworking (or NSAllowsArbitraryLoadsForMedia, or \
        NSAllowsArbitraryLoadsInWebContent) is present, NSAllowsArbitraryLoads is ignored. Adding \
        NSAllowsLocalNetworking keeps local development servers reachable while ATS protects \
        everything else on current systems.
        """
    public let impact = Impact.changesPolicy
    public let intent = PolicyIntent.anyChange

    public init() {}

    /// Nothing to add unless NSAllowsArbitraryLoads is `<true/>` without NSAllowsLocalNetworking.
    public func isInert(on outline: ATSOutline) -> Bool {
        outline.topIsPlain && !(outline.isTrue(ATSKey.allowsArbitraryLoads) && !outline.has(ATSKey.allowsLocalNetworking))
    }

    /// On a plain top the switches tell: it inserts exactly when `isInert` says it may.
    public func wouldEdit(on outline: ATSOutline) -> Bool? {
        outline.topIsPlain ? !isInert(on: outline) : nil
    }

    public func apply(to session: MigrationSession) {
        guard let ats = session.appTransportSecurity,
            let arbitrary = ats.entry(ATSKey.allowsArbitraryLoads), arbitrary.value.isTrue,
            ats.entry(ATSKey.allowsLocalNetworking) == nil
        else { return }
        session.insert(key: ATSKey.allowsLocalNetworking, value: .bool(true), into: ats, after: arbitrary)
    }
}
