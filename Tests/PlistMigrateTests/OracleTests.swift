import Foundation
import Testing
import PlistDOM
@testable import PlistMigrate

/// Our decoded values against Python's plistlib, for the whole shared corpus and every fixture,
/// before and after migration (Tests/oracle/plistlib_oracle.py does the comparing).
@Suite struct OracleTests {
    static func tagged(_ value: PlistValue) -> Any {
        switch value {
        case .string(let text): ["s": text]
        case .integer(let number): ["i": String(number)]
        case .real(let number): ["r": "\(number)"]
        case .bool(let flag): ["b": flag]
        case .date(let text): ["d": text]
        case .data(let bytes): ["x": Data(bytes).base64EncodedString()]
        case .array(let items): ["a": items.map(tagged)]
        case .dict(let entries): ["o": entries.mapValues(tagged)]
        }
    }

    static func allPlists() -> [URL] {
        var files: [URL] = []
        for root in [Paths.corpus.appendingPathComponent("real"), Paths.corpus.appendingPathComponent("wild"), Paths.fixtures] {
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension == "plist" { files.append(url) }
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    @Test func decodedValuesAgreeWithPlistlibBeforeAndAfterMigration() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let migrator = FileMigrator(plan: try MigrationPlan(allowPolicyChange: true))
        var report: [[String: Any]] = []
        var migratedCount = 0
        for (index, url) in Self.allPlists().enumerated() {
            let bytes = Array(try Data(contentsOf: url))
            guard let document = try? PlistDocument(parsing: bytes) else { continue }
            var item: [String: Any] = ["path": url.path, "value": Self.tagged(document.value)]
            let result = migrator.migrate(bytes, path: url.lastPathComponent, skipIfNotApplicable: false)
            if result.status == .changed {
                let migrated = dir.appendingPathComponent("\(index).plist")
                try Data(result.output).write(to: migrated)
                item["migratedPath"] = migrated.path
                item["migratedValue"] = Self.tagged(try PlistDocument(parsing: result.output).value)
                migratedCount += 1
            }
            report.append(item)
        }
        let reportURL = dir.appendingPathComponent("report.json")
        try JSONSerialization.data(withJSONObject: report).write(to: reportURL)
        let oracle = Paths.repository.appendingPathComponent("Tests/oracle/plistlib_oracle.py")
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", oracle.path, reportURL.path], in: dir)
        print(result.text, terminator: "")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(result.text.split(separator: "\n").first)
        let numbers = summary.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
        #expect(numbers.count == 3 && numbers[2] == 0, "\(result.text)")
        #expect(numbers.first ?? 0 > 2000, "most files must be compared")
        #expect(migratedCount > 600)
    }
}
