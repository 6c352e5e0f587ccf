import Testing
@testable import PlistDOM

/// libxml2 reads spaces in place of Apple's standard DOCTYPE (which names only an external
/// subset the parser never loads): the tree, or the error, must be the one it gives when it
/// reads the DOCTYPE as written.
@Suite struct DoctypeBlankingTests {
    static func read(_ bytes: [UInt8], buildTree: Bool = true, readingDoctype: Bool) -> SAXModeTests.Outcome {
        let builder = SAXTreeBuilder.parse(bytes, lines: LineTable(bytes), buildTree: buildTree, readingDoctype: readingDoctype)
        let failure = builder.failure.map { failure in
            "\(failure.message) at \(failure.offset.map(String.init) ?? "-") \(failure.location.map { "\($0.line):\($0.column)" } ?? "-")"
        }
        return SAXModeTests.Outcome(nodes: builder.nodes, texts: builder.texts, strayTexts: builder.strayTexts, root: builder.rootIndex, failure: failure)
    }

    static let apple = #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#
    static let appleComputer = #"<!DOCTYPE plist PUBLIC "-//Apple Computer//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#

    /// Where the standard DOCTYPE is found, and where it is not (then libxml2 reads it).
    @Test(arguments: [
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(apple)\n<plist/>", 39),
        ("\u{FEFF}<?xml version=\"1.0\"?>\r\n\(appleComputer)\r\n<plist/>", 26),
        ("\(apple)\n<plist/>", 0),
        ("<?xml version=\"1.0\"?><?xml-stylesheet href=\"a\"?>\(apple)<plist/>", nil),
        ("<?xml version=\"1.0\"?>\n<!-- a -->\n\(apple)\n<plist/>", nil),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"x.dtd\">\n<plist/>", nil),
        ("<?xml version=\"1.0\"?>\n\(apple.dropLast())[<!ENTITY a \"b\">]>\n<plist/>", nil),
        ("<?xml version=\"1.0\"", nil),
    ] as [(String, Int?)])
    func theStandardDoctypeIsFoundInTheProlog(text: String, at: Int?) {
        let bytes = Array(text.utf8)
        let found = bytes.withUnsafeBufferPointer { SAXTreeBuilder.standardDoctype(in: $0) }
        #expect(found?.lowerBound == at)
        if let found { #expect(Array(bytes[found]) == Array((text.contains("Computer") ? Self.appleComputer : Self.apple).utf8)) }
    }

    /// Entity references, which libxml2 reads otherwise under a DOCTYPE with an external subset
    /// (an undeclared one is then only a warning), and text around where the DOCTYPE was.
    @Test(arguments: [
        "<key>a</key><string>&foo;</string>", "<key>a</key><string>&amp;&lt;&#65;&#x42;</string>", "<key>&foo;</key><true/>",
        "<key>a</key><string>&#0;</string>", "<key>a</key><string>&;</string>", "<key>a</key><string>&%foo;</string>",
    ])
    func entityReferencesReadAlike(body: String) {
        for doctype in [Self.apple, Self.appleComputer] {
            for prolog in ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(doctype)\n", "\(doctype)\n", "<?xml version=\"1.0\"?>\(doctype)x\n"] {
                let bytes = Array((prolog + "<plist version=\"1.0\"><dict>\(body)</dict></plist>\n").utf8)
                #expect(Self.read(bytes, readingDoctype: false) == Self.read(bytes, readingDoctype: true), "\(prolog)\(body)")
            }
        }
    }

    /// Every corpus file and six mutations of each (bytes deleted, inserted or replaced, with
    /// entity references among them, which an external subset changes libxml2's reading of),
    /// read both ways, with and without a tree.
    @Test func corpusAndMutationsReadAlikeWithTheDoctypeBlanked() throws {
        var compared = 0, blanked = 0, mismatches: [String] = []
        try TestPaths.corpusAndMutations(seed: 31, alphabet: Array("<>/:\"'=& \n\t!?-[]xakdy;#&amp;&foo;%".utf8)) { name, mutation, bytes in
            if bytes.withUnsafeBufferPointer({ SAXTreeBuilder.standardDoctype(in: $0) }) != nil { blanked += 1 }
            for buildTree in mutation == 0 ? [true, false] : [true] {
                let spaces = Self.read(bytes, buildTree: buildTree, readingDoctype: false)
                let doctype = Self.read(bytes, buildTree: buildTree, readingDoctype: true)
                compared += 1
                if spaces != doctype { mismatches.append("\(name) #\(mutation): \(spaces) vs \(doctype)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        // Most files hold the standard DOCTYPE, or the test says nothing.
        #expect(compared > 12_000 && blanked > 10_000, "\(compared) compared, \(blanked) with the DOCTYPE blanked")
    }
}
