#!/bin/sh
# One step of the play-train loop of a network (docs/training.md, One step of the loop): the current network plays
# itself, a network is trained on every game file of the rule, and the new one plays the current one at equal nodes.
#
# Usage: scripts/generation.sh RULE NAME SEED SECONDS
#   e.g. scripts/generation.sh renju net5 9301 2400
#   1. selfplay with the network (the embedded one, or NETWORK=FILE), SECONDS of it, recorded into
#      data/games/NAME-RULE.tgr (appended when the file is there: a run that stopped goes on with another seed);
#   2. train on data/games/*-RULE.tgr (the file names in order) into OUT (default target/generation/NAME-RULE.tgnn);
#   3. CHECK games (default 600) at 20,000 nodes a move, the new network (A) against the current one (B).
# Environment: TENGEN (default target/release/pbrain-tengen, built first), NETWORK, OUT, EPOCHS (16),
# CONCURRENCY (the machine's cores), CHECK (0: no check), TRAIN_ARGS (more options of train, e.g. --empty-only, which
# renju's network has). Each step's output goes to OUT's directory, .log files.
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 4 ] || { echo "usage: scripts/generation.sh RULE NAME SEED SECONDS" >&2; exit 2; }
rule=$1 name=$2 seed=$3 secs=$4
# The networks are embedded in the binary: build it so that it plays the ones in data/network/.
[ -n "${TENGEN:-}" ] || cargo build --release --quiet
bin=${TENGEN:-target/release/pbrain-tengen}
[ -f "$bin" ] && [ -x "$bin" ] || { echo "error: no binary at $bin (set TENGEN)" >&2; exit 1; }
out=${OUT:-target/generation/$name-$rule.tgnn}
dir=$(dirname "$out")
mkdir -p "$dir"
jobs=${CONCURRENCY:-$(nproc)}
games=data/games/$name-$rule.tgr
set -- --rule "$rule" --eval network
[ -n "${NETWORK:-}" ] && set -- "$@" --network "$NETWORK"

echo "== $secs s of self-play into $games ($(date -u +%H:%M:%S))"
# timeout stops the run between whole games of the file (each game is written at once); its status 124 is the plan.
timeout "$secs" "$bin" selfplay "$@" --games 1000000 --nodes 20000 --openings varied --random-plies 4 \
    --concurrency "$jobs" --seed "$seed" --record "$games" > "$dir/$name-$rule-selfplay.log" 2>&1 || [ $? -eq 124 ]
echo "   $(grep -c '^game' "$dir/$name-$rule-selfplay.log" || true) games"

echo "== training $out ($(date -u +%H:%M:%S))"
# shellcheck disable=SC2046,SC2086
"$bin" train --rule "$rule" $(ls data/games/*-"$rule".tgr) --drop-vcf 2000 --epochs "${EPOCHS:-16}" ${TRAIN_ARGS:-} \
    --out "$out" > "$dir/$name-$rule-train.log" 2>&1
grep -E "^(epoch|rounded)" "$dir/$name-$rule-train.log" | tail -2

check=${CHECK:-600}
[ "$check" -gt 0 ] || exit 0
echo "== $check games at 20,000 nodes: $out (A) against the current network (B) ($(date -u +%H:%M:%S))"
set -- --rule "$rule" --games "$check" --nodes 20000 --openings varied --random-plies 2 --seed 81 \
    --concurrency "$jobs" --a-eval network --a-network "$out" --b-eval network
[ -n "${NETWORK:-}" ] && set -- "$@" --b-network "$NETWORK"
"$bin" selfplay "$@" > "$dir/$name-$rule-check.log" 2>&1
tail -3 "$dir/$name-$rule-check.log"
