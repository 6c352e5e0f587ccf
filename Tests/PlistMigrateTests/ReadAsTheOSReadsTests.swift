import Foundation
import Testing
@testable import PlistMigrate
import ATSPolicy

/// ATS read as the OS reads it. Where Apple's pages are silent, the reference is
/// Apple's reader (apple-oss-distributions/Security, `protocol/SecProtocolConfiguration.m`).
/// Each case goes through the command line: the plist, `explain`'s verdict for one host, and the
/// posture finding `lint` makes of it; the two must agree.
@Suite struct ReadAsTheOSReadsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var ats: String
        var host: String
        /// explain's verdict on iOS 17 for URLSession loads.
        var httpAllowed: Bool
        var forwardSecrecy: Bool? = nil
        /// The posture rule lint must report (nil: none may be).
        var posture: String?
        /// Words explain's basis lines must hold.
        var basis: String? = nil
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "an integer 1 is YES", ats: "<key>NSAllowsArbitraryLoads</key><integer>1</integer>", host: "example.com",
             httpAllowed: true, posture: "P001", basis: "integer 1, read as YES by Apple's reader: SecProtocolConfiguration.m"),
        Case(name: "a real 1.0 is YES", ats: "<key>NSAllowsArbitraryLoads</key><real>1.0</real>", host: "example.com",
             httpAllowed: true, posture: "P001", basis: "real 1.0, read as YES"),
        Case(name: "an integer 0 is NO", ats: "<key>NSAllowsArbitraryLoads</key><integer>0</integer>", host: "example.com",
             httpAllowed: false, posture: nil),
        Case(name: "a domain's integer 1 allows HTTP",
             ats: "<key>NSExceptionDomains</key><dict><key>example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><integer>1</integer></dict></dict>",
             host: "example.com", httpAllowed: true, posture: "P002"),
        Case(name: "a domain's integer 0 drops forward secrecy",
             ats: "<key>NSExceptionDomains</key><dict><key>example.com</key><dict><key>NSExceptionRequiresForwardSecrecy</key><integer>0</integer></dict></dict>",
             host: "example.com", httpAllowed: false, forwardSecrecy: false, posture: "P003"),
        Case(name: "10/8 is 10.0.0.0/8",
             ats: "<key>NSExceptionDomains</key><dict><key>10/8</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
             host: "10.9.8.7", httpAllowed: true, posture: "P002"),
        Case(name: "2001:db8/32 gets its ::",
             ats: "<key>NSExceptionDomains</key><dict><key>2001:db8/32</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
             host: "2001:db8::5", httpAllowed: true, posture: "P002"),
        Case(name: "capital hex in a range",
             ats: "<key>NSExceptionDomains</key><dict><key>2001:DB8::/32</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
             host: "2001:db8::5", httpAllowed: true, posture: "P002"),
        Case(name: "/08 is prefix 0: every IPv4 address",
             ats: "<key>NSExceptionDomains</key><dict><key>10.0.0.0/08</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
             host: "8.8.8.8", httpAllowed: true, posture: "P002"),
        Case(name: "an entry that is no dict is skipped: the global key applies",
             ats: "<key>NSAllowsArbitraryLoads</key><true/><key>NSExceptionDomains</key><dict><key>example.com</key><true/></dict>",
             host: "example.com", httpAllowed: true, posture: "P001", basis: "Apple's reader skips such an entry"),
        Case(name: "a string InWebContent cancels nothing",
             ats: "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><string>YES</string>",
             host: "example.com", httpAllowed: true, posture: "P001", basis: "not read: it holds a string"),
        Case(name: "subdomains at any depth",
             ats: "<key>NSExceptionDomains</key><dict><key>example.com</key><dict><key>NSIncludesSubdomains</key><true/>"
                + "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
             host: "a.b.example.com", httpAllowed: true, posture: "P002"),
        Case(name: "a duplicate key: the last copy is read",
             ats: "<key>NSAllowsArbitraryLoads</key><false/><key>NSAllowsArbitraryLoads</key><true/>", host: "example.com",
             httpAllowed: true, posture: "P001"),
    ] + ["example.com ", ".example.com", "exa%6dple.com", "bücher.de", "127.0.0.1.", "[::1]"].map { key in
        Case(name: "\(key.debugDescription) matches no host",
             ats: "<key>NSExceptionDomains</key><dict><key>\(key)</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict>",
             host: "example.com", httpAllowed: false, posture: nil)
    }

    static func plist(_ ats: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>MinimumOSVersion</key><string>17.0</string>\n"
            + "<key>NSAppTransportSecurity</key>\n<dict>\(ats)</dict>\n</dict>\n</plist>\n"
    }

    @Test(arguments: cases)
    func explainAndPostureAgree(_ item: Case) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.plist(item.ats).utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let explain = try tool(["explain", "Info.plist", "--host", item.host, "--os", "ios17", "--kind", "urlSession", "--format", "json"],
                               in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: explain.stdout) as? [String: Any], "\(explain.stderr)")
        let decision = try #require(((json["rows"] as? [[String: Any]])?.first)?["decision"] as? [String: Any])
        #expect(decision["httpAllowed"] as? Bool == item.httpAllowed, "\(decision)")
        if let secrecy = item.forwardSecrecy { #expect(decision["requiresForwardSecrecy"] as? Bool == secrecy) }
        if let basis = item.basis {
            let rules = ((decision["decidedBy"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }
            #expect(rules.contains { $0.contains(basis) }, "\(rules)")
        }
        let lint = try tool(["lint", "--no-config", "--rules", "posture", "Info.plist"], in: directory)
        let rules = lint.text.split(separator: "\n").compactMap { line in line.firstRange(of: "[P").map { String(line[$0.lowerBound...].dropFirst().prefix(4)) } }
        if let posture = item.posture {
            #expect(rules.contains(posture), "\(lint.text)")
        } else {
            #expect(!rules.contains { $0 == "P001" || $0 == "P002" || $0 == "P003" }, "\(lint.text)")
        }
    }

    /// A duplicate key never silences the audit. The corpus shape: NSAppTransportSecurity
    /// declared twice, the last copy turning ATS off.
    @Test func aDuplicateATSDictIsStillAudited() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            <key>NSAppTransportSecurity</key>
            <dict><key>NSAllowsArbitraryLoads</key><false/></dict>
            <key>NSAppTransportSecurity</key>
            <dict><key>NSAllowsArbitraryLoads</key><true/></dict>
            </dict>
            </plist>

            """
        try Data(text.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let posture = try tool(["lint", "--no-config", "--rules", "posture", "Info.plist"], in: directory)
        #expect(posture.status == 1 && posture.text.contains("[P001] plain HTTP is allowed to every host without an exception"), "\(posture.text)")
        let all = try tool(["lint", "--no-config", "Info.plist"], in: directory)
        #expect(all.text.contains("[L008]") && all.text.contains("[P001]"), "\(all.text)")
        let explain = try tool(["explain", "Info.plist", "--host", "example.com", "--os", "ios17", "--kind", "urlSession"], in: directory)
        #expect(explain.text.contains("HTTP allowed"), "\(explain.text)")
        // The migrations still leave such a file alone.
        let migrate = try tool(["Info.plist", "--write"], in: directory)
        #expect(try Data(contentsOf: directory.appendingPathComponent("Info.plist")) == Data(text.utf8), "\(migrate.text)")
    }

    /// ATS010 does not drop NSAllowsArbitraryLoads beside a later key the reader does not read.
    @Test func anUnreadLaterKeyDoesNotMakeArbitraryLoadsIgnorable() throws {
        let bytes = Array(Self.plist("<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><string>YES</string>").utf8)
        let findings = Linter.lint(bytes, path: "Info.plist")
        #expect(!findings.contains { $0.ruleID == "ATS010" }, "\(findings.map(\.text))")
        #expect(findings.contains { $0.ruleID == "L005" && $0.message.contains("ATS is off for every host") })
    }
}

/// `--host` read as a URL loader reads it.
@Suite struct HostAsALoaderReadsItTests {
    @Test(arguments: [("127.0.0.1.", "127.0.0.1"), ("2130706433.", "127.0.0.1"), ("127.1.", "127.0.0.1"),
                      ("http://example.com\\@evil.com/", "example.com"), ("::ffff:127.0.0.1", "127.0.0.1"),
                      ("[::ffff:127.0.0.1]:8080", "127.0.0.1"), ("https://[2001:db8::1]:443/x", "2001:db8::1"), ("example.com.", "example.com.")])
    func readAsTheLoaderReadsIt(_ text: String, _ host: String) throws {
        #expect(try #require(HostInput(text), "\(text)").host == host)
    }

    @Test(arguments: ["[example.com]", "example.com:99999999", "example.com:65536", "[::1]:99999", "[::1]x"])
    func refused(_ text: String) {
        #expect(HostInput(text) == nil, "\(text)")
    }

    @Test func theTrailingDotLoopbackIsLocal() throws {
        let host = Host(try #require(HostInput("127.0.0.1.")).host)
        #expect(host.isLocal && host.isIPAddress && host.isPrivateAddress)
    }
}
