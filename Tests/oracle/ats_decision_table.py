#!/usr/bin/env python3
"""Writes Fixtures/engine/decisions.tsv: the project's own ATS decision table.

Each expectation comes from Apple's sentences (BASIS below), applied by this small model
written from those sentences alone, not from the Swift engine; where the pages are silent,
from Apple's own reader of the ATS dictionary (apple-oss-distributions/Security,
protocol/SecProtocolConfiguration.m), read and re-expressed here, never copied. Columns: id, the body of the
NSAppTransportSecurity dict, os, host, kind, http (allowed/blocked), minimum TLS (a version or
"none" where ATS does not apply), forward secrecy (required/not), certificate transparency
(required/not), and the sentence (or inference) the row rests on.

Run: python3 Tests/oracle/ats_decision_table.py > Fixtures/engine/decisions.tsv
"""
import ipaddress

BASIS = {
    "defaults": "Inference from Apple's ATS requirements (Preventing Insecure Network Connections): HTTPS, TLS 1.2 or later, forward secrecy, unless a key says otherwise.",
    "arbitrary": "NSAllowsArbitraryLoads: \"Set this key’s value to YES to disable App Transport Security (ATS) restrictions for all domains not specified in the NSExceptionDomains dictionary.\"",
    "ignored": "NSAppTransportSecurity (Versioning): \"If you specify a value for any of the global exceptions besides NSAllowsArbitraryLoads, then the ATS behavior depends on the version of the OS on which your app runs\"; for \"iOS 10.0 or later or macOS 10.12 or later\": \"ATS ignores the NSAllowsArbitraryLoads value that you set\".",
    "media": "NSAllowsArbitraryLoadsForMedia: \"Set this key’s value to YES to disable App Transport Security restrictions for media loaded using the AVFoundation framework, without affecting your URLSession connections.\"",
    "webview": "NSAllowsArbitraryLoadsInWebContent: \"Set this key’s value to YES to exempt your app’s WKWebView instances from App Transport Security restrictions without affecting your URLSession connections.\"",
    "local9": "NSAllowsLocalNetworking: \"In iOS 9 and macOS 10.11, ATS disallows connections to all three domain types.\"",
    "local10": "NSAllowsLocalNetworking: \"controls whether App Transport Security (ATS) allows your app to connect to unqualified domains, .local domains, and IP addresses using IPv4 or IPv6\"; from iOS 10 through iOS 16 ATS does not apply to them (inference from its paragraph on those releases, and from iOS 17 changing IP addresses only).",
    "local17": "NSAllowsLocalNetworking: \"In iOS 17, iPadOS 17, and macOS 14, ATS no longer allows connections to IP addresses by default\"; the key set to YES allows them, and unqualified and .local hosts are unchanged.",
    "exception": "NSExceptionDomains: \"keys that name specific domains, IP addresses, or IP address ranges for which you want to set exceptions\"; a matching entry is not affected by the global keys (NSAllowsArbitraryLoads: \"Domains you specify in that dictionary aren’t affected by this key’s value.\").",
    "subdomains": "NSIncludesSubdomains: \"apply the configuration for the given domain to all subdomains of the domain that have one additional path component\".",
    "ipkeys": "NSExceptionDomains: \"In iOS 17, iPadOS 17, and macOS 14, you can use an IPv4 address, for example 192.168.42.63, or an IPv6 address, for example 2001:db8:12::34.\" Not read before.",
    "ct": "Apple's CT policy: \"Publicly trusted Transport Layer Security (TLS) server authentication certificates must meet Apple's Certificate Transparency (CT) policy to be evaluated as trusted on Apple platforms\", enforced from iOS 12.1.1.",
    "reader-bool": "Apple's reader (Security, protocol/SecProtocolConfiguration.m, sec_protocol_configuration_set_ats_overrides) takes any number for a Boolean key, YES exactly when it equals 1, and any other type as if the key were absent.",
    "reader-skip": "Apple's reader (SecProtocolConfiguration.m, sec_protocol_configuration_set_ats_overrides) skips an NSExceptionDomains entry that is not a dictionary; the host is then decided by the global keys.",
    "reader-subdomains": "Apple's reader (SecProtocolConfiguration.m, sec_protocol_configuration_find_exception_for_host): the host's own entry, else the nearest parent whose entry has NSIncludesSubdomains, every label walked; the NSIncludesSubdomains page speaks of one additional path component (an open question).",
    "reader-cidr": "Apple's reader (SecProtocolConfiguration.m, cidr_string_to_subnet_and_mask and _find_cidr_exception): a short IPv4 network is padded with zeros, an IPv6 one without :: gets it, hex digits may be capitals, the prefix is read by strtol in base 0 (a leading 0 makes it octal); an entry for the address itself wins, else the longest prefix.",
    "ctkey": "NSRequiresCertificateTransparency: \"Earlier versions of the system used this key to enable or disable CT for a given domain.\" \"The system now requires this behavior in all cases, making the key irrelevant.\"",
}

ERAS = [("ios9", 9), ("ios11", 10), ("ios12.1.1", 12), ("macos12", 14), ("ios17", 17)]


def is_local(host):
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return "." not in host or host.endswith(".local")


def address(host):
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def read_bool(value):
    """A Boolean key as the reader takes it: any number, YES when it equals 1; else absent (None)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value == 1
    return None


def reader_cidr(key):
    """The reader's range syntax, re-expressed: (network, prefix) or None (matches nothing)."""
    head, _, tail = key.partition("/")
    if not head or not tail.isdigit() or any(c not in "0123456789abcdefABCDEF.:" for c in head):
        return None
    dots, colons, hexes = "." in head, ":" in head, any(c in "abcdefABCDEF" for c in head)
    if dots and (colons or hexes) or head[0] == "." or head[-1] == ".":
        return None
    if ":::" in head or head.count("::") > 1 or (colons and head.endswith(":") and not head.endswith("::") and len(head) > 2):
        return None
    if len(tail) > 1 and tail[0] == "0":
        octal = ""
        for c in tail[1:]:
            if c not in "01234567":
                break
            octal += c
        bits = int(octal, 8) if octal else 0
    else:
        bits = int(tail)
    if not colons and not hexes:
        if bits > 32 or len(head) + 1 >= 15:
            return None
        parts = head.split(".")
        while len(parts) < 4 and len(".".join(parts)) + 2 < 15:
            parts.append("0")
        if len(parts) != 4 or any(p == "" or (len(p) > 1 and p[0] == "0") or int(p) > 255 for p in parts):
            return None
        return ipaddress.ip_network(".".join(parts) + f"/{bits}", strict=False)
    if bits > 128 or len(head) + 1 >= 39:
        return None
    text = head
    if "::" not in head and head.count(":") < 7:
        if len(head) + 3 >= 39:
            return None
        text += "::"
    try:
        return ipaddress.ip_network(f"{ipaddress.IPv6Address(text)}/{bits}", strict=False)
    except ValueError:
        return None


def matching(exceptions, host, era):
    """Apple's matching: exact lowercase name, else the nearest parent with NSIncludesSubdomains
    (the reader walks every label); IP keys from iOS 17: the address's own entry, else the
    longest range. Entries that are no dict are skipped."""
    entries = {k: v for k, v in exceptions.items() if isinstance(v, dict)}
    skipped = len(entries) != len(exceptions)
    here = address(host)
    if here is not None:
        if era < 17:
            return None, []
        for key, settings in entries.items():
            if "/" not in key and key == key.lower() and address(key) == here:
                return settings, ["exception", "ipkeys"]
        best = None
        for key, settings in entries.items():
            if "/" in key:
                network = reader_cidr(key)
                if network is not None and here.version == network.version and here in network:
                    if best is None or network.prefixlen >= best[0]:
                        best = (network.prefixlen, settings, key)
        if best is not None:
            return best[1], ["exception", "ipkeys", "reader-cidr"]
        return None, []
    if host in entries:
        return entries[host], ["exception"]
    labels = host.split(".")
    for depth in range(1, len(labels)):
        parent = ".".join(labels[depth:])
        if parent in entries and read_bool(entries[parent].get("NSIncludesSubdomains")):
            return entries[parent], ["exception", "subdomains"] + (["reader-subdomains"] if depth > 1 else [])
    return None, (["reader-skip"] if skipped else [])


def decide(config, era, host, kind):
    exceptions = config.get("NSExceptionDomains", {})
    settings, basis = matching(exceptions, host, era)
    numbers = any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in list(config.values())
                  + [x for entry in exceptions.values() if isinstance(entry, dict) for x in entry.values()])
    if numbers:
        basis.append("reader-bool")
    ct = era >= 12
    if settings is not None:
        http = read_bool(settings.get("NSExceptionAllowsInsecureHTTPLoads")) or False
        tls = settings.get("NSExceptionMinimumTLSVersion", "TLSv1.2")
        fs = read_bool(settings.get("NSExceptionRequiresForwardSecrecy"))
        fs = True if fs is None else fs
        if era == 10 and "NSRequiresCertificateTransparency" in settings:
            ct = settings["NSRequiresCertificateTransparency"]
            basis.append("ctkey")
        if era >= 12 and "NSRequiresCertificateTransparency" in settings:
            basis.append("ctkey")
        return http, tls, fs, ct, basis + (["ct"] if era >= 12 else [])
    unread = [k for k in ("NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking")
              if k in config and read_bool(config[k]) is None]
    if unread:
        basis.append("reader-bool")
    later = [k for k in ("NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking")
             if read_bool(config.get(k)) is not None]
    allows = read_bool(config.get("NSAllowsArbitraryLoads"))
    arbitrary = bool(allows) and not (era >= 10 and later)
    basis += ["ignored"] if allows and era >= 10 and later else (["arbitrary"] if arbitrary else [])
    if era >= 10 and kind == "media" and read_bool(config.get("NSAllowsArbitraryLoadsForMedia")):
        arbitrary, basis = True, basis + ["media"]
    if era >= 10 and kind == "webView" and read_bool(config.get("NSAllowsArbitraryLoadsInWebContent")):
        arbitrary, basis = True, basis + ["webview"]
    off = arbitrary
    if is_local(host):
        if era == 9:
            basis.append("local9")
        elif era < 17:
            off, basis = True, basis + ["local10"]
        elif address(host) is None:
            # iOS 17 changed IP addresses only: its sentence is the basis.
            off, basis = True, basis + ["local10", "local17"]
        elif read_bool(config.get("NSAllowsLocalNetworking")):
            off, basis = True, basis + ["local17"]
        else:
            basis.append("local17")
    if not basis:
        basis = ["defaults"]
    if era >= 12:
        basis.append("ct")
    if off:
        return True, None, False, ct, basis
    return False, "TLSv1.2", True, ct, basis


def body(config):
    def value(v):
        if v is True:
            return "<true/>"
        if v is False:
            return "<false/>"
        if isinstance(v, int):
            return f"<integer>{v}</integer>"
        if isinstance(v, float):
            return f"<real>{v}</real>"
        if isinstance(v, dict):
            return f"<dict>{''.join(f'<key>{k}</key>{value(x)}' for k, x in v.items())}</dict>"
        return f"<string>{v}</string>"
    parts = []
    for key, v in config.items():
        if isinstance(v, dict):
            inner = "".join(f"<key>{d}</key>{value(s)}" for d, s in v.items())
            parts.append(f"<key>{key}</key><dict>{inner}</dict>")
        else:
            parts.append(f"<key>{key}</key>{value(v)}")
    return "".join(parts)


AAL = {"NSAllowsArbitraryLoads": True}
CASES = [
    ({}, ["other.example", "printer.local", "192.168.1.4"], ["urlSession"]),
    (AAL, ["other.example", "printer.local", "192.168.1.4"], ["urlSession"]),
    ({**AAL, "NSAllowsLocalNetworking": True}, ["other.example", "devbox", "192.168.1.4"], ["urlSession"]),
    ({**AAL, "NSAllowsArbitraryLoadsForMedia": True}, ["other.example", "cdn.example"], ["urlSession", "media"]),
    ({**AAL, "NSAllowsArbitraryLoadsInWebContent": False}, ["other.example"], ["urlSession", "webView"]),
    ({"NSExceptionDomains": {"example.com": {"NSExceptionAllowsInsecureHTTPLoads": True}}}, ["example.com", "a.example.com"], ["urlSession"]),
    ({"NSExceptionDomains": {"example.com": {"NSIncludesSubdomains": True, "NSExceptionMinimumTLSVersion": "TLSv1.0",
                                             "NSExceptionRequiresForwardSecrecy": False}}},
     ["example.com", "a.example.com", "b.a.example.com"], ["urlSession"]),
    ({**AAL, "NSExceptionDomains": {"secure.example": {}}}, ["secure.example", "other.example"], ["urlSession"]),
    ({"NSExceptionDomains": {"10.0.0.0/8": {"NSExceptionAllowsInsecureHTTPLoads": True}}}, ["10.1.2.3"], ["urlSession"]),
    ({"NSExceptionDomains": {"2001:db8::1": {"NSExceptionAllowsInsecureHTTPLoads": True}}}, ["2001:db8:0::1"], ["urlSession"]),
    ({"NSExceptionDomains": {"bank.example": {"NSRequiresCertificateTransparency": True}}}, ["bank.example"], ["urlSession"]),
    ({**AAL, "NSExceptionDomains": {"bank.example": {"NSRequiresCertificateTransparency": False}}}, ["bank.example", "other.example"], ["urlSession"]),
    ({"NSAllowsArbitraryLoadsForMedia": True}, ["other.example"], ["urlSession", "media"]),
    # Where the pages are silent, as Apple's reader reads it.
    ({"NSAllowsArbitraryLoads": 1}, ["other.example"], ["urlSession"]),
    ({"NSAllowsArbitraryLoads": 1.0}, ["other.example"], ["urlSession"]),
    ({"NSAllowsArbitraryLoads": 0}, ["other.example"], ["urlSession"]),
    ({**AAL, "NSAllowsArbitraryLoadsInWebContent": "YES"}, ["other.example"], ["urlSession", "webView"]),
    ({**AAL, "NSExceptionDomains": {"example.com": True}}, ["example.com"], ["urlSession"]),
    ({"NSExceptionDomains": {"example.com": {"NSExceptionAllowsInsecureHTTPLoads": 1, "NSExceptionRequiresForwardSecrecy": 0}}},
     ["example.com"], ["urlSession"]),
    ({"NSExceptionDomains": {"example.com": {"NSIncludesSubdomains": True, "NSExceptionAllowsInsecureHTTPLoads": True},
                             "b.example.com": {"NSExceptionMinimumTLSVersion": "TLSv1.3"}}},
     ["b.example.com", "a.b.example.com", "x.a.b.example.com"], ["urlSession"]),
    ({"NSExceptionDomains": {"10/8": {"NSExceptionAllowsInsecureHTTPLoads": True}}}, ["10.1.2.3"], ["urlSession"]),
    ({"NSExceptionDomains": {"2001:DB8/32": {"NSExceptionAllowsInsecureHTTPLoads": True}}}, ["2001:db8::5"], ["urlSession"]),
    ({"NSExceptionDomains": {"10.0.0.0/08": {"NSExceptionAllowsInsecureHTTPLoads": True}}}, ["8.8.8.8"], ["urlSession"]),
    ({"NSExceptionDomains": {"198.51.100.0/24": {"NSExceptionAllowsInsecureHTTPLoads": True},
                             "198.51.100.0/27": {"NSExceptionAllowsInsecureHTTPLoads": False},
                             "198.51.100.101": {"NSExceptionAllowsInsecureHTTPLoads": False}}},
     ["198.51.100.1", "198.51.100.100", "198.51.100.101"], ["urlSession"]),
    ({"NSExceptionDomains": {"example.com ": {"NSExceptionAllowsInsecureHTTPLoads": True},
                             ".example.com": {"NSExceptionAllowsInsecureHTTPLoads": True},
                             "127.0.0.1.": {"NSExceptionAllowsInsecureHTTPLoads": True}}},
     ["example.com", "a.example.com", "127.0.0.1"], ["urlSession"]),
]

rows = []
for config, hosts, kinds in CASES:
    for host in hosts:
        for os_name, era in ERAS:
            for kind in kinds:
                if era == 9 and ":" in host:
                    continue
                http, tls, fs, ct, basis = decide(config, era, host, kind)
                rows.append([body(config), os_name, host, kind, "allowed" if http else "blocked", tls or "none",
                             "required" if fs else "not", "required" if ct else "not",
                             " | ".join(BASIS[b] for b in dict.fromkeys(basis))])
print("# id\tNSAppTransportSecurity body\tos\thost\tkind\tHTTP\tminimum TLS\tforward secrecy\tCT\tbasis")
for index, row in enumerate(rows, 1):
    print("\t".join([f"D{index:03d}"] + row))
