#!/usr/bin/env bash
# What cargo pays to load a workspace of N problems, 8 of them open, in each way the root manifest
# could name them (ARCHITECTURE.md, "How the root manifest names them"): whole-process time of
# `cargo metadata --no-deps --offline` (cargo's workspace loading, nothing built), R runs each,
# the layouts taken in turn so that a busy moment falls on all of them alike.
#
#   docs/bench/members-layouts.sh [N] [R]     # N problems (1003), R rounds (20)
#
# Layouts: listed (open problems as plain paths, `problems` excluded: the archive's first form,
# which a deleted open problem breaks), tolerant (this project's: open problems written
# problems/../[p]roblems/NAME, archived ones excluded one by one), glob (`problems/*` with the
# archived ones excluded: cargo's documented way), and all (every problem a member: before the
# archive). Each line: the layout, then the median, minimum and maximum milliseconds a load.
set -euo pipefail
n=${1:-1003}
rounds=${2:-20}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/problems"
for i in $(seq 1 "$n"); do
  p=$dir/problems/boj-$((10000 + i))
  mkdir -p "$p/src"
  printf '[package]\nname = "boj-%s"\nversion = "0.1.0"\nedition = "2021"\n' $((10000 + i)) >"$p/Cargo.toml"
  echo 'fn main() {}' >"$p/src/main.rs"
done
open_from=$((10000 + n - 7))
manifest() { # manifest LAYOUT: the root Cargo.toml of that layout
  local members=() exclude=() i
  case $1 in
    listed)
      for i in $(seq "$open_from" $((10000 + n))); do members+=("\"problems/boj-$i\""); done
      exclude=('"problems"') ;;
    tolerant)
      for i in $(seq "$open_from" $((10000 + n))); do members+=("\"problems/../[p]roblems/boj-$i\""); done
      exclude=('"[p]roblems"')
      for i in $(seq 10001 $((open_from - 1))); do exclude+=("\"problems/boj-$i\""); done ;;
    glob)
      members=('"problems/*"')
      for i in $(seq 10001 $((open_from - 1))); do exclude+=("\"problems/boj-$i\""); done ;;
    all)
      members=('"problems/*"') ;;
  esac
  local IFS=,
  printf '[workspace]\nresolver = "2"\nmembers = [%s]\nexclude = [%s]\n' "${members[*]}" "${exclude[*]:-}"
}
layouts=(listed tolerant glob all)
for layout in "${layouts[@]}"; do : >"$dir/$layout.times"; done
for _ in $(seq "$rounds"); do
  for layout in "${layouts[@]}"; do
    manifest "$layout" >"$dir/Cargo.toml"
    start=$(date +%s%N)
    cargo metadata --no-deps --offline --format-version 1 --manifest-path "$dir/Cargo.toml" >/dev/null
    echo $((($(date +%s%N) - start) / 1000000)) >>"$dir/$layout.times"
  done
done
for layout in "${layouts[@]}"; do
  sort -n "$dir/$layout.times" | awk -v l="$layout" '{a[NR]=$1} END {printf "%-9s median %d ms (min %d, max %d)\n", l, a[int((NR+1)/2)], a[1], a[NR]}'
done
