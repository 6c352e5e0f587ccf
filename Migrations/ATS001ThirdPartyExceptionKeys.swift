import PlistDOM

/// Renames the deprecated `NSThirdPartyException…` keys in each `NSExceptionDomains` entry to
/// their `NSException…` twins.
///
/// Apple's `NSExceptionDomains` documentation lists only `NSExceptionAllowsInsecureHTTPLoads`,
/// `NSExceptionMinimumTLSVersion` and `NSExceptionRequiresForwardSecrecy`; the third-party
/// variants were folded into them and mean the same thing.
public struct ThirdPartyExceptionKeys: Migration {
    public let id = "ATS001"
    public let version = 1
    public let name = "third-party-exception-keys"
    public let title = "Rename NSThirdPartyException… keys to their NSException… twins"
    public let rationale = """
        Apple's NSExceptionDomains reference documents only the NSException… keys \
        (NSExceptionAllowsInsecureHTTPLoads, NSExceptionMinimumTLSVersion, \
        NSExceptionRequiresForwardSecrecy); the NSThirdPartyException… spellings are deprecated \
        and have the same meaning.
        """
    public let impact = Impact.spelling
    public let intent = PolicyIntent.noPolicyChange

    static let renames: [(old: String, new: String)] = [
        ("NSThirdPartyExceptionAllowsInsecureHTTPLoads", "NSExceptionAllowsInsecureHTTPLoads"),
        ("NSThirdPartyExceptionRequiresForwardSecrecy", "NSExceptionRequiresForwardSecrecy"),
        ("NSThirdPartyExceptionMinimumTLSVersion", "NSExceptionMinimumTLSVersion"),
    ]

    public init() {}

    public func apply(to session: MigrationSession) {
        session.renameAliasesInExceptionDomains(Self.renames)
    }
}
