import Testing
@testable import ATSPolicy

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
}
