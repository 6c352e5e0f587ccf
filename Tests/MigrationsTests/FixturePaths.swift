import Foundation
import Testing

/// A `Fixtures/<ID>/NAME.before.plist` case with its `.after.plist`, optional `.diff` (the
/// pass's golden diff) and optional `.diagnostics` (expected `line:column: ID: message` lines).
struct PassFixture: Sendable, CustomTestStringConvertible {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    let migrationID: String
    let name: String

    var testDescription: String { "\(migrationID)/\(name)" }

    func url(_ suffix: String) -> URL {
        Self.root.appendingPathComponent(migrationID).appendingPathComponent("\(name).\(suffix)")
    }

    func bytes(_ suffix: String) throws -> [UInt8] { Array(try Data(contentsOf: url(suffix))) }

    func text(_ suffix: String) -> String? { try? String(contentsOf: url(suffix), encoding: .utf8) }

    static func all(ids: [String]) -> [PassFixture] {
        ids.flatMap { id -> [PassFixture] in
            let folder = root.appendingPathComponent(id)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(".before.plist") }.sorted()
                .map { PassFixture(migrationID: id, name: String($0.dropLast(".before.plist".count))) }
        }
    }
}
