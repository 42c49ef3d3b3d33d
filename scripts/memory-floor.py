#!/usr/bin/env python3
"""The engine's least memory: peak resident size at the floor `INFO max_memory` names, against the floor itself.

Usage: scripts/memory-floor.py BINARY [MS] [MOVES] [THREADS,...] [RULES,...]

For each thread count (default 1,2,4) and Gomocup rule number (default 4,0: renju and freestyle, both evaluated by
their network; `c` after a rule, as in `4c`, plays it with the classical evaluation), it starts BINARY as a manager
does, sends `INFO max_memory 1` (refused: the engine then runs with the least it needs, which the refusal names),
the thread count and the rule, and plays a game of MOVES moves a side (default 10) at MS milliseconds a move
(default 2000) against a second BINARY without a limit at 300 ms a move, so that the games last and the searches
and their threat solvers use their time (the game restarts when it ends). It prints the floor named, the peak resident
size (VmHWM from /proc/PID/status) and their ratio. Linux only; a measurement of this machine, not a test.
"""
import re
import subprocess
import sys

def peak(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


class Engine:
    def __init__(self, binary):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.messages = []

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def answer(self):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("an engine hung up")
            line = line.strip()
            if line.startswith("MESSAGE"):
                self.messages.append(line)
            else:
                return line

    def end(self):
        self.send("END")
        self.proc.wait()


def run(binary, threads, rule, ms, moves):
    classical = rule.endswith("c")
    engine, opponent = Engine(binary), Engine(binary)
    for e in (engine, opponent):
        e.send("START 15")
        e.answer()
        e.send(f"INFO rule {rule.rstrip('c')}")
        e.send("INFO timeout_match 100000000")
    if classical:
        engine.send("INFO evaluation classical")
    for line in (f"INFO thread_num {threads}", "INFO max_memory 1", f"INFO timeout_turn {ms}"):
        engine.send(line)
    opponent.send("INFO timeout_turn 300")
    played, last = 0, None
    while played < moves:
        if last is None:
            engine.send("BEGIN")
        else:
            engine.send(f"TURN {last}")
        move = engine.answer()
        played += 1
        reply = "ERROR" if move.startswith("ERROR") else None
        if reply is None:
            opponent.send(f"TURN {move}")
            reply = opponent.answer()
        if reply.startswith("ERROR"):
            # The game is over: another one.
            for e in (engine, opponent):
                e.send("RESTART")
                e.answer()
            last = None
        else:
            last = reply
    high = peak(engine.proc.pid)
    engine.end()
    opponent.end()
    messages = engine.messages
    floors = [int(m) for m in re.findall(r"at least (\d+) bytes", " ".join(messages))]
    floor = floors[-1] if floors else 0
    refusals = sum("refused" in m for m in messages)
    print(f"threads {threads} rule {rule:<3} {ms} ms x {moves}: floor {floor} bytes ({floor / 2**20:.1f} MiB), "
          f"peak {high} bytes ({high / 1e6:.1f} MB), {high / max(floor, 1):.0%} of the floor; "
          f"{refusals} refusal message(s)", flush=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    ms = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    moves = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    threads = [int(t) for t in sys.argv[4].split(",")] if len(sys.argv) > 4 else [1, 2, 4]
    rules = sys.argv[5].split(",") if len(sys.argv) > 5 else ["4", "0"]
    for t in threads:
        for r in rules:
            run(binary, t, r, ms, moves)


if __name__ == "__main__":
    main()
