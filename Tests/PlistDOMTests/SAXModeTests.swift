import Testing
@testable import PlistDOM

/// The builder reads in libxml2's SAX1 mode, and again in SAX2 mode (namespaces resolved)
/// whenever that could read differently: the two must give the same tree, or the same error.
@Suite struct SAXModeTests {
    struct Outcome: Equatable, CustomStringConvertible {
        var nodes: [Node]
        var texts: [Int32: String]
        var strayTexts: [Int32: String]
        var root: Int32?
        var failure: String?
        var description: String { failure ?? "\(nodes.count) nodes" }
    }

    static func read(_ bytes: [UInt8], buildTree: Bool = true, sax2Only: Bool) -> (outcome: Outcome, bySAX1: Bool) {
        let builder = SAXTreeBuilder.parse(bytes, lines: LineTable(bytes), buildTree: buildTree, alwaysResolvingNamespaces: sax2Only)
        let failure = builder.failure.map { failure in
            "\(failure.message) at \(failure.offset.map(String.init) ?? "-") \(failure.location.map { "\($0.line):\($0.column)" } ?? "-")"
        }
        let outcome = Outcome(nodes: builder.nodes, texts: builder.texts, strayTexts: builder.strayTexts, root: builder.rootIndex, failure: failure)
        return (outcome, !builder.resolvesNamespaces)
    }

    static func wrapped(_ body: String, prolog: String = "") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(prolog)<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n"
    }

    /// Each of these reads differently with namespaces (or might): SAX2's answer must stand.
    @Test(arguments: [
        wrapped("<key>a</key><x:dict/>"),
        wrapped("<key>a</key><string/>", prolog: "<?x:y z?>\n"),
        "<plist version=\"1.0\" xmlns:x=\"urn:a\"><x:dict/></plist>",
        "<plist version=\"1.0\" xmlns=\"urn:a\"><dict/></plist>",
        "<plist version=\"1.0\" x:a=\"b\"><dict/></plist>",
        wrapped("<key>a</key><string/>", prolog: "<!DOCTYPE plist [<!ATTLIST plist xmlns:xml CDATA \"urn:bogus\">]>\n"),
        wrapped("<key>a</key><string/>", prolog: "<!DOCTYPE plist [<!NOTATION x:n SYSTEM \"n\">]>\n"),
        wrapped("<key>a</key><string></stri:ng>"),
    ])
    func namespacedInputsGetSAX2sReading(text: String) {
        let bytes = Array(text.utf8)
        let fast = Self.read(bytes, sax2Only: false), sax2 = Self.read(bytes, sax2Only: true)
        #expect(!fast.bySAX1)
        #expect(fast.outcome == sax2.outcome)
    }

    @Test func anUndefinedPrefixIsSAX2sError() {
        let fast = Self.read(Array(Self.wrapped("<key>a</key><x:dict/>").utf8), sax2Only: false)
        #expect(fast.outcome.failure?.hasPrefix("Namespace prefix x on dict is not defined") == true, "\(fast.outcome)")
    }

    /// Every corpus file and six mutations of each (bytes deleted, inserted or replaced,
    /// favouring markup and `:`), read both ways, with and without a tree.
    @Test func corpusAndMutationsReadAlikeBothWays() throws {
        var compared = 0, bySAX1 = 0, mismatches: [String] = []
        try TestPaths.corpusAndMutations(seed: 15, alphabet: Array("<>/:\"'=& \n\t!?-[]xakdy;#:?".utf8)) { name, mutation, bytes in
            for buildTree in mutation == 0 ? [true, false] : [true] {
                let fast = Self.read(bytes, buildTree: buildTree, sax2Only: false)
                let sax2 = Self.read(bytes, buildTree: buildTree, sax2Only: true)
                compared += 1
                if fast.bySAX1 { bySAX1 += 1 }
                if fast.outcome != sax2.outcome { mismatches.append("\(name) #\(mutation): \(fast.outcome) vs \(sax2.outcome)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        // Both paths were taken: the corpus needs it (2,000+ files), or the test says nothing.
        #expect(compared > 12_000 && bySAX1 > 4_000 && compared - bySAX1 > 4_000, "\(compared) compared, \(bySAX1) by SAX1")
    }
}
