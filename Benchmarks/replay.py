#!/usr/bin/env python3
"""Replays people's own Info.plist changes through `plist-migrate edit`.

For each git repository given, the most recent commits that modify a plist (`--commits`, 60 by
default) are walked; each modified `*.plist` becomes a pair (the file before the commit, the file
after it). The structural difference of the pair (values, as Python's plistlib reads them)
becomes PlistBuddy commands (Set, Add, Delete), which `plist-migrate edit` runs on the file
before the commit. The output is then compared with what the person committed:

  exact              the same bytes
  same meaning       the same values, other bytes (each classified by what differs)
  different meaning  other values: a bug in the tool, never acceptable
  not replayable     the change cannot be said in PlistBuddy commands (a key with ':'; a value
                     plistlib reads that edit cannot write), or a side does not parse

Usage:
  Benchmarks/replay.py [--tool PATH] [--commits N] [--json FILE] [--keep DIR] REPO_GIT_DIR...

`--keep DIR` writes every replayed pair that is not exact (before, after, commands, output) for
reading. Needs git and python3 only; the tool defaults to .build/release/plist-migrate, then
.build/debug/plist-migrate.
"""
import argparse
import collections
import datetime
import json
import os
import plistlib
import re
import subprocess
import sys
import tempfile
from difflib import SequenceMatcher

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class NotReplayable(Exception):
    pass


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], capture_output=True, check=True).stdout


def pairs(repo, commits):
    """(commit, path, before bytes, after bytes) of the plists the newest commits modify."""
    log = git(repo, "log", "--no-merges", "--format=%H", "--diff-filter=M", "-n", str(commits), "--", "*.plist")
    for commit in log.decode().split():
        changed = git(repo, "diff-tree", "--no-commit-id", "-r", "--diff-filter=M", "--name-only", "-z",
                      f"{commit}^", commit, "--", "*.plist")
        for path in filter(None, changed.decode("utf-8", "surrogateescape").split("\0")):
            try:
                before = git(repo, "show", f"{commit}^:{path}")
                after = git(repo, "show", f"{commit}:{path}")
            except subprocess.CalledProcessError:
                continue
            yield commit, path, before, after


# MARK: - The structural difference as PlistBuddy commands

def entry(path):
    for step in path:
        if isinstance(step, str) and (not step or re.search(r'[:\\"\n\r\t]', step)):
            raise NotReplayable("a key PlistBuddy cannot name")
    return '":' + ":".join(str(step) for step in path) + '"'


def spelled(value):
    """The (type, text) `edit` takes for a scalar."""
    if isinstance(value, bool):
        return "bool", "true" if value else "false"
    if isinstance(value, int):
        return "integer", str(value)
    if isinstance(value, float):
        return "real", repr(value)
    if isinstance(value, str):
        if value != value.strip(" \t") or "\n" in value or "\r" in value:
            raise NotReplayable("a string edit's value cannot carry (edges of spaces, line breaks)")
        return "string", '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, datetime.datetime):
        return "date", value.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, bytes):
        try:
            text = value.decode("utf-8")
        except UnicodeDecodeError:
            raise NotReplayable("data that is not UTF-8 text")
        return "data", '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise NotReplayable(f"a value of type {type(value).__name__}")


def kind(value):
    return "dict" if isinstance(value, dict) else "array" if isinstance(value, list) else spelled(value)[0]


def add(path, value, out):
    if isinstance(value, dict):
        out.append(f"Add {entry(path)} dict")
        for key, inner in value.items():
            add(path + [key], inner, out)
    elif isinstance(value, list):
        out.append(f"Add {entry(path)} array")
        for index, inner in enumerate(value):
            add(path + [index], inner, out)
    else:
        type_, text = spelled(value)
        out.append(f"Add {entry(path)} {type_} {text}")


def change(path, old, new, out):
    """Commands that turn `old` (at `path`) into `new`."""
    if old == new and type(old) is type(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                out.append(f"Delete {entry(path + [key])}")
        for key, value in new.items():
            if key in old:
                change(path + [key], old[key], value, out)
            else:
                add(path + [key], value, out)
    elif isinstance(old, list) and isinstance(new, list):
        changeArray(path, old, new, out)
    elif not isinstance(old, (dict, list)) and not isinstance(new, (dict, list)) and kind(old) == kind(new):
        out.append(f"Set {entry(path)} {spelled(new)[1]}")
    else:
        if not path:
            raise NotReplayable("the root changed type")
        out.append(f"Delete {entry(path)}")
        add(path, new, out)


def changeArray(path, old, new, out):
    """Items matched as equal values; runs from the end so earlier positions stay valid."""
    key = lambda value: json.dumps(value, sort_keys=True, default=str)
    matcher = SequenceMatcher(a=[key(v) for v in old], b=[key(v) for v in new], autojunk=False)
    for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            for offset in range(i2 - i1):
                change(path + [i1 + offset], old[i1 + offset], new[j1 + offset], out)
            continue
        for index in reversed(range(i1, i2)):
            out.append(f"Delete {entry(path + [index])}")
        for offset, value in enumerate(new[j1:j2]):
            add(path + [i1 + offset], value, out)


# MARK: - What separates an output from the person's file

def in_apples_order(data):
    """Whether every dict's keys are in the order Apple's serializer writes (UTF-16 units)."""
    def walk(value):
        if isinstance(value, dict):
            units = [key.encode("utf-16-be") for key in value]
            return units == sorted(units) and all(walk(inner) for inner in value.values())
        if isinstance(value, list):
            return all(walk(inner) for inner in value)
        return True
    try:
        return walk(plistlib.loads(data))
    except Exception:
        return False


def classify(output, after):
    """Why bytes of equal meaning differ, most specific first."""
    o, a = output.decode("utf-8", "replace"), after.decode("utf-8", "replace")
    keys = lambda text: re.findall(r"<key>(.*?)</key>", text)
    if sorted(keys(o)) == sorted(keys(a)) and keys(o) != keys(a):
        if in_apples_order(output) and not in_apples_order(after):
            return "key order: the person left Apple's order, the tool kept it"
        return "key order: other"
    if re.search(r"</(string|integer|real|date|data|key)><", o) and not re.search(r"</(string|integer|real|date|data|key)><", a):
        return "two items glued on one line"
    if o.replace("&quot;", '"').replace("&apos;", "'").replace("&#39;", "'") == a.replace("&quot;", '"').replace("&apos;", "'").replace("&#39;", "'"):
        return "quote spelling"
    squash = lambda text: re.sub(r"<(dict|array)>\s*</\1>", r"<\1/>", text)
    if squash(o) == squash(a):
        return "empty container spelling"
    if re.sub(r"\s+", "", o) == re.sub(r"\s+", "", a):
        return "whitespace"
    if re.sub(r"<string/>", "<string></string>", o) == re.sub(r"<string/>", "<string></string>", a):
        return "empty string spelling"
    return "other bytes (the person also re-spelled or reformatted)"


def replay(tool, before, after):
    """(outcome, detail, commands, output)."""
    try:
        old, new = plistlib.loads(before), plistlib.loads(after)
    except Exception:
        raise NotReplayable("a side does not parse as a plist")
    if not before.lstrip().startswith(b"<") or not after.lstrip().startswith(b"<"):
        raise NotReplayable("not an XML plist")
    commands = []
    change([], old, new, commands)
    if not commands:
        raise NotReplayable("no change of values (bytes only)")
    with tempfile.TemporaryDirectory(prefix="plist-replay-") as folder:
        file = os.path.join(folder, "Info.plist")
        with open(file, "wb") as handle:
            handle.write(before)
        run = subprocess.run([tool, "edit", *sum((["-c", c] for c in commands), []), file], capture_output=True)
        if run.returncode != 0:
            return "edit refused", run.stderr.decode(errors="replace").strip().splitlines()[-1:], commands, b""
        with open(file, "rb") as handle:
            output = handle.read()
    if output == after:
        return "exact", None, commands, output
    try:
        same = plistlib.loads(output) == new
    except Exception:
        same = False
    if not same:
        return "different meaning", None, commands, output
    return "same meaning", classify(output, after), commands, output


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repos", nargs="+", help="git directories (bare or .git)")
    parser.add_argument("--tool")
    parser.add_argument("--commits", type=int, default=60)
    parser.add_argument("--json")
    parser.add_argument("--keep")
    args = parser.parse_args()
    tool = args.tool or next((p for p in (os.path.join(ROOT, ".build/release/plist-migrate"),
                                          os.path.join(ROOT, ".build/debug/plist-migrate")) if os.path.exists(p)), None)
    if not tool:
        sys.exit("no plist-migrate binary: swift build first, or give --tool")
    counts = collections.Counter()
    by_kind = collections.Counter()
    causes = collections.Counter()
    rows = []
    for repo in args.repos:
        name = os.path.basename(os.path.dirname(os.path.abspath(repo))) if repo.rstrip("/").endswith(("repo", ".git")) else os.path.basename(repo)
        for commit, path, before, after in pairs(repo, args.commits):
            try:
                outcome, detail, commands, output = replay(tool, before, after)
            except NotReplayable as reason:
                counts["not replayable"] += 1
                continue
            adds = any(c.startswith("Add ") for c in commands)
            counts[outcome] += 1
            by_kind[("adds" if adds else "set/delete only", outcome)] += 1
            if outcome == "same meaning":
                causes[detail] += 1
            rows.append({"repo": name, "commit": commit, "path": path, "outcome": outcome, "cause": detail,
                         "commands": commands})
            if args.keep and outcome != "exact":
                folder = os.path.join(args.keep, f"{name}-{commit[:10]}-{re.sub(r'[^A-Za-z0-9]+', '_', path)}")
                os.makedirs(folder, exist_ok=True)
                for file, data in (("before.plist", before), ("after.plist", after), ("output.plist", output)):
                    with open(os.path.join(folder, file), "wb") as handle:
                        handle.write(data)
                with open(os.path.join(folder, "commands"), "w") as handle:
                    handle.write("\n".join(commands) + "\n")
    replayed = sum(v for k, v in counts.items() if k != "not replayable")
    print(f"{replayed} pairs replayed ({counts['not replayable']} not replayable) over {len(args.repos)} repositories")
    for outcome in ("exact", "same meaning", "different meaning", "edit refused"):  # refused: with the reason edit gives
        share = 100 * counts[outcome] / replayed if replayed else 0
        print(f"  {outcome:18} {counts[outcome]:5}  {share:5.1f}%")
    for group in ("set/delete only", "adds"):
        total = sum(v for (g, _), v in by_kind.items() if g == group)
        if total:
            print(f"  {group}: {by_kind[(group, 'exact')]} of {total} exact ({100 * by_kind[(group, 'exact')] / total:.1f}%)")
    if causes:
        print("  same meaning, by what differs:")
        for cause, count in causes.most_common():
            print(f"    {count:5}  {cause}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"counts": counts, "causes": causes, "pairs": rows}, handle, indent=1)
    sys.exit(1 if counts["different meaning"] else 0)


if __name__ == "__main__":
    main()
