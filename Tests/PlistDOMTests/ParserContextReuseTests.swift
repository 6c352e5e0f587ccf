import Testing
@testable import PlistDOM

/// libxml2 parser contexts are reset and reused between parses (`ParserContexts`): what a file
/// reads as must not depend on what was read before it. Every corpus file (and a mutation of
/// each) is read in path order, then again in reverse order with hostile and namespaced inputs
/// read between them, in both modes: each reading must be the same.
@Suite struct ParserContextReuseTests {
    static let hostile: [String] = [
        "<?xml version=\"1.0\"?><!DOCTYPE plist [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;\">]><plist><string>&b;</string></plist>",
        "<plist version=\"1.0\"><dict><key>a</key><string>x</string></dict>",
        String(repeating: "<array>", count: 300) + String(repeating: "</array>", count: 300),
        "<plist version=\"1.0\" xmlns:x=\"urn:a\"><x:dict/></plist>",
        "<?xml version=\"1.0\"?><!DOCTYPE plist SYSTEM \"file:///etc/passwd\"><plist><string>&xxe;</string></plist>",
        "<plist><dict><key>k</key><string>\u{1}</string></dict></plist>",
        "<plist><a b=\"1\" c=\"2\" d=\"3\" e=\"4\" f=\"5\" g=\"6\" h=\"7\" i=\"8\" j=\"9\" k=\"10\" l=\"11\" m=\"12\"/></plist>",
    ]

    @Test func whatAFileReadsAsDoesNotDependOnTheParsesBeforeIt() throws {
        var generator = PropertyTests.SplitMix64(state: 43)
        var inputs: [(name: String, bytes: [UInt8])] = []
        for url in TestPaths.plists(under: TestPaths.corpus) {
            let bytes = try TestPaths.bytes(url)
            inputs.append((url.lastPathComponent, bytes))
            var mutated = bytes
            if mutated.count > 2 { mutated.remove(at: Int.random(in: 0..<mutated.count, using: &generator)) }
            inputs.append((url.lastPathComponent + " (mutated)", mutated))
        }
        try #require(inputs.count > 4_000)
        func readings(_ bytes: [UInt8]) -> [SAXModeTests.Outcome] {
            [false, true].flatMap { sax2 in
                [true, false].map { tree in SAXModeTests.read(bytes, buildTree: tree, sax2Only: sax2).outcome }
            }
        }
        let forward = inputs.map { readings($0.bytes) }
        var differences: [String] = []
        for index in inputs.indices.reversed() {
            _ = readings(Array(Self.hostile[index % Self.hostile.count].utf8))
            if readings(inputs[index].bytes) != forward[index] { differences.append(inputs[index].name) }
        }
        #expect(differences.isEmpty, "\(differences.count) read differently, e.g. \(differences.prefix(5))")
        // Contexts were kept for reuse, or this test compared nothing it means to.
        #expect(ParserContexts.shared.idleCount > 0)
    }
}
