#!/usr/bin/env bash
# Benchmark: the documented limits of recipes and `edit`. Times a recipe pass of
# N `set` steps into one dict, `edit` with N `-c` commands, and `edit` adding N keys between the
# N keys of a nearly sorted dict (one key out of place, so each new key goes between its sorted
# neighbours), at N and 2N: work that grows linearly takes about twice as long at 2N (it took 4x
# and more before the look-ups were indexed, and 90 s at N before the sorted runs were kept).
# usage: Benchmarks/limits.sh [N]   (default 10000, the recipe limit per pass)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
make -s build >/dev/null
bin=$(swift build -c release --show-bin-path)/plist-migrate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>CFBundleName</key>\n\t<string>x</string>\n</dict>\n</plist>\n' > "$work/Info.plist"
seconds() { local started=$EPOCHREALTIME; "$@" >/dev/null 2>&1 || true; awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
for count in "$n" $((2 * n)); do
    python3 - "$work" "$count" <<'PY'
import sys
work, count = sys.argv[1], int(sys.argv[2])
# A pass holds at most 10,000 steps: 2N steps are split over passes of the same dict.
with open(f"{work}/recipe.yml", "w") as recipe:
    recipe.write("passes:\n")
    for start in range(0, count, 10000):
        recipe.write(f"  - id: BIG{start // 10000 + 1:03d}\n    version: 1\n    name: big-{start}\n    title: Many sets\n"
                     "    description: one dict, many keys\n    impact: spelling\n    steps:\n")
        for i in range(start, min(count, start + 10000)):
            recipe.write(f"      - set: K{i}\n        value: v{i}\n")
with open(f"{work}/commands", "wb") as commands:
    for i in range(count):
        commands.write(b"-c\0" + f"Add :E{i} string v{i}".encode() + b"\0")
# Even keys sorted but for one moved to the end; the odd keys go between them.
names = [f"K{i:07d}" for i in range(0, 2 * count, 2)]
names.append(names.pop(count // 2))
with open(f"{work}/Nearly.plist", "w") as nearly:
    nearly.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n')
    nearly.write("".join(f"\t<key>{name}</key>\n\t<true/>\n" for name in names) + "</dict>\n</plist>\n")
with open(f"{work}/between", "wb") as commands:
    for i in range(1, 2 * count, 2):
        commands.write(b"-c\0" + f"Add :K{i:07d} bool true".encode() + b"\0")
PY
    recipe=$(seconds "$bin" --no-config --recipe "$work/recipe.yml" "$work/Info.plist")
    edit=$(seconds bash -c "xargs -0 -x -s 2000000 '$bin' edit --dry-run '$work/Info.plist' < '$work/commands'")
    between=$(seconds bash -c "xargs -0 -x -s 2000000 '$bin' edit --dry-run '$work/Nearly.plist' < '$work/between'")
    echo "$count recipe set steps into one dict: ${recipe} s; edit with $count -c commands: ${edit} s;" \
        "$count keys between the keys of a nearly sorted dict: ${between} s"
done
