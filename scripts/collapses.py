#!/usr/bin/env python3
"""How Tengen's lost games went: sudden collapses against slow slides, by colour, from gauntlet game files.

Reads `.tgr` game files with scores and players (the gauntlet's, `--say-score`; layout in docs/training.md, "The game
files"). Tengen is the player whose name starts with PREFIX (default "tengen"). For each game Tengen lost, its own
scores are followed move by move (opening moves, and moves scored exactly 0, are left out: a forced block is scored
0); the collapse is the first move whose score is a proven loss (-20,000 or less). It is sudden when Tengen's score
two of its moves before was -200 or more, else slow. The calibration lines: of Tengen's scored moves (not proven
either way), the share of points its side took from the game, by the score it gave, by colour.

    scripts/collapses.py [--prefix P] FILE.tgr...
"""
import sys

from tengen_files import read_tgr

MATE = 20000
BUCKETS = [(-10**9, -300), (-300, 0), (0, 300), (300, 800), (800, MATE)]


def main(argv):
    prefix = "tengen"
    if len(argv) > 1 and argv[0] == "--prefix":
        prefix, argv = argv[1], argv[2:]
    if not argv:
        sys.exit(__doc__)
    record = {c: [0, 0, 0] for c in "BW"}  # won, lost, drawn
    kinds = {c: {"sudden": 0, "slow": 0, "none": 0} for c in "BW"}
    calib = {(c, k): [0.0, 0] for c in "BW" for k in range(len(BUCKETS))}
    for path in argv:
        for _rule, result, names, _moves, scores in read_tgr(path):
            if scores is None or names is None:
                continue
            sides = [s for s in (0, 1) if names[s].lower().startswith(prefix)]
            if len(sides) != 1:
                continue
            side = sides[0]
            colour = "BW"[side]
            won = {2: 0, 0: 1}.get(result)  # the winner's side, None for a draw
            points = 0.5 if won is None else (1.0 if won == side else 0.0)
            record[colour][0 if points == 1 else 1 if points == 0 else 2] += 1
            own = [s for s in scores[side::2] if s != -32768 and s != 0]
            for s in own:
                for k, (lo, hi) in enumerate(BUCKETS):
                    if lo <= s < hi:
                        calib[(colour, k)][0] += points
                        calib[(colour, k)][1] += 1
            if points == 0:
                at = next((j for j, s in enumerate(own) if s <= -MATE), None)
                if at is None:
                    kinds[colour]["none"] += 1
                elif at >= 2 and own[at - 2] >= -200:
                    kinds[colour]["sudden"] += 1
                else:
                    kinds[colour]["slow"] += 1
    for c in "BW":
        w, l, d = record[c]
        k = kinds[c]
        print(f"as {'Black' if c == 'B' else 'White'}: {w}-{l}-{d}; losses: sudden {k['sudden']}, slow {k['slow']}, "
              f"no proven loss seen {k['none']}")
    for c in "BW":
        cells = []
        for k, (lo, hi) in enumerate(BUCKETS):
            got, n = calib[(c, k)]
            if n:
                cells.append(f"[{lo if lo > -10**9 else '-inf'}, {hi}): {100 * got / n:.0f}% of {n}")
        print(f"as {'Black' if c == 'B' else 'White'}, points by Tengen's score: " + "; ".join(cells))


if __name__ == "__main__":
    main(sys.argv[1:])
