"""Recorder 2.4/2.5 call-signature tables (``<rank>.cst``).

A trace of the current Recorder stores each distinct call once, as a *call
signature*; the grammar (:mod:`.grammar`) then lists which signature each
record is. Layout (little-endian, as written on x86-64)::

    int32 entries
    entries x { int32 terminal_id, int32 rank, int32 key_len, uint32 count,
                key_len bytes key }

and each key::

    uint64 thread id (pthread_t; 0 unless RECORDER_LOG_TID=1)
    uint8 function id (index into recorder.mt's list; 255 = a user function)
    uint8 level (0 = called by the application, 1 = inside another traced call)
    uint8 argument count
    int32 argument text length
    the arguments, each followed by one space (spaces inside an argument are
    written as '_')

Entries come in any order; ``terminal_id`` (0 .. entries-1, each once) is
the number the grammar uses. One Python step per signature (not per record):
a trace of millions of records has a few hundred signatures.

Examples
--------
>>> import struct
>>> key = struct.pack("<QBBBi", 0, 5, 0, 2, 8) + b"f.txt 8 "
>>> blob = struct.pack("<i", 1) + struct.pack("<iiiI", 0, 0, len(key), 3) + key
>>> t = parse_cst(blob, "0.cst")
>>> t.func.tolist(), t.args, t.count.tolist()
([5], [['f.txt', '8']], [3])
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import List

import numpy as np

from ...errors import ReadError

ENTRY = struct.Struct("<iiiI")
KEY = struct.Struct("<QBBBi")


@dataclass
class Signatures:
    """One rank's call signatures, indexed by terminal id."""

    func: np.ndarray      # int64 function id
    level: np.ndarray     # int64
    tid: np.ndarray       # uint64 pthread id (0 when not logged)
    count: np.ndarray     # int64 calls recorded with this signature
    args: List[List[str]]

    def __len__(self) -> int:
        return len(self.func)


def parse_cst(data: bytes, name: str) -> Signatures:
    """The signatures of a ``.cst`` file (ReadError naming the byte where it went wrong)."""
    if len(data) < 4:
        raise ReadError(name, f"the file has {len(data)} bytes", position="byte 0",
                        expected="an int32 number of call signatures")
    entries = struct.unpack_from("<i", data)[0]
    if entries < 0 or entries * (ENTRY.size + KEY.size) > len(data) - 4:
        raise ReadError(name, f"{entries} call signatures announced in {len(data)} bytes",
                        position="byte 0", expected="a signature count that fits the file "
                        "(truncated or not a .cst file?)")
    func = np.full(entries, -1, dtype=np.int64)
    level = np.zeros(entries, dtype=np.int64)
    tid = np.zeros(entries, dtype=np.uint64)
    count = np.zeros(entries, dtype=np.int64)
    args: List[List[str]] = [[] for _ in range(entries)]
    pos = 4
    for index in range(entries):
        where = f"byte {pos} (signature {index} of {entries})"
        if pos + ENTRY.size > len(data):
            raise ReadError(name, "the file ends inside a signature header", position=where,
                            expected="terminal id, rank, key length and count")
        terminal, _, key_len, calls = ENTRY.unpack_from(data, pos)
        if not 0 <= terminal < entries or func[terminal] >= 0:
            raise ReadError(name, f"terminal id {terminal} is out of range or repeated",
                            position=where, expected=f"each id 0..{entries - 1} once")
        start = pos + ENTRY.size
        if key_len < KEY.size or start + key_len > len(data):
            raise ReadError(name, f"a {key_len}-byte key does not fit", position=where,
                            expected=f"a key of at least {KEY.size} bytes inside the file")
        thread, fid, lvl, argc, text_len = KEY.unpack_from(data, start)
        if text_len != key_len - KEY.size:
            raise ReadError(name, f"argument text of {text_len} bytes in a {key_len}-byte key",
                            position=where, expected=f"{key_len - KEY.size} bytes of arguments")
        text = data[start + KEY.size:start + key_len]
        values = text.decode("utf-8", "replace").split(" ")
        if values[-1] != "" or len(values) - 1 != argc:
            raise ReadError(name, f"{len(values) - 1} space-ended arguments for an "
                            f"argument count of {argc}", position=where,
                            expected="each argument followed by one space")
        func[terminal], level[terminal], tid[terminal] = fid, lvl, thread
        count[terminal] = calls
        args[terminal] = values[:-1]
        pos = start + key_len
    if pos != len(data):
        raise ReadError(name, f"{len(data) - pos} bytes after the last signature",
                        position=f"byte {pos}", expected="the end of the file")
    return Signatures(func, level, tid, count, args)
