#!/bin/sh
# Time and strength figures from in-process self-play (pbrain-tengen selfplay: both engines in one process, so the
# slowest answer is measured without process start-up); engine-vs-engine matches over the protocol: pbrain-tengen match.
#   scripts/selfplay.sh time       mean and slowest answer at 100 ms, 500 ms and 5 s a move (the mean of the searched
#                                  moves is the time spent where no threat decides the move; both engines at
#                                  max_memory 350 MiB, peak resident size of the process); a 10 s game clock never
#                                  runs out
#   scripts/selfplay.sh strength   the full engine against a depth-2 search and against itself without the solvers
# GAMES=N changes the number of strength games (default 40), TURN_MS their time per move (default 200).
set -eu
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=./target/release/pbrain-tengen
case "${1:-all}" in
time|all)
    echo "== timeout_turn 100 ms, 8 games (expect the slowest answer under 130 ms)"
    $bin selfplay --games 8 --turn-ms 100 --max-memory 367001600 | tail -3
    echo "== timeout_turn 500 ms, 8 games (expect the searched moves' mean at 80% of the turn or more, slowest under 530 ms)"
    $bin selfplay --games 8 --turn-ms 500 --concurrency 2 --max-memory 367001600 | tail -3
    echo "== timeout_turn 5 s, 2 games (expect the slowest answer under 5030 ms)"
    $bin selfplay --games 2 --turn-ms 5000 --concurrency 2 --max-memory 367001600 | tail -3
    echo "== timeout_match 10000 ms per side, games of up to 100 moves after the opening (expect no 'out of time')"
    $bin selfplay --games 4 --turn-ms 10000 --match-ms 10000 --draw-at 103 | grep -E "game|Score|slowest"
    ;;
esac
case "${1:-all}" in
strength|all)
    games=${GAMES:-40}
    turn=${TURN_MS:-200}
    echo "== full engine (A) against a depth-2 search (B), $games games, $turn ms a move"
    $bin selfplay --games "$games" --turn-ms "$turn" --b-depth 2 | tail -3
    echo "== full engine (A) against itself without the threat solvers (B), $games games, $turn ms a move"
    $bin selfplay --games "$games" --turn-ms "$turn" --b-no-threats | tail -3
    ;;
esac
