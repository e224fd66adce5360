"""Recorder 2.4/2.5 traces: ``recorder.mt``, ``VERSION``, ``.ts`` and one rank's records.

``recorder.mt`` (little-endian, the C struct as written on x86-64)::

    int32 total_ranks, 4 pad bytes, float64 start_ts (wall clock seconds),
    float64 time_resolution (seconds per tick, 1e-7 by default),
    int32 ts_buffer_elements, int32 ts_compression_algo (0 = none),
    int32 interprocess_compression, 4 pad bytes

then the traced function names, one per line (``PMPI_`` written as ``MPI_``);
a function id indexes this list. Per rank ``<r>.cst`` (:mod:`.signatures`),
``<r>.cfg`` (:mod:`.grammar`) and ``<r>.ts``: two uint32 per record, in
record order: the start as ticks after the previous record's start (the
first: after ``start_ts``) and the end as ticks after that same previous
start. With inter-process compression, ``0.cst`` holds every rank's
signatures, ``ug.mt`` (int32 per rank: its grammar number, then the number
of grammars) says which ``<g>.cfg`` a rank's records follow.

Records appear in the order Recorder wrote them: when the outermost traced
call of a nest returns, it and the calls inside it, in start order.

Examples
--------
>>> import struct
>>> blob = struct.pack("<i4xddiii4x", 2, 10.0, 1e-7, 64, 0, 0) + b"open\\nwrite\\n"
>>> m = parse_meta(blob, "recorder.mt")
>>> m.ranks, m.resolution, m.functions
(2, 1e-07, ['open', 'write'])
>>> ts = np.array([5, 9, 3, 4], dtype="<u4").tobytes()
>>> [a.tolist() for a in parse_ts(ts, 2, "0.ts")]
[[5, 8], [9, 9]]
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import List, Tuple

import numpy as np

from ...errors import ReadError
from .grammar import expand, expanded_length, parse_cfg
from .signatures import Signatures, parse_cst

HEADER = struct.Struct("<i4xddiii4x")
#: trace format versions this module reads (VERSION major.minor)
VERSIONS = ((2, 4), (2, 5))


@dataclass
class CurrentMeta:
    """What ``recorder.mt`` of a 2.4/2.5 trace declares."""

    ranks: int
    start: float
    resolution: float
    buffer_elements: int
    ts_compression: int
    interprocess: bool
    functions: List[str]


@dataclass
class RankRecords:
    """One rank's records as columns, in file order."""

    terminal: np.ndarray   # call-signature id per record
    tstart: np.ndarray     # ticks after the trace's start_ts
    tend: np.ndarray
    signatures: Signatures

    def __len__(self) -> int:
        return len(self.terminal)


def read_bytes(path: Path) -> bytes:
    """A file's bytes (ReadError when it cannot be opened)."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ReadError(path, f"cannot open the file: {exc.strerror}") from exc


def parse_version(text: str) -> Tuple[int, int, int]:
    """``"2.5.0"`` -> (2, 5, 0); (0, 0, 0) when the text is not a version.

    >>> parse_version("2.5.0"), parse_version("x")
    ((2, 5, 0), (0, 0, 0))
    """
    parts = text.strip().split(".")
    try:
        nums = [int(p) for p in parts]
    except ValueError:
        return (0, 0, 0)
    return tuple((nums + [0, 0, 0])[:3])  # type: ignore[return-value]


def parse_meta(data: bytes, name: str) -> CurrentMeta:
    """``recorder.mt`` of a 2.4/2.5 trace (ReadError when short or implausible)."""
    if len(data) < HEADER.size:
        raise ReadError(name, f"the file has {len(data)} bytes", position="byte 0",
                        expected=f"a {HEADER.size}-byte Recorder 2.4/2.5 header")
    ranks, start, resolution, elements, algo, inter = HEADER.unpack_from(data)
    if ranks < 1 or not (0 < resolution < 1) or elements < 0 or inter not in (0, 1):
        raise ReadError(name, f"implausible header ({ranks} ranks, resolution "
                        f"{resolution!r}, interprocess compression {inter})",
                        position="byte 0", expected="a Recorder 2.4/2.5 metadata header")
    if algo != 0:
        raise ReadError(name, f"timestamp compression {algo} is not supported",
                        position="byte 28", expected="0 (uncompressed timestamps)")
    text = data[HEADER.size:]
    if text and not text.endswith(b"\n"):
        raise ReadError(name, "the function list is cut short", position=f"byte {len(data)}",
                        expected="a newline after the last function name")
    functions = text.decode("utf-8", "replace").split("\n")[:-1]
    return CurrentMeta(ranks, start, resolution, elements, algo, bool(inter), functions)


def parse_ts(data: bytes, records: int, name: str) -> Tuple[np.ndarray, np.ndarray]:
    """Start and end ticks (after the trace's start) of ``records`` records."""
    if len(data) != 8 * records:
        raise ReadError(name, f"{len(data)} bytes of timestamps for {records} records",
                        position=f"byte {min(len(data), 8 * records) // 8 * 8}",
                        expected=f"{8 * records} bytes: two uint32 per record "
                        "(truncated or from another trace?)")
    ts = np.frombuffer(data, dtype="<u4").astype(np.int64)
    tstart = np.cumsum(ts[0::2])
    previous = np.concatenate([[0], tstart[:-1]])
    return tstart, previous + ts[1::2]


def rank_files(folder: Path, rank: int, meta: CurrentMeta) -> Tuple[Path, Path]:
    """The ``.cst`` and ``.cfg`` a rank's records come from."""
    if not meta.interprocess:
        return folder / f"{rank}.cst", folder / f"{rank}.cfg"
    ug = folder / "ug.mt"
    data = read_bytes(ug)
    if len(data) != 4 * (meta.ranks + 1):
        raise ReadError(ug, f"{len(data)} bytes for {meta.ranks} ranks", position="byte 0",
                        expected=f"{4 * (meta.ranks + 1)} bytes: a grammar id per rank "
                        "and the number of grammars")
    ids = np.frombuffer(data, dtype="<i4")
    grammar = int(ids[rank])
    if not 0 <= grammar < int(ids[-1]):
        raise ReadError(ug, f"rank {rank} follows grammar {grammar} of {int(ids[-1])}",
                        position=f"byte {4 * rank}", expected="a grammar id in range")
    return folder / "0.cst", folder / f"{grammar}.cfg"


def decode_rank(folder: Path, rank: int, meta: CurrentMeta) -> RankRecords:
    """Every record of one rank (checked against the signature counts and the .ts length)."""
    cst_path, cfg_path = rank_files(folder, rank, meta)
    signatures = parse_cst(read_bytes(cst_path), str(cst_path))
    ts_path = folder / f"{rank}.ts"
    ts_data = read_bytes(ts_path)
    rules = parse_cfg(read_bytes(cfg_path), str(cfg_path))
    total = expanded_length(rules, str(cfg_path))  # before expanding anything
    if 8 * total != len(ts_data):
        raise ReadError(ts_path, f"{len(ts_data)} bytes of timestamps for {total} records "
                        f"(the records {cfg_path.name} expands to)",
                        position=f"byte {min(len(ts_data), 8 * total) // 8 * 8}",
                        expected=f"{8 * total} bytes: two uint32 per record (truncated .ts, "
                        "or a corrupted grammar?)")
    terminal = expand(rules, str(cfg_path), limit=total)
    if len(terminal) and (terminal.max() >= len(signatures)):
        bad = int(np.flatnonzero(terminal >= len(signatures))[0])
        raise ReadError(cfg_path, f"record {bad} is call signature {int(terminal[bad])}, "
                        f"but {cst_path.name} has {len(signatures)}",
                        expected="terminals that are call signatures of the rank")
    if not meta.interprocess:
        counts = np.bincount(terminal, minlength=len(signatures))
        if not np.array_equal(counts, signatures.count):
            t = int(np.flatnonzero(counts != signatures.count)[0])
            raise ReadError(cfg_path, f"the grammar calls signature {t} {int(counts[t])} "
                            f"times, {cst_path.name} counts {int(signatures.count[t])}",
                            expected="the grammar and the signature table of one run")
    tstart, tend = parse_ts(ts_data, len(terminal), str(ts_path))
    return RankRecords(terminal, tstart, tend, signatures)
