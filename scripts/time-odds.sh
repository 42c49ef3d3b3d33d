#!/bin/sh
# Time odds: a protocol engine against itself with four times the time (or any ratio), to see what time is worth
# to it (docs/matches.md, "What time is worth"). The match runs at the long side's time a move; the short side's
# command is the same engine behind `sed`, which rewrites the `INFO timeout_turn` it is told, so it thinks for the
# short time and the runner still holds both to the long time's clock. Both sides one thread, kept processes, the
# 26 renju openings with colours swapped (the openings file of tests/data/renju26.tsv).
#
# Usage: scripts/time-odds.sh NAME "ENGINE COMMAND" LONG_MS SHORT_MS [more match options...]
# Environment: GAMES (default 52), CONCURRENCY (default 2), OUT (a folder for NAME-LONG-SHORT.results and .log;
#              default the current one), TENGEN (the pbrain-tengen that runs the match; default the release build)
# Examples: scripts/time-odds.sh tengen "target/release/pbrain-tengen" 2000 500
#           scripts/time-odds.sh pentazen "$G/pbrain-pentazen" 500 125 --shard 1/2
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
name=${1:?usage: scripts/time-odds.sh NAME "ENGINE COMMAND" LONG_MS SHORT_MS [match options]}
engine=${2:?the engine command}
long=${3:?the long side ms a move}
short=${4:?the short side ms a move}
shift 4
out=${OUT:-.}
tool=${TENGEN:-$root/target/release/pbrain-tengen}
mkdir -p "$out"
openings="$out/renju26-openings.txt"
# The 26 openings' moves (h8 h9 h10): the renju_notation column of the table, below its comment and header.
awk -F'\t' '$1 ~ /^[0-9]+$/ { print $5 }' "$root/tests/data/renju26.tsv" > "$openings"
fast="sed -u 's/^INFO timeout_turn .*/INFO timeout_turn $short/' | $engine"
"$tool" match --engine "$engine" --name "$name-${long}ms" --engine "$fast" --name "$name-${short}ms" \
    --turn-ms "$long" --games "${GAMES:-52}" --concurrency "${CONCURRENCY:-2}" --processes kept \
    --openings "$openings" --results "$out/$name-$long-$short.results" "$@" | tee "$out/$name-$long-$short.log"
