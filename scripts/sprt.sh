#!/bin/sh
# SPRT of the current working tree against any git revision: both are built in release mode and play
# `pbrain-tengen match` (the current build runs the match) until the SPRT decides or the game limit is reached.
#
# Usage: scripts/sprt.sh REV [ELO0,ELO1] [more match options...]
#   REV         a git revision (commit, tag, branch, HEAD~3)
#   ELO0,ELO1   the SPRT bounds (default 0,10); alpha = beta = 0.05
# Environment: GAMES (most games, default 2000), TURN_MS (default 200), MATCH_MS (default 0: none),
#   CONCURRENCY (default 1), RULE (default renju), SGF (a directory for the records, default none).
# Example: scripts/sprt.sh HEAD~1 0,10 --openings my-openings.txt --symmetries
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:?usage: scripts/sprt.sh REV [ELO0,ELO1] [match options]}
shift
bounds=0,10
if [ $# -gt 0 ]; then
    case $1 in
        --*) ;;
        *) bounds=$1; shift ;;
    esac
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tengen-sprt.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

echo "building the working tree"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
cp "$root/target/release/pbrain-tengen" "$work/new"

echo "building $rev"
commit=$(git -C "$root" rev-parse --short "$rev^{commit}")
mkdir "$work/old-src"
git -C "$root" archive "$commit" | tar -x -C "$work/old-src"
# The old tree builds into its own target directory, kept between runs per commit.
old_target=${TENGEN_SPRT_CACHE:-${TMPDIR:-/tmp}/tengen-sprt-cache}/$commit
cargo build --release --quiet --manifest-path "$work/old-src/Cargo.toml" --target-dir "$old_target"
cp "$old_target/release/pbrain-tengen" "$work/old"

set -- --engine "$work/new" --name new --engine "$work/old" --name "$commit" \
    --sprt "$bounds" --games "${GAMES:-2000}" --turn-ms "${TURN_MS:-200}" --match-ms "${MATCH_MS:-0}" \
    --concurrency "${CONCURRENCY:-1}" --rule "${RULE:-renju}" "$@"
if [ -n "${SGF:-}" ]; then
    set -- "$@" --sgf "$SGF"
fi
echo "pbrain-tengen match $*"
"$work/new" match "$@"
