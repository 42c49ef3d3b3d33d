#!/bin/sh
# Smoke test of the Windows build under Wine: START, a move, yxshowforbid, ABOUT, END, checked line by line.
# Needs the Windows target and MinGW-w64 (see scripts/gomocup-zip.sh) and Wine (apt-get install wine64).
set -eu
cd "$(dirname "$0")/.."
cargo build --release --target x86_64-pc-windows-gnu --quiet
exe=target/x86_64-pc-windows-gnu/release/pbrain-tengen.exe
out=$( (printf 'START 15\r\nINFO timeout_turn 500\r\nINFO rule 4\r\nBEGIN\r\n'; sleep 10
        printf 'TURN 1,1\r\n'; sleep 5; printf 'ABOUT\r\nEND\r\n'; sleep 2) | timeout 90 wine "$exe" 2>/dev/null | tr -d '\r')
echo "$out"
echo "$out" | sed -n 1p | grep -qx 'OK'
echo "$out" | sed -n 2p | grep -qx '7,7'
echo "$out" | sed -n 3p | grep -Eqx '[0-9]+,[0-9]+'
echo "$out" | sed -n 4p | grep -q '^name="Tengen"'
echo "wine smoke test: ok"
