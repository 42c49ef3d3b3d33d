#!/bin/sh
# A stand-in for ssh that runs the command on this machine: `local-ssh.sh [ssh options] HOST COMMAND...`. With
# PARALLEL_SSH set to it, scripts/cluster/parallel.sh treats any host names as hosts and runs them all here, through
# the same steps as over ssh (scratch directories, rsync of the results), to try the path on one machine.
set -eu
while [ $# -gt 0 ]; do
    case $1 in
        -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
        -*) shift ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: local-ssh.sh [options] HOST COMMAND..." >&2; exit 255; }
shift
[ "${1:-}" = -- ] && shift
# As ssh does: the words joined by spaces, run by a shell in the home directory, with a login's HOME and SHELL.
. "$(dirname "$0")/common.sh"
login_env
cd "${HOME:-/}"
exec sh -c "$*"
