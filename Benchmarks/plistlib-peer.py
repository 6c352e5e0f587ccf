#!/usr/bin/env python3
"""The lossy peer a user might write: load each plist with plistlib, apply the ATS001/ATS002
renames, and serialise it again (comments, layout and entity spellings are lost)."""
import os, plistlib, sys

RENAMES = {
    "NSThirdPartyExceptionAllowsInsecureHTTPLoads": "NSExceptionAllowsInsecureHTTPLoads",
    "NSThirdPartyExceptionRequiresForwardSecrecy": "NSExceptionRequiresForwardSecrecy",
    "NSThirdPartyExceptionMinimumTLSVersion": "NSExceptionMinimumTLSVersion",
}
changed = 0
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        if not name.endswith(".plist"):
            continue
        with open(os.path.join(root, name), "rb") as f:
            try:
                value = plistlib.load(f)
            except Exception:
                continue
        ats = value.get("NSAppTransportSecurity") if isinstance(value, dict) else None
        if not isinstance(ats, dict):
            continue
        if "NSAllowsArbitraryLoadsInMedia" in ats:
            ats["NSAllowsArbitraryLoadsForMedia"] = ats.pop("NSAllowsArbitraryLoadsInMedia")
        for domain, settings in list((ats.get("NSExceptionDomains") or {}).items()):
            if isinstance(settings, dict):
                for old, new in RENAMES.items():
                    if old in settings:
                        settings[new] = settings.pop(old)
                        changed += 1
        plistlib.dumps(value)
print("plistlib peer: %d renames" % changed, file=sys.stderr)
