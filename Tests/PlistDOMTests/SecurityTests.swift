import Foundation
import Testing
@testable import PlistDOM

@Suite struct SecurityTests {
    /// If the parser read the external DTD, `&leak;` would resolve to its text. It must not.
    @Test func externalDTDIsNeverRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plist-dtd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dtd = dir.appendingPathComponent("evil.dtd")
        try Data("<!ENTITY leak \"SECRET\">".utf8).write(to: dtd)
        let withReference = """
            <?xml version="1.0"?>
            <!DOCTYPE plist SYSTEM "\(dtd.absoluteString)">
            <plist version="1.0"><string>&leak;</string></plist>
            """
        #expect(throws: ParseError.self) { try PlistDocument(parsing: withReference) }
        let withoutReference = """
            <?xml version="1.0"?>
            <!DOCTYPE plist SYSTEM "\(dtd.absoluteString)">
            <plist version="1.0"><string>safe &amp; sound</string></plist>
            """
        let document = try PlistDocument(parsing: withoutReference)
        #expect(document.rootValue.text == "safe & sound")
    }

    @Test(arguments: [300, 600, 100_000])
    func deepNestingIsAnErrorNotACrash(depth: Int) throws {
        let text = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        #expect {
            _ = try PlistDocument(parsing: text)
        } throws: { error in
            (error as? ParseError)?.message.contains("too deep") == true
                || (error as? ParseError)?.message.contains("nesting") == true
        }
    }

    @Test func nestingWithinTheLimitParses() throws {
        let depth = 200
        let text = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        let document = try PlistDocument(parsing: text)
        #expect(document.bytes == Array(text.utf8))
    }

    /// A 5 MB plist (generated, so the repository stays small) prints back byte for byte.
    @Test func fiveMegabyteFileRoundTrips() throws {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<plist version=\"1.0\">\r\n<dict>\r\n"
        var index = 0
        while text.utf8.count < 5_000_000 {
            text += "\t<key>Key\(index)</key>\r\n\t<string>value &amp; \(index) &#x27;quoted&#x27; ü</string>\r\n"
            text += "\t<key>Data\(index)</key>\r\n\t<data>SGVsbG8sIHdvcmxk</data>\r\n"
            index += 1
        }
        text += "</dict>\r\n</plist>"
        let input = Array(text.utf8)
        let document = try PlistDocument(parsing: input)
        #expect(document.bytes == input)
        #expect(document.rootValue.entries.count == index * 2)
    }

    /// Either side of libxml2's 10 MB look-up limit, where the parser reads memory two ways: one
    /// `<data>` value that large, read whole, and its last bytes decoded.
    @Test(arguments: [9_999_000, 10_000_100, 12_000_000])
    func oneLargeValueIsReadWhole(size: Int) throws {
        let open = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<data>".utf8)
        let close = Array("QUJD</data>\n</plist>\n".utf8)
        let run = (size - open.count - close.count) / 4 * 4
        let input = open + [UInt8](repeating: UInt8(ascii: "A"), count: run) + close
        let document = try PlistDocument(parsing: input)
        #expect(document.bytes == input)
        guard case .data(let decoded) = PlistValue(document.rootValue) else {
            Issue.record("not read as data")
            return
        }
        #expect(decoded.suffix(3) == Array("ABC".utf8))
        #expect(decoded.count == (run + 4) / 4 * 3)
    }
}
