#!/bin/sh
# Screens a search change fast: two builds play each other at a fixed node count per move (so that the machine's
# load does not decide), from random balanced openings, colours swapped, with the project's match runner and its
# SPRT. The openings are 52 random balanced ones of 4 stones (`pbrain-tengen openings`, seed 12, made once, about
# 2 minutes, and kept in a file) under the board's 8 symmetries: 416 starts, since node-limited games from one start
# replay exactly, and at low node counts the 26 renju openings are mostly won by Black whoever plays. A screen is
# not a claim: a change that passes is then measured at 0.5 s a move with scripts/sprt.sh.
#
# Usage: scripts/screen.sh NEW OLD [NODES] [GAMES] [more match options...]
#   NEW, OLD   two pbrain-tengen binaries (NEW runs the match)
#   NODES      nodes per move (default 60000)
#   GAMES      most games (default 416: each opening once with each colour)
# Environment: RULE (default renju), CONCURRENCY (default 2), BOUNDS (the SPRT's, default 0,10).
set -eu
new=${1:?usage: scripts/screen.sh NEW OLD [NODES] [GAMES]}
old=${2:?usage: scripts/screen.sh NEW OLD [NODES] [GAMES]}
nodes=${3:-60000}
games=${4:-416}
rule=${RULE:-renju}
openings=${TMPDIR:-/tmp}/tengen-screen-openings-$rule.txt
if [ ! -s "$openings" ]; then
    echo "generating the openings into $openings"
    "$old" openings --rule "$rule" --count 52 --stones 4 --seed 12 > "$openings.part"
    mv "$openings.part" "$openings"
fi
[ $# -ge 4 ] && shift 4 || shift $#
set -- --engine "$new --max-nodes $nodes" --name new --engine "$old --max-nodes $nodes" --name old \
    --openings "$openings" --symmetries --games "$games" --turn-ms 30000 \
    --concurrency "${CONCURRENCY:-2}" --rule "$rule" --sprt "${BOUNDS:-0,10}" "$@"
echo "$new match $*"
"$new" match "$@"
