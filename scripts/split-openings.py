#!/usr/bin/env python3
"""Openings whose game pairs split (issue 97): from a self-play log (`pbrain-tengen selfplay` output), the openings
of the pairs that did not end one game each with the same colour winning both: the stronger side won both games, or
a draw came in. Run on a pilot between two strengths of the same build (for example 30,000 against 120,000 nodes a
move), they are openings where the result depends on the play more than on the colour, for SPRTs whose pairs carry
information.

Usage: scripts/split-openings.py LOG [LOG...] > openings.txt   (prints a summary of the pairs on stderr)
"""
import re
import sys

GAME = re.compile(r"^game +(\d+): ([AB]) black, opening ([A-Z0-9 ]+): (1-0|0-1|1/2)")


def main(paths):
    games = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = GAME.match(line)
                if m:
                    n, a_colour, opening, result = int(m[1]), m[2], m[3].strip(), m[4]
                    black = {"1-0": 1.0, "0-1": 0.0, "1/2": 0.5}[result]
                    games[n] = (opening, black if a_colour == "A" else 1.0 - black)
    counts = [0] * 5
    kept = []
    for first in sorted(n for n in games if n % 2 == 1):
        if first + 1 not in games:
            continue
        (opening, a1), (other, a2) = games[first], games[first + 1]
        if opening != other:
            sys.exit(f"games {first} and {first + 1} do not share an opening: not a pair")
        counts[round((a1 + a2) * 2)] += 1
        if a1 + a2 != 1.0 or a1 == 0.5:
            kept.append(opening)
    pairs = sum(counts)
    print(f"{pairs} pairs, pentanomial {counts}; kept {len(kept)} openings whose pairs split", file=sys.stderr)
    for opening in kept:
        print(opening.lower())


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
