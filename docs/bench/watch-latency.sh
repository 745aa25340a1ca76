#!/usr/bin/env bash
# Save -> verdict under `cargo xtask watch 1000` in the workspace WS (docs/bench/archive.sh):
# starts the watcher, then for each of RUNS saves touches problems/boj-1000/src/main.rs and
# waits for the watcher's next summary line, printing the milliseconds between the two.
#
#   docs/bench/watch-latency.sh WS [RUNS]
set -euo pipefail
# Job control: the watcher runs in a process group of its own, and Ctrl-C's SIGINT (which a
# script's background jobs would otherwise ignore) ends it and all it started.
set -m
ws=${1:?usage: watch-latency.sh WS [RUNS]}
runs=${2:-7}
cd "$ws"
log=$(mktemp)
cargo xtask watch 1000 --color never >"$log" 2>&1 &
watcher=$!
trap 'kill -INT -- -$watcher 2>/dev/null; wait $watcher 2>/dev/null; rm -f "$log"' EXIT
summaries() { grep -c '^boj-1000: ' "$log" || true; }
until [ "$(summaries)" -ge 1 ]; do sleep 0.05; done
for _ in $(seq "$runs"); do
  sleep 1
  before=$(summaries)
  start=$(date +%s%N)
  touch problems/boj-1000/src/main.rs
  until [ "$(summaries)" -gt "$before" ]; do sleep 0.005; done
  echo $(( ($(date +%s%N) - start) / 1000000 ))
done
