#!/bin/sh
# A match sharded over a Slurm job array: array task I plays shard I/N of the match (`match --shard I/N`, whole
# opening pairs) and writes DIR/shard-I.results; a job that starts when every task has succeeded merges them
# (`pbrain-tengen merge`) into DIR/result.txt: W/L/D, Elo +/-, pentanomial and the SPRT's verdict of the whole run.
#
# Usage: scripts/cluster/slurm-match.sh SHARDS DIR [match options...]
#   e.g. scripts/cluster/slurm-match.sh 16 runs/m3 --engine "$PWD/new" --name new --engine "$PWD/old" --name old \
#            --games 2080 --turn-ms 500 --rule renju --concurrency 8 --sprt 0,5
# Environment:
#   TENGEN       the binary that runs and merges the match (default: target/release/pbrain-tengen here)
#   SBATCH_ARGS  more sbatch options for both jobs, e.g. "--partition=cpu --time=6:00:00"
# DIR and the engines' commands must be reachable from every node. Each game runs two engine processes of which one
# thinks at a time, so a task asks for as many CPUs as its --concurrency. Prints the two job ids.
set -eu
here=$(dirname "$0")
. "$here/common.sh"
[ $# -ge 2 ] || usage "scripts/cluster/slurm-match.sh SHARDS DIR [match options...]"
slurm_submit match "$@"
