#!/usr/bin/env python3
"""Writes one Info.plist whose NSExceptionDomains holds COUNT domains.

By default each domain needs an ATS001 edit (a NSThirdPartyException... key renamed) and an
ATS004 edit (a mixed-case or `*.` key). With `--every N` the keys are plain lowercase names in
sorted order and only every Nth domain holds the legacy key: a large file in which a pass
edits a few domains, where the work should follow the edits rather than the file.

usage: many-domains.py OUT_FILE [COUNT] [--every N]
"""
import sys

args = sys.argv[1:]
every = None
if "--every" in args:
    at = args.index("--every")
    every = int(args[at + 1])
    del args[at:at + 2]
out, count = args[0], int(args[1]) if len(args) > 1 else 10000
lines = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
         '<plist version="1.0">', '<dict>', '\t<key>NSAppTransportSecurity</key>', '\t<dict>',
         '\t\t<key>NSExceptionDomains</key>', '\t\t<dict>']
for i in range(count):
    if every:
        key = f"host{i:06d}.example.com"
        setting = "NSThirdPartyExceptionAllowsInsecureHTTPLoads" if i % every == 0 else "NSExceptionAllowsInsecureHTTPLoads"
    else:
        key = f"*.Host{i}.Example.com" if i % 2 else f"API{i}.Example.com"
        setting = "NSThirdPartyExceptionAllowsInsecureHTTPLoads"
    lines += [f'\t\t\t<key>{key}</key>', '\t\t\t<dict>',
              f'\t\t\t\t<key>{setting}</key>', '\t\t\t\t<true/>',
              '\t\t\t</dict>']
lines += ['\t\t</dict>', '\t</dict>', '</dict>', '</plist>', '']
open(out, "w").write("\n".join(lines))
