#!/bin/sh
# Training games at long-control depth (issue 61): the shipped engine against itself at 200,000 nodes a move (about
# a 2 s move here), renju, varied openings, four random plies, every move's score from that search. One run of
# 10,000 games (seed 6101) in 100 shards of 100 games; each shard is its own game file, written under a temporary
# name and renamed when complete, so the run resumes at the first missing shard after a stop and a shard cut short
# costs only itself (about 12 minutes on two cores). Progress: OUT/progress.
#   scripts/deep-games.sh [FIRST [LAST]]     shards FIRST..LAST (default 1..100) that are not there yet
# OUT=DIR (default data/games/deep), BIN=engine (default target/release/pbrain-tengen), CONCURRENCY=K (default 2).
# Run it in the background: nohup scripts/deep-games.sh 1 100 > /dev/null 2>&1 &
set -eu
cd "$(dirname "$0")/.."
out=${OUT:-data/games/deep}
bin=${BIN:-target/release/pbrain-tengen}
first=${1:-1}
last=${2:-100}
mkdir -p "$out"
k=$first
while [ "$k" -le "$last" ]; do
    name=$(printf '%s/sp200k-deep-renju.shard%03d.tgr' "$out" "$k")
    if [ ! -f "$name" ]; then
        rm -f "$name.part"
        echo "$(date -u +%FT%TZ) shard $k/100 started" >> "$out/progress"
        "$bin" selfplay --rule renju --games 10000 --shard "$k/100" --nodes 200000 --openings varied \
            --random-plies 4 --seed 6101 --concurrency "${CONCURRENCY:-2}" --record "$name.part" \
            > "$name.log" 2>&1
        mv "$name.part" "$name"
        echo "$(date -u +%FT%TZ) shard $k/100 done: $(tail -n 1 "$name.log")" >> "$out/progress"
    fi
    k=$((k + 1))
done
