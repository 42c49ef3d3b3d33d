#!/bin/sh
# The browser board in a real browser: starts `pbrain-tengen serve` on a free port and drives Debian's headless
# Chromium with playwright-core (scripts/browser/test.mjs): a short renju game played by clicking, a forbidden point
# marked and refused, an analysis until a best move and candidates appear, an opening rule, the threats overlay,
# the evaluation graph, the move list, the SGF download, a phone-sized screen, and screenshots
# (${SHOT:-target/browser-test.png}). Installs Chromium (apt) and playwright-core (npm, scripts/browser/) when
# missing. Needs Node.js and npm.
set -eu
cd "$(dirname "$0")/.."
fail() { echo "browser test failed: $*"; exit 1; }
if [ ! -x /usr/bin/chromium ]; then
    echo "installing Debian's chromium"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null || fail "apt-get install chromium failed"
fi
command -v node >/dev/null || fail "Node.js is missing"
if [ ! -d scripts/browser/node_modules/playwright-core ]; then
    (cd scripts/browser && npm ci --silent --no-audit --no-fund) || fail "npm could not install playwright-core"
fi
cargo build --release --quiet
log=$(mktemp)
target/release/pbrain-tengen serve --port 0 > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q '^Tengen' "$log" && break; sleep 0.1; done
url=$(sed -n 's/^Tengen.s board: //p' "$log")
[ -n "$url" ] || fail "the server did not start: $(cat "$log")"
echo "serving at $url"
node scripts/browser/test.mjs "$url" "${SHOT:-target/browser-test.png}"
