#!/bin/sh
# The census of two builds (or two parameter sets) side by side (issue 97): `bench --census` of each on the same
# positions at the same node count, its summary lines joined by name.
# Usage: scripts/census.sh OLD NEW [NODES] [FILE]   (OLD and NEW: an executable, optionally followed by
#        '--params FILE' inside quotes; NODES default 1000000; FILE default data/positions/census-renju.txt)
# Example: scripts/census.sh ./old-tengen target/release/pbrain-tengen 100000
#          scripts/census.sh target/release/pbrain-tengen "target/release/pbrain-tengen --params new.txt" 100000
set -eu
old=${1:?usage: scripts/census.sh OLD NEW [NODES] [FILE]}
new=${2:?usage: scripts/census.sh OLD NEW [NODES] [FILE]}
nodes=${3:-1000000}
file=${4:-data/positions/census-renju.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
census() { # BUILD OUT: the build's census summary (its name<TAB>value lines) into OUT
    bin=${1%% *}
    extra=""
    [ "$bin" = "$1" ] || extra=${1#* }
    # shellcheck disable=SC2086 # the extra options are words
    "$bin" bench --census --nodes "$nodes" --file "$file" $extra | grep "$(printf '\t')" >"$2"
}
census "$old" "$tmp/old"
census "$new" "$tmp/new"
printf 'census at %s nodes of %s\n  old: %s\n  new: %s\n' "$nodes" "$file" "$old" "$new"
awk -F '\t' 'NR == FNR { old[$1] = $2; order[++n] = $1; next }
    { new[$1] = $2; if (!($1 in old)) order[++n] = $1 }
    END { for (i = 1; i <= n; i++) { k = order[i]; printf "%-18s %-58s | %s\n", k, old[k], new[k] } }' \
    "$tmp/old" "$tmp/new"
