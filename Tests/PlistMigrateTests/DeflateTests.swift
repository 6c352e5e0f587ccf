import Foundation
import Testing
@testable import PlistMigrate

/// The review page's compressed kinds (size): what `Deflate` writes, Python's zlib
/// (an independent inflater, as a browser's `DecompressionStream("deflate-raw")` is) reads back
/// byte for byte, and it is much smaller than the text for the page's kind of text.
@Suite struct DeflateTests {
    static func inflatedByPython(_ compressed: [UInt8], in directory: URL) throws -> [UInt8] {
        let input = directory.appendingPathComponent("in-\(UUID().uuidString).bin")
        let output = directory.appendingPathComponent("out-\(UUID().uuidString).bin")
        try Data(compressed).write(to: input)
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import sys, zlib
            open(sys.argv[2], "wb").write(zlib.decompress(open(sys.argv[1], "rb").read(), -15))
            """, input.path, output.path], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        return Array(try Data(contentsOf: output))
    }

    @Test func pythonReadsBackWhatItWrites() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SystemRandomNumberGenerator()
        var cases: [[UInt8]] = [[], [0], Array("a".utf8), Array(repeating: 0x61, count: 100_000), (0..<256).map(UInt8.init)]
        // Random bytes (no matches), runs (overlapping matches), text with far repeats
        // (distances up to the 32 KiB window) and every length code.
        cases.append((0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        cases.append((0..<50_000).map { _ in UInt8.random(in: 0...3, using: &generator) })
        let demo = try tool(["--format", "html", "--no-config", Paths.repository.appendingPathComponent("Fixtures/demo").path], in: directory)
        let page = Array(demo.stdout)
        #expect(page.count > 10_000)
        cases.append(page)
        cases.append((0..<400).flatMap { index in Array("<li>monorepo/app\(index)/Info.plist</li>".utf8) + Array(repeating: UInt8(ascii: "x"), count: index % 300) })
        for input in cases {
            let compressed = Deflate.compress(input)
            #expect(try Self.inflatedByPython(compressed, in: directory) == input, "\(input.count) bytes")
        }
        // The demo's page is mostly its style and script; a large page is mostly near-identical kinds and lists.
        let compressed = Deflate.compress(page)
        #expect(compressed.count * 2 < page.count, "the demo page compresses at least twofold: \(page.count) → \(compressed.count)")
        let repetitive = cases.last!
        #expect(Deflate.compress(repetitive).count * 5 < repetitive.count, "a long file list compresses at least fivefold")
    }
}
