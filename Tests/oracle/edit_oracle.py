#!/usr/bin/env python3
"""Independent reference for plist-migrate's scripted edits and shipped recipes: applies the
same changes with Python's plistlib, written here without looking at plist-migrate's code,
and compares the result with what plist-migrate wrote.

usage: edit_oracle.py JOBS.json
JOBS.json: [{"input": PATH, "output": PATH, "commands": [PlistBuddy command, ...]}]
        or [{"input": PATH, "output": PATH, "recipes": ["PRV001", "CAP001", "ENC001"]}]
Prints 'edit oracle: N compared, M plistlib-refused, K mismatches' and each mismatch.
"""
import datetime, json, plistlib, shlex, sys


def entry_parts(text):
    """PlistBuddy entry: keys and positions joined by ':', '\\:' for a colon in a key."""
    body = text[1:] if text.startswith(":") else text
    parts, current, escaped, trailing = [], "", False, False
    for ch in body:
        trailing = False
        if escaped:
            current += ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == ":":
            parts.append(current)
            current = ""
            trailing = True
        else:
            current += ch
    if not trailing and not (not parts and current == ""):
        parts.append(current)
    return parts, trailing


def walk(root, parts):
    node = root
    for part in parts:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def typed(kind, text):
    text = "" if text is None else text
    if kind == "string":
        return text
    if kind == "integer":
        return int(text or "0")
    if kind == "real":
        return float(text or "0")
    if kind == "bool":
        return text.lower() in ("true", "yes", "1")
    if kind == "date":
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    if kind == "data":
        return text.encode()
    if kind == "array":
        return []
    if kind == "dict":
        return {}
    raise ValueError(kind)


def kind_of(value):
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "real"
    if isinstance(value, bytes):
        return "data"
    if isinstance(value, datetime.datetime):
        return "date"
    return "string"


def run_command(root, command):
    words = shlex.split(command.replace("\\:", "\u0000"))
    words = [w.replace("\u0000", "\\:") for w in words]
    verb = words[0].lower()
    if verb == "set":
        parts, _ = entry_parts(words[1])
        parent, last = walk(root, parts[:-1]), parts[-1]
        key = int(last) if isinstance(parent, list) else last
        parent[key] = typed(kind_of(parent[key]), " ".join(words[2:]))
    elif verb == "add":
        parts, appends = entry_parts(words[1])
        value = typed(words[2], " ".join(words[3:]) if len(words) > 3 else None)
        if appends:
            walk(root, parts).append(value)
        else:
            parent, last = walk(root, parts[:-1]), parts[-1]
            if isinstance(parent, list):
                parent.insert(int(last), value)
            else:
                parent[last] = value
    elif verb == "delete":
        parts, _ = entry_parts(words[1])
        parent, last = walk(root, parts[:-1]), parts[-1]
        del parent[int(last) if isinstance(parent, list) else last]
    else:
        raise ValueError(command)


def tag(value):
    """The value with its plist type spelled out: True and 1 (or 1 and 1.0) must not pass as equal."""
    if isinstance(value, dict):
        return ("dict", {k: tag(v) for k, v in value.items()})
    if isinstance(value, list):
        return ("array", [tag(v) for v in value])
    return (kind_of(value), value)


def rename_with_twin(root, old, new):
    if old not in root:
        return
    if new not in root:
        root[new] = root.pop(old)
    elif root[new] == root[old]:
        del root[old]


def run_recipe(root, recipe):
    if not isinstance(root, dict):
        return
    if recipe == "PRV001":
        rename_with_twin(root, "NSBluetoothPeripheralUsageDescription", "NSBluetoothAlwaysUsageDescription")
        rename_with_twin(root, "NSLocationAlwaysUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription")
    elif recipe == "CAP001":
        caps = root.get("UIRequiredDeviceCapabilities")
        if isinstance(caps, list):
            root["UIRequiredDeviceCapabilities"] = [c for c in caps if c != "armv7"]
        elif isinstance(caps, dict):
            caps.pop("armv7", None)
    elif recipe == "ENC001":
        root.setdefault("ITSAppUsesNonExemptEncryption", False)
    else:
        raise ValueError(recipe)


def main():
    jobs = json.load(open(sys.argv[1]))
    compared = refused = 0
    mismatches = []
    for job in jobs:
        try:
            with open(job["input"], "rb") as f:
                expected = plistlib.load(f)
        except Exception:
            refused += 1
            continue
        for command in job.get("commands", []):
            run_command(expected, command)
        for recipe in job.get("recipes", []):
            run_recipe(expected, recipe)
        with open(job["output"], "rb") as f:
            actual = plistlib.load(f)
        compared += 1
        if tag(actual) != tag(expected):
            mismatches.append(job["input"])
    print(f"edit oracle: {compared} compared, {refused} plistlib-refused, {len(mismatches)} mismatches")
    for path in mismatches[:20]:
        print("mismatch:", path)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
