"""Recorder 2.2 ``<r>.itf`` records, with the peephole compression undone.

Each record (binary modes 1 and 2) is a 14-byte header, little-endian:
``uint8 status``, ``int32 tstart``, ``int32 tend`` (ticks of the global time
resolution since the rank's start), ``int32 res`` (the call's return value),
``uint8 func`` (index into the function list), then the arguments, each
preceded by a space, and a newline.

Mode 2 compresses a record against one of the last ``window`` records
(most recent first) when it calls the same function with as many
arguments (1 to 7): ``status`` then has bit 7 set, ``func`` is the window
slot of the reference record, bit ``i`` (0..6) of ``status`` says that
argument ``i`` differs, and only the differing arguments follow, in order.
The window always holds the full (decompressed) records.

Records are written when a call returns, so a call that contains others
follows them in the file.

Examples
--------
>>> import struct
>>> rec = lambda s, t0, t1, f, text: struct.pack("<BiiiB", s, t0, t1, 0, f) + text
>>> blob = rec(0, 1, 2, 0, b" 3 %p 8\\n") + rec(0x81, 4, 6, 0, b" 4\\n")
>>> r = parse_records(blob, "0.itf", window=3, functions=1)
>>> r.func.tolist(), r.args, r.tstart.tolist()
([0, 0], [['3', '%p', '8'], ['4', '%p', '8']], [1, 4])
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import List

import numpy as np

from ...errors import ReadError

HEADER = struct.Struct("<BiiiB")
COMPRESSED = 0x80


@dataclass
class Records:
    """One rank's records as columns (file order)."""

    tstart: np.ndarray
    tend: np.ndarray
    res: np.ndarray
    func: np.ndarray
    args: List[List[str]]

    def __len__(self) -> int:
        return len(self.func)


def parse_records(data: bytes, name: str, *, window: int, functions: int) -> Records:
    """Decode every record of an ``.itf`` file (ReadError at the first bad byte)."""
    tstart: List[int] = []
    tend: List[int] = []
    res: List[int] = []
    func: List[int] = []
    args_out: List[List[str]] = []
    recent: List[tuple] = []  # (func, args), most recent first
    pos, end = 0, len(data)
    unpack, find = HEADER.unpack_from, data.find
    while pos < end:
        where = f"byte {pos} (record {len(func)})"
        if pos + HEADER.size > end:
            raise ReadError(name, "the last record is cut short", position=where,
                            expected=f"a {HEADER.size}-byte record header")
        status, t0, t1, value, fid = unpack(data, pos)
        stop = find(b"\n", pos + HEADER.size)
        if stop < 0:
            raise ReadError(name, "the last record's arguments are cut short",
                            position=where, expected="arguments ending in a newline")
        text = data[pos + HEADER.size:stop]
        if text and text[:1] != b" ":
            raise ReadError(name, f"argument list starts with {text[:1]!r}", position=where,
                            expected="a space before each argument")
        args = text[1:].decode("utf-8", "replace").split(" ") if text else []
        if status & COMPRESSED:
            fid, args = _expand(status, fid, args, recent, name, where)
        elif status:
            raise ReadError(name, f"unknown record status 0x{status:02x}", position=where,
                            expected="0 or a compressed-record status (bit 7 set)")
        if fid >= functions:
            raise ReadError(name, f"function id {fid} is not in the function list",
                            position=where, expected=f"an id below {functions}")
        recent.insert(0, (fid, args))
        del recent[window:]
        tstart.append(t0)
        tend.append(t1)
        res.append(value)
        func.append(fid)
        args_out.append(args)
        pos = stop + 1
    return Records(np.asarray(tstart, dtype=np.int64), np.asarray(tend, dtype=np.int64),
                   np.asarray(res, dtype=np.int64), np.asarray(func, dtype=np.int64),
                   args_out)


def _expand(status: int, slot: int, diff: List[str], recent: List[tuple], name: str,
            where: str) -> tuple:
    if slot >= len(recent):
        raise ReadError(name, f"compressed record refers to window slot {slot} but only "
                        f"{len(recent)} records precede it", position=where,
                        expected="a slot of an earlier record")
    fid, ref = recent[slot]
    changed = [i for i in range(7) if status >> i & 1]
    if len(changed) != len(diff) or (changed and changed[-1] >= len(ref)):
        raise ReadError(name, f"compressed record lists {len(diff)} arguments for "
                        f"status 0x{status:02x} against a record with {len(ref)}",
                        position=where, expected="one argument per set status bit")
    args = list(ref)
    for i, value in zip(changed, diff):
        args[i] = value
    return fid, args
