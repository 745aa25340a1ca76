#!/usr/bin/env bash
# Stress throughput on BOJ 1717 (the stress fixture's right union, tests/data/stress/uf-right),
# in ms a case, all in one run: the shell loop people write by hand (`gen i 35 > in; sol < in >
# o1; brute < in > o2; cmp o1 o2`), the bare harness (docs/bench/harness.rs: the three programs
# through std::process, compared in memory, no limits or figures: the machine's speed for this
# work) on 1 and 2 threads, and `cargo xtask stress --jobs 1` and `--jobs 2` (with what no case
# reached measured, as stress does by default, and with `--no-coverage`). Run it with nothing
# else on the machine. Everything it writes is under target/stress-bench.
#
#   docs/bench/stress-1717.sh                # CASES=1000; XTASK=... times another build
#   BEFORE=/path/to/older/xtask docs/bench/stress-1717.sh
#                                            # then PAIRS pairs (7) of `--jobs 2`, the older
#                                            # build and this one in turn, and their medians
set -euo pipefail
cd "$(dirname "$0")/../.."
CASES=${CASES:-1000}
PAIRS=${PAIRS:-7}
DIR=$PWD/target/stress-bench
rm -rf "$DIR/ws" && mkdir -p "$DIR"
cp -r xtask/tests/data/stress "$DIR/ws"
cargo build -q --profile judge --manifest-path "$DIR/ws/Cargo.toml" -p fixture-uf-right
BIN=$DIR/ws/target/judge
GEN=$BIN/fixture-uf-right-gen SOL=$BIN/fixture-uf-right REF=$BIN/fixture-uf-right-brute
rustc -O --edition 2021 -o "$DIR/harness" docs/bench/harness.rs
cargo build -q -p xtask
XTASK=${XTASK:-$PWD/target/debug/xtask}

per_case() { # per_case START_NS: ms a case since START_NS
  echo "scale=2; ($(date +%s%N) - $1) / 1000000 / $CASES" | bc
}

stress() { # stress XTASK JOBS [FLAGS...]: ms a case
  local xtask=$1 jobs=$2 start
  shift 2
  start=$(date +%s%N)
  CARGO_TARGET_DIR=$DIR/ws/target "$xtask" stress "$DIR/ws/uf-right" --cases "$CASES" --seed 1 \
    --jobs "$jobs" --color never "$@" > /dev/null
  per_case "$start"
}

# Once first, so that every build (the judge build, the instrumented one) is made.
CASES=10 stress "$XTASK" 2 > /dev/null
start=$(date +%s%N)
cd "$DIR"
for i in $(seq 1 "$CASES"); do
  "$GEN" "$i" 35 > in; "$SOL" < in > o1; "$REF" < in > o2; cmp -s o1 o2
done
cd - >/dev/null
echo "shell loop:              $(per_case "$start") ms a case"
for threads in 1 2; do
  echo "bare harness, $threads thread(s): $("$DIR/harness" "$GEN" "$SOL" "$REF" "$CASES" "$threads" 35)"
done
for jobs in 1 2; do
  echo "xtask stress --jobs $jobs:  $(stress "$XTASK" "$jobs") ms a case"
  echo "  --no-coverage:         $(stress "$XTASK" "$jobs" --no-coverage) ms a case"
done

if [ -n "${BEFORE:-}" ]; then
  CASES=10 stress "$BEFORE" 2 > /dev/null
  before=() after=()
  for _ in $(seq 1 "$PAIRS"); do
    before+=("$(stress "$BEFORE" 2)")
    after+=("$(stress "$XTASK" 2)")
  done
  median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
  echo "--jobs 2, $PAIRS pairs in turn: before $(median "${before[@]}") ms a case (${before[*]}),"
  echo "  after $(median "${after[@]}") ms a case (${after[*]})"
fi
