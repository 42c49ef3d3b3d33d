#!/bin/sh
# The GNU parallel path tried on one machine: two "hosts" that are both this machine (scripts/cluster/local-ssh.sh
# stands in for ssh, so each shard goes through a host's scratch directory and comes back by rsync as over a
# network), a sharded self-play and a sharded match through parallel.sh, checked against the unsharded runs.
#
# Usage: scripts/cluster/parallel-test.sh [--install]
#   --install  first installs GNU parallel and rsync (apt-get; needs root)
# TENGEN names the binary (default: the release build, else the test build, else it builds the release).
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
if [ "${1:-}" = --install ]; then
    command -v parallel >/dev/null && command -v rsync >/dev/null \
        || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends parallel rsync >/dev/null
fi
for tool in parallel rsync; do
    command -v "$tool" >/dev/null || { echo "error: $tool is not installed (try --install)" >&2; exit 1; }
done
# The release binary, else the one `cargo test` built (as in .ci/run), else a release build.
if [ -n "${TENGEN:-}" ]; then
    tengen=$(cd "$(dirname "$TENGEN")" && pwd)/$(basename "$TENGEN")
elif [ -x target/release/pbrain-tengen ] || [ ! -x target/debug/pbrain-tengen ]; then
    [ -x target/release/pbrain-tengen ] || cargo build --release
    tengen=$root/target/release/pbrain-tengen
else
    tengen=$root/target/debug/pbrain-tengen
fi
work=$(mktemp -d /tmp/tengen-parallel.XXXXXX)
export TENGEN=$tengen PARALLEL_SSH=$root/scripts/cluster/local-ssh.sh
hosts=1/alpha,1/beta

selfplay="--games 10 --nodes 400 --openings varied --random-plies 4 --seed 5"
scripts/cluster/parallel.sh $hosts 3 "$work/selfplay" selfplay $selfplay
"$tengen" selfplay $selfplay --record "$work/whole.tgr" >/dev/null
cmp -s "$work/selfplay/games.tgr" "$work/whole.tgr" \
    || { echo "error: the merged games differ from the unsharded run's" >&2; exit 1; }
echo "selfplay: 3 shards on hosts alpha and beta, merged, are the unsharded run's games, byte for byte"
awk -F'\t' 'NR > 1 { match($NF, /--shard [0-9]+\/[0-9]+/); s = substr($NF, RSTART + 2, RLENGTH - 2)
    print "  " s " ran on " $2 ", exit status " $7 }' "$work/selfplay/joblog" | sort

printf 'h8 h9 h10\nh8 h9 i10\nh8 h9 j10\nh8 h9 i9\n' >"$work/openings.txt"
set -- --engine "$tengen --max-depth 2" --name deep --engine "$tengen --max-depth 1" --name shallow \
    --games 8 --openings "$work/openings.txt" --turn-ms 5000
scripts/cluster/parallel.sh $hosts 2 "$work/match" match "$@"
"$tengen" match "$@" >"$work/whole.txt"
report() { sed -n '/games played$/,$p' "$1" | grep -v 'slowest answer'; }
[ "$(report "$work/match/result.txt")" = "$(report "$work/whole.txt")" ] \
    || { echo "error: the merged match differs from the unsharded run" >&2; exit 1; }
echo "match: 2 shards on hosts alpha and beta, merged, report what the unsharded run reports"
rm -rf "$work"
echo "parallel test passed"
