#!/usr/bin/env python3
"""How much of its match clock an engine spent in each game of a match or gauntlet log (the `game N/M: ... K moves,
B s / W s` lines `pbrain-tengen match` and `gauntlet` print) or of c-gomoku-cli's SGF collection (`-sgf FILE.sgf`:
each move's time in its comment, the opening stones marked): the median share of the clock over all games and over
the games where the engine made at least 25 moves after the opening, its mean time a move, the opponent's median
share, the score and the losses on time (docs/matches.md, "Spending the clock").

Usage: scripts/clock-share.py MATCH_MS ENGINE_PREFIX LOG|FILE.sgf...
Example: scripts/clock-share.py 24000 tengen data/matches/clock/tm2-pentazen-renju-1s-24s-kept.log
"""
import re
import statistics
import sys

LINE = re.compile(r"game \d+/\d+: (\S+) \(black\) vs (\S+) \(white\), opening ([a-v0-9 ]+): (\S+) (.*), (\d+) moves, "
                  r"([\d.]+) s / ([\d.]+) s")


def games(path, prefix):
    """Each game as (the engine's moves after the opening, its seconds, the opponent's, won: True/False/None, lost
    on time)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            black, _white, opening, score, how, n, tb, tw = m.groups()
            is_black = black.startswith(prefix)
            start = len(opening.split())
            moves = sum(1 for i in range(start, int(n)) if (i % 2 == 0) == is_black)
            used, other = (float(tb), float(tw)) if is_black else (float(tw), float(tb))
            won = None if score not in ("1-0", "0-1") else (score == "1-0") == is_black
            lost_on_time = won is False and "time" in how
            rows.append((moves, used, other, won, lost_on_time))
    return rows


SGF_GAME = re.compile(r"\(;(.*?)\)\s*(?=\(;|$)", re.S)
SGF_MOVE = re.compile(r";([BW])\[[^]]*\]C\[(\d+)ms\]")


def sgf_games(path, prefix):
    """The games of a c-gomoku-cli SGF collection, as `games` gives them: the moves with a time in their comment
    (not the opening's), the result from RE and a loss on time from TE."""
    rows = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for game in SGF_GAME.findall(text):
        tag = lambda name: (re.search(name + r"\[([^]]*)\]", game) or [None, ""])[1]
        colour = "B" if tag("PB").startswith(prefix) else "W"
        times = {"B": [], "W": []}
        for c, ms in SGF_MOVE.findall(game):
            times[c].append(int(ms) / 1000.0)
        other = "W" if colour == "B" else "B"
        result = tag("RE")
        won = None if result[:2] not in ("B+", "W+") else result.startswith(colour)
        lost_on_time = won is False and "time" in tag("TE").lower()
        rows.append((len(times[colour]), sum(times[colour]), sum(times[other]), won, lost_on_time))
    return rows


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    match_s = float(sys.argv[1]) / 1000.0
    prefix = sys.argv[2]
    for path in sys.argv[3:]:
        rows = sgf_games(path, prefix) if path.endswith(".sgf") else games(path, prefix)
        if not rows:
            print(f"{path}: no games")
            continue
        share = lambda rs: statistics.median(r[1] / match_s for r in rs) if rs else float("nan")
        long = [r for r in rows if r[0] >= 25]
        wins = sum(1 for r in rows if r[3] is True)
        losses = sum(1 for r in rows if r[3] is False)
        per_move = sum(r[1] for r in rows) * 1000 / max(1, sum(r[0] for r in rows))
        print(f"{path}: {len(rows)} games, {prefix} {wins}-{losses}-{len(rows) - wins - losses}; median share of "
              f"the clock {share(rows):.2f}, in the {len(long)} games of 25 moves a side or more {share(long):.2f}; "
              f"{per_move:.0f} ms a move; the opponent's median share "
              f"{statistics.median(r[2] / match_s for r in rows):.2f}; lost on time {sum(1 for r in rows if r[4])}")


if __name__ == "__main__":
    main()
