#!/bin/sh
# Training games at long-control depth (issue 61): the shipped engine against itself at NODES nodes a move (default
# 1,000,000, about what a 2 s move reaches here, depth 17-18; docs/history.md, "What a node count reaches"), renju,
# varied openings, four random plies, every move's score from that search. One run of GAMES games (default 10,000,
# seed SEED, default 6111) in 100 shards; each shard is its own game file, written under a temporary name and renamed
# when complete, so the run resumes at the first missing shard after a stop; a shard cut short goes on after the games
# its temporary file holds (`selfplay --resume`: at fixed nodes the same games as a run never stopped), so no work
# is lost (a shard is about half an hour on two cores at a million nodes: most moves are forced or solved).
# Progress: OUT/progress.
#   scripts/deep-games.sh [FIRST [LAST]]     shards FIRST..LAST (default 1..100) that are not there yet
# OUT=DIR (default data/games/deep), BIN=engine (default target/release/pbrain-tengen), CONCURRENCY=K (default 2),
# NETWORK=FILE (a network for both sides other than BIN's own: the sp1000k series is net10g's, the network of f6ce33d,
# `git show f6ce33d:data/network/renju.tgnn > net10g.tgnn`, which later builds play the same with --network).
# The first series (sp200k-deep, 0.5 s games): NODES=200000 GAMES=10000 SEED=6101.
# Run it in the background: nohup scripts/deep-games.sh 1 100 > /dev/null 2>&1 &
set -eu
cd "$(dirname "$0")/.."
out=${OUT:-data/games/deep}
bin=${BIN:-target/release/pbrain-tengen}
nodes=${NODES:-1000000}
games=${GAMES:-10000}
seed=${SEED:-6111}
first=${1:-1}
last=${2:-100}
mkdir -p "$out"
k=$first
while [ "$k" -le "$last" ]; do
    name=$(printf '%s/sp%dk-deep-renju.shard%03d.tgr' "$out" "$((nodes / 1000))" "$k")
    if [ ! -f "$name" ]; then
        echo "$(date -u +%FT%TZ) $name started" >> "$out/progress"
        "$bin" selfplay --rule renju --games "$games" --shard "$k/100" --nodes "$nodes" --openings varied \
            --random-plies 4 --seed "$seed" --concurrency "${CONCURRENCY:-2}" ${NETWORK:+--network "$NETWORK"} \
            --record "$name.part" --resume >> "$name.log" 2>&1
        mv "$name.part" "$name"
        echo "$(date -u +%FT%TZ) $name done: $(tail -n 1 "$name.log")" >> "$out/progress"
    fi
    k=$((k + 1))
done
