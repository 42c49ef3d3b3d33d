#!/bin/sh
# Self-play or a match sharded over a handful of machines without a scheduler, by GNU parallel over ssh: shard I of
# N runs on whichever host has a free slot, its file comes back here (rsync), and the shards are merged as on a
# cluster: DIR/games.tgr for self-play, DIR/result.txt for a match.
#
# Usage: scripts/cluster/parallel.sh HOSTS SHARDS DIR selfplay|match [options...]
#   HOSTS   GNU parallel's --sshlogin list: "2/alice@box1,2/box2" runs two shards at a time on each; ":" is this
#           machine
#   e.g. scripts/cluster/parallel.sh 1/box1,1/box2 8 runs/sp8 selfplay --games 4000 --nodes 20000 \
#            --openings varied --seed 8 --concurrency 16
# Environment:
#   TENGEN        the binary, at the same path on every host (default: target/release/pbrain-tengen here)
#   PARALLEL_SSH  the ssh command parallel uses; scripts/cluster/local-ssh.sh runs every "host" on this machine
# Each shard runs in a scratch directory on its host: give files (openings, networks, engines) by paths that exist
# there. Every host needs rsync. A shard that fails stops the run; DIR/shards.log holds the shards' output and
# DIR/joblog GNU parallel's record of each (host, start, run time, exit status).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
[ $# -ge 4 ] || usage "scripts/cluster/parallel.sh HOSTS SHARDS DIR selfplay|match [options...]"
hosts=$1
shards=$2
kind=$4
prepare "$shards" "$3"
shift 4
run_kind "$kind"
command -v parallel >/dev/null || { echo "error: GNU parallel is not installed" >&2; exit 1; }
cd "$dir"
rm -f shard-*."$ext"
login_env
# -q keeps every option one argument on the far side (engine command lines have spaces).
seq 1 "$shards" | parallel --will-cite --sshlogin "$hosts" --workdir ... --return "shard-{}.$ext" --cleanup \
    --joblog joblog --halt now,fail=1 --tag -q "$tengen" "$kind" "$@" --shard "{}/$shards" "$flag" "shard-{}.$ext" \
    >shards.log 2>&1 || { echo "error: a shard failed: $dir/shards.log" >&2; tail -5 shards.log >&2; exit 1; }
# A file that did not come back (rsync failed, the host's shell could not start the job) fails the run here: GNU
# parallel counts only the job's exit status.
i=1
while [ "$i" -le "$shards" ]; do
    [ -f "shard-$i.$ext" ] || { echo "error: shard $i's file did not come back: $dir/shards.log" >&2
        tail -5 shards.log >&2; exit 1; }
    i=$((i + 1))
done
files=$(shard_files "$dir" "$shards" "$ext")
status=0
if [ "$kind" = selfplay ]; then
    out=merge.log
    eval "\"\$tengen\" merge --out $merged $files" >"$out" || status=$?
else
    out=$merged
    eval "\"\$tengen\" merge $files" >"$out" || status=$?
fi
cat "$out"
[ "$status" = 0 ] || { echo "error: the merge failed (exit status $status)" >&2; exit 1; }
