"""Writing Recorder 2.5 trace folders (tests and the benchmark generator).

:class:`RecorderTraceWriter` collects calls per rank (:meth:`~RecorderTraceWriter.call`)
and writes ``VERSION``, ``recorder.mt`` and per rank ``.cst``/``.cfg``/``.ts``
(:meth:`~RecorderTraceWriter.write`): the grammar is a start rule of runs
(a signature repeated n times is one symbol ``t^n``), which Recorder's reader
reads like any Sequitur grammar. :func:`write_loop_trace` writes a large
trace directly from numpy: per rank a loop body of I/O and MPI calls
repeated, as Sequitur compresses a loop (a rule for the body, the start rule
repeating it), with generated timestamps.

Examples
--------
>>> import tempfile
>>> w = RecorderTraceWriter(ranks=1)
>>> w.call(0, "open", ["/d/a", "66", "420"], 10, 20)
>>> w.call(0, "write", ["/d/a", "%p", "8"], 25, 30)
>>> w.call(0, "write", ["/d/a", "%p", "8"], 31, 33)
>>> folder = w.write(tempfile.mkdtemp())
>>> sorted(p.name for p in folder.iterdir())
['0.cfg', '0.cst', '0.ts', 'VERSION', 'recorder.mt']
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import numpy as np

#: the functions a written trace lists in recorder.mt (ids = positions)
FUNCTIONS = ["open", "close", "write", "read", "lseek", "pwrite", "pread", "fsync", "fopen",
             "fclose", "fwrite", "fread", "unlink", "stat", "chdir", "MPI_Comm_rank",
             "MPI_Barrier", "MPI_Bcast", "MPI_Send", "MPI_Recv", "MPI_File_open",
             "MPI_File_write_at", "MPI_File_read_at", "MPI_File_close"]

HEADER = struct.Struct("<i4xddiii4x")


def signature_key(func: int, args: Sequence[str], level: int = 0, tid: int = 0) -> bytes:
    """The call-signature key of one call (see :mod:`graphframe_readers.traces.recorder.signatures`)."""
    text = "".join(a.replace(" ", "_") + " " for a in args).encode()
    return struct.pack("<QBBBi", tid, func, level, len(args), len(text)) + text


def cst_bytes(keys: Sequence[bytes], counts: Sequence[int]) -> bytes:
    """A ``.cst`` file: the keys in terminal-id order with their call counts."""
    out = [struct.pack("<i", len(keys))]
    for t, (key, count) in enumerate(zip(keys, counts)):
        out.append(struct.pack("<iiiI", t, 0, len(key), count) + key)
    return b"".join(out)


def cfg_bytes(rules: Dict[int, Sequence[Tuple[int, int]]]) -> bytes:
    """A ``.cfg`` file from rule id -> [(symbol, repetitions), ...]."""
    ints: List[int] = [len(rules)]
    for rule, body in rules.items():
        ints += [rule, len(body)]
        for value, reps in body:
            ints += [value, reps]
    return np.asarray(ints, dtype="<i4").tobytes()


def ts_bytes(tstart: np.ndarray, tend: np.ndarray) -> bytes:
    """A ``.ts`` file from start/end ticks after the trace start (record order)."""
    tstart = np.asarray(tstart, dtype=np.int64)
    previous = np.concatenate([[0], tstart[:-1]])
    pairs = np.stack([tstart - previous, np.asarray(tend, dtype=np.int64) - previous], axis=1)
    return pairs.astype("<u4").tobytes()


def meta_bytes(ranks: int, start: float = 1.7e9, resolution: float = 1e-7,
               functions: Sequence[str] = FUNCTIONS, interprocess: bool = False) -> bytes:
    """``recorder.mt`` of a 2.5 trace."""
    return HEADER.pack(ranks, start, resolution, 1 << 18, 0, int(interprocess)) + \
        "".join(f + "\n" for f in functions).encode()


class RecorderTraceWriter:
    """Calls per rank -> a Recorder 2.5 trace folder."""

    def __init__(self, ranks: int, *, start: float = 1.7e9, resolution: float = 1e-7,
                 functions: Sequence[str] = FUNCTIONS, version: str = "2.5.0") -> None:
        self.ranks = ranks
        self.start = start
        self.resolution = resolution
        self.functions = list(functions)
        self.version = version
        self.calls: Dict[int, list] = {r: [] for r in range(ranks)}

    def call(self, rank: int, name: str, args: Sequence[str], tstart: int, tend: int,
             level: int = 0, tid: int = 0) -> None:
        """One call (ticks after the trace start), appended in record order."""
        self.calls[rank].append((self.functions.index(name), list(args), int(tstart),
                                 int(tend), level, tid))

    def write(self, folder: "str | os.PathLike[str]") -> Path:
        """Write the trace folder; returns its path."""
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        (out / "VERSION").write_text(self.version)
        (out / "recorder.mt").write_bytes(meta_bytes(self.ranks, self.start, self.resolution,
                                                     self.functions))
        for rank, calls in self.calls.items():
            ids: Dict[bytes, int] = {}
            seq = []
            for func, args, _, _, level, tid in calls:
                key = signature_key(func, args, level, tid)
                seq.append(ids.setdefault(key, len(ids)))
            counts = np.bincount(np.asarray(seq, dtype=np.int64), minlength=len(ids))
            (out / f"{rank}.cst").write_bytes(cst_bytes(list(ids), counts.tolist()))
            body: List[Tuple[int, int]] = []
            for t in seq:
                if body and body[-1][0] == t:
                    body[-1] = (t, body[-1][1] + 1)
                else:
                    body.append((t, 1))
            (out / f"{rank}.cfg").write_bytes(cfg_bytes({-1: body} if body else {}))
            (out / f"{rank}.ts").write_bytes(ts_bytes(np.array([c[2] for c in calls]),
                                                      np.array([c[3] for c in calls])))
        return out


def loop_body(rank: int, data: str) -> List[Tuple[str, List[str], int]]:
    """One loop iteration of a rank: (function, arguments, duration in ticks)."""
    path = f"{data}/rank{rank}.dat"
    return [("write", [path, "%p", "4096"], 30), ("lseek", [path, "0", "0"], 2),
            ("read", [path, "%p", "4096"], 20), ("pwrite", [path, "%p", "512", "100"], 25),
            ("MPI_Barrier", ["MPI_COMM_WORLD"], 40), ("fsync", [path], 300),
            ("MPI_Send", ["%p", "8", "MPI_INT", str((rank + 1) % 64), "0", "MPI_COMM_WORLD"], 15),
            ("MPI_Recv", ["%p", "8", "MPI_INT", str((rank - 1) % 64), "0", "MPI_COMM_WORLD",
                          "%p"], 18)]


def write_loop_trace(folder: "str | os.PathLike[str]", ranks: int, records: int, *,
                     data: str = "/scratch/run/data") -> Path:
    """A Recorder 2.5 trace of ``ranks`` ranks and ``records`` records per rank: ``open``,
    a loop over :func:`loop_body` and ``close``, compressed as Sequitur compresses loops."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    (out / "VERSION").write_text("2.5.0")
    (out / "recorder.mt").write_bytes(meta_bytes(ranks))
    for rank in range(ranks):
        body = loop_body(rank, data)
        path = f"{data}/rank{rank}.dat"
        calls = [("open", [path, "66", "420"], 100)] + body + [("close", [path], 10)]
        keys = [signature_key(FUNCTIONS.index(n), a) for n, a, _ in calls]
        loops = max((records - 2) // len(body), 0)
        n = 2 + loops * len(body)
        counts = [1] + [loops] * len(body) + [1]
        (out / f"{rank}.cst").write_bytes(cst_bytes(keys, counts))
        rules = {-1: [(0, 1), (-2, loops), (len(calls) - 1, 1)] if loops else
                 [(0, 1), (len(calls) - 1, 1)],
                 -2: [(t, 1) for t in range(1, len(body) + 1)]}
        (out / f"{rank}.cfg").write_bytes(cfg_bytes(rules))
        dur = np.array([c[2] for c in calls], dtype=np.int64)
        order = np.concatenate([[0], np.tile(np.arange(1, len(body) + 1), loops),
                                [len(calls) - 1]])
        length = dur[order]
        gap = 5 + (np.arange(n) * 7 + rank) % 11
        tstart = np.cumsum(length + gap) - length + rank * 3
        (out / f"{rank}.ts").write_bytes(ts_bytes(tstart, tstart + length))
    return out
