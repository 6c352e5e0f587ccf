#!/usr/bin/env python3
"""Writes one Info.plist whose NSExceptionDomains holds COUNT domains that each need an ATS001
edit (a NSThirdPartyException... key renamed) and an ATS004 edit (a mixed-case or `*.` key).

usage: many-domains.py OUT_FILE [COUNT]
"""
import sys

out, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10000
lines = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
         '<plist version="1.0">', '<dict>', '\t<key>NSAppTransportSecurity</key>', '\t<dict>',
         '\t\t<key>NSExceptionDomains</key>', '\t\t<dict>']
for i in range(count):
    key = f"*.Host{i}.Example.com" if i % 2 else f"API{i}.Example.com"
    lines += [f'\t\t\t<key>{key}</key>', '\t\t\t<dict>',
              '\t\t\t\t<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key>', '\t\t\t\t<true/>',
              '\t\t\t</dict>']
lines += ['\t\t</dict>', '\t</dict>', '</dict>', '</plist>', '']
open(out, "w").write("\n".join(lines))
