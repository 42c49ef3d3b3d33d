#!/bin/sh
# Issue 97's STC loop: an SPRT in self-play (one process, both colours, pentanomial) between two parameter sets of
# one build, at a fixed node count, on balanced openings each extended by two random good moves per pair.
# Resumable: run it again with the same arguments and it goes on from the games in its game file.
# Usage: scripts/sprt-selfplay.sh DIR BIN A_PARAMS [B_PARAMS]
#   DIR: the run's folder (games.tgr, log); BIN: the pbrain-tengen to play (copy it, so rebuilds leave it alone);
#   A_PARAMS: the change's values; B_PARAMS: the base's (default: the build's defaults).
# Environment: NODES (default 60000, STC; 0 with TURN_MS: by the clock), TURN_MS (time a move), BOUNDS (default
#   0,20), GAMES (most games, default 20000), SEED (default 97), CONCURRENCY (default 2), OPENINGS (default
#   data/sprt/renju-balanced4.txt; give varied for another rule), PLIES (default 2), RULE (default renju).
set -eu
dir=${1:?usage: scripts/sprt-selfplay.sh DIR BIN A_PARAMS [B_PARAMS]}
bin=${2:?usage}
a=${3:?usage}
b=${4:-}
mkdir -p "$dir"
set -- selfplay --rule "${RULE:-renju}" --games "${GAMES:-20000}" --nodes "${NODES:-60000}" \
    --openings "${OPENINGS:-data/sprt/renju-balanced4.txt}" --opening-plies "${PLIES:-2}" --seed "${SEED:-97}" \
    --concurrency "${CONCURRENCY:-2}" --sprt "${BOUNDS:-0,20}" --a-params "$a" --record "$dir/games.tgr" --resume
[ -z "$b" ] || set -- "$@" --b-params "$b"
[ -z "${TURN_MS:-}" ] || set -- "$@" --turn-ms "$TURN_MS"
echo "$(date -u +%FT%TZ) $bin $*" >>"$dir/command"
exec "$bin" "$@" >>"$dir/log" 2>&1
