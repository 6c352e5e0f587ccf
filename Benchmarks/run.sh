#!/usr/bin/env bash
# Benchmark: plist-migrate's dry run against the floor (xmllint --noout) and a lossy Python
# peer, on a deterministic 10,000-file monorepo built from ../shared/corpus.
# usage: Benchmarks/run.sh [REPETITIONS] [FILE_COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
count=${2:-10000}
corpus=${CORPUS:-../shared/corpus}
# Outside the repository: inside it, .gitignore would hide the tree from discovery.
work=${BENCH_DIR:-${TMPDIR:-/tmp}/plist-migrate-bench}
if ! command -v xmllint >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libxml2-utils >/dev/null
fi
swift build -c release --product plist-migrate >/dev/null
bin=$(swift build -c release --show-bin-path)/plist-migrate

rm -rf "$work" && mkdir -p "$work"
python3 Benchmarks/make-monorepo.py "$corpus" "$work/monorepo" "$count"
find "$work/monorepo" -name '*.plist' -print0 | sort -z > "$work/files"
size=$(find "$work/monorepo" -name '*.plist' -printf '%s\n' | awk '{ s += $1 } END { printf "%.1f MB", s / 1e6 }')

# median wall seconds and max peak RSS (KB) of a command over $reps runs
measure() {
    local times=() rss=0 out
    for _ in $(seq "$reps"); do
        /usr/bin/time -o "$work/time" -f "%e %M" "$@" >/dev/null 2>/dev/null || true
        out=$(tail -1 "$work/time")
        times+=("${out% *}")
        (( ${out#* } > rss )) && rss=${out#* }
    done
    local median
    median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "$median $rss"
}

echo "tree: $count files, $size; $reps repetitions, median wall time"
echo "dry run says: $("$bin" --no-config "$work/monorepo" 2>&1 >/dev/null | tail -1)"
read -r t_j1 r_j1 < <(measure "$bin" --jobs 1 --no-config "$work/monorepo")
read -r t_jn r_jn < <(measure "$bin" --no-config "$work/monorepo")
read -r t_xml r_xml < <(measure bash -c "xargs -0 xmllint --noout < '$work/files'")
read -r t_py r_py < <(measure python3 Benchmarks/plistlib-peer.py "$work/monorepo")

row() { awk -v n="$count" -v t="$2" -v r="$3" -v name="$1" 'BEGIN { printf "%-34s %7.2f s %9.0f files/s %7.1f MB peak RSS\n", name, t, (t > 0 ? n / t : 0), r / 1024 }'; }
row "plist-migrate dry run --jobs 1" "$t_j1" "$r_j1"
row "plist-migrate dry run (all cores)" "$t_jn" "$r_jn"
row "xmllint --noout (floor)" "$t_xml" "$r_xml"
row "python plistlib peer (lossy)" "$t_py" "$r_py"
awk -v a="$t_j1" -v b="$t_xml" -v c="$t_py" -v d="$t_jn" 'BEGIN {
    printf "ratios: --jobs 1 / xmllint = %.2fx (target <= 2x); python / --jobs 1 = %.2fx (target >= 3x); all cores / xmllint = %.2fx\n", a / b, c / a, d / b }'

# A tree that needs nothing: no diff, exit 0. Migrate it, then replace the files that hold
# conflicts (which need a person, and so keep exit 2) with a clean migrated file.
"$bin" --write --no-config "$work/monorepo" >/dev/null 2>&1 || true
"$bin" --format json --no-config "$work/monorepo" 2>/dev/null | python3 -c '
import json, shutil, sys
files = json.load(sys.stdin)["files"]
clean = next(f["path"] for f in files if f["status"] == "unchanged" and not f["diagnostics"])
dirty = [f["path"] for f in files if f["diagnostics"] or f["status"] == "error"]
for path in dirty:
    shutil.copyfile(clean, path)
print("replaced %d files holding conflicts with a clean one" % len(dirty), file=sys.stderr)
'
set +e
out=$("$bin" --no-config "$work/monorepo" 2>/dev/null); status=$?
set -e
echo "clean tree: exit $status, $(printf '%s' "$out" | wc -c) bytes of diff"
