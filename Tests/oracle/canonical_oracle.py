#!/usr/bin/env python3
"""Which files are exactly what Apple's serializer writes: Python's plistlib, which writes XML
plists as CFPropertyList does (keys sorted, tabs, <dict/> for an empty dict, only & < > escaped),
reads each file and writes it again with sorted keys; the file is canonical when the bytes are
the same. Reads a JSON list of paths, prints a JSON list of booleans in the same order."""
import json
import plistlib
import sys


def canonical(path):
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        return plistlib.dumps(plistlib.loads(data), sort_keys=True) == data
    except Exception:
        return False


with open(sys.argv[1]) as handle:
    paths = json.load(handle)
print(json.dumps([canonical(path) for path in paths]))
