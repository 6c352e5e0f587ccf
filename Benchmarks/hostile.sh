#!/usr/bin/env bash
# Time and peak memory of plist-migrate on every hostile or broken input (target: each under
# 1 s and 200 MB, with a one-line error and a non-zero exit).
# usage: Benchmarks/hostile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build >/dev/null
bin=$(swift build -c release --show-bin-path)/plist-migrate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp Fixtures/errors/*.plist Fixtures/hostile/*.plist "$work/"
python3 - "$work" <<'PY'
import os, sys
d = sys.argv[1]
depth = 100_000
open(os.path.join(d, "generated-deep-nesting.plist"), "w").write("<plist>" + "<array>" * depth + "</array>" * depth + "</plist>")
with open(os.path.join(d, "generated-100mb.plist"), "wb") as f:
    f.write(b'<?xml version="1.0"?>\n<plist version="1.0">\n<array>\n')
    row = b"\t<string>" + b"x" * 1000 + b"</string>\n"
    for _ in range(100 * 1024):
        f.write(row)
    f.write(b"</array>\n</plist>\n")
PY
mkfifo "$work/generated-fifo.plist"
mkdir "$work/generated-directory.plist"
printf '%-40s %6s %8s %s\n' input seconds "RSS MB" "exit / message"
worst_t=0; worst_m=0
for f in "$work"/*.plist; do
    name=$(basename "$f")
    /usr/bin/time -o "$work/.t" -f "%e %M" "$bin" "$f" >/dev/null 2>"$work/.err" && status=0 || status=$?
    read -r t m < <(tail -1 "$work/.t")
    msg=$(head -1 "$work/.err" | sed "s|$work/||" | cut -c1-70)
    printf '%-40s %6s %8.1f %s\n' "$name" "$t" "$(echo "$m / 1024" | bc -l)" "$status $msg"
    worst_t=$(echo "if ($t > $worst_t) $t else $worst_t" | bc -l); worst_m=$(( m > worst_m ? m : worst_m ))
done
echo "worst: ${worst_t} s, $((worst_m / 1024)) MB peak RSS"
