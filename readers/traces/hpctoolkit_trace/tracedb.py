"""HPCToolkit ``trace.db`` (format 4.0): per application thread, (time, context) samples.

Layout (little-endian, from HPCToolkit's FORMATS.md): the file header
(``HPCTOOLKITtrce``, version bytes, then the size and pointer of the trace
headers section) and the footer ``trace.db``. The trace headers section
holds ``pTraces`` (u64), ``nTraces`` (u32), ``szTrace`` (u8) and, from
0x10, the smallest and largest timestamps (u64 ns since the epoch). Each
trace header (``szTrace`` bytes apart) gives ``profIdx`` (u32, the
``profile.db`` profile), ``pStart`` and ``pEnd`` (u64) of an array of
12-byte samples: ``timestamp`` (u64 ns) and ``ctxId`` (u32, a ``meta.db``
context), sorted by time. Samples are read with one ``numpy.frombuffer``.

Examples
--------
>>> SAMPLE.itemsize
12
"""

from __future__ import annotations

from typing import Any, List

import numpy as np

from ...errors import ReadError
from .hpctoolkit import DbFile

SAMPLE = np.dtype([("time", "<u8"), ("ctx", "<u4")])
FOOTER = b"trace.db"


class TraceLine:
    """One trace line: its profile and where its samples are (plain classes here: a
    dataclass costs ~0.5 ms at import, which a small trace's first read pays)."""

    __slots__ = ("profile", "start", "count")

    def __init__(self, profile: int, start: int, count: int) -> None:
        self.profile, self.start, self.count = profile, start, count


class TraceDb:
    """The trace headers of a ``trace.db`` file."""

    __slots__ = ("db", "lines", "time_begin", "time_end")

    def __init__(self, db: Any, lines: List[TraceLine], time_begin: int, time_end: int) -> None:
        self.db, self.lines, self.time_begin, self.time_end = db, lines, time_begin, time_end

    def samples(self, line: TraceLine) -> np.ndarray:
        """The line's samples (structured array ``time``, ``ctx``), checked to be sorted."""
        data = self.db.array(SAMPLE, line.start, line.count,
                             f"the samples of profile {line.profile}")
        times = data["time"]
        if len(times) > 1 and np.any(times[1:] < times[:-1]):
            bad = int(np.nonzero(times[1:] < times[:-1])[0][0]) + 1
            raise self.db.error(line.start + SAMPLE.itemsize * bad,
                                f"sample {bad} of profile {line.profile} goes back in time",
                                "samples sorted by timestamp")
        return data


def read_trace_db(path: Any) -> TraceDb:
    """Open ``trace.db`` and read its trace headers (ReadError with the byte offset)."""
    db = DbFile(path, b"trce", sections=1)
    if db.bytes(db.size - 8, 8, "the footer") != FOOTER:
        raise ReadError(db.path, "the file does not end with its footer (truncated?)",
                        position=f"byte {db.size - 8}",
                        expected=f"the 8-byte footer {FOOTER.decode('ascii')!r}")
    size, base = db.sections[0]
    p_traces, n_traces, sz_trace = db.unpack("<QIB", base, "the trace headers section")
    begin = end = 0
    if size >= 0x20:
        begin, end = db.unpack("<QQ", base + 0x10, "the trace time range")
    if sz_trace < 24:
        raise db.error(base + 12, f"trace header size {sz_trace}", "at least 24 bytes")
    lines = []
    for k in range(n_traces):
        at = p_traces + k * sz_trace
        prof, p_start, p_end = db.unpack("<I4xQQ", at, f"trace header {k}")
        if p_end < p_start or (p_end - p_start) % SAMPLE.itemsize:
            raise db.error(at + 8, f"trace {k} spans bytes {p_start}..{p_end}",
                           f"a whole number of {SAMPLE.itemsize}-byte samples")
        lines.append(TraceLine(int(prof), int(p_start), (p_end - p_start) // SAMPLE.itemsize))
    return TraceDb(db, lines, int(begin), int(end))
