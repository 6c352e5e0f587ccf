import Testing
@testable import ATSPolicy
import PlistDOM

/// How a host name is classified: Apple's NSAllowsLocalNetworking page calls unqualified
/// names, `.local` names and IP addresses local.
@Suite struct HostTests {
    @Test(arguments: [
        ("printer.local", "printer.local", true, false),
        ("printer.local.", "printer.local.", true, false),
        ("PRINTER.Local", "printer.local", true, false),
        ("localhost", "localhost", true, false),
        ("mylocal", "mylocal", true, false),
        ("example.com", "example.com", false, false),
        ("Example.COM", "example.com", false, false),
        ("example.localx", "example.localx", false, false),
        ("a.local.com", "a.local.com", false, false),
        ("local", "local", true, false),
        ("192.168.0.10", "192.168.0.10", true, true),
        ("::1", "::1", true, true),
        ("FE80::1", "fe80::1", true, true),
        ("ÉXAMPLE.com", "éxample.com", false, false),
        ("cafe.de", "cafe.de", false, false),
    ])
    func classifiesAndLowercases(name: String, lowered: String, isLocal: Bool, isIPAddress: Bool) {
        let host = Host(name)
        #expect(host.name == lowered)
        #expect(host.isLocal == isLocal)
        #expect(host.isIPAddress == isIPAddress)
    }

    /// Hosts compare and hash by name alone; what else a host holds follows from it.
    @Test func equalNamesAreEqualHosts() {
        #expect(Host("Example.COM") == Host("example.com"))
        #expect(Set([Host("a.example"), Host("A.EXAMPLE"), Host("b.example")]).count == 2)
        #expect(Host("::1") != Host("0:0:0:0:0:0:0:1"), "names, not addresses, as before")
    }

    /// The host a domain key means (scheme, `*.`, path and port stripped, lowercased), checked
    /// against the same steps written with Unicode `lowercased()` and slices.
    @Test func meantHostMatchesTheReference() {
        func reference(_ key: String) -> String {
            var name = Array(key.lowercased().utf8)[...]
            let scheme = Array("://".utf8)
            if let start = name.indices.first(where: { name[$0...].starts(with: scheme) }) { name = name[(start + 3)...] }
            if name.starts(with: Array("*.".utf8)) { name = name.dropFirst(2) }
            if let slash = name.firstIndex(of: UInt8(ascii: "/")) { name = name[..<slash] }
            if name.filter({ $0 == UInt8(ascii: ":") }).count == 1, let colon = name.firstIndex(of: UInt8(ascii: ":")) { name = name[..<colon] }
            return String(decoding: name, as: UTF8.self)
        }
        let pieces = ["https://", "HTTP://", "*.", "Example", ".COM", "api", ":8443", "/path", "ÉCOLE", "::1", ":", "/", "://", "a:b://c", "ß"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let key = (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(PolicyReach.hostName(ofDomainKey: key) == reference(key), "\(key)")
        }
    }

    /// A key matches only when it is lowercase: checked against the rule as Unicode states it
    /// (`key == key.lowercased()`) over keys of every case, ASCII or not.
    @Test func aKeyMatchesOnlyWhenItIsLowercase() {
        let pieces = ["api", "API", "Example", ".com", ".COM", "école", "ÉCOLE", "ß", "straße", "İ", "10.0.0.1", "::1", "-", "x9"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let key = (0..<Int.random(in: 1...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            if key != key.lowercased() {
                #expect(ATSConfiguration.matcher(for: key) == .nothing, "\(key)")
            } else if HostNameKey.canMatch(key), IPAddress(key) == nil {
                #expect(ATSConfiguration.matcher(for: key) == .name, "\(key)")
            }
        }
    }
}

/// `--host` never fails open: every form a resolver reads as an IPv4 address is
/// read as that address, with a note, or refused; it is never taken for an unqualified name.
@Suite struct HostInputNumericTests {
    @Test(arguments: [
        ("2130706433", "127.0.0.1"), ("0x7f000001", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"),
        ("10.0x10.1", "10.16.0.1"), ("192.168.1.010", "192.168.1.8"),
    ])
    func numericFormsAreReadAsTheResolverReadsThem(_ text: String, _ quad: String) throws {
        let input = try #require(HostInput(text))
        #expect(input.host == quad)
        #expect(input.notes.first?.hasPrefix("\(text) is read as the IPv4 address \(quad)") == true)
    }

    @Test func theOctalPartIsNamed() {
        #expect(HostInput("192.168.1.010")?.notes == ["192.168.1.010 is read as the IPv4 address 192.168.1.8, as the system's resolver reads it (a part with a leading 0 is octal)"])
    }

    @Test(arguments: ["999.1.1.1", "1.2.3.4.5", "4294967296", "0x1ffffffff", "1.2.3.0x100", "08.1.1.1"])
    func numbersThatAreNoAddressAreRefused(_ text: String) {
        #expect(HostInput(text) == nil)
    }

    @Test func plainFormsAreUnchanged() {
        #expect(HostInput("127.0.0.1") == HostInput(host: "127.0.0.1", notes: []))
        #expect(HostInput("api.example.com")?.host == "api.example.com")
        #expect(HostInput("1password.com")?.host == "1password.com", "a numeric first label is a name")
    }

    @Test func aDecimalAddressDecidesAsItsDottedQuad() throws {
        let config = ATSConfiguration(document: try PlistDocument(parsing: Array("<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsLocalNetworking</key><true/></dict></dict></plist>".utf8)))
        let decider = PolicyEngine.Decider(config)
        let numeric = decider.decide(era: .ios17, host: Host(try #require(HostInput("2130706433")).host), kinds: LoadKind.allCases)
        let dotted = decider.decide(era: .ios17, host: Host("127.0.0.1"), kinds: LoadKind.allCases)
        #expect(numeric == dotted)
    }
}

/// Exception keys that match nothing say so: uppercase, zone-bearing or invalid
/// IP keys and internationalised names.
@Suite struct ExceptionKeyCheckTests {
    @Test(arguments: [
        ("2001:DB8::1", "has capital letters"), ("172.16.0.0/33", "has no valid prefix length (0–32"),
        ("2001:db8::/129", "has no valid prefix length (0–128"), ("fe80::1%en0", "carries a zone index"),
        ("bücher.de", "is an internationalised name"), ("300.1.1.1", "is not a valid IP address"), ("10.0.0.0/x", "no valid prefix"),
        // What Apple's reader makes of a range, and keys no host can match.
        ("10.0.0.0/08", "read by Apple's reader as prefix 0, not 8"), ("255.255.255.255/32", "not a range Apple's reader accepts"),
        ("10.0.0./8", "not a range Apple's reader accepts"), ("example.com ", "holds white space"),
        (".example.com", "starts with a dot"), ("exa%6dple.com", "holds %"), ("127.0.0.1.", "an address with a trailing dot"),
        ("[::1]", "written in brackets"),
    ])
    func keysThatMatchNothingAreNamed(_ key: String, _ message: String) {
        #expect(ExceptionKeyCheck.problem(key)?.contains(message) == true, "\(String(describing: ExceptionKeyCheck.problem(key)))")
    }

    @Test(arguments: ["2001:db8::/32", "172.16.0.0/12", "10.0.0.1", "example.com", "xn--bcher-kva.de", "localhost",
                      "2001:DB8::/32", "10/8", "2001:db8/32", "example.com.", "a&b.example.com"])
    func validKeysHaveNone(_ key: String) {
        #expect(ExceptionKeyCheck.problem(key) == nil)
    }
}

extension ExceptionKeyCheckTests {
    /// Found over the corpus: a URL or host:port key is not an address key (the engine's own
    /// open question covers it).
    @Test(arguments: ["http://www.example.com/images/logo.png", "http://api.example.com", "example.com:8080"])
    func urlsAndPortsAreNotAddressKeys(_ key: String) {
        #expect(ExceptionKeyCheck.problem(key) == nil)
    }
}

@Suite struct DeploymentTargetReachTests {
    @Test func aTargetReachesARequirementOnTheSharedPlatformsOnly() throws {
        func target(_ text: String) throws -> DeploymentTarget { try #require(DeploymentTarget(text, source: "")) }
        #expect(try target("ios15").reaches(try target("ios13")))
        #expect(try target("ios13.0").reaches(try target("ios13")))
        #expect(!(try target("ios12.4").reaches(try target("ios13"))))
        #expect(!(try target("macos12").reaches(try target("ios13"))), "no shared platform")
        #expect(!(try target("ios15,macos10.15").reaches(try target("ios13,macos11"))))
    }
}

/// A host's text as given, read as Apple's reader looks it up (SecProtocolConfiguration.m): by
/// its text for names and address keys, by `inet_pton` for ranges. The tool's reading may be
/// more permissive; both are kept.
@Suite struct HostAsWrittenTests {
    @Test(arguments: [
        ("::ffff:192.168.1.5", "192.168.1.5"), ("API.Shop.IO", "api.shop.io"), ("10.0.0.7.", "10.0.0.7"),
        ("2001:DB8::1", "2001:db8::1"), ("2001:db8:0::1", "2001:db8:0::1"), ("127.1", "127.0.0.1"),
    ])
    func theTextAsGivenIsKeptBesideTheReadingHere(_ text: String, _ readHere: String) throws {
        let input = try #require(HostInput(text))
        #expect(input.host == readHere && input.asWritten == text && input.isReadDifferently)
    }

    @Test(arguments: ["api.shop.io", "192.168.1.5", "2001:db8::1", "https://api.example.com:8443/x", "[2001:db8::1]:443", "example.com:80"])
    func aHostReadAlikeHasOneReading(_ text: String) throws {
        #expect(try #require(HostInput(text)).isReadDifferently == false, "\(text)")
    }

    @Test func theReadersAddressFamilyAndTextDecide() throws {
        let range = try #require(IPAddress("192.168.1.0"))
        #expect(Host(try #require(HostInput("::ffff:192.168.1.5")).host).address?.isIn(range, prefix: 24) == true, "read here as the IPv4 address it maps")
        #expect(Host(asWritten: "::ffff:192.168.1.5").address?.isIn(range, prefix: 24) == false, "inet_pton reads it as IPv6")
        #expect(Host(asWritten: "2001:DB8::1").isIPAddress, "inet_pton reads hex in either case, for ranges")
        #expect(Host(asWritten: "2001:DB8::1").isNamedExactly(byAddressKey: "2001:db8::1") == false, "an address key is looked up by its text")
        #expect(Host("2001:db8:0::1").isNamedExactly(byAddressKey: "2001:db8::1"))
        #expect(Host(asWritten: "10.0.0.7.").isIPAddress == false && Host(asWritten: "10.0.0.7.").isLocal == false)
        #expect(Host(asWritten: "192.168.1.010").isIPAddress == false, "inet_pton takes no leading zero")
        #expect(Host(asWritten: "API.Shop.IO").name == "API.Shop.IO" && Host(asWritten: "api.shop.io") != Host("api.shop.io"))
    }
}
