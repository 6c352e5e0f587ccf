#!/usr/bin/env python3
"""Builds a deterministic synthetic monorepo of Info.plists from the shared corpus.

usage: make-monorepo.py CORPUS_DIR OUT_DIR [COUNT] [--targets]

Copies the corpus plists that parse (plistlib) round-robin into OUT_DIR/appNNNNN/Info.plist
(with --targets, OUT_DIR/appNNNNN/App/Info.plist: each in a target folder under its app folder,
as real repositories hold them, about two folders a file),
giving every copy its own domain names and, in every third copy, spellings that need
migrating (NSThirdPartyException... keys, mixed-case domain keys). Same inputs, same tree.
"""
import os, plistlib, re, sys

arguments = [a for a in sys.argv[1:] if a != "--targets"]
targets = "--targets" in sys.argv[1:]
corpus, out = arguments[0], arguments[1]
count = int(arguments[2]) if len(arguments) > 2 else 10000

sources = []
for folder in ("real", "wild"):
    d = os.path.join(corpus, folder)
    for name in sorted(os.listdir(d)):
        if not name.endswith(".plist"):
            continue
        data = open(os.path.join(d, name), "rb").read()
        try:
            plistlib.loads(data)
        except Exception:
            continue
        if b"<<<<<<<" in data or b"bplist" in data[:8]:
            continue
        sources.append(data)

domain_key = re.compile(rb"<key>((?:[a-z0-9-]+\.)+[a-z]{2,})</key>")
for i in range(count):
    data = sources[i % len(sources)]
    data = domain_key.sub(lambda m: b"<key>s%d.%s</key>" % (i % 97, m.group(1)), data)
    if i % 3 == 0:
        data = data.replace(b"<key>NSExceptionAllowsInsecureHTTPLoads</key>",
                            b"<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key>")
        data = domain_key.sub(lambda m: b"<key>" + m.group(1).upper() + b"</key>", data, count=1)
    path = os.path.join(out, "app%05d" % i, *(["App"] if targets else []), "Info.plist")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
print("%d files from %d corpus sources in %s" % (count, len(sources), out))
