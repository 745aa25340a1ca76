#!/usr/bin/env bash
# Whole-process seconds of `xtask bundle` for two xtask binaries, run in turn (A B A B ...), on a
# copy of the AtCoder fixtures (xtask/tests/data/atcoder): for each fixture, first with nothing
# changed since the last bundle, then after a one-line edit of its main.rs (a comment line added,
# as a save would). Prints the median of RUNS pairs (default 5) for each, and A ÷ B.
#
#   docs/bench/bundle-speed.sh target/xtask/xtask /tmp/before/target/xtask/xtask rand bitvec
#
# Each binary bundles into a target folder of its own (what a bundle keeps for the next is kept
# there per entry, not per binary: sharing one, each would find the other's entries), the
# fixtures' judge builds and a first bundle done before timing. GNU time (/usr/bin/time)
# measures; nothing else should be running.
set -euo pipefail
a=$(realpath "${1:?usage: bundle-speed.sh XTASK_A XTASK_B FIXTURE...}")
b=$(realpath "${2:?usage: bundle-speed.sh XTASK_A XTASK_B FIXTURE...}")
shift 2
runs=${RUNS:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/xtask/tests/data/atcoder" "$work/ws"

seconds() { # seconds XTASK PROBLEM a|b: one bundle's whole-process wall time
  CARGO_TARGET_DIR=$work/target-$3 \
    /usr/bin/time -o "$work/time" -f %e "$1" bundle "$2" -o "$work/out.rs" >/dev/null 2>&1
  cat "$work/time"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-10s %-12s %8s %8s %6s\n' fixture case A B 'A÷B'
for fixture in "$@"; do
  problem=$work/ws/problems/$fixture
  main=$problem/src/main.rs
  seconds "$a" "$problem" a >/dev/null || true
  seconds "$b" "$problem" b >/dev/null || true
  for case in unchanged edited; do
    : >"$work/a"; : >"$work/b"
    for ((i = 0; i < runs; i++)); do
      for which in a b; do
        [ "$case" = edited ] && echo "// edit $which $i" >>"$main"
        if [ "$which" = a ]; then seconds "$a" "$problem" a >>"$work/a"; else seconds "$b" "$problem" b >>"$work/b"; fi
      done
    done
    ma=$(median <"$work/a"); mb=$(median <"$work/b")
    printf '%-10s %-12s %8s %8s %6.2f\n' "$fixture" "$case" "$ma" "$mb" "$(echo "$ma / $mb" | bc -l)"
  done
done
