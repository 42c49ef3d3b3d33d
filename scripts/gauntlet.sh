#!/bin/sh
# The gauntlet: the working tree (or a git revision) against every engine of a folder, with the working tree's
# `pbrain-tengen gauntlet` (the 26 renju openings with colours swapped, 0.5 s a move, two games at a time, one thread
# each, unless options say otherwise). Prints each game, then one line per opponent; with OUT the results files
# (for `pbrain-tengen merge`) and the games (.tgr, training data) are kept there.
#
# Usage: GAUNTLET=DIR scripts/gauntlet.sh [gauntlet options...]
# Environment: GAUNTLET  the folder of opponent engines (built with ../shared/gauntlet/, see docs/matches.md)
#              REV       play this git revision instead of the working tree (built into a cache per commit)
#              OUT       where the results and game files go (default: a new folder under /tmp, named at the end)
#              GAMES     games per opponent and rule (default: 2 per opening, 52 for the 26 openings)
#              TURN_MS   time a move (default 500); CONCURRENCY games at a time (default 2)
# Examples: GAUNTLET=~/engines scripts/gauntlet.sh --games 208
#           GAUNTLET=~/engines REV=9d5f528 scripts/gauntlet.sh --only pentazen --rule renju,freestyle,standard
#           GAUNTLET=~/engines scripts/gauntlet.sh --shard 2/4    # then pbrain-tengen merge the shards' files
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
: "${GAUNTLET:?GAUNTLET=DIR names the folder of opponent engines}"
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tengen-gauntlet.XXXXXX")}
mkdir -p "$out"

echo "building the working tree"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
tool="$out/pbrain-tengen"
cp "$root/target/release/pbrain-tengen" "$tool"
if [ -n "${REV:-}" ]; then
    commit=$(git -C "$root" rev-parse --short "$REV^{commit}")
    echo "building $commit"
    src=$(mktemp -d "${TMPDIR:-/tmp}/tengen-gauntlet-src.XXXXXX")
    trap 'rm -rf "$src"' EXIT INT TERM
    git -C "$root" archive "$commit" | tar -x -C "$src"
    target=${TENGEN_SPRT_CACHE:-${TMPDIR:-/tmp}/tengen-sprt-cache}/$commit
    cargo build --release --quiet --manifest-path "$src/Cargo.toml" --target-dir "$target"
    cp "$target/release/pbrain-tengen" "$out/tengen-$commit"
    # An older build may not know --say-score: its games carry no scores.
    set -- --engine "$out/tengen-$commit" --name "tengen-$commit" "$@"
else
    set -- --engine "$tool --say-score" --name tengen "$@"
fi
[ -n "${GAMES:-}" ] && set -- "$@" --games "$GAMES"
[ -n "${TURN_MS:-}" ] && set -- "$@" --turn-ms "$TURN_MS"
[ -n "${CONCURRENCY:-}" ] && set -- "$@" --concurrency "$CONCURRENCY"
"$tool" gauntlet --opponents "$GAUNTLET" --out "$out" "$@"
echo "results and games in $out"
