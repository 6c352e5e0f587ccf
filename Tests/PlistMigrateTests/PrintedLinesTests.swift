import Foundation
import Testing

/// Every line the tool prints says what is so, in the words of the file.
@Suite struct PrintedLinesTests {
    /// Each of `commands` (the tool's arguments; the plist is `Info.plist`) run in a folder that
    /// holds one Info.plist whose NSAppTransportSecurity dict holds `ats`; their results, in order.
    static func run(ats: String, _ commands: [String]...) throws -> [ProcessResult] {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("<plist><dict><key>NSAppTransportSecurity</key><dict>\(ats)</dict></dict></plist>\n".utf8)
            .write(to: root.appendingPathComponent("Info.plist"))
        return try commands.map { try tool($0, in: root) }
    }

    /// A Boolean where a dict belongs is named by its element, `<true/>`, not "a true".
    @Test func aBooleanIsNamedByItsElement() throws {
        let lint = try Self.run(ats: "<key>NSExceptionDomains</key><dict><key>a.example.com</key><true/><key>b.example.com</key><false/>"
            + "<key>c.example.com</key><string>x</string></dict>", ["lint", "--no-config", "Info.plist"])[0].text
        #expect(lint.contains("the settings of a.example.com are <true/>, not a dict"), "\(lint)")
        #expect(lint.contains("the settings of b.example.com are <false/>, not a dict"), "\(lint)")
        #expect(lint.contains("the settings of c.example.com are a string, not a dict"), "\(lint)")
        #expect(!lint.contains("a true") && !lint.contains("a false"), "\(lint)")
    }

    /// A deployment target of several platforms keeps the "+" of each: every one of them is
    /// supported from its version on.
    @Test(arguments: [("ios17,macos14", "iOS 17+/macOS 14+"), ("ios17.0,macos14.0", "iOS 17.0+/macOS 14.0+"), ("ios15", "iOS 15+")])
    func everyPlatformOfADeploymentTargetIsOnward(minOS: String, label: String) throws {
        let lint = try Self.run(ats: "<key>NSAllowsArbitraryLoads</key><true/>", ["lint", "--no-config", "--min-os", minOS, "Info.plist"])[0].text
        #expect(lint.contains("all loads on \(label) (NSAllowsArbitraryLoads"), "\(lint)")
    }

    /// `explain` on an iOS 16.4 target shows the iOS 14–16 band: it says the rows are bands and
    /// that the first holds the target, not that older versions are left out.
    @Test func explainSaysItsRowsAreBands() throws {
        let text = try Self.run(ats: "<key>NSAllowsLocalNetworking</key><true/>", ["explain", "--min-os", "ios16.4", "Info.plist"])[0].text
        #expect(text.contains("deployment target ios16.4 (from --min-os): each row's OS is a band of versions that ATS treats alike; "
            + "the first, iOS 14–16/macOS 11–13, holds the deployment target, and older bands are not shown"), "\(text)")
        #expect(text.contains("iOS 14–16/macOS 11–13") && !text.contains("older OS versions are not shown"))
    }

    /// An exception domain `local` (with its subdomains, plain HTTP) opens `.local` names, not
    /// unqualified ones: P004 says `.local` names only, as `explain` (and Apple's reader, which
    /// matches an exception key against the name's own labels) answers for each.
    @Test func aLocalExceptionOpensDotLocalNamesOnly() throws {
        let results = try Self.run(
            ats: "<key>NSExceptionDomains</key><dict><key>local</key><dict><key>NSIncludesSubdomains</key><true/>"
                + "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
            ["lint", "--no-config", "Info.plist"],
            ["explain", "Info.plist", "--host", "printer.local", "--os", "ios9", "--kind", "urlSession"],
            ["explain", "Info.plist", "--host", "printer", "--os", "ios9", "--kind", "urlSession"])
        let lint = results[0].text
        #expect(lint.contains("[P004] plain HTTP is allowed to .local names: all loads on iOS 9/macOS 10.11"), "\(lint)")
        #expect(!lint.contains("unqualified"), "\(lint)")
        #expect(results[1].text.contains("HTTP allowed"), "printer.local: \(results[1].text)")
        #expect(results[2].text.contains("HTTP blocked"), "printer: \(results[2].text)")
    }

    /// Host text the tool would read otherwise than Apple's reader (white space around it, an
    /// address in brackets outside a URL) is refused, saying why, never rewritten silently into a
    /// more permissive answer; the same address in a URL is read as a URL loader reads it.
    @Test(arguments: [(" example.com", "has white space around it"), ("example.com\t", "has white space around it"),
                      ("[2001:db8::1]", "is in brackets, as in a URL"), ("[::1]:8080", "is in brackets, as in a URL")])
    func hostTextReadOtherwiseIsRefused(host: String, reason: String) throws {
        let results = try Self.run(
            ats: "<key>NSAllowsLocalNetworking</key><false/><key>NSExceptionDomains</key>"
                + "<dict><key>example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
            ["explain", "Info.plist", "--host", host],
            ["explain", "Info.plist", "--host", "http://[2001:db8::1]/", "--os", "ios17", "--kind", "urlSession"])
        #expect(results[0].status == 64 && results[0].stderr.contains(reason), "\(results[0].stderr)")
        #expect(results[1].status == 0 && results[1].text.contains("HTTP blocked"), "\(results[1].text)")
    }

    /// An address written long is named in its shortest form when its reading is said:
    /// "as for ::1", never "0:0:0:0:0:0:0:1 is answered as for 0:0:0:0:0:0:0:1".
    @Test func anAddressIsNamedInItsShortestForm() throws {
        let text = try Self.run(ats: "<key>NSAllowsLocalNetworking</key><true/>",
                                ["explain", "Info.plist", "--host", "0:0:0:0:0:0:0:1", "--os", "ios17", "--kind", "urlSession"])[0].text
        #expect(text.contains("note: Apple's reader, looking 0:0:0:0:0:0:0:1 up as written, answers as for ::1, the address it names"), "\(text)")
    }

    /// A key `Example.org` (which this tool counts as matching nothing) and `--host Example.org`:
    /// Apple's reader finds that key by its text and allows HTTP. The output gives that reading
    /// beside this tool's, and never says the reader answers as for `example.org`.
    @Test func theReaderFindsAKeyByItsText() throws {
        let text = try Self.run(ats: "<key>NSExceptionDomains</key><dict><key>Example.org</key><dict>"
            + "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
            ["explain", "Info.plist", "--host", "Example.org", "--os", "ios17", "--kind", "urlSession"])[0].text
        #expect(!text.contains("answers as for example.org"), "\(text)")
        #expect(text.contains("If Apple's reader looks the host up as written") && text.contains("Example.org, iOS 17+/macOS 14+, urlSession: HTTP allowed"), "\(text)")
        #expect(text.contains("because NSExceptionDomains › Example.org (line 1)"), "\(text)")
    }
}
