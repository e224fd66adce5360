"""Putting Chrome events in stream order (the handler contract) while streaming.

Chrome trace-event files need not be sorted (viztracer writes complete
``X`` events when they end, so children come before their parents). Each
decoded event becomes one or two *endpoints* (an ``X`` event: ENTER at
``ts`` and LEAVE at ``ts + dur``) with a sort key that puts equal times in
nesting order:

===================  ======  =================  ========================
endpoint             ``k1``  ``k2``             then
===================  ======  =================  ========================
LEAVE (X, dur > 0)   0       -start (inner 1st) ``k3`` = -seq (later first)
B, E, point,         1       0                  2 seq (+1 for the X's LEAVE)
X with dur 0
ENTER (X, dur > 0)   2       -end (outer 1st)   seq
===================  ======  =================  ========================

``B``/``E`` events of a thread are in the file in the order they happened
(an ``E`` closes the latest open ``B``), so at equal times they keep their
file order (a ``B`` then an ``E`` at the same ``ts`` is a zero-length call).

:class:`Orderer` modes: ``"sort"`` holds every event and sorts at the end
(memory grows with the trace); ``"stream"`` requires each (pid, tid) to be
in time order in the file and emits endpoints once no later event can
come before them (a watermark per stream: the largest ``ts`` seen), so
memory stays bounded; ``"auto"`` holds events up to ``sort_limit``, sorting
everything if it finds a stream out of order, and streams otherwise (a
later disorder is then a ReadError that names ``order="sort"``).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

import numpy as np

from ...errors import ReadError
from ..events import stream_pairs
from ..matching import stable_order

#: Endpoint columns carried through the orderer (``args`` and ``value`` only when a chunk
#: has them).
COLUMNS = ("kind", "time", "rank", "thread", "name", "k1", "k2", "k3", "start",
           "primary", "args", "value", "typed")


class Orderer:
    """Collects endpoint chunks and emits them in stream order (see module docs)."""

    def __init__(self, emit: Callable[[Dict[str, np.ndarray]], None], mode: str,
                 sort_limit: int, source: str) -> None:
        if mode not in ("auto", "stream", "sort"):
            raise ValueError(f"order must be 'auto', 'stream' or 'sort', not {mode!r}")
        self.emit = emit
        self.mode = mode
        self.sort_limit = int(sort_limit)
        self.source = source
        self.held: List[Dict[str, np.ndarray]] = []
        self.held_count = 0
        self.pending: Optional[Dict[str, np.ndarray]] = None
        self.watermark: Dict[tuple, int] = {}

    def add(self, chunk: Dict[str, np.ndarray], position: str) -> None:
        """Take a chunk of endpoints (in file order)."""
        if not len(chunk["time"]):
            return
        if self.mode == "sort":
            self._hold(chunk)
            return
        ordered = self._in_order(chunk)
        if self.mode == "auto":
            if not ordered:
                self.mode = "sort"
                self._hold(chunk)
                return
            self._hold(chunk)
            if self.held_count >= self.sort_limit:
                self.mode = "stream"
                held, self.held, self.held_count = _concat(self.held), [], 0
                self._stream(held)
            return
        if not ordered:
            raise ReadError(self.source, "events of one pid/tid are not in time order",
                            position=position,
                            expected="a time-ordered file for streaming; read it with "
                                     "order='sort' (holds all events in memory)")
        self._stream(chunk)

    def finish(self) -> None:
        """Emit everything still held, sorted."""
        parts = self.held + ([self.pending] if self.pending is not None else [])
        self.held, self.pending = [], None
        if parts:
            allc = _concat(parts)
            self.emit(_take(allc, _sort_order(allc)))

    # ------------------------------------------------------------------ internals
    def _hold(self, chunk: Dict[str, np.ndarray]) -> None:
        self.held.append(chunk)
        self.held_count += len(chunk["time"])
        if self.mode == "stream":
            return
        for key, top in _stream_max(chunk).items():
            self.watermark[key] = max(top, self.watermark.get(key, top))

    def _in_order(self, chunk: Dict[str, np.ndarray]) -> bool:
        ev = chunk["primary"]  # one endpoint per event, in file order
        rank, thread, start = (chunk[c][ev] for c in ("rank", "thread", "start"))
        _, code = stream_pairs(rank, thread)
        order = stable_order(code)
        r, t, s = rank[order], thread[order], start[order]
        same = (r[1:] == r[:-1]) & (t[1:] == t[:-1])
        if (same & (s[1:] < s[:-1])).any():
            return False
        first = np.ones(len(r), dtype=bool)
        first[1:] = ~same
        for i in np.flatnonzero(first):
            mark = self.watermark.get((int(r[i]), int(t[i])))
            if mark is not None and int(s[i]) < mark:
                return False
        return True

    def _stream(self, chunk: Dict[str, np.ndarray]) -> None:
        for key, top in _stream_max(chunk).items():
            self.watermark[key] = max(top, self.watermark.get(key, top))
        allc = chunk if self.pending is None else _concat([self.pending, chunk])
        keys = list(self.watermark)
        marks = np.array([self.watermark[k] for k in keys], dtype=np.int64)
        code = _stream_code(allc, keys)
        ready = allc["time"] < marks[code]
        rows = np.flatnonzero(ready)
        self.pending = _take(allc, np.flatnonzero(~ready))
        if len(rows):  # one gather: the ready rows in stream order
            place = np.empty(len(keys), dtype=np.int64)  # streams in (rank, thread) order
            place[sorted(range(len(keys)), key=keys.__getitem__)] = np.arange(len(keys))
            self.emit(_take(allc, rows[_sort_order(allc, rows, place[code[rows]])]))


def _stream_max(chunk: Dict[str, np.ndarray]) -> Dict[tuple, int]:
    pairs, inverse = stream_pairs(chunk["rank"], chunk["thread"])
    start = chunk["start"]
    if len(pairs) == 1:
        return {pairs[0]: int(start.max())}
    order = stable_order(inverse)
    cuts = np.r_[0, np.flatnonzero(np.diff(inverse[order])) + 1]
    top = np.maximum.reduceat(start[order], cuts)
    return {p: int(m) for p, m in zip(pairs, top.tolist())}


def _stream_code(chunk: Dict[str, np.ndarray], keys: List[tuple]) -> np.ndarray:
    lookup = {k: i for i, k in enumerate(keys)}
    pairs, inverse = stream_pairs(chunk["rank"], chunk["thread"])
    codes = np.array([lookup[p] for p in pairs], dtype=np.int64)
    return codes[inverse]


def _sort_order(c: Dict[str, np.ndarray], rows: Optional[np.ndarray] = None,
                code: Optional[np.ndarray] = None) -> np.ndarray:
    """Stream order of ``c``'s rows (or of ``c``'s ``rows``, as indexes into ``rows``):
    by (rank, thread, time), ties by (k1, k2, k3). ``code``: the rows' streams numbered
    in (rank, thread) order, when known.

    One stable argsort of a packed (stream, time) key (nearly sorted input, so
    cheap), then a full sort of the tied runs only.
    """
    def col(name: str, at: Optional[np.ndarray] = None) -> np.ndarray:
        v = c[name] if rows is None else c[name][rows]
        return v if at is None else v[at]

    time = col("time")
    n = len(time)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if code is None:
        _, code = stream_pairs(col("rank"), col("thread"))
    span = int(time.max()) - int(time.min())
    if span >= 1 << 42 or int(code.max()) >= 1 << 20:
        return np.lexsort((col("k3"), col("k2"), col("k1"), time, col("thread"), col("rank")))
    key = (code << 42) | (time - time.min())
    order = np.argsort(key, kind="stable")
    ks = key[order]
    tie = np.zeros(n, dtype=bool)
    same = ks[1:] == ks[:-1]
    tie[1:] |= same
    tie[:-1] |= same
    if tie.any():
        at = np.flatnonzero(tie)
        tied = order[at]
        sub = np.lexsort((col("k3", tied), col("k2", tied), col("k1", tied), ks[at]))
        order[at] = tied[sub]
    return order


def _take(c: Dict[str, np.ndarray], index: np.ndarray) -> Dict[str, np.ndarray]:
    return {k: v[index] for k, v in c.items()}


def concat_parts(parts: List[Dict[str, np.ndarray]]) -> Dict[str, np.ndarray]:
    """Endpoint chunks joined; the optional ``args``/``value`` columns filled where absent."""
    if len(parts) == 1:
        return parts[0]
    out = {}
    for k in {k for p in parts for k in p}:
        cols = []
        for p in parts:
            if k in p:
                cols.append(p[k])
            elif k in ("args", "typed"):
                cols.append(np.full(len(p["time"]), None, dtype=object))
            else:
                cols.append(np.full(len(p["time"]), np.nan))
        out[k] = np.concatenate(cols)
    return out


_concat = concat_parts
