#!/usr/bin/env python3
"""How much of a move's time the threat solvers take (issue 73, item 7): reads the debug log of searches bounded by
time (`RUST_LOG=tengen::search=debug pbrain-tengen agree --ms 2000 ... 2> LOG`, one position at a time) and prints,
over the searches, the share of their time spent in the root's VCF and VCT, in the guard's VCT and in the late VCT,
and how often each ran or won. Each search's lines end with its `search:` line (`quick` where a root solver won or
the move was forced).

Usage: scripts/solver-share.py LOG
"""
import re
import statistics
import sys


def searches(path):
    """Per search: the root solvers' ms (to the end of the root VCT), the guard's and the late VCT's, the total."""
    fresh = lambda: {"root": 0, "guard": 0, "late": 0, "won": False}
    cur, out = fresh(), []
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            m = re.search(r"root vct: \d+ nodes, \d+ ms \(the search's (\d+) ms\), won (\w+)", line)
            if m:
                cur["root"], cur["won"] = int(m.group(1)), m.group(2) == "true"
                continue
            m = re.search(r"(guard|late vct): \d+ nodes, (\d+) ms", line)
            if m:
                cur["guard" if m.group(1) == "guard" else "late"] += int(m.group(2))
                continue
            m = re.search(r"search: (\d+) ms", line)
            if m:
                cur["total"] = int(m.group(1))
                out.append(cur)
                cur = fresh()
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    found = searches(sys.argv[1])
    if not found:
        sys.exit("error: no searches in the log (was it run with RUST_LOG=tengen::search=debug?)")
    total = sum(s["total"] for s in found) or 1
    print(f"{len(found)} searches, {total} ms in all, mean {total / len(found):.0f} ms")
    for part, name in (("root", "root VCF and VCT"), ("guard", "guard"), ("late", "late VCT")):
        ran = [s[part] for s in found if s[part] > 0]
        line = f"  {name}: {sum(s[part] for s in found) / total:.1%} of the time, ran {len(ran)} times"
        if ran:
            line += f" (median {statistics.median(ran)} ms, longest {max(ran)} ms)"
        print(line)
    print(f"  the root's VCT won {sum(s['won'] for s in found)} times")


if __name__ == "__main__":
    main()
