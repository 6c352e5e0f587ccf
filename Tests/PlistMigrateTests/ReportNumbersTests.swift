import Foundation
import Testing
@testable import PlistMigrate

/// `report` reads every number of its input as untrusted. A real report of a fleet
/// (repositories, a changed file, a conflict, a file that does not parse, deployment targets)
/// has each of its integers replaced in turn by the extremes a hand-made file could hold; every
/// format must then print the page or refuse the file in one line per problem, never stop the
/// process (an overflow or an index out of range would end this test run with a signal).
@Suite struct ReportNumbersTests {
    final class Sink: OutputSink, @unchecked Sendable {
        var output: [UInt8] = []
        var errors = ""
        func standardOutput(_ bytes: [UInt8]) { output += bytes }
        func standardError(_ text: String) { errors += text }
    }

    /// Every path to an integer in `value` (JSONSerialization's booleans are numbers of their
    /// own class: left out).
    static func integerPaths(_ value: Any, at path: [Any] = []) -> [[Any]] {
        switch value {
        case let dictionary as [String: Any]:
            return dictionary.keys.sorted().flatMap { integerPaths(dictionary[$0]!, at: path + [$0]) }
        case let array as [Any]:
            return array.indices.flatMap { integerPaths(array[$0], at: path + [$0]) }
        case let number as NSNumber where !"\(type(of: number))".contains("Boolean") && "qilsc".contains(String(cString: number.objCType)):
            return [path]
        default:
            return []
        }
    }

    static func replacing(_ path: ArraySlice<Any>, in value: Any, with number: Int) -> Any {
        guard let step = path.first else { return number }
        if var dictionary = value as? [String: Any], let key = step as? String {
            dictionary[key] = replacing(path.dropFirst(), in: dictionary[key]!, with: number)
            return dictionary
        }
        if var array = value as? [Any], let index = step as? Int {
            array[index] = replacing(path.dropFirst(), in: array[index], with: number)
            return array
        }
        return value
    }

    @Test func everyNumberAtItsExtremesIsReadOrRefusedInEveryFormat() throws {
        let root = try ReviewTests.fleet()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try copyFixture("ATS001/conflict.before.plist", to: root, as: "alpha/Conflict/Info.plist")
        let made = try tool(["--format", "json", "alpha", "beta"], in: root)
        let document = try ReviewTests.json(made.stdout)
        let paths = Self.integerPaths(document)
        let named = Set(paths.compactMap { $0.last as? String })
        // The report holds the numbers the issue names: counts, versions, rounds, lines and
        // columns, repository indexes.
        for field in ["editCount", "version", "round", "line", "column", "repository", "scanned", "schemaVersion"] {
            #expect(named.contains(field), "the report has no \(field) to try: \(named.sorted())")
        }
        var refused = 0, read = 0
        for path in paths {
            for number in [Int.max, Int.min, -1] {
                let edited = Self.replacing(path[...], in: document, with: number)
                let file = root.appendingPathComponent("edited.json")
                try JSONSerialization.data(withJSONObject: edited).write(to: file)
                for format in ReportMerge.Format.allCases {
                    var merge = ReportMerge(paths: [file.path])
                    merge.format = format
                    let sink = Sink()
                    let status = merge.run(sink: sink)
                    let where_ = "\(path.map { "\($0)" }.joined(separator: ".")) = \(number), \(format)"
                    if status == 0 {
                        read += 1
                        #expect(!sink.output.isEmpty && sink.errors.isEmpty, "\(where_): \(sink.errors)")
                    } else {
                        refused += 1
                        #expect(status == 2 && sink.output.isEmpty, "\(where_): \(status)")
                        let lines = sink.errors.split(separator: "\n")
                        #expect(lines.count == 1 && lines[0].count < 400, "\(where_): one short line: \(sink.errors.prefix(600))")
                    }
                }
            }
        }
        #expect(paths.count > 20 && read > 0 && refused > 0, "\(paths.count) numbers, \(read) read, \(refused) refused")
        print("report numbers: \(paths.count) integers × 3 extremes × \(ReportMerge.Format.allCases.count) formats: \(read) read, \(refused) refused")
    }
}
