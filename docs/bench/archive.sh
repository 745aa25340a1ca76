#!/usr/bin/env bash
# The two workspaces of the archive benchmark (docs/benchmarks.md, "A year of practice"):
# DIR/ws-3, a clone of this repository with BOJ 1000 (A+B, solved) added: 3 problems; and
# DIR/ws-1003, the same with 1,000 more problems made by `cargo xtask new` (their templates
# untouched). Each is built and judged once, so the figures then measure the everyday loop.
#
#   docs/bench/archive.sh /tmp/archive-bench [REV]   # REV: the commit to clone (HEAD);
#                                                    # about ten minutes on 2 cores
#
# Then, in each workspace (docs/benchmarks.md has the figures and how they were taken):
#   cargo xtask test 1000                                        # a verdict, nothing changed
#   sh -c 'touch problems/boj-1000/src/main.rs; cargo xtask test 1000'   # edit -> verdict
#   sh -c 'touch problems/boj-1000/src/main.rs; cargo check --workspace --message-format=json \
#     --keep-going --all-targets >/dev/null'       # what rust-analyzer runs at each save
#   cargo xtask test                                             # every problem, again
#   docs/bench/watch-latency.sh WS                               # save -> watch's verdict
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out=${1:?usage: archive.sh DIR [REV]}
rev=${2:-HEAD}
mkdir -p "$out"
for n in 3 1003; do
  ws=$out/ws-$n
  rm -rf "$ws"
  git clone -q "$repo" "$ws"
  cd "$ws"
  git checkout -q "$rev"
  cargo build -q -p xtask
  xtask=$ws/target/debug/xtask
  if [ "$n" = 1003 ]; then
    for id in $(seq 10001 11000); do "$xtask" new "$id" >/dev/null; done
  fi
  "$xtask" new 1000 >/dev/null
  cat >problems/boj-1000/src/main.rs <<'RUST'
//! BOJ 1000: A+B.

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let sum: i64 = input.split_whitespace().map(|w| w.parse::<i64>().unwrap()).sum();
    println!("{}", sum);
}
RUST
  printf '1 2\n' >problems/boj-1000/samples/1.in
  printf '3\n' >problems/boj-1000/samples/1.out
  cargo xtask test --color never >/dev/null
  cargo check -q --workspace --all-targets
  echo "$ws: $(ls problems | wc -l) problems"
done
