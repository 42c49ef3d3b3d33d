#!/usr/bin/env python3
# A random RenLib 3.4 library of about N nodes (moves only, a comment on one node in twenty), for timing `lib`.
# Usage: scripts/random-lib.py N OUT.lib   (N = 60000 gives 57,452 nodes, 162 kB)
import random, sys
random.seed(5)
out = bytearray(b'\xffRenLib\xff\x03\x04' + b'\xff'*10)
out += bytes([0x00, 0x00])
count = [0]
target = int(sys.argv[1])
def gen(depth, used, budget):
    # children of a node: list of (point, subtree budget)
    pts = []
    k = 1 if depth < 4 else random.choice([1,1,1,2,3])
    for i in range(k):
        while True:
            p = (random.randrange(15), random.randrange(15))
            if p not in used and p not in pts: break
        pts.append(p)
    return pts
def emit(depth, used, remaining):
    pts = gen(depth, used, remaining)
    shares = [remaining // len(pts)] * len(pts)
    for i, p in enumerate(pts):
        last = i == len(pts) - 1
        sub = shares[i] - 1
        leaf = sub <= 0 or depth > 60
        cmd = (0 if last else 0x80) | (0x40 if leaf else 0)
        com = random.random() < 0.05
        if com: cmd |= 0x08
        out.extend([(p[1] << 4) | (p[0] + 1), cmd])
        if com:
            t = b'comment \xe4 %d' % len(out)
            t += b'\0'
            if len(t) % 2: t += b'\0'
            out.extend(t)
        count[0] += 1
        if not leaf:
            emit(depth + 1, used | {p}, sub)
sys.setrecursionlimit(100000)
emit(0, frozenset(), target)
open(sys.argv[2], 'wb').write(out)
print(count[0], len(out))
