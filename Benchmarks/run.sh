#!/usr/bin/env bash
# Benchmark: plist-migrate's dry run against the floor (xmllint --noout) and a lossy Python
# peer, on a deterministic 10,000-file monorepo built from ../shared/corpus.
# usage: Benchmarks/run.sh [REPETITIONS] [FILE_COUNT]
# Prints every target ratio side by side from one run.
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
# The binary `make install` installs (on Linux, with the Swift runtime linked in).
make -s build >/dev/null
bin=$(swift build -c release --show-bin-path)/plist-migrate

rm -rf "$work" && mkdir -p "$work"
python3 Benchmarks/make-monorepo.py "$corpus" "$work/monorepo" "$count"
find "$work/monorepo" -name '*.plist' -print0 | sort -z > "$work/files"
size=$(find "$work/monorepo" -name '*.plist' -printf '%s\n' | awk '{ s += $1 } END { printf "%.1f MB", s / 1e6 }')

# The files that carry the ATS key, for the "only what it edits" comparison.
(cd "$work/monorepo" && grep -rl --include='*.plist' NSAppTransportSecurity . | sed 's|^\./||' | sort) > "$work/ats-list"
(cd "$work/monorepo" && tr '\n' '\0' < "$work/ats-list") > "$work/ats-files"
ats_count=$(wc -l < "$work/ats-list")
python3 Benchmarks/many-domains.py "$work/many-domains.plist" 10000

echo "tree: $count files, $size, $ats_count with NSAppTransportSecurity; $reps rounds (every command once per round), median wall time"
echo "dry run says: $("$bin" --no-config "$work/monorepo" 2>&1 >/dev/null | grep -m1 ' files\? scanned')"
# Rounds: each command runs once per round, in turn, so that the machine's slow spells hit
# every command alike; each gets the median of its wall times and its largest peak RSS (KB).
declare -A command=(
    [j1]="'$bin' --jobs 1 --no-config '$work/monorepo'"
    [j2]="'$bin' --jobs 2 --no-config '$work/monorepo'"
    [xml]="xargs -0 xmllint --noout < '$work/files'"
    [ats]="cd '$work/monorepo' && '$bin' --jobs 1 --no-config --files-from '$work/ats-list'"
    [xml_ats]="cd '$work/monorepo' && xargs -0 xmllint --noout < '$work/ats-files'"
    [lint]="'$bin' lint --no-config --rules checks '$work/monorepo'"
    [posture]="'$bin' lint --no-config '$work/monorepo'"
    [py]="python3 Benchmarks/plistlib-peer.py '$work/monorepo'"
    [many]="'$bin' --no-config '$work/many-domains.plist'"
)
order=(j1 j2 xml ats xml_ats lint posture py many)
for name in "${order[@]}"; do : > "$work/times.$name"; : > "$work/cpu.$name"; echo 0 > "$work/rss.$name"; done
# Wall time from bash's microsecond clock: GNU time's %e has centiseconds, a 5% step at 0.2 s.
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f\n", b - a }'; }
for _ in $(seq "$reps"); do
    for name in "${order[@]}"; do
        started=$EPOCHREALTIME
        /usr/bin/time -o "$work/time" -f "%M %U %S" bash -c "${command[$name]}" >/dev/null 2>/dev/null || true
        ended=$EPOCHREALTIME
        read -r rss user system < <(tail -1 "$work/time")
        elapsed "$started" "$ended" >> "$work/times.$name"
        awk -v u="$user" -v s="$system" 'BEGIN { print u + s }' >> "$work/cpu.$name"
        (( rss > $(cat "$work/rss.$name") )) && echo "$rss" > "$work/rss.$name"
    done
done
median() { sort -n "$work/times.$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for name in "${order[@]}"; do
    printf -v "t_$name" '%s' "$(median "$name")"
    printf -v "r_$name" '%s' "$(cat "$work/rss.$name")"
done

row() { awk -v n="$2" -v t="$3" -v r="$4" -v name="$1" 'BEGIN { printf "%-42s %7.2f s %9.0f files/s %7.1f MB peak RSS\n", name, t, (t > 0 ? n / t : 0), r / 1024 }'; }
row "plist-migrate dry run --jobs 1" "$count" "$t_j1" "$r_j1"
row "plist-migrate dry run --jobs 2" "$count" "$t_j2" "$r_j2"
row "xmllint --noout (floor)" "$count" "$t_xml" "$r_xml"
row "plist-migrate --jobs 1, ATS files only" "$ats_count" "$t_ats" "$r_ats"
row "xmllint --noout, ATS files only" "$ats_count" "$t_xml_ats" "$r_xml_ats"
row "plist-migrate lint --rules checks" "$count" "$t_lint" "$r_lint"
row "plist-migrate lint (checks and posture)" "$count" "$t_posture" "$r_posture"
row "python plistlib peer (lossy)" "$count" "$t_py" "$r_py"
row "one file, 10,000 domains (ATS001+ATS004)" 1 "$t_many" "$r_many"
peak=$(printf '%s\n' "$r_j1" "$r_j2" "$r_ats" "$r_lint" "$r_posture" | sort -n | tail -1)
# Each ratio three ways: wall time, of the medians and as the median of the ratios within each
# round (the two commands ran seconds apart, so the machine's slow spells that last longer than
# that cancel); and CPU time (user + system, children included), as the median of the per-round
# ratios, which time stolen by the VM's host does not count.
paired() { paste "$work/$3.$1" "$work/$3.$2" | awk '$2 > 0 { print $1 / $2 }' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
bar() { awk -v name="$1" -v a="$2" -v b="$3" -v p="$(paired "$4" "$5" times)" -v c="$(paired "$4" "$5" cpu)" -v bar="$6" \
    'BEGIN { printf "  %-44s %5.2f   %5.2f   %5.2f   (bar %s)\n", name, a / b, p, c, bar }'; }
echo "bars:                            wall: ratio of medians, median per-round ratio; CPU: median per-round ratio"
bar "dry run --jobs 1 / xmllint, whole tree" "$t_j1" "$t_xml" j1 xml "<= 1.0x, stretch 0.75x"
bar "dry run --jobs 1 / xmllint, ATS files only" "$t_ats" "$t_xml_ats" ats xml_ats "<= 2.0x, stretch 1.5x"
bar "python plistlib peer / dry run" "$t_py" "$t_j1" py j1 ">= 5x"
bar "--jobs 2 / --jobs 1" "$t_j2" "$t_j1" j2 j1 "<= 0.6"
bar "lint --rules checks / dry run, all (2) cores" "$t_lint" "$t_j2" lint j2 "<= 1.5x"
# Posture findings ask the policy engine per OS era and host: no target ratio covers them.
bar "lint with posture / dry run, all (2) cores" "$t_posture" "$t_j2" posture j2 "none; measured"
awk -v many="$t_many" -v peak="$peak" 'BEGIN {
    printf "  peak RSS over the tree runs                  %5.1f MB (bar <= 64 MB)\n", peak / 1024
    printf "  10,000 domains needing edits                 %5.2f s  (bar < 1 s)\n", many }'

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
' || true  # the report run exits 2 while conflicts remain; with pipefail that would end the script
set +e
out=$("$bin" --no-config "$work/monorepo" 2>/dev/null); status=$?
set -e
echo "clean tree: exit $status, $(printf '%s' "$out" | wc -c) bytes of diff"
# The same tree once nothing needs changing: what a CI gate (--check) costs day to day.
: > "$work/times.clean"; : > "$work/times.clean_xml"
for _ in $(seq "$reps"); do
    started=$EPOCHREALTIME
    "$bin" --jobs 1 --no-config "$work/monorepo" >/dev/null 2>&1 || true
    elapsed "$started" "$EPOCHREALTIME" >> "$work/times.clean"
    started=$EPOCHREALTIME
    bash -c "xargs -0 xmllint --noout < '$work/files'" >/dev/null 2>&1 || true
    elapsed "$started" "$EPOCHREALTIME" >> "$work/times.clean_xml"
done
awk -v c="$(median clean)" -v x="$(median clean_xml)" 'BEGIN {
    printf "clean tree, dry run --jobs 1: %.2f s, %.2fx xmllint (%.2f s)\n", c, c / x, x }'
