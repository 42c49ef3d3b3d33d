#!/usr/bin/env python3
"""Where a turn's time goes: each position of a gauntlet's games where Tengen was to move, fed to a Tengen binary
over the Gomocup protocol as a GUI would (START, INFO rule, INFO timeout_turn, INFO timeout_match 0, BOARD in move
order), one engine process a game (the positions in order, as a kept process sees them), one game at a time. For each
move: the wall time from DONE to the answer and why the search ended, read from the engine's RUST_LOG=debug lines:

    quick:<source>   answered before any iteration, depth 0: five, forced (the one legal answer), vcf or vct (the
                     root's solvers)
    quick:forced:lost  the opponent has fives the side cannot all stop: a block of one, at once
    proved-win       the iterations stopped before the budget at a win they proved (mate distance below the depth)
    proved-loss      the same at a proved loss
    late-vct         the late VCT proved a win after an iteration
    time             the clock (or the deepest iteration) ended the iterations (time:won, time:lost: with a proved
                     score)

Then a table: per reason the moves, their share, the mean wall ms and the time left unspent against a searched
move's budget (the turn less the engine's margin; 1,834 ms at 2 s). Wall times grow with the machine's load; the
reasons do not. Findings: docs/history.md, "Issue 97, item 5: where a 2 s turn's time goes".

Usage: scripts/turn-spent.py [--turn-ms 2000] [--budget-ms MS] [--games 30] [--step 1] [--max-memory B]
                             [--name tengen] [--rows FILE] BINARY GAMES.tgr
Example: scripts/turn-spent.py --games 30 --step 3 target/release/pbrain-tengen \\
             data/games/gauntlet48-pentazen-renju-2s-a6803b5-kept.tgr
--games N takes the file's first N games, --step S every S-th of them; --rows FILE writes one tab-separated line
per move (game, ply, wall ms, reason, move, depth, score, the root VCT's ms).
"""

import argparse
import collections
import os
import re
import subprocess
import tempfile
import time

from tengen_files import read_tgr

MATE_BOUND = 29_000
MOVE = re.compile(r"\bmove (\S+) depth (-?\d+) score (-?\d+) nodes \d+ time \d+ ms \((\w+)\)")
ROOT_VCT = re.compile(r"root vct: \d+ nodes, (\d+) ms")
SEARCHED = re.compile(r"search: (\d+) ms, depth")
ANSWER = re.compile(r"^\d+,\d+$")


def reason(depth, score, source, searched_ms, budget_ms):
    """Why the search that answered ended (see the docstring)."""
    if depth == 0:
        lost = ":lost" if source == "forced" and score < -MATE_BOUND else ""
        return f"quick:{source}{lost}"
    if source == "vct":
        return "late-vct"
    if searched_ms is None or searched_ms < budget_ms - 20:
        if score > MATE_BOUND:
            return "proved-win"
        if score < -MATE_BOUND:
            return "proved-loss"
    return "time" + (":won" if score > MATE_BOUND else ":lost" if score < -MATE_BOUND else "")


def play_game(binary, game, args, log_path):
    """Each position of `game` where the engine named `args.name` moves: (ply, wall ms, reason, move, depth, score,
    the root VCT's ms)."""
    black = game.names[0].startswith(args.name)
    ours = 0 if black else 1
    first = next((k for k, s in enumerate(game.scores) if s != -32768 and k % 2 == ours), len(game.moves))
    env = dict(os.environ, RUST_LOG="debug")
    rows = []
    with open(log_path, "w+", encoding="utf-8") as log:
        engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                                  env=env, bufsize=1)

        def send(line):
            engine.stdin.write(line + "\n")
            engine.stdin.flush()

        def answer():
            while True:
                line = engine.stdout.readline()
                if not line:
                    raise SystemExit("the engine ended")
                line = line.strip()
                if ANSWER.match(line) or line == "OK" or line.startswith("ERROR"):
                    return line

        send("START 15")
        answer()
        for info in (f"rule {game.rule}", f"timeout_turn {args.turn_ms}", "timeout_match 0",
                     f"max_memory {args.max_memory}"):
            send(f"INFO {info}")
        for ply in range(first, len(game.moves)):
            if ply % 2 != ours:
                continue
            seen = log.tell()
            send("BOARD")
            for k, (x, y) in enumerate(game.moves[:ply]):
                send(f"{x},{y},{1 if k % 2 == ours else 2}")
            t0 = time.monotonic()
            send("DONE")
            reply = answer()
            wall = (time.monotonic() - t0) * 1000
            if not ANSWER.match(reply):
                raise SystemExit(f"ply {ply}: {reply}")
            time.sleep(0.01)  # the log's last lines
            log.seek(seen)
            text = log.read()
            log.seek(0, 2)
            moves = MOVE.findall(text)
            if not moves:
                raise SystemExit(f"ply {ply}: no move line in the log")
            played, depth, score, source = moves[-1]
            vct = ROOT_VCT.findall(text)
            searched = SEARCHED.findall(text)
            why = reason(int(depth), int(score), source, int(searched[-1]) if searched else None, args.budget_ms)
            rows.append((ply, wall, why, played, int(depth), int(score), int(vct[-1]) if vct else None))
        send("END")
        engine.wait(timeout=10)
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("binary")
    p.add_argument("games")
    p.add_argument("--turn-ms", type=int, default=2000)
    p.add_argument("--budget-ms", type=float, help="a searched move's time (default: the turn less the engine's margin, "
                   "src/search/time.rs margin_ms)")
    p.add_argument("--games", dest="count", type=int, default=30)
    p.add_argument("--step", type=int, default=1)
    p.add_argument("--max-memory", type=int, default=367001600, help="as the gauntlet sends (0: none)")
    p.add_argument("--name", default="tengen")
    p.add_argument("--rows")
    args = p.parse_args()
    if args.budget_ms is None:
        args.budget_ms = float(args.turn_ms - min(max(args.turn_ms // 12, 10), 250))
    games = read_tgr(args.games)[: args.count : args.step]
    table = collections.defaultdict(list)
    out = open(args.rows, "w", encoding="utf-8") if args.rows else None
    with tempfile.TemporaryDirectory() as tmp:
        for g, game in enumerate(games):
            if not game.names or args.name not in [n[: len(args.name)] for n in game.names]:
                continue
            rows = play_game(args.binary, game, args, os.path.join(tmp, "log"))
            for ply, wall, why, played, depth, score, vct in rows:
                table[why].append(wall)
                if out:
                    print(g * args.step + 1, ply, f"{wall:.0f}", why, played, depth, score, vct if vct is not None else "-",
                          sep="\t", file=out, flush=True)
            print(f"game {g * args.step + 1}: {len(rows)} moves, {sum(r[1] for r in rows) / 1000:.1f} s", flush=True)
    total = sum(len(v) for v in table.values())
    all_walls = [w for v in table.values() for w in v]
    print(f"{'reason':<16} {'moves':>5} {'share':>6} {'mean ms':>8} {'unspent s':>9}")
    for why, walls in sorted(table.items(), key=lambda kv: -len(kv[1])):
        unspent = sum(max(0.0, args.budget_ms - w) for w in walls) / 1000
        print(f"{why:<16} {len(walls):>5} {len(walls) / total:>6.1%} {sum(walls) / len(walls):>8.0f} {unspent:>9.1f}")
    unspent = sum(max(0.0, args.budget_ms - w) for w in all_walls) / 1000
    print(f"{'all':<16} {total:>5} {1:>6.1%} {sum(all_walls) / total:>8.0f} {unspent:>9.1f}")
    under5 = sum(1 for w in all_walls if w < 5)
    print(f"under 5 ms: {under5} ({under5 / total:.1%})")


if __name__ == "__main__":
    main()
