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
. scripts/cluster/common.sh
need_tools "${1:-}" "parallel rsync" parallel rsync
test_binary
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

test_openings "$work/openings.txt"
set -- --engine "$tengen --max-depth 2" --name deep --engine "$tengen --max-depth 1" --name shallow \
    --games 8 --openings "$work/openings.txt" --turn-ms 5000
scripts/cluster/parallel.sh $hosts 2 "$work/match" match "$@"
"$tengen" match "$@" >"$work/whole.txt"
[ "$(match_report "$work/match/result.txt")" = "$(match_report "$work/whole.txt")" ] \
    || { echo "error: the merged match differs from the unsharded run" >&2; exit 1; }
echo "match: 2 shards on hosts alpha and beta, merged, report what the unsharded run reports"
rm -rf "$work"
echo "parallel test passed"
