import Foundation
import Testing
@testable import PlistDOM

/// Every file in `Fixtures/errors/` and `Fixtures/hostile/` must be refused with the message and
/// location listed in that folder's `expected.tsv` (file, line:column, message).
@Suite struct ParseErrorTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        let folder: String
        let file: String
        let location: String
        let message: String
        var testDescription: String { "\(folder)/\(file)" }
    }

    static func expectations(_ folder: String) -> [Expectation] {
        let url = TestPaths.fixtures.appendingPathComponent(folder).appendingPathComponent("expected.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Expectation(folder: folder, file: fields[0], location: fields[1], message: fields[2])
        }
    }

    static let all = expectations("errors") + expectations("hostile")

    @Test(arguments: all)
    func refusedWithMessageAndLocation(_ expected: Expectation) throws {
        let url = TestPaths.fixtures.appendingPathComponent(expected.folder).appendingPathComponent(expected.file)
        let input = try TestPaths.bytes(url)
        #expect {
            _ = try PlistDocument(parsing: input)
        } throws: { error in
            guard let error = error as? ParseError else { return false }
            #expect(error.location.description == expected.location, "\(error)")
            #expect(error.message == expected.message, "\(error)")
            return true
        }
    }

    /// A declared encoding matters only for non-ASCII text, and any casing of `UTF-8`/`UTF8`
    /// names UTF-8.
    @Test(arguments: [
        ("UTF-8", true, true), ("utf-8", true, true), ("Utf8", true, true), ("UTF8", true, true),
        ("ISO-8859-1", true, false), ("ISO-8859-1", false, true), ("utf-16", true, false), ("UTF-8 ", true, false),
    ])
    func declaredEncodings(name: String, nonASCII: Bool, parses: Bool) {
        let text = "<?xml version=\"1.0\" encoding=\"\(name)\"?>\n<plist version=\"1.0\">\n<string>\(nonASCII ? "café" : "cafe")</string>\n</plist>\n"
        let document = try? PlistDocument(parsing: text)
        #expect((document != nil) == parses, "\(name)")
        if !parses, case .failure(let error) = Result(catching: { () throws(ParseError) in try PlistDocument(parsing: text) }) {
            #expect(error.message.contains("encoding \"\(name)\" is not supported"), "\(error.message)")
        }
    }

    @Test func everyFixtureHasAnExpectation() throws {
        for folder in ["errors", "hostile"] {
            let listed = Set(Self.expectations(folder).map(\.file))
            let present = Set(TestPaths.plists(under: TestPaths.fixtures.appendingPathComponent(folder))
                .map(\.lastPathComponent))
            #expect(listed == present, "\(folder): expected.tsv and the folder disagree")
        }
    }
}

extension ParseErrorTests {
    @Test(arguments: [("\r\n", 4), ("\r", 4), ("\n", 4)])
    func mergeMarkersAreFoundWhateverTheLineEnding(_ eol: String, _ line: Int) throws {
        let text = ["<plist>", "<dict>", "<key>A</key>", ">>>>>>> theirs", "</dict>", "</plist>"].joined(separator: eol)
        #expect(throws: ParseError("unresolved merge conflict markers", at: SourceLocation(line: line, column: 1))) {
            try PlistDocument(parsing: text)
        }
    }

    @Test func aMarkerOnTheFirstLineIsFound() {
        #expect(throws: ParseError("unresolved merge conflict markers", at: SourceLocation(line: 1, column: 1))) {
            try PlistDocument(parsing: "<<<<<<< HEAD\n<plist><dict/></plist>\n")
        }
    }

    @Test func markerLookalikesAwayFromALineStartAreText() throws {
        let text = "<plist>\n<string>a ======= b >>>>>>> c</string>\n</plist>\n"
        let document = try PlistDocument(parsing: text)
        #expect(document.rootValue.text == "a ======= b >>>>>>> c")
    }
}
