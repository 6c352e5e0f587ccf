#!/usr/bin/env python3
"""Writes the man page's EXIT STATUS section from the tool's own help.

swift-argument-parser's generate-manual writes `.Ex -std` there ("exits 0 on success, and >0 if
an error occurs"); every subcommand's help ends with its own list ("Exit status: 0 fine,
1 --check found pending changes, 2 …, 64 a usage error."). This replaces the section with those
lists, one per subcommand, read from `plist-migrate --experimental-dump-help`.

usage: man-exit-status.py MAN_PAGE DUMP_HELP_JSON   (the page is rewritten in place)
"""
import json, re, sys


def statuses(discussion):
    """[(code, meaning)] from a help text's "Exit status: …." sentence."""
    found = re.search(r"Exit status: (.*?\.)(?:\s|$)", discussion, re.S)
    if not found:
        return []
    text = " ".join(found.group(1).rstrip(".").split())
    return [(m.group(1), m.group(2)) for m in re.finditer(r"(\d+) (.*?)(?=, \d+ |$)", text)]


def escaped(text):
    """A line of mdoc text: a leading `.` or `'` would be read as a request."""
    text = text.replace("\\", "\\e")
    return "\\&" + text if text[:1] in (".", "'") else text


def section(command):
    lines = [".Sh EXIT STATUS", ".Bl -tag -width indent"]
    for sub in command.get("subcommands", []):
        codes = statuses(sub.get("discussion", ""))
        if not codes:
            continue
        lines += [".It Cm %s" % sub["commandName"], ".Bl -tag -width 64 -compact"]
        for code, meaning in codes:
            lines += [".It %s" % code, escaped(meaning)]
        lines.append(".El")
    lines.append(".El")
    return lines


def main():
    page, dump = sys.argv[1], sys.argv[2]
    command = json.load(open(dump))["command"]
    lines = open(page).read().split("\n")
    start = next((i for i, line in enumerate(lines) if re.match(r'\.Sh "?EXIT STATUS"?$', line, re.I)), None)
    if start is None:
        sys.exit("%s: no EXIT STATUS section" % page)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(".Sh ")), len(lines))
    lines[start:end] = section(command)
    open(page, "w").write("\n".join(lines))


if __name__ == "__main__":
    main()
