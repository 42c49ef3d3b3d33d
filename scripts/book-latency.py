#!/usr/bin/env python3
"""How fast a GUI session that starts in the opening book gets its answers.

Usage: scripts/book-latency.py BINARY BOOK [PLIES]

For each of the 26 renju openings it starts `BINARY --book BOOK` as a GUI does (START 15 and its OK, INFO rule 4,
INFO timeout_turn 5000), sends the opening as BOARD (the engine plays White) and times the answer from the last line sent
to the reply; then it plays Black's best book move (read with `BINARY book show BOOK`) with TURN and times the next
answer, for PLIES of the engine's moves (default 3) or until the game leaves the book. It prints each time, then the
median and the slowest answer given from the book. Timing is a measurement of this machine, not a test.
"""
import statistics
import subprocess
import sys
import time

OPENINGS = ["h8 h9 h10", "h8 h9 i10", "h8 h9 j10", "h8 h9 j9", "h8 h9 j8", "h8 h9 j7", "h8 h9 j6", "h8 h9 i8",
            "h8 h9 i7", "h8 h9 i6", "h8 h9 h7", "h8 h9 h6", "h8 i9 j10", "h8 i9 j9", "h8 i9 j8", "h8 i9 j7",
            "h8 i9 j6", "h8 i9 i8", "h8 i9 i7", "h8 i9 i6", "h8 i9 h7", "h8 i9 h6", "h8 i9 g7", "h8 i9 g6",
            "h8 i9 f6", "h8 i9 f7"]


def xy(name):
    return "ABCDEFGHIJKLMNO".index(name[0].upper()), 15 - int(name[1:])


def name(x, y):
    return "ABCDEFGHIJKLMNO"[x] + str(15 - y)


def book_moves(binary, book, moves):
    out = subprocess.run([binary, "book", "show", book] + moves, capture_output=True, text=True).stdout
    here = out.split("here: ", 1)[-1].strip()
    return [] if here.startswith("not in") else [m.split()[0] for m in here.split(", ")]


def main():
    binary, book = sys.argv[1], sys.argv[2]
    plies = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    times = []
    for opening in OPENINGS:
        moves = opening.split()
        engine = subprocess.Popen([binary, "--book", book], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  bufsize=1)

        def send(line):
            engine.stdin.write(line + "\n")
            engine.stdin.flush()

        def reply():
            while True:
                line = engine.stdout.readline().strip()
                if not line.startswith(("MESSAGE", "DEBUG")) and line:
                    return line

        send("START 15")
        if reply() != "OK":
            sys.exit(f"{binary}: no OK to START")
        send("INFO rule 4")
        send("INFO timeout_turn 5000")
        board = ["BOARD"] + [f"{x},{y},{1 if i % 2 else 2}" for i, (x, y) in enumerate(map(xy, moves))] + ["DONE"]
        row = []
        for ply in range(plies):
            in_book = bool(book_moves(binary, book, moves))
            start = time.perf_counter()
            if ply == 0:
                for line in board:
                    send(line)
            else:
                x, y = xy(moves[-1])
                send(f"TURN {x},{y}")
            answer = reply()
            ms = (time.perf_counter() - start) * 1000
            x, y = map(int, answer.split(","))
            moves.append(name(x, y))
            row.append(f"{moves[-1]} {ms:.1f} ms{'' if in_book else ' (searched)'}")
            if in_book:
                times.append(ms)
            black = book_moves(binary, book, moves)
            if not in_book or not black:
                break
            moves.append(black[0])
        send("END")
        engine.wait(timeout=10)
        print(f"{opening}: " + ", ".join(row))
    if times:
        print(f"{len(times)} answers from the book: median {statistics.median(times):.1f} ms, "
              f"slowest {max(times):.1f} ms")


if __name__ == "__main__":
    main()
