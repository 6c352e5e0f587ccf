import PlistDOM

/// Something a migration could not do on its own: the entries involved are left untouched.
public struct Diagnostic: Sendable, Hashable, Codable {
    public var migrationID: String
    public var location: SourceLocation
    public var message: String

    public init(migrationID: String, location: SourceLocation, message: String) {
        self.migrationID = migrationID
        self.location = location
        self.message = message
    }
}

extension SourceLocation: Codable {
    enum CodingKeys: String, CodingKey { case line, column }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(line: try container.decode(Int.self, forKey: .line), column: try container.decode(Int.self, forKey: .column))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
    }
}
