#!/usr/bin/env bash
# What expanding proc macros costs a bundle (docs/bundling.md, "Proc macros"): whole-process
# time of `xtask bundle` (no --check), twice after a warm-up, for the AtCoder fixtures whose
# crates have proc macros (proconio with derive, num-derive, memoise, easy-ext, and pathfinding,
# whose own `MatrixFormatError` derives thiserror's `Error`), and for `either`, which has none
# (the pass must cost it nothing). Run it at REV and at the commit before the proc-macro pass to
# compare (before, the first four are refused or do not compile; pathfinding and either bundle
# both times).
#
#   docs/bench/proc-macros.sh /tmp/pm-bench [REV]    # REV: the commit to clone (HEAD)
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out=${1:?usage: proc-macros.sh DIR [REV]}
rev=${2:-HEAD}
rm -rf "$out/ws"
mkdir -p "$out"
git clone -q "$repo" "$out/ws"
cd "$out/ws"
git checkout -q "$rev"
cargo build -q --profile xtask -p xtask
xtask=$out/ws/target/xtask/xtask
export CARGO_TARGET_DIR=$out/target
for name in either pathfinding proconio-derive num-derive memoise easy-ext; do
  problem=xtask/tests/data/atcoder/problems/$name
  [ -d "$problem" ] || continue
  "$xtask" bundle "$problem" -o "$out/$name.rs" >/dev/null 2>&1 || true  # warm the judge build
  for run in 1 2; do
    /usr/bin/time -f "$name run $run: %e s wall, %M KB peak" \
      "$xtask" bundle "$problem" -o "$out/$name.rs" >/dev/null 2>>"$out/times.txt" || true
  done
done
grep ' run ' "$out/times.txt"
