/// The App Transport Security key names the migrations read and write.
public enum ATSKey {
    public static let appTransportSecurity = "NSAppTransportSecurity"
    public static let allowsArbitraryLoads = "NSAllowsArbitraryLoads"
    public static let allowsArbitraryLoadsForMedia = "NSAllowsArbitraryLoadsForMedia"
    public static let allowsArbitraryLoadsInMedia = "NSAllowsArbitraryLoadsInMedia"
    public static let allowsArbitraryLoadsInWebContent = "NSAllowsArbitraryLoadsInWebContent"
    public static let allowsLocalNetworking = "NSAllowsLocalNetworking"
    public static let exceptionDomains = "NSExceptionDomains"
    public static let pinnedDomains = "NSPinnedDomains"
    public static let includesSubdomains = "NSIncludesSubdomains"
}
