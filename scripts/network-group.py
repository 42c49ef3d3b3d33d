#!/usr/bin/env python3
"""A network file under another rule group: the same weights, the group byte changed and the checksum sealed again.

Freestyle's and standard's networks have one table set each and the same shape (renju's has two and cannot be
relabelled to or from), so a network of one can start the other (`train --init`, which keeps to its own group) or play
it by `--network`. The layout (src/eval/network/mod.rs): the bytes TGNN and version 1, the provenance (a 32-bit
length and its text), the group byte (0 freestyle, 1 standard, 2 renju), the weights, and a 64-bit FNV-1a checksum of
everything before it.

    scripts/network-group.py IN.tgnn freestyle|standard OUT.tgnn
"""
import struct
import sys

from tengen_files import is_sealed, sealed

GROUPS = {"freestyle": 0, "standard": 1}


def main(argv):
    if len(argv) != 3 or argv[1] not in GROUPS:
        sys.exit(__doc__)
    src, group, dst = argv
    b = open(src, "rb").read()
    if b[:5] != b"TGNN\x01" or len(b) < 18:
        sys.exit(f"error: {src}: not a Tengen network file")
    at = 9 + struct.unpack_from("<I", b, 5)[0]
    if at >= len(b) - 8:
        sys.exit(f"error: {src}: truncated")
    if not is_sealed(b):
        sys.exit(f"error: {src}: the checksum does not match (the file is damaged)")
    if b[at] not in GROUPS.values():
        sys.exit(f"error: {src}: a renju network (two table sets) has no freestyle or standard twin")
    body = bytearray(b[:-8])
    body[at] = GROUPS[group]
    open(dst, "wb").write(sealed(body))


if __name__ == "__main__":
    main(sys.argv[1:])
