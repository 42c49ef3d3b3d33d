#!/bin/sh
# The Slurm path tried on one machine: starts a single-node cluster on this host (MUNGE, slurmctld and slurmd with
# two CPUs, its own configuration and state in a scratch directory), submits a small sharded self-play and a small
# sharded match through slurm-selfplay.sh and slurm-match.sh, waits for the array jobs and their merge jobs, and
# checks that the merged results equal an unsharded run's: the same game file byte for byte, the same statistics.
#
# Usage: scripts/cluster/slurm-test.sh [--install]
#   --install  first installs Debian's Slurm and MUNGE (apt-get install slurm-wlm munge; needs root)
# Runs as root (the daemons run as root here). TENGEN names the binary (default: the release build, else the
# test build, else it builds the release). Leaves nothing running.
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
. scripts/cluster/common.sh
need_tools "${1:-}" "slurm-wlm munge" slurmctld slurmd munged sbatch squeue sinfo scontrol
test_binary
work=$(mktemp -d /tmp/tengen-slurm.XXXXXX)
host=$(hostname -s)
mkdir -p "$work/state" "$work/spool" "$work/munge" "$work/runs"

# MUNGE: a key and a daemon of our own (socket, pid and log in the scratch directory).
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$work/munge/munge.key"
socket=$work/munge/munge.socket
munged --force --key-file="$work/munge/munge.key" --socket="$socket" --pid-file="$work/munge/munged.pid" \
    --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed"

cat >"$work/slurm.conf" <<CONF
ClusterName=tengen-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6917
SlurmdPort=6918
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf

stop() {
    scontrol shutdown >/dev/null 2>&1 || true
    sleep 1
    for pid in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/munged.pid"; do
        [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
    done
}
trap stop EXIT
slurmctld -i
slurmd
# The node comes up idle within a few seconds.
for _ in $(seq 60); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && break
    sleep 1
done
sinfo -h -o '%P %D %c %t' | sed 's/^/cluster: partition /'
sinfo -h -o %t | grep -q idle || { echo "error: the node did not come up" >&2; tail "$work/slurmd.log" >&2; exit 1; }

# wait_for JOB...: until the jobs have left the queue; then the last one's state must be COMPLETED.
wait_for() {
    for _ in $(seq 600); do
        [ -z "$(squeue -h -j "$(echo "$@" | tr ' ' ',')" 2>/dev/null)" ] && return 0
        sleep 1
    done
    echo "error: jobs $* did not finish in 10 minutes" >&2
    exit 1
}
ids() { echo "$1" | sed -n 's/.*array job \([0-9]*\).*merge job \([0-9]*\).*/\1 \2/p'; }

# Self-play: 10 games in 3 shards against the same run unsharded.
selfplay="--games 10 --nodes 400 --openings varied --random-plies 4 --seed 5"
out=$(TENGEN=$tengen scripts/cluster/slurm-selfplay.sh 3 "$work/runs/selfplay" $selfplay)
echo "$out"
wait_for $(ids "$out")
cat "$work/runs/selfplay/merge.log"
"$tengen" selfplay $selfplay --record "$work/whole.tgr" >/dev/null
if cmp -s "$work/runs/selfplay/games.tgr" "$work/whole.tgr"; then
    echo "selfplay: the 3 shards merged are the unsharded run's games, byte for byte"
else
    echo "error: the merged games differ from the unsharded run's" >&2
    exit 1
fi

# A match of two fixed-depth engines (games that do not depend on timing): 8 games in 2 shards.
test_openings "$work/openings.txt"
out=$(TENGEN=$tengen scripts/cluster/slurm-match.sh 2 "$work/runs/match" \
    --engine "$tengen --max-depth 2" --name deep --engine "$tengen --max-depth 1" --name shallow \
    --games 8 --openings "$work/openings.txt" --turn-ms 5000)
echo "$out"
wait_for $(ids "$out")
cat "$work/runs/match/result.txt"
"$tengen" match --engine "$tengen --max-depth 2" --name deep --engine "$tengen --max-depth 1" --name shallow \
    --games 8 --openings "$work/openings.txt" --turn-ms 5000 >"$work/whole.txt"
if [ "$(match_report "$work/runs/match/result.txt")" = "$(match_report "$work/whole.txt")" ]; then
    echo "match: the 2 shards merged report what the unsharded run reports"
else
    echo "error: the merged match differs from the unsharded run:" >&2
    match_report "$work/whole.txt" >&2
    exit 1
fi
stop
trap - EXIT
rm -rf "$work"
echo "slurm test passed"
