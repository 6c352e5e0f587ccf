import Foundation
import Testing

/// Every line the tool prints says what is so, in the words of the file.
@Suite struct PrintedLinesTests {
    /// A Boolean where a dict belongs is named by its element, `<true/>`, not "a true".
    @Test func aBooleanIsNamedByItsElement() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let plist = "<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>"
            + "<key>a.example.com</key><true/><key>b.example.com</key><false/><key>c.example.com</key><string>x</string></dict></dict></dict></plist>\n"
        try Data(plist.utf8).write(to: root.appendingPathComponent("Info.plist"))
        let lint = try tool(["lint", "--no-config", "Info.plist"], in: root).text
        #expect(lint.contains("the settings of a.example.com are <true/>, not a dict"), "\(lint)")
        #expect(lint.contains("the settings of b.example.com are <false/>, not a dict"), "\(lint)")
        #expect(lint.contains("the settings of c.example.com are a string, not a dict"), "\(lint)")
        #expect(!lint.contains("a true") && !lint.contains("a false"), "\(lint)")
    }
}
