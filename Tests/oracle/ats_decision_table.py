#!/usr/bin/env python3
"""Writes Fixtures/engine/decisions.tsv: the project's own ATS decision table.

Each expectation comes from Apple's sentences (BASIS below), applied by this small model
written from those sentences alone, not from the Swift engine. Columns: id, the body of the
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


def matching(exceptions, host, era):
    """Apple's matching: exact lowercase name, one extra label with NSIncludesSubdomains, IP keys from iOS 17."""
    for key, settings in exceptions.items():
        if "/" in key or address(key.split("/")[0]) is not None:
            if era >= 17 and address(host) is not None and address(host) in ipaddress.ip_network(key, strict=False):
                return settings, ["exception", "ipkeys"]
            continue
        if key == host:
            return settings, ["exception"]
    for key, settings in exceptions.items():
        if settings.get("NSIncludesSubdomains") and host.endswith("." + key) and "." not in host[: -len(key) - 1]:
            return settings, ["exception", "subdomains"]
    return None, []


def decide(config, era, host, kind):
    exceptions = config.get("NSExceptionDomains", {})
    settings, basis = matching(exceptions, host, era)
    ct = era >= 12
    if settings is not None:
        http = settings.get("NSExceptionAllowsInsecureHTTPLoads", False)
        tls = settings.get("NSExceptionMinimumTLSVersion", "TLSv1.2")
        fs = settings.get("NSExceptionRequiresForwardSecrecy", True)
        if era == 10 and "NSRequiresCertificateTransparency" in settings:
            ct = settings["NSRequiresCertificateTransparency"]
            basis.append("ctkey")
        if era >= 12 and "NSRequiresCertificateTransparency" in settings:
            basis.append("ctkey")
        return http, tls, fs, ct, basis + (["ct"] if era >= 12 else [])
    later = [k for k in ("NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking") if k in config]
    arbitrary = config.get("NSAllowsArbitraryLoads", False) and not (era >= 10 and later)
    basis = ["ignored"] if config.get("NSAllowsArbitraryLoads") and era >= 10 and later else (["arbitrary"] if arbitrary else [])
    if era >= 10 and kind == "media" and config.get("NSAllowsArbitraryLoadsForMedia"):
        arbitrary, basis = True, basis + ["media"]
    if era >= 10 and kind == "webView" and config.get("NSAllowsArbitraryLoadsInWebContent"):
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
        elif config.get("NSAllowsLocalNetworking"):
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
        return f"<string>{v}</string>"
    parts = []
    for key, v in config.items():
        if isinstance(v, dict):
            inner = "".join(f"<key>{d}</key><dict>{''.join(f'<key>{k}</key>{value(x)}' for k, x in s.items())}</dict>" for d, s in v.items())
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
