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
            + "the first, iOS 14–16, holds the deployment target, and older bands are not shown"), "\(text)")
        #expect(text.contains("iOS 14–16") && !text.contains("older OS versions are not shown"))
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
    /// Edits as the file is written: `edit` judges a dict's order on the file as written (not on
    /// what its own `Delete` left), and `edit` and ATS003 write Booleans as the file writes them.
    @Test func editsFollowTheFileAsWritten() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let unsorted = root.appendingPathComponent("Branding.plist")
        try Data("<plist>\n<dict>\n\t<key>b</key>\n\t<string>1</string>\n\t<key>a</key>\n\t<string>2</string>\n\t<key>c</key>\n\t<string>3</string>\n</dict>\n</plist>\n".utf8)
            .write(to: unsorted)
        let edit = try tool(["edit", "Branding.plist", "-c", "Delete :b", "-c", "Add :z string 1", "-c", "Add :y string 1", "-c", "Add :x string 1"], in: root)
        #expect(edit.status == 0, "\(edit.stderr)")
        let keys = try String(contentsOf: unsorted, encoding: .utf8).matches(of: /<key>(\w+)<\/key>/).map { String($0.1) }
        #expect(keys == ["a", "c", "z", "y", "x"])

        let open = root.appendingPathComponent("Info.plist")
        try Data(("<plist>\n<dict>\n\t<key>UIFileSharingEnabled</key>\n\t<true></true>\n\t<key>NSAppTransportSecurity</key>\n\t<dict>\n"
            + "\t\t<key>NSAllowsArbitraryLoads</key>\n\t\t<true></true>\n\t</dict>\n</dict>\n</plist>\n").utf8).write(to: open)
        let migrate = try tool(["--no-config", "--only", "ATS003", "--format", "patch", "Info.plist"], in: root)
        #expect(migrate.text.contains("+\t\t<key>NSAllowsLocalNetworking</key>\n+\t\t<true></true>\n"), "\(migrate.text)")
        #expect(!migrate.text.contains("<true/>"), "\(migrate.text)")
        let added = try tool(["edit", "Info.plist", "--dry-run", "-c", "Add :ITSAppUsesNonExemptEncryption bool false"], in: root)
        #expect(added.text.contains("+\t<false></false>\n"), "\(added.text)")
    }
    /// Rows and findings name the platforms the app is built for: a watch, TV, vision or iOS
    /// app's eras are not labelled with iOS and macOS releases it never runs on.
    @Test(arguments: [
        ("watchos10", ["watchOS 10+"], "watchOS 10+"),
        ("tvos15", ["tvOS 14–16", "tvOS 17+"], "tvOS 15+"),
        ("visionos1", ["visionOS 1+"], "visionOS 1+"),
        ("ios15", ["iOS 14–16", "iOS 17+"], "iOS 15+"),
        ("watchos9,ios16", ["iOS 14–16/watchOS 7–9", "iOS 17+/watchOS 10+"], "watchOS 9+/iOS 16+"),
        ("ios12.1.1,macos10.15", ["iOS 12.1.1–13/macOS 10.14.3–10.15", "iOS 14–16/macOS 11–13"], "iOS 12.1.1+/macOS 10.15+"),
    ])
    func erasAreNamedForTheTargetsPlatforms(minOS: String, rows: [String], onward: String) throws {
        let results = try Self.run(ats: "<key>NSAllowsArbitraryLoads</key><true/>",
                                   ["explain", "--min-os", minOS, "Info.plist"], ["lint", "--no-config", "--min-os", minOS, "Info.plist"])
        for row in rows { #expect(results[0].text.contains("  \(row)  "), "\(minOS): \(row) in \(results[0].text)") }
        #expect(results[1].text.contains("all loads on \(onward) (NSAllowsArbitraryLoads"), "\(results[1].text)")
        let named = minOS.split(separator: ",").map { DeploymentTargetNames.name(of: String($0)) }
        for platform in ["iOS", "macOS", "tvOS", "watchOS", "visionOS"] where !named.contains(platform) {
            #expect(!results[0].text.contains(" \(platform) ") && !results[1].text.contains(" \(platform) "), "\(minOS) names \(platform)")
        }
    }

    /// A watch app's own `MinimumOSVersion` is a watchOS version, not an iOS one.
    @Test func aWatchAppsMinimumOSVersionIsWatchOS() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(("<plist><dict><key>WKApplication</key><true/><key>MinimumOSVersion</key><string>9.0</string>"
            + "<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict></dict></plist>\n").utf8)
            .write(to: root.appendingPathComponent("Info.plist"))
        let lint = try tool(["lint", "--no-config", "Info.plist"], in: root).text
        #expect(lint.contains("all loads on watchOS 9.0+ (NSAllowsArbitraryLoads"), "\(lint)")
        let explain = try tool(["explain", "Info.plist"], in: root).text
        #expect(explain.contains("deployment target watchos9.0") && explain.contains("watchOS 7–9") && !explain.contains("iOS"), "\(explain)")
    }
}

/// How the tests spell a platform of `--min-os`.
enum DeploymentTargetNames {
    static func name(of item: String) -> String {
        let platform = item.prefix { $0.isLetter }
        return ["ios": "iOS", "macos": "macOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS"][String(platform)] ?? String(platform)
    }
}
