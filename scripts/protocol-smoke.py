#!/usr/bin/env python3
"""A short Gomocup game against an engine command, as a tournament manager plays it, checking every reply.

Usage: scripts/protocol-smoke.py COMMAND...   (e.g. `wine pbrain-tengen.exe` or `target/release/pbrain-tengen`)

It sends START, the INFO block with `INFO rule 4` (renju), BEGIN and several TURNs, then a renju BOARD on which
Black may not play (6,6) (the judge's own double-three test), yxboard with the same stones and yxshowforbid, and
END; it prints every line sent (>) and received (<), waits for each reply (MESSAGE and DEBUG lines are passed over)
rather than sleeping, and when a reply is missing, late or wrong it says why in one line and exits 1.
"""
import queue
import subprocess
import sys
import threading
import time

SIZE = 15
REPLY_S = 30  # a reply may take this long (Wine's first start is slow)
# The judge's rule-check vector: after h8 h9 i7 i9 h10 i6 i11 i12 Black may not play g9, here (6,6).
VECTOR = [(7, 7), (7, 6), (8, 8), (8, 6), (7, 5), (8, 9), (8, 4), (8, 3)]
FORBIDDEN = (6, 6)


class Failure(Exception):
    pass


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.errors = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read_errors(self):
        for line in self.proc.stderr:
            if line.strip():
                self.errors.append(line.strip())

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line):
        print("> " + line, flush=True)
        try:
            self.proc.stdin.write(line + "\r\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise Failure(f"the engine stopped reading its input ({e})")

    def reply(self, what):
        deadline = time.monotonic() + REPLY_S
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.01))
            except queue.Empty:
                raise Failure(f"no reply to {what} within {REPLY_S} s")
            if line is None:
                time.sleep(0.2)  # its last words on stderr
                telling = [e for e in self.errors if "not found" in e] or self.errors
                said = f": {telling[0]}" if telling else ""
                raise Failure(f"the engine exited (code {self.proc.wait()}) before answering {what}{said}")
            print("< " + line, flush=True)
            if line.split(" ", 1)[0].upper() in ("MESSAGE", "DEBUG"):
                continue
            return line


def move(line, board, what):
    try:
        x, y = (int(v) for v in line.split(","))
    except ValueError:
        raise Failure(f"{what} answered {line!r}, not a move x,y")
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        raise Failure(f"{what} answered {x},{y}, off the board")
    if (x, y) in board:
        raise Failure(f"{what} answered {x},{y}, which is taken")
    return x, y


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    engine = Engine(sys.argv[1:])
    engine.send(f"START {SIZE}")
    if (r := engine.reply("START")) != "OK":
        raise Failure(f"START answered {r!r}, not OK")
    for info in ("INFO timeout_turn 300", "INFO timeout_match 100000", "INFO max_memory 367001600", "INFO rule 4"):
        engine.send(info)
    engine.send("BEGIN")
    board = {}
    mine = move(engine.reply("BEGIN"), board, "BEGIN")
    if mine != (7, 7):
        raise Failure(f"BEGIN in renju answered {mine}, not the centre 7,7")
    board[mine] = 1
    for _ in range(4):
        # The opponent plays the first free point of a ring around the centre.
        theirs = next((x, y) for y in range(5, 10) for x in range(5, 10) if (x, y) not in board)
        board[theirs] = 2
        engine.send(f"TURN {theirs[0]},{theirs[1]}")
        mine = move(engine.reply("TURN"), board, "TURN")
        board[mine] = 1
    engine.send("BOARD")
    for i, (x, y) in enumerate(VECTOR):
        engine.send(f"{x},{y},{1 if i % 2 == 0 else 2}")
    engine.send("DONE")
    vector = dict.fromkeys(VECTOR, 1)
    mine = move(engine.reply("BOARD"), vector, "BOARD")
    if mine == FORBIDDEN:
        raise Failure(f"BOARD answered {mine}, a forbidden double three for Black")
    engine.send("yxboard")
    for i, (x, y) in enumerate(VECTOR):
        engine.send(f"{x},{y},{1 if i % 2 == 0 else 2}")
    engine.send("done")
    engine.send("yxshowforbid")
    if (r := engine.reply("yxshowforbid")) != "FORBID 0606.":
        raise Failure(f"yxshowforbid answered {r!r}, not FORBID 0606.")
    engine.send("END")
    try:
        code = engine.proc.wait(timeout=REPLY_S)
    except subprocess.TimeoutExpired:
        engine.proc.kill()
        raise Failure(f"the engine did not exit within {REPLY_S} s of END")
    if code != 0:
        raise Failure(f"the engine exited with code {code} after END")
    print("protocol smoke test: ok")


if __name__ == "__main__":
    try:
        main()
    except Failure as failure:
        print(f"protocol smoke test failed: {failure}")
        sys.exit(1)
