/// A host name as ATS classifies it.
public struct Host: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    /// An IPv4 or IPv6 literal.
    public let isIPAddress: Bool
    /// Unqualified names, `.local` names and IP addresses: what Apple's NSAllowsLocalNetworking
    /// page calls local.
    public let isLocal: Bool
    /// The address as a number, for an IPv4 literal.
    let ipv4: UInt32?

    public init(_ name: String) {
        self.name = name.lowercased()
        ipv4 = Self.parseIPv4(self.name)
        isIPAddress = ipv4 != nil || self.name.contains(":")
        isLocal = isIPAddress || !self.name.contains(".") || self.name.hasSuffix(".local") || self.name.hasSuffix(".local.")
    }

    public var description: String { name }

    static func parseIPv4(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard let octet = UInt8(part) else { return nil }
            value = value << 8 | UInt32(octet)
        }
        return value
    }
}
