import PlistDOM

/// Renames the `NSTemporaryException…` keys of the first ATS betas to their `NSException…`
/// twins, with ATS001's rules: an equal twin makes the old entry redundant, a different one is
/// a conflict.
public struct TemporaryExceptionKeys: Migration {
    public let id = "ATS009"
    public let version = 9
    public let name = "temporary-exception-keys"
    public let title = "Rename NSTemporaryException… keys to their NSException… twins"
    public let rationale = """
        Apple's NSExceptionDomains reference documents only NSExceptionAllowsInsecureHTTPLoads, \
        NSExceptionMinimumTLSVersion and NSExceptionRequiresForwardSecrecy; the \
        NSTemporaryException… names date from the iOS 9 betas, and Apple's open ATS reader \
        (SecProtocolConfiguration.m) does not read them at all.
        """
    /// Not `spelling`: Apple's open reader never reads the old keys, so on a system that reads
    /// ATS as it does the renamed setting starts to take effect. Where the OS reads
    /// them as their twins nothing changes; the policy delta shows both readings.
    public let impact = Impact.activatesIntent
    public let intent = PolicyIntent.editedSettingsTakeEffect

    static let renames: [(old: String, new: String)] = [
        ("NSTemporaryExceptionAllowsInsecureHTTPLoads", "NSExceptionAllowsInsecureHTTPLoads"),
        ("NSTemporaryExceptionRequiresForwardSecrecy", "NSExceptionRequiresForwardSecrecy"),
        ("NSTemporaryExceptionMinimumTLSVersion", "NSExceptionMinimumTLSVersion"),
    ]

    private static let aliases = ATSOutline.domainKeySet(renames.map(\.old))

    public init() {}

    /// Nothing to rename where no domain holds an NSTemporaryException… key.
    public func isInert(on outline: ATSOutline) -> Bool {
        outline.domainsAreDocumented && !outline.domainsMayHoldAny(of: Self.aliases)
    }

    public func apply(to session: MigrationSession) {
        session.renameAliasesInExceptionDomains(Self.renames)
    }
}
