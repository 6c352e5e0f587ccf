import PlistDOM

/// A one-line, `path:line:column`-ready error.
public struct FileError: Error, Sendable {
    public var location: SourceLocation?
    public var message: String

    public init(_ message: String, at location: SourceLocation? = nil) {
        self.message = message
        self.location = location
    }

    public func line(path: String) -> String {
        if let location { "\(path):\(location.line):\(location.column): error: \(OneLine.escaped(message))" }
        else { "\(path): error: \(OneLine.escaped(message))" }
    }
}
