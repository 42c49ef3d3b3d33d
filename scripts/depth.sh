#!/bin/sh
# The depth each build reaches in a fixed time on the bench positions (src/engine/bench.rs, BENCH), one thread:
# `analyze --ms MS` per position, printing the last completed iteration and the nodes searched.
# Usage: scripts/depth.sh MS BINARY...   (e.g. scripts/depth.sh 1000 ./old ./target/release/pbrain-tengen)
set -eu
ms=${1:?usage: scripts/depth.sh MS BINARY...}
shift
while IFS='|' read -r rule moves; do
    for bin in "$@"; do
        line=$("$bin" analyze --rule "$rule" --ms "$ms" $moves | tail -1)
        depth=$(echo "$line" | sed -n 's/.* depth \([0-9]*\) .*/\1/p')
        nodes=$(echo "$line" | sed -n 's/.* nodes \([0-9]*\) .*/\1/p')
        printf '%-9s %-32s %-40s depth %3s nodes %9s\n' "$rule" "$moves" "$bin" "$depth" "$nodes"
    done
done <<'POSITIONS'
renju|h8 h9 h10
renju|h8 h9 j10
renju|h8 i9 j10
renju|h8 h7 i9 g9 g8 j10 i8
renju|h8 i7 g7 i9 i8 g9 j8 k8 f6 e5
freestyle|h8 i9 h9
freestyle|h8 h9 i8 g8 i10 i9 j9 k10
standard|h8 i8 i9
standard|h8 g9 i9 g7 g8 f8 j10 h10
POSITIONS
