#!/usr/bin/env bash
# The speed gate: counts the instructions the release binary executes (valgrind's cachegrind,
# no cache simulation) on fixed, generated workloads and compares each with
# Benchmarks/instructions-baseline.tsv. Instruction counts repeat to a few parts per million on
# the same binary and inputs whatever else the machine does; wall time moves ±20%.
#
# usage: Benchmarks/instructions.sh [--update] [--tolerance PERCENT] [--count FILES]
#   (no option)   count every workload, print it beside its baseline, exit 1 when any grew by more
#                 than the tolerance (2% unless given), 0 otherwise
#   --update      write the counts as the new baseline (commit it, saying why it moved)
#   --only NAME   count one workload (repeatable); with --update, only its row changes
#
# What keeps a count repeatable: the same generated inputs (../shared/corpus, fixed seeds) at the
# same paths (a fixed folder, paths given relative to it), an empty environment but for PATH, HOME
# and SWIFT_DETERMINISTIC_HASHING=1 (Swift seeds its hashing per process otherwise, and a
# dictionary's probe counts with it), one job, and no configuration file. valgrind 3.19 cannot
# read the DWARF 5 of this toolchain's debug info, so it counts a copy with that stripped.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
baseline=Benchmarks/instructions-baseline.tsv
update=0 tolerance=2 count=2000 only=()
while [ $# -gt 0 ]; do
    case $1 in
        --update) update=1 ;;
        --tolerance) tolerance=$2; shift ;;
        --count) count=$2; shift ;;
        --only) only+=("$2"); shift ;;
        *) echo "usage: Benchmarks/instructions.sh [--update] [--tolerance PERCENT] [--count FILES] [--only NAME]…" >&2; exit 64 ;;
    esac
    shift
done
corpus=${CORPUS:-$root/../shared/corpus}
if ! command -v valgrind >/dev/null; then
    echo "instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2
fi
if [ ! -d "$corpus/real" ]; then echo "instructions.sh: no corpus at $corpus (set CORPUS)" >&2; exit 2; fi

# The binary `make install` installs, without its debug info.
make -s build >/dev/null
# A fixed folder: the paths the tool prints and hashes are then the same on every machine.
# Another folder (INSTRUCTIONS_DIR) moves the counts (`report` by 4% for a path 19 bytes
# shorter): compare with the baseline only in the default one.
work=${INSTRUCTIONS_DIR:-/tmp/plist-migrate-instructions}
rm -rf "$work" && mkdir -p "$work/home"
bin=$work/plist-migrate
cp "$(swift build -c release --show-bin-path)/plist-migrate" "$bin"
strip --strip-debug "$bin"

# Workloads' inputs: all generated, none committed.
python3 Benchmarks/make-monorepo.py "$corpus" "$work/monorepo" "$count" >/dev/null
# The same files as real repositories hold them (a target folder under each app folder), run as
# users run the tool: default options, so configs and projects are looked for around every file.
python3 Benchmarks/make-monorepo.py "$corpus" "$work/repositories" "$count" --targets >/dev/null
(cd "$work/monorepo" && grep -rl --include='*.plist' NSAppTransportSecurity . | sed 's|^\./||' | LC_ALL=C sort) > "$work/ats-list"
python3 Benchmarks/many-domains.py "$work/many-domains.plist" 10000
python3 Benchmarks/many-domains.py "$work/sparse-domains.plist" 20000 --every 25
python3 Benchmarks/make-project.py "$work/project" 8000 400
# A fleet: one JSON report per tenth of the monorepo, as a job per repository would write.
mkdir -p "$work/fleet"
for shard in 0 1 2 3 4 5 6 7 8 9; do
    (cd "$work/monorepo" && env -i PATH=/usr/bin:/bin HOME="$work/home" "$bin" --no-config --jobs 1 --format json \
        $(ls -d app*"$shard" | LC_ALL=C sort) > "$work/fleet/repo$shard.json" 2>/dev/null) || true
done

declare -A command=(
    [tree]="--jobs 1 --no-config monorepo"
    [ats-files]="--jobs 1 --no-config --files-from ../ats-list"
    [many-domains]="--no-config many-domains.plist"
    [sparse-domains]="--no-config sparse-domains.plist"
    [lint]="lint --jobs 1 --no-config monorepo"
    [report]="report --format json fleet/repo0.json fleet/repo1.json fleet/repo2.json fleet/repo3.json fleet/repo4.json fleet/repo5.json fleet/repo6.json fleet/repo7.json fleet/repo8.json fleet/repo9.json"
    [targets]="targets project"
    [repositories]="--jobs 1 repositories"
)
order=(tree ats-files many-domains sparse-domains lint report targets repositories)
all=("${order[@]}")
[ ${#only[@]} -gt 0 ] && order=("${only[@]}")
# The ATS-files workload reads its list relative to the monorepo.
declare -A folder=([ats-files]=monorepo)

count_instructions() {
    local name=$1 dir=$work/${folder[$1]:-} code=0
    # shellcheck disable=SC2086 # the command's words are split on purpose
    (cd "$dir" && env -i PATH=/usr/bin:/bin HOME="$work/home" SWIFT_DETERMINISTIC_HASHING=1 PLIST_MIGRATE_COUNTS=1 \
        valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        --log-file="$work/$name.valgrind" "$bin" ${command[$name]} >/dev/null 2>"$work/$name.err") || code=$?
    # 1 and 2 are answers (changes, findings, conflicts); anything else means the workload broke.
    if [ "${code:-0}" -gt 2 ]; then
        echo "instructions.sh: $name exited ${code}:" >&2; tail -5 "$work/$name.err" >&2; exit 2
    fi
    local refs
    refs=$(awk '/I *refs:/ { gsub(",", "", $NF); print $NF }' "$work/$name.valgrind")
    if [ -z "$refs" ]; then
        echo "instructions.sh: valgrind counted nothing for $name:" >&2; cat "$work/$name.valgrind" "$work/$name.err" >&2; exit 2
    fi
    echo "$refs"
}

declare -A counted
for name in "${order[@]}"; do
    [ -n "${command[$name]:-}" ] || { echo "instructions.sh: no workload named $name" >&2; exit 64; }
    counted[$name]=$(count_instructions "$name")
done

if [ "$update" = 1 ]; then
    tmp=$(mktemp)
    { echo "# workload	instructions	(Benchmarks/instructions.sh --update writes this; --count $count)"
      for name in "${all[@]}"; do
          if [ -n "${counted[$name]:-}" ]; then value=${counted[$name]}
          else value=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$baseline" 2>/dev/null)
          fi
          [ -n "$value" ] && printf '%s\t%s\n' "$name" "$value"
      done; } > "$tmp"
    mv "$tmp" "$baseline"
    echo "wrote $baseline:"; cat "$baseline"
    exit 0
fi

[ -f "$baseline" ] || { echo "instructions.sh: no $baseline (run with --update)" >&2; exit 2; }
status=0
printf '%-14s %16s %16s %9s\n' workload baseline now change
for name in "${order[@]}"; do
    base=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$baseline")
    now=${counted[$name]}
    if [ -z "$base" ]; then
        printf '%-14s %16s %16s %9s\n' "$name" "-" "$now" "new"; status=1; continue
    fi
    verdict=$(awk -v b="$base" -v n="$now" -v t="$tolerance" 'BEGIN {
        c = (n - b) * 100 / b; printf "%+.2f%%", c; if (c > t) printf " FAIL" }')
    # How often the settings were read and compared (a run of migrate says so on its last line).
    counts=$(sed -n 's/^plist-migrate: work: //p' "$work/$name.err" | tail -1)
    printf '%-14s %16s %16s %9s  %s\n' "$name" "$base" "$now" "$verdict" "$counts"
    case $verdict in *FAIL) status=1 ;; esac
done
if [ "$status" != 0 ]; then
    echo "instructions.sh: a workload grew by more than ${tolerance}% (or has no baseline). If that is the price of a" >&2
    echo "change worth it, run Benchmarks/instructions.sh --update and say why in the commit." >&2
fi
exit "$status"
