#!/bin/sh
# The won positions of game files: every position the games passed through (5 stones or more) that the VCT solver
# proves won for the side to move, in FIRST_MS, or in a second try of LONG_MS for those the first left unknown. Each
# is written with its side to move, the solver's line and whether it has a VCF ('vcf') or not ('-'); the measured
# set of issue 41 (data/positions/won-renju.txt), which `pbrain-tengen solve --summary` and `analyze --file` count.
#
# Usage: scripts/won-positions.sh OUT.txt FILE.tgr...
# Environment: JOBS (positions at a time, default 2), FIRST_MS (default 1000), LONG_MS (default 10000), RULE (renju)
# Example: JOBS=16 scripts/won-positions.sh won.txt data/games/gauntlet-9d5f528-*-renju.tgr
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/won-positions.sh OUT.txt FILE.tgr...}
shift
work=$(mktemp -d "${TMPDIR:-/tmp}/tengen-won.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
t="$root/target/release/pbrain-tengen"
rule=${RULE:-renju}
jobs=${JOBS:-2}
"$t" positions --rule "$rule" --min-stones 5 "$@" > "$work/all.txt"
echo "$(wc -l < "$work/all.txt") positions"
"$t" solve --rule "$rule" --vct --ms "${FIRST_MS:-1000}" --jobs "$jobs" < "$work/all.txt" > "$work/first.txt"
paste "$work/all.txt" "$work/first.txt" > "$work/first.tsv"
awk -F'\t' '$4 ~ /^win/' "$work/first.tsv" > "$work/won.tsv"
awk -F'\t' '$4 ~ /^unknown/ { print $1 "\t" $2 "\t" $3 }' "$work/first.tsv" > "$work/unknown.txt"
echo "$(wc -l < "$work/won.tsv") won in ${FIRST_MS:-1000} ms, $(wc -l < "$work/unknown.txt") unknown"
"$t" solve --rule "$rule" --vct --ms "${LONG_MS:-10000}" --jobs "$jobs" < "$work/unknown.txt" > "$work/long.txt"
paste "$work/unknown.txt" "$work/long.txt" | awk -F'\t' '$4 ~ /^win/' >> "$work/won.tsv"
cut -f1-3 "$work/won.tsv" | "$t" solve --rule "$rule" --nodes 200000 --jobs "$jobs" > "$work/vcf.txt"
paste "$work/won.tsv" "$work/vcf.txt" |
    awk -F'\t' 'BEGIN { OFS = "\t" } { print $1, $2, $3, $4, ($5 ~ /^win/ ? "vcf" : "-") }' > "$out"
echo "$(wc -l < "$out") won positions in $out, $(grep -c '	-$' "$out" || true) of them without a VCF"
