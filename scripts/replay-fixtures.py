#!/usr/bin/env python3
"""Replays protocol-fixtures/*.txt against the release binary over real pipes, the way a manager does.

`> line` is written to the engine's stdin; `< line` must be the next line it prints, `<~ pattern` must match it
(`\d+` digits, `.*` anything, as in tests/protocol.rs: here a Python regular expression over the whole line), and
`<* pattern` lets lines matching it come before the next expected one. Every reply is awaited for up to 30 s. After the transcript,
stdin is closed and the engine must exit within 5 s with nothing more printed (after END it must print nothing).
Usage: scripts/replay-fixtures.py [binary] (default target/release/pbrain-tengen; build it first).
"""
import os
import queue
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def replay(binary, path):
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l.rstrip("\r\n")) for l in engine.stdout] and lines.put(None),
                     daemon=True).start()
    started = time.monotonic()
    slowest = 0.0
    skip = None
    with open(path) as transcript:
        for number, line in enumerate(transcript, 1):
            line = line.rstrip("\n")
            where = f"{os.path.basename(path)}:{number}"
            if line.startswith(">"):
                engine.stdin.write(line[2:] + "\r\n")
                engine.stdin.flush()
                sent = time.monotonic()
            elif line.startswith("<* "):
                skip = line[3:]
            elif line.startswith("<"):
                exact = not line.startswith("<~ ")
                want = line[2:] if exact else line[3:]
                while True:
                    try:
                        got = lines.get(timeout=30)
                    except queue.Empty:
                        return f"{where}: no reply within 30 s"
                    hit = got is not None and (got == want if exact else re.fullmatch(want, got))
                    if hit or not (skip and got is not None and re.fullmatch(skip, got)):
                        break
                skip = None
                slowest = max(slowest, time.monotonic() - sent)
                if not hit:
                    return f"{where}: expected {want!r}, got {got!r}"
    engine.stdin.close()
    try:
        engine.wait(timeout=5)
    except subprocess.TimeoutExpired:
        engine.kill()
        return f"{os.path.basename(path)}: the engine did not exit after the transcript"
    rest = []
    while True:
        try:
            item = lines.get(timeout=1)
        except queue.Empty:
            break
        if item is None:
            break
        rest.append(item)
    if rest:
        return f"{os.path.basename(path)}: unexpected output at the end: {rest}"
    print(f"ok   {os.path.basename(path)} ({time.monotonic() - started:.1f} s, slowest reply {slowest * 1000:.0f} ms)")
    return None


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "pbrain-tengen")
    folder = os.path.join(ROOT, "protocol-fixtures")
    failures = [f for f in (replay(binary, os.path.join(folder, name)) for name in sorted(os.listdir(folder))) if f]
    for failure in failures:
        print("FAIL", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
