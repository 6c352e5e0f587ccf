/// Every migration, in the order they run (ascending `version`).
public enum MigrationRegistry {
    public static let all: [any Migration] = [
        ThirdPartyExceptionKeys(),
        ArbitraryLoadsForMedia(),
        LocalNetworkingWithArbitraryLoads(),
        NormalizeExceptionDomains(),
        FixKeySpelling(),
        CleanDomainKeys(),
        NormalizeTLSVersion(),
        StringBooleans(),
        TemporaryExceptionKeys(),
        DropIgnoredArbitraryLoads(),
    ]

    public static func migration(id: String) -> (any Migration)? {
        all.first { $0.id.lowercased() == id.lowercased() }
    }
}
