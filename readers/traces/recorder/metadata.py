"""Recorder 2.2 metadata: the global ``recorder.mt``, ``VERSION`` and each rank's ``<r>.mt``.

Layouts (little-endian, as the C structs are written on x86-64):

``recorder.mt``
    ``double time_resolution`` (seconds per tick), ``int total_ranks``,
    ``int compression_mode`` (0 text, 1 binary, 2 binary with peephole
    compression), ``int window`` (peephole window size), 4 pad bytes;
    then the traced function names, each ending in a newline; a record's
    function id indexes this list.
``<r>.mt``
    ``double start``, ``double end`` (wall clock seconds), ``int num_files``,
    ``int total_records``, two pointers (16 bytes, meaningless on disk),
    ``int function_count[256]``; then per file ``int id``, ``size_t size``,
    ``int name_length`` and the name bytes.

Examples
--------
>>> import struct
>>> blob = struct.pack("<diii4x", 1e-6, 2, 2, 3) + b"open\\nMPI_Send\\n"
>>> g = parse_global(blob, "recorder.mt")
>>> g.ranks, g.mode, g.window, g.functions
(2, 2, 3, ['open', 'MPI_Send'])
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Dict, List

import numpy as np

from ...errors import ReadError

GLOBAL = struct.Struct("<diii4x")
LOCAL = struct.Struct("<ddii16x")
LOCAL_SIZE = LOCAL.size + 256 * 4
FILE_ENTRY = struct.Struct("<iQi")


@dataclass
class GlobalMeta:
    """What ``recorder.mt`` declares."""

    resolution: float
    ranks: int
    mode: int
    window: int
    functions: List[str]


@dataclass
class RankMeta:
    """What a rank's ``<r>.mt`` declares."""

    start: float
    end: float
    records: int
    function_count: np.ndarray
    files: Dict[str, int] = field(default_factory=dict)


def parse_global(data: bytes, name: str) -> GlobalMeta:
    """``recorder.mt`` from its bytes (ReadError when short or implausible)."""
    if len(data) < GLOBAL.size:
        raise ReadError(name, f"the file has {len(data)} bytes", position="byte 0",
                        expected=f"a {GLOBAL.size}-byte header")
    resolution, ranks, mode, window = GLOBAL.unpack_from(data)
    if not (0 < resolution < 1) or ranks < 1 or mode not in (0, 1, 2, 3) or window < 0:
        raise ReadError(name, f"implausible header (resolution {resolution!r}, {ranks} "
                        f"ranks, mode {mode}, window {window})", position="byte 0",
                        expected="a Recorder 2.2 global metadata header")
    text = data[GLOBAL.size:]
    if text and not text.endswith(b"\n"):
        raise ReadError(name, "the function list is cut short", position=f"byte {len(data)}",
                        expected="a newline after the last function name")
    functions = text.decode("utf-8", "replace").split("\n")[:-1]
    return GlobalMeta(resolution, ranks, mode, window, functions)


def parse_rank(data: bytes, name: str) -> RankMeta:
    """A rank's ``<r>.mt`` from its bytes.

    Examples
    --------
    >>> counts = np.zeros(256, dtype="<i4"); counts[2] = 5
    >>> blob = LOCAL.pack(10.0, 11.5, 1, 5) + counts.tobytes()
    >>> blob += FILE_ENTRY.pack(0, 64, 5) + b"a.txt"
    >>> m = parse_rank(blob, "0.mt")
    >>> m.records, int(m.function_count[2]), m.files
    (5, 5, {'a.txt': 64})
    """
    if len(data) < LOCAL_SIZE:
        raise ReadError(name, f"the file has {len(data)} bytes", position="byte 0",
                        expected=f"a {LOCAL_SIZE}-byte rank header")
    start, end, num_files, records = LOCAL.unpack_from(data)
    counts = np.frombuffer(data, dtype="<i4", count=256, offset=LOCAL.size).astype(np.int64)
    files: Dict[str, int] = {}
    pos = LOCAL_SIZE
    for index in range(num_files):
        if pos + FILE_ENTRY.size > len(data):
            raise ReadError(name, f"file entry {index} of {num_files} is cut short",
                            position=f"byte {pos}", expected="id, size and name length")
        _, size, length = FILE_ENTRY.unpack_from(data, pos)
        pos += FILE_ENTRY.size
        if length < 0 or pos + length > len(data):
            raise ReadError(name, f"file name {index} of {num_files} is cut short",
                            position=f"byte {pos}", expected=f"{length} bytes of name")
        files[data[pos:pos + length].decode("utf-8", "replace")] = int(size)
        pos += length
    if pos != len(data):
        raise ReadError(name, f"{len(data) - pos} bytes after the last file entry",
                        position=f"byte {pos}", expected="the end of the file")
    return RankMeta(start, end, int(records), counts, files)
