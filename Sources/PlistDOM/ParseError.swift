/// Why a byte sequence is not a property list this library can edit safely.
public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `line:column: message`
    public var description: String { "\(location): \(message)" }
}
