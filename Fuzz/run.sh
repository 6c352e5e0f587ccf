#!/usr/bin/env bash
# Fuzz the parser and the migrations with libFuzzer + AddressSanitizer.
# usage: Fuzz/run.sh [SECONDS]   (default 600). Crashing inputs land in Fuzz/crashes/; check
# them in under Fuzz/regressions/ (the test suite replays every file there).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
scratch=.build-fuzz
swift build -c debug --scratch-path "$scratch" --product plist-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library -Xswiftc -use-ld=lld 2>&1 | grep -v "Cannot export local symbol" >&2
seeds=$scratch/seeds
mkdir -p "$seeds" Fuzz/crashes
if [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then
    find ../shared/corpus Fixtures -name '*.plist' -size -64k -exec cp {} "$seeds/" \; 2>/dev/null || true
fi
"$scratch/debug/plist-fuzz" "$seeds" -max_total_time="$seconds" -max_len=16384 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix=Fuzz/crashes/ -print_final_stats=1
