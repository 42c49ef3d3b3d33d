# Shared by the cluster scripts (sourced, not run).

usage() {
    echo "usage: $1" >&2
    exit 2
}

# prepare SHARDS DIR: checks the shard count, makes DIR absolute (as $dir) and finds the binary (as $tengen).
prepare() {
    case $1 in
        '' | *[!0-9]* | 0) usage "SHARDS is a number of shards, 1 or more (not '$1')" ;;
    esac
    mkdir -p "$2"
    dir=$(cd "$2" && pwd)
    tengen=${TENGEN:-$(pwd)/target/release/pbrain-tengen}
    case $tengen in
        /*) ;;
        *) tengen=$(pwd)/$tengen ;;
    esac
    [ -x "$tengen" ] || { echo "error: no binary at $tengen (build it, or set TENGEN)" >&2; exit 1; }
}

# login_env: exports the HOME (the user's passwd entry) and SHELL (/bin/sh) that an ssh login has, where the caller (a
# CI job, a cron entry) left them unset: GNU parallel runs jobs with $SHELL and keeps its files under $HOME.
login_env() {
    export HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
    export SHELL="${SHELL:-/bin/sh}"
}

# concurrency OPTIONS...: the value of --concurrency among the options (1 when absent).
concurrency() {
    n=1
    while [ $# -gt 0 ]; do
        case $1 in
            --concurrency) n=${2:-1}; shift ;;
            --concurrency=*) n=${1#--concurrency=} ;;
        esac
        shift
    done
    echo "$n"
}

# shard_files DIR SHARDS EXT: the shards' files in shard order, quoted for a shell command line.
shard_files() {
    i=1
    files=
    while [ "$i" -le "$2" ]; do
        files="$files '$1/shard-$i.$3'"
        i=$((i + 1))
    done
    echo "$files"
}

# run_kind KIND: the file each shard writes (as $ext), the option that names it (as $flag) and the merged output
# (as $merged) of a selfplay or match run.
run_kind() {
    case $1 in
        selfplay) ext=tgr flag=--record merged=games.tgr ;;
        match) ext=results flag=--results merged=result.txt ;;
        *) usage "the run is selfplay or match, not '$1'" ;;
    esac
}

# slurm_submit KIND SHARDS DIR OPTIONS...: submits the array job of the shards and the merge job that waits for it.
slurm_submit() {
    kind=$1
    run_kind "$kind"
    prepare "$2" "$3"
    shards=$2
    shift 3
    cpus=$(concurrency "$@")
    # The task's script: its arguments are the binary, the run's kind, the shard count, DIR, the file's extension
    # and option, then the run's options. A task that is run again starts its shard afresh.
    cat >"$dir/shard.sh" <<'TASK'
#!/bin/sh
set -eu
tengen=$1 kind=$2 shards=$3 dir=$4 ext=$5 flag=$6
shift 6
i=${SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}
rm -f "shard-$i.$ext"
exec "$tengen" "$kind" "$@" --shard "$i/$shards" "$flag" "$dir/shard-$i.$ext"
TASK
    array=$(sbatch --parsable --job-name="tengen-$kind" --array="1-$shards" --cpus-per-task="$cpus" \
        --output="$dir/shard-%a.log" ${SBATCH_ARGS:-} "$dir/shard.sh" "$tengen" "$kind" "$shards" "$dir" "$ext" \
        "$flag" "$@")
    array=${array%%;*}
    files=$(shard_files "$dir" "$shards" "$ext")
    if [ "$kind" = selfplay ]; then
        command="'$tengen' merge --out '$dir/$merged' $files" log=$dir/merge.log
    else
        command="'$tengen' merge $files" log=$dir/$merged
    fi
    merge=$(sbatch --parsable --job-name=tengen-merge --dependency="afterok:$array" --output="$log" \
        ${SBATCH_ARGS:-} --wrap="$command")
    echo "$kind array job $array ($shards shards), merge job ${merge%%;*}: $dir/$merged"
}

# For the one-machine tests (slurm-test.sh, parallel-test.sh).

# need_tools INSTALL PACKAGES TOOL...: with INSTALL = --install, installs Debian's PACKAGES (apt-get, as root) when a
# TOOL is missing; then every TOOL must be there.
need_tools() {
    install=$1 packages=$2
    shift 2
    missing=
    for tool in "$@"; do command -v "$tool" >/dev/null || missing="$missing $tool"; done
    if [ -n "$missing" ] && [ "$install" = --install ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages >/dev/null
        missing=
        for tool in "$@"; do command -v "$tool" >/dev/null || missing="$missing $tool"; done
    fi
    [ -z "$missing" ] || { echo "error: not installed:$missing (try --install)" >&2; exit 1; }
}

# test_binary: the binary the tests run (as $tengen), from the repository's root: TENGEN when set, else the release
# build, else the one `cargo test` built (as in .ci/run), else a release build made now.
test_binary() {
    if [ -n "${TENGEN:-}" ]; then
        tengen=$(cd "$(dirname "$TENGEN")" && pwd)/$(basename "$TENGEN")
    elif [ -x target/release/pbrain-tengen ] || [ ! -x target/debug/pbrain-tengen ]; then
        [ -x target/release/pbrain-tengen ] || cargo build --release
        tengen=$(pwd)/target/release/pbrain-tengen
    else
        tengen=$(pwd)/target/debug/pbrain-tengen
    fi
}

# test_openings FILE: the four openings of the tests' small match.
test_openings() {
    printf 'h8 h9 h10\nh8 h9 i10\nh8 h9 j10\nh8 h9 i9\n' >"$1"
}

# match_report FILE: a match's report after its games, without the slowest answers (times, not results).
match_report() {
    sed -n '/games played$/,$p' "$1" | grep -v 'slowest answer'
}
