#!/usr/bin/env python3
"""The board server's resident memory as tabs come and go.

Usage: scripts/serve-memory.py BINARY [CREATED] [SEARCH_MS]

It starts `BINARY serve --port 0`, creates CREATED games (default 200) with `POST /api/games {}` (the server keeps
the 32 most recently used), deletes every game it still holds, then creates 64 games one after another, plays a1 in
each (out of the opening book) and asks each for one engine move of SEARCH_MS milliseconds (default 200; 0 skips this part), and deletes them. After each step it prints
the server's VmRSS (resident now) and VmHWM (peak resident) from /proc/PID/status, in MB (10^6 bytes). Linux only;
a measurement of this machine, not a test.
"""
import json
import subprocess
import sys
import urllib.error
import urllib.request

KEPT = 32


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) * 1024 / 1e6
    return fields["VmRSS"], fields["VmHWM"]


def request(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    created = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    search_ms = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    try:
        line = server.stdout.readline().strip()
        base = line[line.find("http://"):].rstrip("/")
        if "http://" not in line:
            sys.exit(f"no address from the server: {line!r}")

        def show(step):
            rss, hwm = memory(server.pid)
            print(f"{step:<48} VmRSS {rss:7.1f} MB  VmHWM {hwm:7.1f} MB", flush=True)

        def delete_all(ids):
            held = [i for i in ids if request(base, "DELETE", f"/api/games/{i}")[0] == 200]
            return len(held)

        show("started")
        ids = []
        for _ in range(created):
            status, answer = request(base, "POST", "/api/games", {})
            if status != 200:
                sys.exit(f"POST /api/games: {status} {answer}")
            ids.append(answer["id"])
        show(f"after {created} games created ({KEPT} kept)")
        deleted = delete_all(ids)
        show(f"after deleting the {deleted} held")
        if search_ms > 0:
            ids = []
            for _ in range(2 * KEPT):
                ids.append(request(base, "POST", "/api/games", {})[1]["id"])
                # Black's first stone in a corner: out of the opening book, so that the engine searches.
                request(base, "POST", f"/api/games/{ids[-1]}/play", {"move": "a1"})
                status, answer = request(base, "POST", f"/api/games/{ids[-1]}/engine", {"ms": search_ms})
                if status != 200:
                    sys.exit(f"engine move: {status} {answer}")
            show(f"after {2 * KEPT} games searched {search_ms} ms ({KEPT} kept)")
            deleted = delete_all(ids)
            show(f"after deleting the {deleted} held")
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
