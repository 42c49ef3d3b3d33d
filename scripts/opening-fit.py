#!/usr/bin/env python3
"""Fits Black's expected score to a search's score over games from scored openings (scripts/opening-balance.sh).

Usage: opening-fit.py GAMES.log SCORES.txt...
GAMES.log is a `pbrain-tengen match` output; each SCORES.txt is an `pbrain-tengen openings` file whose lines end in
`# score S at depth D` (S for the side to move). For each scores file it prints Black's score in six buckets of
Black's view of the score, and the maximum-likelihood logistic curve 1 / (1 + exp(-(score - even) / scale)).
"""
import math
import re
import sys


def scores(path):
    out = {}
    for line in open(path):
        if "#" not in line:
            continue
        moves, comment = line.split("#", 1)
        m = re.search(r"score ([+-]?\d+)", comment)
        if m:
            out[moves.strip()] = int(m.group(1))
    return out


def games(path):
    out = []
    for line in open(path):
        m = re.match(r"game \d+/\d+: .*?opening ([a-z0-9 ]+?): (1-0|0-1|1/2-1/2)", line)
        if m:
            out.append((m.group(1).strip(), {"1-0": 1.0, "0-1": 0.0}.get(m.group(2), 0.5)))
    return out


def fit(points):
    best = None
    for even in range(-600, 601, 10):
        for scale in (25, 50, 75, 100, 150, 200, 250, 300, 400, 600, 800, 1200):
            ll = 0.0
            for x, r in points:
                p = min(max(1 / (1 + math.exp(-(x - even) / scale)), 1e-6), 1 - 1e-6)
                ll += r * math.log(p) + (1 - r) * math.log(1 - p)
            if best is None or ll > best[0]:
                best = (ll, even, scale)
    return best


def main():
    played = games(sys.argv[1])
    if not played:
        sys.exit("no games in " + sys.argv[1])
    print(f"{len(played)} games, Black's score {sum(r for _, r in played) / len(played):.3f}")
    for path in sys.argv[2:]:
        table = scores(path)
        points = []
        for opening, result in played:
            if opening in table:
                stones = len(opening.split())
                points.append((-table[opening] if stones % 2 == 1 else table[opening], result))
        points.sort()
        n = len(points)
        print(f"{path}: {n} games")
        for b in range(6):
            part = points[b * n // 6:(b + 1) * n // 6]
            if part:
                mean = sum(r for _, r in part) / len(part)
                print(f"  Black's view {part[0][0]:+6d} .. {part[-1][0]:+6d}: Black scored {mean:.3f} ({len(part)} games)")
        ll, even, scale = fit(points)
        print(f"  fit: even at {even:+d}, scale {scale} (log-likelihood {ll:.1f}, a coin's {n * math.log(0.5):.1f})")


if __name__ == "__main__":
    main()
