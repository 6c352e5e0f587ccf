/// `$(API_HOST)` or `${API_HOST}`: a build setting Xcode substitutes when it processes the
/// Info.plist. Its name is case-sensitive and its value unknown here, so such keys and values
/// are never rewritten.
public func containsBuildSettingReference(_ text: String) -> Bool {
    var afterDollar = false
    // Over the bytes in place: walking `utf8` costs several instructions a byte.
    var bytes = text
    return bytes.withUTF8 { bytes in
        for byte in bytes {
            if afterDollar, byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") { return true }
            afterDollar = byte == UInt8(ascii: "$")
        }
        return false
    }
}

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
