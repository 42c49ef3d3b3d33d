#!/bin/sh
# Self-play sharded over a Slurm job array: array task I plays shard I/N of the run (`selfplay --shard I/N`) into
# DIR/shard-I.tgr, and a job that starts when every task has succeeded joins them, in shard order, into
# DIR/games.tgr (`pbrain-tengen merge --out`). The joined file is the unsharded run's, game for game.
#
# Usage: scripts/cluster/slurm-selfplay.sh SHARDS DIR [selfplay options...]
#   e.g. scripts/cluster/slurm-selfplay.sh 32 runs/sp7 --games 20000 --nodes 20000 --openings varied \
#            --random-plies 8 --seed 7 --concurrency 16
# Environment:
#   TENGEN       the binary, at a path every node can run (default: target/release/pbrain-tengen here)
#   SBATCH_ARGS  more sbatch options for both jobs, e.g. "--partition=cpu --time=12:00:00"
# DIR must be on a filesystem the nodes share. Prints the two job ids; DIR/shard-I.log and DIR/merge.log hold the
# output. A task that is run again starts its shard afresh.
set -eu
here=$(dirname "$0")
. "$here/common.sh"
[ $# -ge 2 ] || usage "scripts/cluster/slurm-selfplay.sh SHARDS DIR [selfplay options...]"
slurm_submit selfplay "$@"
