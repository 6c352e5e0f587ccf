import PlistDOM

/// Renames the deprecated `NSThirdPartyException…` keys in each `NSExceptionDomains` entry to
/// their `NSException…` twins.
///
/// Apple's `NSExceptionDomains` documentation lists only `NSExceptionAllowsInsecureHTTPLoads`,
/// `NSExceptionMinimumTLSVersion` and `NSExceptionRequiresForwardSecrecy`. The third-party
/// variants are on no current Apple page, and Apple's open reader never reads them: the rename
/// makes the setting take effect wherever the OS reads ATS as that reader does.
public struct ThirdPartyExceptionKeys: Migration {
    public let id = "ATS001"
    public let version = 1
    public let name = "third-party-exception-keys"
    public let title = "Rename NSThirdPartyException… keys to their NSException… twins"
    public let rationale = """
        Apple's NSExceptionDomains reference documents only the NSException… keys \
        (NSExceptionAllowsInsecureHTTPLoads, NSExceptionMinimumTLSVersion, \
        NSExceptionRequiresForwardSecrecy); the NSThirdPartyException… spellings are deprecated, \
        and Apple's open ATS reader (SecProtocolConfiguration.m) does not read them at all.
        """
    /// Not `spelling`: Apple's open reader never reads the old keys, so on a system that reads
    /// ATS as it does the renamed setting starts to take effect. Where the OS reads
    /// them as their twins nothing changes; the policy delta shows both readings.
    public let impact = Impact.activatesIntent
    public let intent = PolicyIntent.editedSettingsTakeEffect

    static let renames: [(old: String, new: String)] = [
        ("NSThirdPartyExceptionAllowsInsecureHTTPLoads", "NSExceptionAllowsInsecureHTTPLoads"),
        ("NSThirdPartyExceptionRequiresForwardSecrecy", "NSExceptionRequiresForwardSecrecy"),
        ("NSThirdPartyExceptionMinimumTLSVersion", "NSExceptionMinimumTLSVersion"),
    ]

    private static let aliases = ATSOutline.domainKeySet(renames.map(\.old))

    public init() {}

    /// Nothing to rename where no domain holds an NSThirdParty… key.
    public func isInert(on outline: ATSOutline) -> Bool {
        outline.domainsAreDocumented && !outline.domainsMayHoldAny(of: Self.aliases)
    }

    public func apply(to session: MigrationSession) {
        session.renameAliasesInExceptionDomains(Self.renames)
    }
}
