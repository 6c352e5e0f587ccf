#!/usr/bin/env bash
# Fuzz plist-migrate with libFuzzer + AddressSanitizer, for as long as asked, collecting every
# finding.
#
# usage: Fuzz/run.sh [SECONDS] [TARGETS]   (default: 600 s, "migrate write recipe edit project report output")
#   FUZZ_SCRATCH=DIR  the build and work folder (default .build-fuzz in the repository; any
#                     folder, inside the tree or not, relative to the repository or absolute)
#   FUZZ_RUNS=N       stop each target after N executions too (a nightly job: 10000000)
#   migrate  parse -> print -> migrate (default passes and every pass) -> a second run: the
#            output parses, passes the engine's own check, and the run is idempotent as a whole
#   write    the write path on a real file: temp file, last-moment check, rename; nothing left
#            behind, the file holds exactly the migrated bytes, a second run has nothing to write
#   recipe   a recipe file (raw bytes, or generated from a grammar of steps, paths and values when
#            the first byte is odd) -> load -> run on a plist: never an internal error, the
#            output parses and passes the write check, a second run changes nothing
#   edit     `edit` commands, one a line -> parse -> run: never an internal error, output parses
#   project  the project readers (first byte: pbxproj, xcconfig or project.yml; the rest, the
#            file): every read ends within libFuzzer's limits and says a bounded amount
#   report   a JSON report for `plist-migrate report` (merged with itself, rendered as HTML, JSON
#            and text) and a review decision for --accept: never a crash
#   output   the report's --output path (first byte: a new or old file, a directory, FIFO,
#            socket, a link to each, a link to nothing, a loop, a fuzzed name, an input) and
#            closed streams: only a file is written, exactly; every refusal leaves the place as
#            it was; no temporary file is left; a closed pipe is an error, never a signal
# The targets run side by side (one libFuzzer fork worker each), each for SECONDS. libFuzzer's
# fork mode keeps going after a finding; findings land in Fuzz/crashes/TARGET/, are replayed,
# grouped by the violation they report (numbers and paths blanked) and summarised at the end,
# one file per cause in Fuzz/crashes/TARGET/by-cause/. Check one input per cause in under
# Fuzz/regressions/ (the test suite replays every file there through both targets).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-600}
targets=${2:-migrate write recipe edit project report output}
scratch=${FUZZ_SCRATCH:-.build-fuzz}
mkdir -p "$scratch"
# Absolute from here on: libFuzzer refuses a relative artifact prefix that leaves its folder,
# and the workers run inside the scratch folder.
scratch=$(cd "$scratch" && pwd)
runs=()
[ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
# Swift's crash handler would otherwise set off a false AddressSanitizer report on a finding.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0"
# Optimised (-O keeps every precondition and the sanitizers): seven times the executions of a
# debug build.
swift build -c release --scratch-path "$scratch" --product plist-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library -Xswiftc -use-ld=lld 2>&1 \
    | grep -v "Cannot export local symbol" >&2
binary=$scratch/release/plist-fuzz
seeds=$scratch/seeds
mkdir -p "$seeds" "$seeds-recipe" "$seeds-edit" "$seeds-project" "$seeds-report" "$seeds-output"
if [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then
    find ../shared/corpus Fixtures Fuzz/regressions -name '*.plist' -size -17k -exec cp {} "$seeds/" \; 2>/dev/null || true
fi
if [ -z "$(ls -A "$seeds-recipe" 2>/dev/null)" ]; then
    # Raw recipes start with an even byte; odd bytes followed by choices drive the grammar.
    for recipe in Recipes/*.yml Fixtures/recipes/*.yml; do
        [ -e "$recipe" ] && { printf '\0'; cat "$recipe"; } > "$seeds-recipe/$(basename "$recipe")"
    done
    for i in $(seq 1 16); do head -c 64 /dev/urandom | { printf '\1'; cat; } > "$seeds-recipe/grammar-$i"; done
fi
if [ -z "$(ls -A "$seeds-edit" 2>/dev/null)" ]; then
    printf 'Set :A x\nAdd :B:C: string y\nDelete :B:D\nPrint :B\n' > "$seeds-edit/basic"
    printf 'Add :N dict\nAdd :N:K array\nAdd :N:K: integer 3\nSet :A "a  b"\n' > "$seeds-edit/nested"
fi
if [ -z "$(ls -A "$seeds-project" 2>/dev/null)" ]; then
    # The first byte picks the reader: 0 pbxproj, 1 xcconfig, 2 project.yml.
    i=0
    for file in $(find Fixtures -name project.pbxproj -size -17k); do { printf '\0'; cat "$file"; } > "$seeds-project/pbxproj-$((i++))"; done
    for file in $(find Fixtures -name '*.xcconfig' -size -17k); do { printf '\1'; cat "$file"; } > "$seeds-project/xcconfig-$((i++))"; done
    for file in $(find Fixtures -name project.yml -size -17k); do { printf '\2'; cat "$file"; } > "$seeds-project/yml-$((i++))"; done
fi
if [ -z "$(ls -A "$seeds-report" 2>/dev/null)" ]; then
    # Real reports and a decision to start from, made by the tool built here (a fresh clone has
    # no other build to ask).
    swift build -c debug --scratch-path "$scratch/tool" --product plist-migrate 2>&1 | tail -1 >&2
    tool=$scratch/tool/debug/plist-migrate
    "$tool" --format json Fixtures/demo > "$seeds-report/demo.json" 2>/dev/null || true
    "$tool" --format json --allow-policy-change Fixtures/demo > "$seeds-report/demo-all-passes.json" 2>/dev/null || true
    "$tool" --format json Fixtures/demo/ShopApp/Info.plist > "$seeds-report/one-file.json" 2>/dev/null || true
    for seed in demo demo-all-passes one-file; do
        [ -s "$seeds-report/$seed.json" ] || { echo "Fuzz/run.sh: could not make the report seed $seed.json" >&2; exit 2; }
    done
    printf '{"schemaVersion":1,"toolVersion":"0","accepted":["ATS001-000000000000"],"rejected":[]}' > "$seeds-report/decision.json"
fi
if [ -z "$(ls -A "$seeds-output" 2>/dev/null)" ]; then
    # One seed per place --output can name (first byte), cut into 5-byte writes, status 0.
    for place in $(seq 0 11); do
        { printf "\\$(printf '%03o' "$place")\\005\\000"; printf '{"files":[]}\n'; } > "$seeds-output/place-$place"
    done
fi

# Where a target's input files live while it runs.
scratch_for() {
    if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
        echo "/dev/shm/plist-fuzz-$$-$1"
    else
        echo "$scratch/work-$1/tmp"
    fi
}

pids=()
for target in $targets; do
    out=Fuzz/crashes/$target
    work=$scratch/work-$target
    mkdir -p "$out" "$work/corpus"
    # Each target grows its own corpus, starting from the shared seeds.
    case $target in recipe|edit|project|report|output) target_seeds=$seeds-$target ;; *) target_seeds=$seeds ;; esac
    # Each worker's scratch folders go here and are removed with it below: in memory when
    # /dev/shm is a tmpfs (the write, project, report and output targets make and remove files
    # for every input, and a disk's fsync and inode work would be most of their time).
    files=$(scratch_for "$target")
    mkdir -p "$files"
    (cd "$work" && PLIST_FUZZ_SCRATCH="$files" PLIST_FUZZ_TARGET=$target "$binary" corpus "$target_seeds" \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$seconds" ${runs[@]+"${runs[@]}"} -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$root/$out/" -print_final_stats=1 >log.txt 2>&1) &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || true; done
for target in $targets; do rm -rf "$(scratch_for "$target")"; done

status=0
for target in $targets; do
    out=Fuzz/crashes/$target
    work=$scratch/work-$target
    execs=$(grep -aoE '^#[0-9]+' "$work/log.txt" | tail -1 | tr -d '#')
    echo "== $target: ${execs:-0} executions in ${seconds} s"
    rm -rf "$out/by-cause"
    mkdir -p "$out/by-cause"
    declare -A seen=()
    for finding in "$out"/crash-* "$out"/timeout-* "$out"/oom-* "$out"/leak-*; do
        [ -e "$finding" ] || continue
        mkdir -p "$scratch/replay-tmp"
        cause=$(PLIST_FUZZ_SCRATCH="$scratch/replay-tmp" PLIST_FUZZ_TARGET=$target "$binary" "$finding" 2>&1 \
            | grep -aoE 'Fatal error: .*|ERROR: (AddressSanitizer|LeakSanitizer): [a-z -]+|ERROR: libFuzzer: [a-z-]+' | head -1 \
            | sed -E 's/[0-9]+/N/g; s#/tmp/[^ ]*#TMP#g' || true)  # the replay's own status is the finding's
        [ -n "$cause" ] || cause="$(basename "$finding" | cut -d- -f1) (does not reproduce on replay)"
        if [ -z "${seen[$cause]:-}" ]; then
            seen[$cause]=$finding
            cp "$finding" "$out/by-cause/$(printf '%02d' "${#seen[@]}").input"
        fi
    done
    if [ "${#seen[@]}" -eq 0 ]; then
        echo "   no findings"
    else
        status=1
        echo "   ${#seen[@]} distinct cause(s):"
        for cause in "${!seen[@]}"; do echo "   - $cause  (e.g. ${seen[$cause]})"; done
    fi
    unset seen
done
rm -rf "$scratch/replay-tmp"
exit $status
