#!/usr/bin/env python3
"""A judge-like run, as GomocupJudge plays a renju league game: a fresh engine process per game and side, START,
the INFO block (timeout_turn, timeout_match, max_memory 350 MiB, game_type 1, rule 4, folder), the opening as
BOARD, then INFO time_left + TURN for every move, END at the end. The engine plays itself, game N from the N-th of the
26 renju openings. Every move is checked: on the board and empty, in time (turn limit and
match clock, with the judge's 1000 ms tolerance), not forbidden for Black (by `pbrain-tengen forbid`, our exact
checker), and the engine's resident memory stays under max_memory. Draw at 200 stones as the league does.
Usage: scripts/judge-run.py [games] [turn_ms] [match_ms]   (defaults 20 5000 120000; build the release binary first)
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "pbrain-tengen")
OPENINGS = ["h8 h9 h10", "h8 h9 i10", "h8 h9 j10", "h8 h9 i9", "h8 h9 j9", "h8 h9 i8", "h8 h9 j8", "h8 h9 h7",
            "h8 h9 i7", "h8 h9 j7", "h8 h9 h6", "h8 h9 i6", "h8 h9 j6", "h8 i9 j10", "h8 i9 j9", "h8 i9 j8",
            "h8 i9 j7", "h8 i9 j6", "h8 i9 i8", "h8 i9 i7", "h8 i9 i6", "h8 i9 h7", "h8 i9 h6", "h8 i9 g7",
            "h8 i9 g6", "h8 i9 f6"]
MAX_MEMORY = 367001600
SIZE = 15


def xy(word):
    return ord(word[0]) - ord("a"), SIZE - int(word[1:])


def name(p):
    return f"{chr(ord('A') + p[0])}{SIZE - p[1]}"


def rss(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def five(stones, p, exact):
    """Whether the stone just placed at p makes five (exactly five when `exact`)."""
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            x, y = p[0] + s * dx, p[1] + s * dy
            while (x, y) in stones:
                n += 1
                x, y = x + s * dx, y + s * dy
        if n == 5 or (n > 5 and not exact):
            return True
    return False


def forbidden(black, white):
    line = ",".join(name(p) for p in black) + "\t" + ",".join(name(p) for p in white) + "\n"
    out = subprocess.run([BIN, "forbid", "--rule", "renju"], input=line, capture_output=True, text=True).stdout.strip()
    return set() if out in ("", "-") else {xy(w.lower()) for w in out.split(",")}


class Engine:
    def __init__(self, turn_ms, match_ms):
        self.p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.left = match_ms
        self.peak = 0
        for line in ["START 15", f"INFO timeout_turn {turn_ms}", f"INFO timeout_match {match_ms}",
                     f"INFO max_memory {MAX_MEMORY}", "INFO game_type 1", "INFO rule 4", "INFO folder /tmp/judge"]:
            self.send(line)
        if self.p.stdout.readline().strip() != "OK":
            raise RuntimeError("no OK to START")

    def send(self, line):
        self.p.stdin.write(line + "\r\n")
        self.p.stdin.flush()

    def ask(self, lines):
        self.send(f"INFO time_left {self.left}")
        start = time.monotonic()
        for line in lines:
            self.send(line)
        reply = self.p.stdout.readline().strip()
        took = int((time.monotonic() - start) * 1000)
        self.left -= took
        self.peak = max(self.peak, rss(self.p.pid))
        x, y = (int(v) for v in reply.split(","))
        return (x, y), took

    def end(self):
        self.send("END")
        try:
            self.p.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return False
        return True


def game(number, turn_ms, match_ms):
    opening = [xy(w) for w in OPENINGS[number % len(OPENINGS)].split()]
    engines = [Engine(turn_ms, match_ms), Engine(turn_ms, match_ms)]  # [black, white]
    stones = {}
    moves = list(opening)
    for i, p in enumerate(opening):
        stones[p] = i % 2
    slowest = 0
    result = None
    side = 1  # White moves after a three-stone opening
    first = {0: True, 1: True}
    while result is None:
        me = engines[side]
        if first[side]:
            body = ["BOARD"] + [f"{p[0]},{p[1]},{1 if stones[p] == side else 2}" for p in moves] + ["DONE"]
            first[side] = False
        else:
            body = [f"TURN {moves[-1][0]},{moves[-1][1]}"]
        try:
            p, took = me.ask(body)
        except (ValueError, BrokenPipeError):
            result = (1 - side, "crash or bad reply")
            break
        slowest = max(slowest, took)
        if took > turn_ms + 1000 or me.left < -1000:
            result = (1 - side, f"time: {took} ms")
        elif me.peak > MAX_MEMORY:
            result = (1 - side, f"memory: {me.peak} bytes")
        elif not (0 <= p[0] < SIZE and 0 <= p[1] < SIZE) or p in stones:
            result = (1 - side, f"illegal move {p}")
        elif side == 0 and p in forbidden([q for q in moves if stones[q] == 0], [q for q in moves if stones[q] == 1]):
            result = (1, f"forbidden move {name(p)}")
        else:
            stones[p] = side
            moves.append(p)
            if five({q for q in stones if stones[q] == side}, p, exact=(side == 0)):
                result = (side, "five")
            elif len(moves) >= 200:
                result = (None, "200 stones")
        side = 1 - side
    clean = all(e.end() for e in engines)
    peak = max(e.peak for e in engines)
    return result, len(moves), slowest, peak, clean


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    turn_ms = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    match_ms = int(sys.argv[3]) if len(sys.argv) > 3 else 120000
    bad = 0
    for number in range(games):
        (winner, reason), stones, slowest, peak, clean = game(number, turn_ms, match_ms)
        who = {0: "Black", 1: "White", None: "nobody"}[winner]
        ok = reason in ("five", "200 stones") and clean
        bad += not ok
        print(f"game {number + 1:2}: {who} wins ({reason}), {stones} stones, slowest move {slowest} ms, "
              f"peak resident {peak // (1 << 20)} MiB{'' if clean else ', no clean exit after END'}", flush=True)
    print(f"{games} games, {bad} with an illegal move, a time or memory loss, a crash or an unclean exit")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
