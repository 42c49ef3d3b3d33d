"""Tengen's file layouts for the scripts beside it: game files (.tgr; docs/training.md, "The game files") and the
FNV-1a checksum that seals network files (.tgnn; src/eval/network/mod.rs). A script in scripts/ imports it by name
(Python puts the script's own folder first on its path)."""

import collections
import struct

Game = collections.namedtuple("Game", "rule result names moves scores")


def read_tgr(path):
    """The games of a .tgr file: rule, result (0 White won, 1 draw, 2 Black won), names ((Black, White) or None),
    moves as (x, y) from 0, and scores (the mover's, or None)."""
    data = open(path, "rb").read()
    if data[:4] != b"TGR1":
        raise SystemExit(f"{path}: not a .tgr file")
    i, games = 4, []
    while i < len(data):
        if data[i] != 0xA7:
            raise SystemExit(f"{path}: bad record at byte {i}")
        rule, result, flags = data[i + 1], data[i + 3], data[i + 4]
        n = struct.unpack_from("<H", data, i + 6)[0]
        i += 8
        moves = [(v >> 5, v & 31) for v in struct.unpack_from(f"<{n}H", data, i)]
        i += 2 * n
        scores = None
        if flags & 1:
            scores = list(struct.unpack_from(f"<{n}h", data, i))
            i += 2 * n
        names = None
        if flags & 2:
            a = data[i]
            black = data[i + 1 : i + 1 + a].decode()
            i += 1 + a
            b = data[i]
            white = data[i + 1 : i + 1 + b].decode()
            i += 1 + b
            names = (black, white)
        if flags & 4:
            i += 2 * n
        if flags & 8:
            i += 2  # the forbidden point Black played after the last move
        games.append(Game(rule, result, names, moves, scores))
    return games


def fnv1a(data):
    """The 64-bit FNV-1a checksum a network file ends with, of everything before it."""
    h = 0xCBF29CE484222325
    for x in data:
        h = ((h ^ x) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def is_sealed(data):
    """Whether the file's last 8 bytes are the checksum of the rest."""
    return len(data) >= 8 and struct.unpack_from("<Q", data, len(data) - 8)[0] == fnv1a(data[:-8])


def sealed(body):
    """The body with its checksum after it."""
    return bytes(body) + struct.pack("<Q", fnv1a(body))
