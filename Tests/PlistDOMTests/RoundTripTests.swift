import Foundation
import Testing
@testable import PlistDOM

@Suite struct RoundTripTests {
    @Test func corpusAndFixturesPrintBackByteForByte() throws {
        let sets = ["real", "wild"].map { TestPaths.corpus.appendingPathComponent($0) }
            + [TestPaths.fixtures.appendingPathComponent("roundtrip")]
        var checked = 0
        var refused: [String] = []
        for directory in sets {
            let files = TestPaths.plists(under: directory)
            #expect(!files.isEmpty, "no plists found under \(directory.path)")
            for file in files {
                let input = try TestPaths.bytes(file)
                let document: PlistDocument
                do {
                    document = try PlistDocument(parsing: input)
                } catch {
                    refused.append("\(file.lastPathComponent): \(error)")
                    continue
                }
                checked += 1
                // Printing returns the source when nothing was edited; the spans must also tile it.
                #expect(document.bytesFromSpans() == input, "\(file.path): the element spans do not tile the file")
                let output = document.bytes
                if output != input {
                    let offset = zip(output, input).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(output.count, input.count)
                    Issue.record("\(file.path): first difference at byte \(offset)")
                }
            }
        }
        print("round trip: \(checked) files identical, \(refused.count) refused")
        for line in refused { print("  refused \(line)") }
        #expect(checked > 2000)
    }
}
