#!/usr/bin/env python3
"""How often Tengen's choice and the strongest engine's move force, on the agreement yardstick's positions.

For each position of an `agree` results file (docs/agreement.md) the move played in Gomocup's game and the move Tengen
chose are each classed by what it makes for the mover, read off the stones alone: a four (a five-point window through
the move holding four of the mover's stones and one empty point), else an open three (a six-point window through it
whose ends are empty and whose four inner points hold three of the mover's stones and one empty point), else quiet.
Renju's forbidden points are not looked at: the classes count shapes, not legal threats. Positions whose score Tengen
proved (|score| above 20,000: a win or loss found; only files of `agree` run in process carry such scores) are counted
apart, since a proved win's first move is a four by nature. The summary line that counts: of the positions where the
two moves differ, how often Tengen's is the more forcing (four over three over quiet) and how often the engine's.

    scripts/forcing-moves.py RESULTS.tsv GAMES_DIR      (GAMES_DIR: the unpacked league, e.g. /tmp/gc/renju-2021)
"""
import collections
import os
import sys

DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]
ORDER = {"quiet": 0, "three": 1, "four": 2}
TENGEN_MORE = "Tengen's the more forcing"
ENGINE_MORE = "the engine's the more forcing"


def moves_of(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f.read().splitlines()[1:]:
            parts = line.split(",")
            if len(parts) == 3 and all(p.strip().isdigit() for p in parts):
                out.append((int(parts[0]) - 1, int(parts[1]) - 1))
    return out


def kind(stones, m, me, size):
    b = dict(stones)
    b[m] = me

    def at(x, y):
        if not (0 <= x < size and 0 <= y < size):
            return "#"
        return b.get((x, y), ".")

    best = "quiet"
    for dx, dy in DIRS:
        for s in range(-4, 1):
            w = [at(m[0] + (s + k) * dx, m[1] + (s + k) * dy) for k in range(5)]
            if w.count(me) == 4 and w.count(".") == 1:
                return "four"
        for s in range(-5, 1):
            w = [at(m[0] + (s + k) * dx, m[1] + (s + k) * dy) for k in range(6)]
            if w[0] == "." and w[5] == "." and w[1:5].count(me) == 3 and w[1:5].count(".") == 1:
                best = "three"
    return best


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    results, games = sys.argv[1], sys.argv[2]
    count = {"proved": collections.Counter(), "unproved": collections.Counter()}
    for line in open(results, encoding="utf-8"):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) < 6 or f[4] in ("", "-"):
            continue
        path, idx = f[0].rsplit("#", 1)
        idx = int(idx)
        file = os.path.join(games, path.split("/", 1)[1])
        moves = moves_of(file)
        stones = {m: ("B" if i % 2 == 0 else "W") for i, m in enumerate(moves[:idx])}
        me = "B" if idx % 2 == 0 else "W"
        played = tuple(map(int, f[3].split(",")))
        chosen = tuple(map(int, f[4].split(",")))
        part = "proved" if f[5].lstrip("-").isdigit() and abs(int(f[5])) > 20000 else "unproved"
        c = count[part]
        kp, kc = kind(stones, played, me, 15), kind(stones, chosen, me, 15)
        c["positions"] += 1
        c["played " + kp] += 1
        c["chosen " + kc] += 1
        if played != chosen:
            c["differ"] += 1
            if ORDER[kc] > ORDER[kp]:
                c[TENGEN_MORE] += 1
            elif ORDER[kc] < ORDER[kp]:
                c[ENGINE_MORE] += 1
            c[f"differ: played {kp}, chosen {kc}"] += 1
    for part in ("unproved", "proved"):
        c = count[part]
        print(f"== {part}: {c['positions']} positions, {c['differ']} where Tengen chose another move")
        for k in ("four", "three", "quiet"):
            print(f"  a {k}: played {c['played ' + k]}, Tengen {c['chosen ' + k]}")
        print(f"  of the other moves: Tengen's the more forcing {c[TENGEN_MORE]}, the engine's {c[ENGINE_MORE]}")
        for k in sorted(k for k in c if k.startswith("differ:")):
            print(f"  {k}: {c[k]}")


if __name__ == "__main__":
    main()
