#!/usr/bin/env bash
# Seeds the `bundle` fuzz target's corpus (`corpus/bundle/`, not committed): the committed seeds
# in `seeds/bundle/` (the shapes its runs found, each under the three editions), and the
# `src/lib.rs` of the first 50 crates, by name, in cargo's local registry (no larger than 64 KB),
# each three times: byte 0, 1 or 2 (edition 2015, 2018, 2021) and then the file, as the target
# reads its input. docs/fuzzing.md says how to run it.
set -eu
cd "$(dirname "$0")"
mkdir -p corpus/bundle
cp seeds/bundle/* corpus/bundle/
registry=${CARGO_HOME:-$HOME/.cargo}/registry/src
count=0
for lib in $(ls -d "$registry"/*/*/src/lib.rs 2>/dev/null | sort); do
    [ "$(wc -c < "$lib")" -le 65536 ] || continue
    crate=$(basename "$(dirname "$(dirname "$lib")")")
    for edition in 0 1 2; do
        { printf "\\x0$edition"; cat "$lib"; } > "corpus/bundle/seed-$crate-$edition"
    done
    count=$((count + 1))
    [ "$count" -lt 50 ] || break
done
echo "corpus/bundle: $(ls corpus/bundle | wc -l) inputs ($count crates, and seeds/bundle/)"
