import PlistDOM

/// Renames `NSAllowsArbitraryLoadsInMedia`, a key the system never reads, to the documented
/// `NSAllowsArbitraryLoadsForMedia`.
public struct ArbitraryLoadsForMedia: Migration {
    public let id = "ATS002"
    public let version = 2
    public let name = "arbitrary-loads-for-media"
    public let title = "Rename NSAllowsArbitraryLoadsInMedia to NSAllowsArbitraryLoadsForMedia"
    public let rationale = """
        Apple documents NSAllowsArbitraryLoadsForMedia (iOS 10+, macOS 10.12+) to relax ATS for \
        media loaded with AVFoundation; NSAllowsArbitraryLoadsInMedia is not a documented key, so \
        the setting the author wrote has no effect until it is spelled correctly.
        """
    public let impact = Impact.activatesIntent
    public let intent = PolicyIntent.editedSettingsTakeEffect

    public init() {}

    /// Nothing to rename without NSAllowsArbitraryLoadsInMedia.
    public func isInert(on outline: ATSOutline) -> Bool {
        outline.topIsPlain && !outline.has(ATSKey.allowsArbitraryLoadsInMedia)
    }

    public func apply(to session: MigrationSession) {
        guard let ats = session.appTransportSecurity else { return }
        session.renameOrMerge(ATSKey.allowsArbitraryLoadsInMedia, to: ATSKey.allowsArbitraryLoadsForMedia, in: ats)
    }
}
