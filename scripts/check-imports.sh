#!/bin/sh
# Fails when the Windows executable imports a DLL outside the short list Tengen needs, so that it loads wherever
# Windows programs run (Windows 8 and later, Wine): KERNEL32, msvcrt, ntdll, api-ms-win-core-synch-* and WS2_32
# (Winsock, for `serve`'s HTTP server; every Windows has it). Today's
# standard library imports bcryptprimitives.dll (ProcessPrng, missing before Windows 10 and in Wine 8) as soon as a
# HashMap or HashSet uses the default random hasher; Tengen's maps use fixed hashers or ordered maps instead.
# Usage: scripts/check-imports.sh [EXE]   (default target/x86_64-pc-windows-gnu/release/pbrain-tengen.exe)
# Needs x86_64-w64-mingw32-objdump (apt-get install binutils-mingw-w64-x86-64, which gcc-mingw-w64-x86-64 brings).
set -eu
cd "$(dirname "$0")/.."
exe=${1:-target/x86_64-pc-windows-gnu/release/pbrain-tengen.exe}
if ! command -v x86_64-w64-mingw32-objdump >/dev/null; then
    echo "import check failed: x86_64-w64-mingw32-objdump is missing (apt-get install binutils-mingw-w64-x86-64)"
    exit 1
fi
if [ ! -f "$exe" ]; then
    echo "import check failed: $exe does not exist (cargo build --release --target x86_64-pc-windows-gnu)"
    exit 1
fi
dlls=$(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr -d '\r')
echo "$exe imports:"
echo "$dlls" | sed 's/^/  /'
bad=$(echo "$dlls" | grep -viE '^(kernel32\.dll|msvcrt\.dll|ntdll\.dll|ws2_32\.dll|api-ms-win-core-synch-l1-[0-9]+-[0-9]+\.dll)$' || true)
if [ -n "$bad" ]; then
    echo "import check failed: $(echo "$bad" | tr '\n' ' ')is outside KERNEL32, msvcrt, ntdll, WS2_32, api-ms-win-core-synch"
    exit 1
fi
echo "import check: ok"
