#!/usr/bin/env python3
"""Writes Fixtures/engine/apple-reader.tsv: the expectations of Apple's own tests of its ATS
reader, one row each, in the columns of decisions.tsv.

Source: apple-oss-distributions/Security, protocol/SecProtocolConfigurationTest.m. Each test's
dictionary is written here as the body of an NSAppTransportSecurity dict, and each of its
calls (runATSExceptionTestForHostname / runGlobalKeysTestForHostname) as a row: HTTP is
"allowed" where Apple expects atsRequired false; the minimum TLS is Apple's minTLSVersion
("none" for 0); forward secrecy is "required" where Apple expects cipher suites to be set
(forwardSecrecyRequired, or ATS required). Apple's tests say nothing of Certificate
Transparency: "*" (not compared). The os is ios17, the newest era, where address keys are read.

The reader's caller says whether a connection is "direct" (is_direct). Apple's tests pass
localhost, .local names, 127.0.0.1, ::1 and fe80::1 as direct. For names that changes nothing
here (ATS does not apply to them). For an IP address, no load kind of the engine is a direct
connection: a row where being direct is what lets plain HTTP through has kind "direct", and
the test asks that the engine says so as an open question instead of agreeing.

testExampleATSDictionaries runs testExampleFile over the repository's protocol/test_data/*.json
(builtins.json, example1.json): for every exception domain of the file, ATS is required exactly
when the entry does not allow HTTP, the minimum TLS is the entry's (TLSv1.2 by default), and
forward secrecy is required where the entry asks for it or ATS is required; `.local` domains
are passed as direct. It builds them as a first-party bundle, whose insecure defaults the
entries override; only the entries' hosts are checked, so the rows hold for an app too.

Not ported, with why: testAppleBundleExceptionWithNoATSKey (Apple's own bundles with no ATS
dictionary, never an app), test_sec_protocol_configuration_protocol_string_to_version (string
parsing; the TLS strings it accepts are the documented ones, checked by
testMinTLSVersionDisallowedStrings here).

Run: python3 Tests/oracle/apple_reader_table.py > Fixtures/engine/apple-reader.tsv
"""

TEST_FILE = "SecProtocolConfigurationTest.m"


def b(value):
    return "<true/>" if value else "<false/>"


def entry(domain, **keys):
    names = {"http": "NSExceptionAllowsInsecureHTTPLoads", "tls": "NSExceptionMinimumTLSVersion",
             "fs": "NSExceptionRequiresForwardSecrecy", "sub": "NSIncludesSubdomains"}
    inner = ""
    for key, value in keys.items():
        if isinstance(value, bool):
            inner += f"<key>{names[key]}</key>{b(value)}"
        else:
            inner += f"<key>{names[key]}</key>{value}"
    return f"<key>{domain}</key><dict>{inner}</dict>"


def domains(*entries):
    return "<key>NSExceptionDomains</key><dict>" + "".join(entries) + "</dict>"


def s(text):
    return f"<string>{text}</string>"


ROWS = []


def case(test, body, host, required, tls, fs, direct=False, address=False):
    kind = "direct" if direct and address and not required else "urlSession"
    fields = ["blocked" if required else "allowed", tls or "none", "required" if (fs or required) else "not", "*"]
    ROWS.append((body, host, kind, fields, test, direct))


def exception_test(test, body, expectations):
    for host, required, tls, fs, *rest in expectations:
        direct = bool(rest and rest[0])
        case(test, body, host, required, tls, fs, direct=direct, address=host[0].isdigit() or ":" in host)


BUILT_IN = [("apple.com", False, "TLSv1.2", False), ("csd4.apple.com", False, "TLSv1.2", False),
            ("setup.icloud.com", False, "TLSv1.2", False), ("ls.apple.com", False, "TLSv1.0", False),
            ("gs.apple.com", False, "TLSv1.0", False), ("geo.apple.com", False, "TLSv1.0", False),
            ("is.autonavi.com", False, "TLSv1.0", False), ("apple-mapkit.com", False, "TLSv1.0", False)]

exception_test("testExceptionRaisesSecurityRequirements",
               "<key>NSAllowsArbitraryLoads</key><true/>" + domains(
                   entry("neverssl.com", http=False, tls=s("TLSv1.3"), fs=True),
                   entry("google.com", http=True, tls=s("TLSv1.3"), fs=True),
                   entry("youtube.com", fs=True),
                   entry("myhost.local", http=False, fs=True)),
               [("example.com", False, None, False), ("neverssl.com", True, "TLSv1.3", True),
                ("google.com", False, "TLSv1.3", True), ("youtube.com", True, "TLSv1.2", True),
                ("myhost.local", True, "TLSv1.2", True, True)] + BUILT_IN)

exception_test("testBuiltInExceptions", "<key>NSAllowsArbitraryLoads</key><false/>",
               [("example.com", True, "TLSv1.2", True), ("neverssl.com", True, "TLSv1.2", True),
                ("myhost.local", False, None, False, True)] + BUILT_IN)

exception_test("testExceptionOverridesBuiltInException",
               "<key>NSAllowsArbitraryLoads</key><false/>" + domains(
                   entry("neverssl.com", http=False, tls=s("TLSv1.3"), fs=True),
                   entry("apple.com", http=False, tls=s("TLSv1.3"), sub=False, fs=True),
                   entry("setup.icloud.com", http=False, tls=s("TLSv1.3"))),
               [("example.com", True, "TLSv1.2", True), ("neverssl.com", True, "TLSv1.3", True),
                ("google.com", True, "TLSv1.2", True), ("youtube.com", True, "TLSv1.2", True),
                ("myhost.local", False, None, False, True),
                ("apple.com", True, "TLSv1.3", True), ("csd4.apple.com", True, "TLSv1.2", True),
                ("setup.icloud.com", True, "TLSv1.3", True), ("test.setup.icloud.com", True, "TLSv1.2", True)]
               + BUILT_IN[3:])

exception_test("testInvalidATSDictionary",
               "<key>NSAllowsArbitraryLoads</key><string>YES</string>" + domains(
                   "<key>invalid.exception.com</key><string></string>",
                   entry("neverssl.com", http=s("YES"), tls="<integer>13</integer>", fs=s("NO"))),
               [("example.com", True, "TLSv1.2", True), ("neverssl.com", True, "TLSv1.2", True),
                ("google.com", True, "TLSv1.2", True), ("youtube.com", True, "TLSv1.2", True),
                ("myhost.local", False, None, False, True), ("invalid.exception.com", True, "TLSv1.2", True)])

exception_test("testIncludesSubdomains",
               domains(entry("example.com", http=True, sub=True),
                       entry("subhostname.example.com", http=False, sub=False, tls=s("TLSv1.3")),
                       entry("another.subhostname.example.com", http=False, tls=s("TLSv1.1"))),
               [("example.com", False, "TLSv1.2", True), ("subhostname.example.com", True, "TLSv1.3", True),
                ("another.subhostname.example.com", True, "TLSv1.1", True),
                ("test.another.subhostname.example.com", False, "TLSv1.2", True)])

CIDR_FIRST = domains(entry("example.com", http=True), entry("198.51.100.0/24", http=True),
                     entry("198.51.100.0/27", http=False), entry("198.51.100.1", http=True),
                     entry("198.51.100.101", http=False), entry("2001:db8::/32", http=True),
                     entry("2001:db8::/64", http=False))
exception_test("testCIDRExceptions", CIDR_FIRST,
               [("localhost", False, None, False, True), ("myhost.local", False, None, False, True),
                ("127.0.0.1", False, None, False, True), ("::1", False, None, False, True),
                ("example.com", False, "TLSv1.2", True), ("google.com", True, "TLSv1.2", True)]
               + [(h, False, "TLSv1.2", True) for h in ["198.51.100.1", "198.51.100.100", "198.51.100.255",
                                                         "2001:db8:85a3::8a2e:370:7334"]]
               + [(h, True, "TLSv1.2", True) for h in ["1.1.1.1", "198.51.100.0", "198.51.100.101", "198.51.101.0",
                                                        "203.0.113.0", "255.255.255.0", "fe00::", "2001:db8::8a2e:370:7334",
                                                        "2001:db80:0000:0000:0000:0000:0000:0000"]])
CIDR_SECOND = domains(entry("::/0", http=True), entry("::/1", http=False), entry("0.0.0.0/0", http=True),
                      entry("0.0.0.0/1", http=False))
exception_test("testCIDRExceptions", CIDR_SECOND,
               [("localhost", False, None, False, True), ("myhost.local", False, None, False, True),
                ("example.com", True, "TLSv1.2", True)]
               + [(h, False, "TLSv1.2", True) for h in ["128.0.0.0", "198.51.100.1", "198.51.100.100", "198.51.100.255",
                                                         "198.51.100.0", "198.51.100.101", "198.51.101.0", "203.0.113.0",
                                                         "255.255.255.0", "fe00::"]]
               + [("127.0.0.1", True, "TLSv1.2", True, True), ("::1", True, "TLSv1.2", True, True)]
               + [(h, True, "TLSv1.2", True) for h in ["1.1.1.1", "127.255.255.255", "2001:db8::8a2e:370:7334",
                                                        "2001:db8:85a3::8a2e:370:7334"]])

exception_test("testMinTLSVersionDisallowedStrings",
               domains(entry("example.com", tls=s("TLSv1.4")), entry("google.com", tls=s("TLSV1.3")),
                       entry("neverssl.com", tls=s("TLSv1.00"))),
               [(h, True, "TLSv1.2", True) for h in ["example.com", "google.com", "neverssl.com"]])

# runGlobalKeysTestForHostname: required means TLS 1.2 and forward secrecy; not required, neither.
GLOBAL_HOSTS = [("localhost", True), ("myhost.local", True), ("example.com", False), ("127.0.0.1", True),
                ("203.0.113.1", False), ("::1", True), ("fe80::1", True), ("fe00::1", False),
                ("2001:db8::8a2e:370:7334", False)]


def global_test(test, body, required):
    for host, direct in GLOBAL_HOSTS:
        needed = required(host, direct)
        case(test, body, host, needed, "TLSv1.2" if needed else None, needed, direct=direct,
             address=host[0].isdigit() or ":" in host)


global_test("testLocalNetworkingAllowedByDefault", "", lambda host, direct: not direct)
global_test("testLocalNetworkingDisabled", "<key>NSAllowsLocalNetworking</key><false/>", lambda host, direct: True)
global_test("testAllowsArbitraryLoads", "<key>NSAllowsArbitraryLoads</key><true/>", lambda host, direct: False)

OVERRIDES = [
    ("testLocalNetworkingKeyOverridesAllowsArbitraryLoads", "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><true/>"),
    ("testFalseWebContentKeyOverridesAllowsArbitraryLoads", "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><false/>"),
    ("testTrueWebContentKeyOverridesAllowsArbitraryLoads", "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><true/>"),
    ("testFalseMediaKeyOverridesAllowsArbitraryLoads", "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsForMedia</key><false/>"),
    ("testTrueMediaKeyOverridesAllowsArbitraryLoads", "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsForMedia</key><true/>"),
    ("testGarbageValueDisablesAllowsArbitraryLoads", "<key>NSAllowsArbitraryLoads</key><integer>2</integer>"),
    ("testGarbageValueDisablesAllowsArbitraryLoads", "<key>NSAllowsArbitraryLoads</key><string>YES</string>"),
    ("testGarbageValueDisablesAllowsArbitraryLoads", "<key>NSAllowsArbitraryLoads</key><false/>"),
]
# runAllowsArbitraryLoadsOverrideTestWithATSDictionary: the global-keys hosts plus google.com.
for test, body in OVERRIDES:
    for host, direct in GLOBAL_HOSTS[:3] + [("google.com", False)] + GLOBAL_HOSTS[3:]:
        needed = not direct
        case(test, body, host, needed, "TLSv1.2" if needed else None, needed, direct=direct,
             address=host[0].isdigit() or ":" in host)

# testExampleATSDictionaries: the entries of Apple's builtins.json and example1.json.
BUILT_IN_ENTRIES = "".join(entry(d, sub=True, http=True, tls=s(v), fs=False) for d, v in [
    ("apple.com", "TLSv1.2"), ("ls.apple.com", "TLSv1.0"), ("gs.apple.com", "TLSv1.0"), ("geo.apple.com", "TLSv1.0"),
    ("is.autonavi.com", "TLSv1.0"), ("apple-mapkit.com", "TLSv1.0"), ("setup.icloud.com", "TLSv1.2")])
EXAMPLE_HOSTS = [(d, False, v, False) for d, v in [
    ("apple.com", "TLSv1.2"), ("ls.apple.com", "TLSv1.0"), ("gs.apple.com", "TLSv1.0"), ("geo.apple.com", "TLSv1.0"),
    ("is.autonavi.com", "TLSv1.0"), ("apple-mapkit.com", "TLSv1.0"), ("setup.icloud.com", "TLSv1.2")]]
exception_test("testExampleATSDictionaries", domains(BUILT_IN_ENTRIES), EXAMPLE_HOSTS)
exception_test("testExampleATSDictionaries",
               "<key>NSAllowsArbitraryLoads</key><false/><key>NSAllowsArbitraryLoadsForMedia</key><false/>"
               "<key>NSAllowsArbitraryLoadsInWebContent</key><false/><key>NSAllowsLocalNetworking</key><true/>"
               + domains(BUILT_IN_ENTRIES + "<key>example.local</key><dict></dict>"),
               EXAMPLE_HOSTS + [("example.local", True, "TLSv1.2", True, True)])

print("# id\tNSAppTransportSecurity body\tos\thost\tkind\tHTTP\tminimum TLS\tforward secrecy\tCT\tbasis")
for number, (body, host, kind, fields, test, direct) in enumerate(ROWS, start=1):
    caller = " (the caller passes is_direct: true)" if direct else ""
    basis = f"{TEST_FILE} {test}: {host}{caller} expects ATS {'required' if fields[0] == 'blocked' else 'not required'}"
    print("\t".join([f"A{number:03d}", body, "ios17", host, kind, *fields, basis]))
