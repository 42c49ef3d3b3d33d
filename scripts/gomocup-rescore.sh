#!/bin/sh
# Deep labels for Gomocup's learning games (issue 74): every position of the renju 2020 league (the learning split,
# docs/agreement.md; Gomocup's records from ../shared/data/gomocup/) searched by `rescore` to NODES nodes (default
# 1,000,000, about what a 2 s move reaches here), its score and best move kept beside the game's result and the moves
# the engines chose. SHARDS shards (default 100: about 11 games and 350 positions each, some 4 minutes of both cores);
# each shard is its own game file, written under a temporary name and renamed when complete, so the run resumes at the
# first missing shard after a stop and a shard cut short costs only itself. Progress: OUT/progress.
#   scripts/gomocup-rescore.sh [FIRST [LAST]]      shards FIRST..LAST (default 1..SHARDS) that are not there yet
# OUT=DIR (default data/games/gomocup), BIN=engine (default target/release/pbrain-tengen), CONCURRENCY=K (default 2),
# LEAGUE=name (default renju-2020; standard-2021, freestyle-2021, fastgame-2021: their learning games, openings 0-5,
# as `rescore` leaves the judging ones out; its archive is unpacked under target/gomocup/), PART=league1 (default: the whole
# league; one of its folders, named in the shards' names), EVERY=K (default 1: search every position; K: every K-th
# after the opening, `rescore --every`, the others keep the game's result alone), ENGINES=A,B with TAG=name (only the
# games one of these engines played, `rescore --engines`; TAG names the selection in the shards' names).
# Run it in the background, at low priority: nohup nice -n 19 scripts/gomocup-rescore.sh > /dev/null 2>&1 &
set -eu
cd "$(dirname "$0")/.."
out=${OUT:-data/games/gomocup}
bin=${BIN:-target/release/pbrain-tengen}
nodes=${NODES:-1000000}
shards=${SHARDS:-100}
league=${LEAGUE:-renju-2020}
case "$league" in
    renju-2020 | standard-2021 | freestyle-2021 | fastgame-2021) ;;
    *) echo "LEAGUE: renju-2020, standard-2021, freestyle-2021 or fastgame-2021 (their learning games: docs/agreement.md)" >&2
       exit 2 ;;
esac
first=${1:-1}
last=${2:-$shards}
part=${PART:-}
every=${EVERY:-1}
engines=${ENGINES:-}
tag=${TAG:-}
if { [ -n "$engines" ] && [ -z "$tag" ]; } || { [ -z "$engines" ] && [ -n "$tag" ]; }; then
    echo "ENGINES and TAG go together: the engines whose games are taken, and the selection's name in the shards' names" >&2
    exit 2
fi
games=target/gomocup/$league
if [ ! -d "$games" ]; then
    mkdir -p target/gomocup
    tar xJf "../shared/data/gomocup/$league.tar.xz" -C target/gomocup
fi
if [ -n "$part" ]; then
    games=$games/$part
    [ -d "$games" ] || { echo "PART: no folder $games" >&2; exit 2; }
fi
mkdir -p "$out"
k=$first
while [ "$k" -le "$last" ]; do
    name=$(printf '%s/%s%s%s-r%dk.shard%03d-%d.tgr' "$out" "$league" "${part:+-$part}" "${tag:+-$tag}" \
        "$((nodes / 1000))" "$k" "$shards")
    if [ ! -f "$name" ]; then
        rm -f "$name.part"
        echo "$(date -u +%FT%TZ) $name started" >> "$out/progress"
        "$bin" rescore --nodes "$nodes" --every "$every" --concurrency "${CONCURRENCY:-2}" --shard "$k/$shards" \
            ${engines:+--engines "$engines"} --out "$name.part" "$games" > "$name.log" 2>&1
        mv "$name.part" "$name"
        echo "$(date -u +%FT%TZ) $name done: $(tail -n 1 "$name.log")" >> "$out/progress"
    fi
    k=$((k + 1))
done
