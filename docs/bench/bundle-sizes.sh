#!/usr/bin/env bash
# The size in bytes of every bundle the project's tests and docs speak of: the Sudoku problems,
# the ac-library-rs fixtures, the bundler's own fixture problems, the AtCoder crate list's
# fixtures and the derive crates' (derive_more, strum), one `NAME BYTES` line each, sorted by name (`refused` when the bundler refuses it).
# Compare two runs of it, before and after a change to the bundler, with `join`:
#
#   docs/bench/bundle-sizes.sh target/xtask/xtask > /tmp/after.txt
#   join /tmp/before.txt /tmp/after.txt | awk '{ printf "%s %s %s %+.1f%%\n", $1, $2, $3, ($3-$2)*100/$2 }'
#
# With a folder as OUT, the bundles are kept there (`diff -r` two such folders to see what moved).
# XTASK is the xtask binary to use (build it with `cargo build -p xtask --profile xtask`); the
# bundles go to a scratch folder, the fixtures' builds to their own target folders.
set -u
xtask=${1:?usage: bundle-sizes.sh XTASK [OUT]}
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${2:-}" ]; then
    out=$2
    mkdir -p "$out"
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
{
for problem in "$root"/problems/boj-* "$root"/xtask/tests/data/acl/*/ \
    "$root"/xtask/tests/data/bundle-fixture/problems/*/ "$root"/xtask/tests/data/atcoder/problems/*/ \
    "$root"/xtask/tests/data/atcoder-newest/problems/*/ \
    "$root"/xtask/tests/data/derive-crates/problems/*/; do
    [ -f "$problem/Cargo.toml" ] || continue
    problem=${problem%/}
    name=${problem#"$root"/}
    name=${name#xtask/tests/data/}
    file="$out/$(echo "$name" | tr / -).rs"
    if "$xtask" bundle "$problem" -o "$file" >/dev/null 2>&1 || [ -s "$file" ]; then
        echo "$name $(wc -c < "$file")"
    else
        echo "$name refused"
    fi
done
} | sort
