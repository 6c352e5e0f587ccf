/// A host name as ATS classifies it.
public struct Host: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name.lowercased()
    }

    public var description: String { name }

    /// An IPv4 or IPv6 literal.
    public var isIPAddress: Bool { ipv4Octets != nil || name.contains(":") }

    /// Unqualified names, `.local` names and IP addresses: what Apple's NSAllowsLocalNetworking
    /// page calls local.
    public var isLocal: Bool {
        isIPAddress || !name.contains(".") || name.hasSuffix(".local") || name.hasSuffix(".local.")
    }

    var ipv4Octets: [UInt8]? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let octets = parts.compactMap { UInt8($0) }
        return octets.count == 4 ? octets : nil
    }
}
