#!/usr/bin/env bash
# How long `cargo xtask hack` takes to find each planted bug of the tests' fixtures
# (xtask/tests/data/hunt: equal values, a -1 branch no generated case reaches, n = 1, a u32
# product past the generator's numbers), for
# SEEDS seeds each (1 to 5): the search's own time as its summary gives it (after the builds,
# which are made once first), the inputs it judged and the tokens of the input it saved. Run it
# with nothing else on the machine. Everything it writes is under target/hack-bench.
#
#   docs/bench/hack-fixtures.sh              # SEEDS=5; XTASK=... times another build
set -euo pipefail
cd "$(dirname "$0")/../.."
SEEDS=${SEEDS:-5}
DIR=$PWD/target/hack-bench
rm -rf "$DIR" && mkdir -p "$DIR"
cp -r xtask/tests/data/hunt "$DIR/ws"
cargo build -q -p xtask
XTASK=${XTASK:-$PWD/target/debug/xtask}
export CARGO_TARGET_DIR=$DIR/ws/target
for problem in pairs-wrong path-wrong gap-wrong mul-wrong; do
  # The builds (judge and instrumented) once, out of the figures.
  "$XTASK" hack "$DIR/ws/$problem" --time 1 --seed 0 > /dev/null 2>&1 || true
  rm -f "$DIR/ws/$problem"/samples/hack-*
  for seed in $(seq 1 "$SEEDS"); do
    out=$("$XTASK" hack "$DIR/ws/$problem" --time 120 --seed "$seed" --color never || true)
    summary=$(grep -E "^fixture-$problem: " <<<"$out")
    saved=$(ls "$DIR/ws/$problem"/samples/hack-* 2>/dev/null | grep '\.in$' | head -1)
    tokens=$( [ -n "$saved" ] && wc -w < "$saved" || echo -)
    echo "seed $seed: $(awk -F' · ' '{ print $1 " · " $2 " · " $3 }' <<<"$summary" | sed 's/^fixture-//') · $tokens tokens saved"
    rm -f "$DIR/ws/$problem"/samples/hack-*
  done
done
