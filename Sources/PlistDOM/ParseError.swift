/// Why a byte sequence is not a property list this library can edit safely.
public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Not an XML property list at all: binary plist, JSON, OpenStep, other XML, empty.
        case notAPropertyList
        /// An XML property list this library will not edit (e.g. UTF-16).
        case unsupported
        /// Broken XML or an invalid plist.
        case malformed
        /// A plist with C preprocessor directives (`#ifdef`), built with `INFOPLIST_PREPROCESS`:
        /// valid as the project uses it, but not a plist until Xcode has run the preprocessor.
        case preprocessed
    }

    public var message: String
    public var location: SourceLocation
    public var kind: Kind

    public init(_ message: String, at location: SourceLocation, kind: Kind = .malformed) {
        self.message = message
        self.location = location
        self.kind = kind
    }

    /// `line:column: message`
    public var description: String { "\(location): \(message)" }
}
