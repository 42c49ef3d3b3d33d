#!/usr/bin/env python3
"""Whether an engine keeps a win it has proved from one move to the next.

    scripts/proved-wins.py [--ms 500] BINARY GAMES.tgr...
    scripts/proved-wins.py --list GAMES.tgr...

From the renju games of the .tgr files (those the gauntlet writes, with Tengen's scores), every place where a Tengen
move scored a proved win and Tengen's next move, not the one answer to a four, did not: the position before the
proving move. BINARY (a Gomocup
engine with --say-score, for the score of its moves) gets that position with BOARD at --ms a move; where it plays
the game's move with a proved score, it gets the opponent's answer of the game with TURN, and the case counts as
kept when that move too scores a proved win or is the one answer to a four. One line per case, then a summary.
--list prints the cases (position, move, answer) without playing them.
"""

import subprocess
import sys

from tengen_files import read_tgr

MATE_BOUND = 29_000
LETTERS = "abcdefghijklmnopqrstuv"


def name(p):
    return f"{LETTERS[p[0]]}{p[1] + 1}"


def cases(paths):
    """(position before the proving move, the move, the opponent's answer) for each drop of a proof."""
    found = []
    for path in paths:
        for rule, _result, names, moves, scores in read_tgr(path):
            if rule != 4 or not names or not scores:
                continue
            side = 0 if names[0].startswith("tengen") else 1 if names[1].startswith("tengen") else None
            if side is None:
                continue
            own = [i for i in range(side, len(moves), 2) if scores[i] != -32768]
            for i, j in zip(own, own[1:]):
                # A score of 0 after a proof is the one answer to a four (the game's records give it no score).
                if j == i + 2 and scores[i] >= MATE_BOUND and scores[j] < MATE_BOUND and scores[j] != 0:
                    found.append((moves[:i], moves[i], moves[i + 1]))
                    break
    return found


class Engine:
    def __init__(self, command, ms):
        self.p = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("START 15")
        self.reply()
        for line in ("INFO rule 4", f"INFO timeout_turn {ms}", "INFO timeout_match 100000000"):
            self.send(line)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def reply(self):
        return self.p.stdout.readline().strip()

    def move(self):
        """The next move and the score and depth its MESSAGE line gave."""
        score, depth = None, None
        while True:
            line = self.reply()
            if not line:
                raise SystemExit("the engine ended")
            words = line.split()
            if words[0].upper() == "MESSAGE" and len(words) >= 5 and words[1] == "score":
                score, depth = int(words[2]), int(words[4])
            elif "," in line and words[0].upper() not in ("MESSAGE", "DEBUG", "ERROR", "UNKNOWN"):
                x, y = map(int, line.split(","))
                return (x, y), score, depth

    def close(self):
        self.send("END")
        self.p.wait()


def main(argv):
    ms, listing, rest = 500, False, []
    it = iter(argv)
    for a in it:
        if a == "--ms":
            ms = int(next(it))
        elif a == "--list":
            listing = True
        else:
            rest.append(a)
    if listing:
        paths, binary = rest, None
    elif len(rest) >= 2:
        binary, paths = rest[0], rest[1:]
    else:
        raise SystemExit(__doc__)
    found = cases(paths)
    if listing:
        for prefix, m, answer in found:
            print(" ".join(map(name, prefix)), name(m), name(answer), sep="\t")
        return
    same = kept = 0
    for k, (prefix, m, answer) in enumerate(found, 1):
        engine = Engine(binary, ms)
        engine.send("BOARD")
        mover = 1 if len(prefix) % 2 == 0 else 2
        for i, (x, y) in enumerate(prefix):
            engine.send(f"{x},{y},{1 if (i % 2 == 0) == (mover == 1) else 2}")
        engine.send("DONE")
        first, score, _ = engine.move()
        if first != m or score is None or score < MATE_BOUND:
            line = f"other move {name(first)} score {score}"
        else:
            same += 1
            engine.send(f"TURN {answer[0]},{answer[1]}")
            second, score2, depth2 = engine.move()
            forced = depth2 == 0 and score2 == 0
            ok = score2 is not None and (score2 >= MATE_BOUND or forced)
            kept += ok
            line = f"{'kept' if ok else 'lost'} {name(second)} score {score2}" + (" (forced)" if forced else "")
        engine.close()
        print(f"case {k}: {line}", flush=True)
    print(f"cases {len(found)}, proving move played again {same}, proof kept at the next move {kept}")


if __name__ == "__main__":
    main(sys.argv[1:])
