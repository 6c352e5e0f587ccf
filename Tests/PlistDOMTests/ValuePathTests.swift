import Testing
@testable import PlistDOM

/// Paths from the root value: keys and array positions, read back to the same element.
@Suite struct ValuePathTests {
    static let text = """
        <plist><dict><key>A</key><array><string>x</string><dict><key>B</key><true/></dict></array>\
        <key>C</key><dict><key>D</key><integer>1</integer></dict></dict></plist>
        """

    @Test func pathsLeadBackToTheirElements() throws {
        let document = try PlistDocument(parsing: Self.text)
        let b = try #require(document.element(at: [.key("A"), .index(1), .key("B")]))
        #expect(b.kind == .true)
        #expect(document.path(of: b) == [.key("A"), .index(1), .key("B")])
        #expect(document.keyPath(of: b) == nil, "a path through an array has no key path")
        let d = try #require(document.element(at: [.key("C"), .key("D")]))
        #expect(document.keyPath(of: d) == ["C", "D"])
        #expect(document.path(of: document.rootValue) == [])
        #expect(document.element(at: [.key("A"), .index(2)]) == nil)
        #expect(document.element(at: [.key("C"), .index(0)]) == nil)
        #expect([PathStep.key("A"), .index(1), .key("a:b")].spelled == "A:1:a\\:b")
    }
}
