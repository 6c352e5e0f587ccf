#!/usr/bin/env bash
# Records what plist-migrate prints (migrate text/JSON/patch, lint text/JSON/SARIF, explain
# JSON) over a tree, so two builds can be compared byte for byte: a refactor that must not
# change output is checked with `diff -r` of two such folders.
# usage: Benchmarks/outputs.sh BINARY TREE OUT_DIR
set -uo pipefail
bin=$1 tree=$2 out=$3
mkdir -p "$out"
run() { local name=$1; shift; (cd "$tree" && "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err"; echo "exit $?" >>"$out/$name.err"); }
run migrate-text --no-config --jobs 1 --color never .
run migrate-json --no-config --format json .
run migrate-patch --no-config --format patch .
run migrate-all-json --no-config --allow-policy-change --format json .
run lint-text lint --no-config --color never .
run lint-json lint --no-config --format json .
run lint-sarif lint --no-config --format sarif .
# explain: every file that mentions ATS (the first 400), JSON and text. `sed` reads all its input:
# `head` would exit after 400 lines, and `sort` writing after that would die of SIGPIPE, which
# `pipefail` turns into this script's exit status now and then.
(cd "$tree" && grep -rl --include='*.plist' NSAppTransportSecurity . | sort | sed -n '1,400p' | while read -r f; do
    echo "== $f"; "$bin" explain "$f" --format json 2>&1; echo "exit $?"
    "$bin" explain "$f" --host api.example.com 2>&1; echo "exit $?"
done) >"$out/explain.out"
