#!/usr/bin/env python3
"""Independent oracle for plist-migrate's tests: compares the value trees plist-migrate decoded
(a JSON file it wrote) with Python's plistlib reading the same files.

usage: plistlib_oracle.py REPORT.json
REPORT.json: [{"path": ..., "value": TAGGED, "migratedPath": ... or null, "migratedValue": TAGGED or null}]
TAGGED: {"s": str} {"i": "123"} {"r": "3.25"} {"b": true} {"d": "YYYY-MM-DDTHH:MM:SSZ"}
        {"x": base64} {"a": [TAGGED]} {"o": {key: TAGGED}}
Prints a summary line 'oracle: N compared, M plistlib-refused, K mismatches' and each mismatch.
"""
import base64, datetime, json, math, plistlib, sys

def tag(value):
    if isinstance(value, bool):
        return {"b": value}
    if isinstance(value, int):
        return {"i": str(value)}
    if isinstance(value, float):
        return {"r": value}
    if isinstance(value, str):
        return {"s": value}
    if isinstance(value, bytes):
        return {"x": base64.b64encode(value).decode()}
    if isinstance(value, datetime.datetime):
        return {"d": value.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if isinstance(value, list):
        return {"a": [tag(v) for v in value]}
    if isinstance(value, dict):
        return {"o": {k: tag(v) for k, v in value.items()}}
    raise TypeError(type(value))

def same(ours, theirs):
    (kind, a), = ours.items()
    (kind2, b), = theirs.items()
    if kind != kind2:
        return False
    if kind == "r":
        a = float(a)
        return (math.isnan(a) and math.isnan(b)) or a == b
    if kind == "a":
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if kind == "o":
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b

def without_ats(tagged):
    if "o" in tagged:
        return {"o": {k: v for k, v in tagged["o"].items() if k != "NSAppTransportSecurity"}}
    return tagged

def load(path):
    with open(path, "rb") as f:
        return tag(plistlib.load(f))

report = json.load(open(sys.argv[1]))
compared = refused = 0
mismatches = []
for item in report:
    try:
        theirs = load(item["path"])
    except Exception:
        refused += 1
        continue
    compared += 1
    if not same(item["value"], theirs):
        mismatches.append("decoded value differs: " + item["path"])
    if item.get("migratedPath"):
        migrated = load(item["migratedPath"])
        if not same(item["migratedValue"], migrated):
            mismatches.append("decoded migrated value differs: " + item["path"])
        if not same(without_ats(theirs), without_ats(migrated)):
            mismatches.append("a value outside NSAppTransportSecurity changed: " + item["path"])
print("oracle: %d compared, %d plistlib-refused, %d mismatches" % (compared, refused, len(mismatches)))
for line in mismatches[:50]:
    print(line)
