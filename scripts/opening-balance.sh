#!/bin/sh
# Measures how a search's score maps to Black's result, for the opening decisions' calibration
# (src/engine/opening.rs, `Calibration`): random openings of STONES stones near the centre (`pbrain-tengen openings`,
# every score kept) are scored at depths 4, 6 and 8, Tengen plays itself from each with colours swapped at 100 ms a
# move, and scripts/opening-fit.py fits Black's expected score 1 / (1 + exp(-(score - even) / scale)) to the games by
# maximum likelihood, for each depth, with Black's score in six buckets of the score.
#
# Usage: scripts/opening-balance.sh BIN RULE STONES [COUNT] [SEED]
#   BIN     a pbrain-tengen binary
#   RULE    renju, freestyle, ...
#   STONES  stones per opening (3, 4 or 5)
#   COUNT   openings (default 150; two games each)
# Output and the games go to ${OUT:-/tmp/tengen-balance}-RULE-STONES/.
set -eu
bin=${1:?usage: scripts/opening-balance.sh BIN RULE STONES [COUNT] [SEED]}
rule=${2:?usage: scripts/opening-balance.sh BIN RULE STONES [COUNT] [SEED]}
stones=${3:?usage: scripts/opening-balance.sh BIN RULE STONES [COUNT] [SEED]}
count=${4:-150}
seed=${5:-11}
dir=${OUT:-/tmp/tengen-balance}-$rule-$stones
mkdir -p "$dir"
for depth in 4 6 8; do
    "$bin" openings --rule "$rule" --stones "$stones" --count "$count" --depth "$depth" --max-score 100000 \
        --seed "$seed" > "$dir/depth$depth.txt"
done
"$bin" match --engine "$bin" --name A --engine "$bin" --name B --games $((count * 2)) --turn-ms 100 \
    --concurrency "${CONCURRENCY:-2}" --openings "$dir/depth4.txt" --rule "$rule" > "$dir/games.log"
python3 "$(dirname "$0")/opening-fit.py" "$dir/games.log" "$dir/depth4.txt" "$dir/depth6.txt" "$dir/depth8.txt"
