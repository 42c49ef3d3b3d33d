#!/bin/sh
# The Windows build under Wine, as an organiser would try it: builds pbrain-tengen.exe, checks its import table
# (scripts/check-imports.sh), initialises the Wine prefix on first run (wineboot), and plays a short game through
# scripts/protocol-smoke.py (START, BEGIN, TURNs, a renju BOARD with INFO rule 4, yxboard + yxshowforbid, END), which
# prints every line sent and received and says in one line why it failed when it fails.
# Needs, once: rustup target add x86_64-pc-windows-gnu; apt-get install gcc-mingw-w64-x86-64 wine64.
set -eu
cd "$(dirname "$0")/.."
fail() { echo "wine smoke test failed: $*"; exit 1; }
command -v x86_64-w64-mingw32-gcc >/dev/null || fail "x86_64-w64-mingw32-gcc is missing (apt-get install gcc-mingw-w64-x86-64)"
wine=$(command -v wine64 || command -v wine || true)
[ -z "$wine" ] && [ -x /usr/lib/wine/wine64 ] && wine=/usr/lib/wine/wine64
[ -n "$wine" ] || fail "Wine is missing (apt-get install wine64)"
cargo build --release --target x86_64-pc-windows-gnu --quiet || fail "the Windows build failed (rustup target add x86_64-pc-windows-gnu?)"
exe=target/x86_64-pc-windows-gnu/release/pbrain-tengen.exe
scripts/check-imports.sh "$exe" || fail "the executable imports a DLL that Wine or older Windows lack"
export WINEDEBUG=-all,err+module  # the loader's missing-DLL errors, nothing else
# Wine keeps its prefix under HOME: a login's home where the caller (a CI job) left HOME unset.
export HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
export WINEPREFIX="${WINEPREFIX:-$HOME/.wine-tengen}"
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "initialising the Wine prefix $WINEPREFIX"
    timeout 300 "$wine" wineboot --init >/dev/null 2>&1 || fail "wineboot could not initialise $WINEPREFIX"
fi
python3 scripts/protocol-smoke.py "$wine" "$exe" || fail "see the line above"
echo "wine smoke test: ok"
