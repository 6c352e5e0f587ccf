import Foundation
import Testing
@testable import PlistMigrate
import ATSPolicy

@Suite struct ExplainTests {
    @Test func explainWorksOnEveryATSFileOfTheCorpus() throws {
        var explained = 0
        for set in ["real", "wild"] {
            let folder = Paths.corpus.appendingPathComponent(set)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".plist") {
                let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
                guard bytes.containsBytes(Array("NSAppTransportSecurity".utf8)) else { continue }
                do {
                    let report = try Explainer().explain(bytes, path: name)
                    // Three host classes at least, three kinds, and every era the deployment target supports.
                    let eras = report.deploymentTarget.flatMap { DeploymentTarget($0, source: "")?.supportedEras.count } ?? OSEra.allCases.count
                    #expect(report.rows.count >= 3 * eras * 3, "\(name)")
                    #expect(Set(report.rows.map(\.os)).count == eras, "\(name)")
                    #expect(!Explainer().text(report).isEmpty)
                    explained += 1
                } catch {
                    // Malformed corpus files are refused by the parser, never by explain itself.
                    #expect(error.location.line >= 1, "\(name)")
                }
            }
        }
        print("explain: \(explained) corpus files with an ATS dict explained")
        #expect(explained > 200)
    }

    @Test func explainCLITableAndHost() throws {
        let table = try tool(["explain", "Fixtures/demo/ShopApp-Dev/Info.plist"], in: Paths.repository)
        #expect(table.status == 0)
        let row = table.text.split(separator: "\n").first { $0.hasPrefix("any other host") && $0.contains("iOS 9/macOS 10.11") }
        #expect(row?.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            == ["any", "other", "host", "iOS", "9/macOS", "10.11", "allowed/allowed/allowed", "-", "no", "no", "-"])
        let host = try tool(["explain", "Fixtures/demo/ShopApp-Dev/Info.plist", "--host", "api.example.com", "--os", "ios16", "--kind", "urlSession"], in: Paths.repository)
        #expect(host.text.contains("iOS 14–16/macOS 11–13, urlSession: HTTP allowed"))
        #expect(host.text.contains("because NSAllowsArbitraryLoads (line 9): turns ATS off"))
        let json = try tool(["explain", "Fixtures/demo/ShopApp/Info.plist", "--format", "json", "--os", "ios17"], in: Paths.repository)
        let report = try JSONDecoder().decode(Explainer.Report.self, from: json.stdout)
        #expect(report.rows.allSatisfy { $0.os == "iOS 17+/macOS 14+" })
        let bad = try tool(["explain", "Fixtures/errors/mismatched-tag.plist"], in: Paths.repository)
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Fixtures/errors/mismatched-tag.plist:7:9: error: "))
        let badOS = try tool(["explain", "Fixtures/demo/ShopApp/Info.plist", "--os", "android"], in: Paths.repository)
        #expect(badOS.status == 64)
    }
}

extension ExplainTests {
    /// Output a program can rely on: a schema version, every field present, and a
    /// malformed host refused instead of answered.
    @Test func explainJSONSaysEveryFieldAndRefusesMalformedHosts() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict></dict></plist>"
            .write(to: directory.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        let json = try tool(["explain", "Info.plist", "--host", "https://api.example.com:8443/x", "--os", "ios16", "--format", "json"], in: directory)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(report["schemaVersion"] as? Int == 1)
        #expect((report["hostNotes"] as? [String])?.first == "https://api.example.com:8443/x is a URL: its host is explained")
        let decision = try #require(((report["rows"] as? [[String: Any]])?.first)?["decision"] as? [String: Any])
        #expect(decision.keys.contains("minimumTLS") && decision["minimumTLS"] is NSNull, "null, not absent")
        #expect(decision["atsApplies"] as? Bool == false)
        for bad in ["not a host!", "example.com:http"] {
            let refused = try tool(["explain", "Info.plist", "--host", bad], in: directory)
            #expect(refused.status == 64, "\(bad)")
            #expect(refused.stdout.isEmpty)
        }
    }
}

extension ExplainTests {
    @Test func explainReadsStandardInput() throws {
        let bytes = try Data(contentsOf: Paths.fixtures.appendingPathComponent("demo/ShopApp-Dev/Info.plist"))
        let result = try tool(["explain", "-", "--stdin-path", "App/Info.plist", "--os", "ios16", "--host", "example.com", "--kind", "urlSession"],
                              in: FileManager.default.temporaryDirectory, input: bytes)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.hasPrefix("App/Info.plist\n"))
        #expect(result.text.contains("because NSAllowsArbitraryLoads (line 9): turns ATS off"))
    }
}

/// A host `explain` cannot read as ATS does is refused or read with a note.
@Suite struct ExplainHostInputTests {
    @Test func anInternationalisedNameAsksForItsPunycode() throws {
        let result = try tool(["explain", "Fixtures/project/App/Info.plist", "--host", "bücher.de"], in: Paths.repository)
        #expect(result.status == 64 && result.stderr.contains("give its punycode form (xn--…)"), "\(result.stderr)")
    }

    @Test func aDecimalAddressIsExplainedAsItsDottedQuad() throws {
        let numeric = try tool(["explain", "Fixtures/project/App/Info.plist", "--host", "2130706433"], in: Paths.repository)
        let dotted = try tool(["explain", "Fixtures/project/App/Info.plist", "--host", "127.0.0.1"], in: Paths.repository)
        #expect(numeric.status == 0 && (numeric.text + numeric.stderr).contains("2130706433 is read as the IPv4 address 127.0.0.1"))
        let withoutNote = numeric.text.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.contains("is read as") && !$0.contains("looking 2130706433 up as written, answers as for 127.0.0.1")
        }
        #expect(withoutNote == dotted.text.split(separator: "\n", omittingEmptySubsequences: false), "\(numeric.text)")
        #expect(dotted.text.contains("HTTP blocked") || dotted.text.contains("HTTP allowed"))
    }
}

extension ExplainHostInputTests {
    @Test func keysThatMatchNothingAreAnOpenQuestionAndAFinding() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = """
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>
            <key>2001:DB8::1</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            <key>172.16.0.0/33</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            </dict></dict></dict></plist>

            """
        try Data(plist.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let explain = try tool(["explain", "Info.plist", "--format", "json"], in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: explain.stdout) as? [String: Any])
        let questions = try #require(json["openQuestions"] as? [String])
        #expect(questions.contains("NSExceptionDomains › 2001:DB8::1 has capital letters: ATS matches keys as written in lowercase, so this key matches nothing; write it in lowercase"))
        #expect(questions.contains { $0.hasPrefix("NSExceptionDomains › 172.16.0.0/33 has no valid prefix length") })
        let lint = try tool(["lint", "--no-config", "Info.plist"], in: directory)
        #expect(lint.text.contains("Info.plist:3:1: warning: [L004] 172.16.0.0/33 has no valid prefix length"), "\(lint.text)")
        #expect(!lint.text.contains("172.16.0.0/33 is an IP address: valid"))
    }
}

/// Apple's built-in exceptions (apple.com and six more, from Apple's open reader)
/// are among `explain`'s reasons, and an app entry of the same name replaces them.
@Suite struct BuiltInExceptionExplainTests {
    @Test func explainNamesTheBuiltInExceptionThatDecides() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = "<plist version=\"1.0\"><dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><false/></dict></dict></plist>\n"
        try Data(plain.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let builtIn = try tool(["explain", "Info.plist", "--host", "maps.apple.com", "--os", "ios17", "--kind", "urlSession"], in: directory)
        #expect(builtIn.status == 0, "\(builtIn.stderr)")
        #expect(builtIn.text.contains("HTTP allowed") && builtIn.text.contains("Apple's built-in exception for apple.com"), "\(builtIn.text)")
        let replaced = plain.replacingOccurrences(of: "<false/>", with: "<false/><key>NSExceptionDomains</key><dict><key>apple.com</key>"
            + "<dict><key>NSIncludesSubdomains</key><true/></dict></dict>")
        try Data(replaced.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let own = try tool(["explain", "Info.plist", "--host", "maps.apple.com", "--os", "ios17", "--kind", "urlSession"], in: directory)
        #expect(own.text.contains("HTTP blocked") && !own.text.contains("built-in exception"), "\(own.text)")
    }
}

/// Where this tool reads a host's text otherwise than Apple's reader looks it up (an
/// IPv4-mapped address, capitals, a trailing dot, another spelling of an address), `explain`
/// gives both readings and names the reader's answer: never the more permissive one alone.
@Suite struct ExplainBothReadingsTests {
    static let plist = """
        <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>
        <key>192.168.1.0/24</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
        <key>api.shop.io</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
        <key>10.0.0.7</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
        <key>2001:db8::1</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
        </dict></dict></dict></plist>

        """

    @Test(arguments: ["::ffff:192.168.1.5", "API.Shop.IO", "10.0.0.7.", "2001:DB8::1", "2001:db8:0::1"])
    func theReadersAnswerIsGivenBesideThisToolsReading(_ host: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.plist.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let arguments = ["explain", "Info.plist", "--host", host, "--os", "ios17", "--kind", "urlSession"]
        let text = try tool(arguments, in: directory)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.text.contains("Looked up as written, the reader answers otherwise: iOS 17+/macOS 14+ urlSession: HTTP blocked"), "\(text.text)")
        #expect(text.text.contains("If Apple's reader looks the host up as written") && text.text.contains("\(host), iOS 17+/macOS 14+, urlSession: HTTP blocked"))
        let json = try tool(arguments + ["--format", "json"], in: directory)
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let rows = try #require(report["rows"] as? [[String: Any]])
        #expect((rows.first?["decision"] as? [String: Any])?["httpAllowed"] as? Bool == true, "this tool's reading: the exception applies")
        let asWritten = try #require(report["rowsAsWritten"] as? [[String: Any]], "\(json.text)")
        #expect(asWritten.count == 1 && asWritten.first?["host"] as? String == host)
        #expect((asWritten.first?["decision"] as? [String: Any])?["httpAllowed"] as? Bool == false, "the reader's reading: TLS required")
    }

    @Test(arguments: ["192.168.1.5", "api.shop.io", "2001:db8::1", "http://api.shop.io:8080/x"])
    func aHostReadAlikeHasOneAnswer(_ host: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.plist.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let json = try tool(["explain", "Info.plist", "--host", host, "--os", "ios17", "--format", "json"], in: directory)
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(report["rowsAsWritten"] == nil && !json.text.contains("as written"), "\(json.text)")
    }

    @Test func aTextReadOtherwiseWithTheSameAnswerSaysSo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.plist.utf8).write(to: directory.appendingPathComponent("Info.plist"))
        let result = try tool(["explain", "Info.plist", "--host", "WWW.Example.COM", "--os", "ios17"], in: directory)
        #expect(result.text.contains("note: Apple's reader, looking WWW.Example.COM up as written, answers as for www.example.com"), "\(result.text)")
        #expect(!result.text.contains("If Apple's reader looks the host up as written"))
    }
}
