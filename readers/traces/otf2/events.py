"""OTF2 events of one location through the ``_otf2`` low-level reader, chunk by chunk.

Only the callbacks this module sets are invoked by the OTF2 library; each
appends seven unsigned 64-bit integers to an ``array.array``, so a chunk
becomes a 2-d int64 array with one ``numpy.frombuffer`` and everything after that is numpy:
regions and messages, collectives (``MpiCollectiveBegin``/``End`` pairs ->
one COLLECTIVE event with the begin time and ``end``), one-sided puts/gets
(RMA), atomics (RMA with bytes sent and received: ``MPI_Fetch_and_op``...),
RMA collective ends (RMA_SYNC, e.g. ``MPI_Win_fence``), lock requests,
acquisitions and releases and RMA syncs (RMA_SYNC with the remote rank), and
metrics (COUNTER). A data event takes the name of the region it happens in
(``MPI_Send`` for an ``MpiSend``; ``MPI_Rput`` for the ``RmaPut`` of a
request-based put).

Tuple layout: ``(code, time, a, b, c, d, e)``.
"""

from __future__ import annotations

import ctypes
import sys
from array import array
from typing import Any, Callable, Iterator, List, Optional

import numpy as np

from ..events import Kind
from ..stacks import OpenRegions
from .definitions import Tables, ticks_to_ns

COLL_BEGIN = 50
UNDEFINED32 = 0xFFFFFFFF
UNDEFINED64 = 0xFFFFFFFFFFFFFFFF  # -1 once the rows are viewed as int64
CHUNK = 1 << 18


def _plain(ctype: Any) -> Any:
    """The plain ctypes scalar type behind an argument type (enums -> their base)."""
    if ctype.__name__.startswith("LP_") or ctype is ctypes.c_void_p:
        return ctypes.c_void_p  # attribute list, user data: passed as plain ints
    for base in ctype.__mro__:
        if base.__module__ == "ctypes" and issubclass(base, ctypes._SimpleCData):
            return base
    return ctype


def _raw_callback(module: Any, event: str, fn: Callable) -> Any:
    """Register ``fn`` for ``event`` straight with the C library.

    The ``otf2`` package wraps every callback in Python code that converts
    user data and attribute lists per event (two thirds of the read time);
    this declares the same C prototype with plain integer arguments instead,
    so each event costs one ctypes trampoline and one list append.
    """
    proto = getattr(module, f"_EvtReaderCallback_FP_{event}")
    fast = ctypes.CFUNCTYPE(ctypes.c_int, *(_plain(t) for t in proto._argtypes_))
    setter = module.conf.lib[f"OTF2_EvtReaderCallbacks_Set{event}Callback"]  # a private copy
    setter.argtypes = [ctypes.c_void_p, fast]
    setter.restype = ctypes.c_int
    return setter, fast(fn)


#: OTF2 type ids of metric values
TYPE_UINT64, TYPE_INT64, TYPE_DOUBLE = 4, 8, 10


def _metric(add: Callable, code: int, undefined: int) -> Callable:
    """The Metric callback: one row per value (metric ref, member index, raw bits, type)."""
    def on_metric(loc, t, pos, u, a, metric, n, types, values):
        if n:
            kinds = (ctypes.c_uint8 * n).from_address(types)
            bits = (ctypes.c_uint64 * n).from_address(values)
            for i in range(n):
                add((code, t, metric, i, bits[i], kinds[i], undefined))
        return 0
    return on_metric


def _callbacks(rows: Any) -> List[tuple]:
    add = rows.extend
    U = UNDEFINED64
    E, L, S, R = int(Kind.ENTER), int(Kind.LEAVE), int(Kind.SEND), int(Kind.RECV)
    C, RMA, SYNC = int(Kind.COLLECTIVE), int(Kind.RMA), int(Kind.RMA_SYNC)
    return [
        ("Enter", lambda l, t, p, u, a, region: add((E, t, region, U, U, U, U)) or 0),
        ("Leave", lambda l, t, p, u, a, region: add((L, t, region, U, U, U, U)) or 0),
        ("MpiSend", lambda l, t, p, u, a, peer, comm, tag, size:
            add((S, t, peer, comm, tag, size, U)) or 0),
        ("MpiIsend", lambda l, t, p, u, a, peer, comm, tag, size, req:
            add((S, t, peer, comm, tag, size, req)) or 0),
        ("MpiRecv", lambda l, t, p, u, a, peer, comm, tag, size:
            add((R, t, peer, comm, tag, size, U)) or 0),
        ("MpiIrecv", lambda l, t, p, u, a, peer, comm, tag, size, req:
            add((R, t, peer, comm, tag, size, req)) or 0),
        ("MpiCollectiveBegin", lambda l, t, p, u, a: add((COLL_BEGIN, t, U, U, U, U, U)) or 0),
        ("MpiCollectiveEnd", lambda l, t, p, u, a, op, comm, root, sent, received:
            add((C, t, root, comm, sent, received, op)) or 0),
        ("RmaPut", lambda l, t, p, u, a, win, remote, size, match:
            add((RMA, t, remote, win, size, U, 0)) or 0),
        ("RmaGet", lambda l, t, p, u, a, win, remote, size, match:
            add((RMA, t, remote, win, size, U, 1)) or 0),
        ("RmaCollectiveEnd", lambda l, t, p, u, a, op, level, win, root, sent, received:
            add((SYNC, t, root, win, sent, received, op)) or 0),
        ("RmaAtomic", lambda l, t, p, u, a, win, remote, atype, sent, received, match:
            add((RMA, t, remote, win, sent, received, 2)) or 0),
        ("RmaRequestLock", lambda l, t, p, u, a, win, remote, lock, ltype:
            add((SYNC, t, remote, win, U, U, U)) or 0),
        ("RmaAcquireLock", lambda l, t, p, u, a, win, remote, lock, ltype:
            add((SYNC, t, remote, win, U, U, U)) or 0),
        ("RmaTryLock", lambda l, t, p, u, a, win, remote, lock, ltype:
            add((SYNC, t, remote, win, U, U, U)) or 0),
        ("RmaReleaseLock", lambda l, t, p, u, a, win, remote, lock:
            add((SYNC, t, remote, win, U, U, U)) or 0),
        ("RmaSync", lambda l, t, p, u, a, win, remote, stype:
            add((SYNC, t, remote, win, U, U, U)) or 0),
        ("Metric", _metric(add, int(Kind.COUNTER), U)),
    ]


def read_chunks(otf2_lib: Any, evt_reader: Any) -> Iterator[tuple]:
    """``(rows, read)`` per chunk: ``(n, 7)`` int64 rows of the events this module
    decodes and the number of events of any type the library read."""
    rows = array("Q")  # 7 unsigned 64-bit fields per decoded event
    module = sys.modules["_otf2.EvtReaderCallbacks"]
    cbs = otf2_lib.EvtReaderCallbacks_New()
    keep = []  # the C function pointers must outlive the reading
    for event, fn in _callbacks(rows):
        setter, pointer = _raw_callback(module, event, fn)
        setter(ctypes.cast(cbs, ctypes.c_void_p), pointer)
        keep.append(pointer)
    otf2_lib.EvtReader_SetCallbacks(evt_reader, cbs, None)
    otf2_lib.EvtReaderCallbacks_Delete(cbs)
    while True:
        read = otf2_lib.EvtReader_ReadEvents(evt_reader, CHUNK)
        chunk = np.frombuffer(rows, dtype=np.int64).reshape(-1, 7).copy()
        del rows[:]
        yield chunk, read
        if read < CHUNK:
            return


class LocationEvents:
    """Turns one location's chunks into event columns (carries open regions)."""

    def __init__(self, tables: Tables, rank: int, thread: int,
                 intern: Callable[[np.ndarray], np.ndarray],
                 intern_names: Optional[Callable[[List[str]], np.ndarray]] = None) -> None:
        self.tables = tables
        self.rank = rank
        self.thread = thread
        self.intern = intern  # region refs -> name ids
        self.intern_names = intern_names  # metric member names -> name ids
        self.open = OpenRegions()
        self.pending_begin = -1  # time of a collective begin not yet ended
        self.last_time = np.iinfo(np.int64).min

    def columns(self, rows: np.ndarray) -> dict:
        """Event columns (kind, time, name, attributes) of one chunk."""
        code, raw_time = rows[:, 0], rows[:, 1]
        time = ticks_to_ns(raw_time, self.tables.resolution)
        is_enter, is_leave = code == Kind.ENTER, code == Kind.LEAVE
        region = np.where(is_enter | is_leave, rows[:, 2], -1)
        enclosing = self.open.enclosing(is_enter, is_leave, region)
        begin_time = self._collective_begins(code, time)
        keep = code != COLL_BEGIN
        code, time, rows, enclosing = code[keep], time[keep], rows[keep], enclosing[keep]
        begin_time = begin_time[keep]
        is_coll = code == Kind.COLLECTIVE
        start = time.copy()
        if is_coll.any():
            prev = np.concatenate([[self.last_time], time[:-1]])
            start[is_coll] = np.maximum(begin_time[is_coll], prev[is_coll])
        if len(time):
            self.last_time = int(time[-1])
        data = ~((code == Kind.ENTER) | (code == Kind.LEAVE))
        cols = {"kind": code.astype(np.uint8), "time": start,
                "name": self.intern(enclosing)}
        counter = code == Kind.COUNTER
        if data.any():
            cols.update(self._data_columns(code, time, rows, data & ~counter))
        if counter.any():
            cols["name"], cols["value"] = self._counters(rows, counter, cols["name"])
        return cols

    def _counters(self, rows: np.ndarray, counter: np.ndarray, names: np.ndarray):
        """Metric values as float64 and their member names (the region stays the parent)."""
        ref, index, bits, vtype = (rows[counter, i] for i in (2, 3, 4, 5))
        value = np.full(len(rows), np.nan)
        raw = bits.astype(np.int64)
        got = np.where(vtype == TYPE_UINT64, raw.view(np.uint64).astype(np.float64),
                       np.where(vtype == TYPE_INT64, raw.astype(np.float64),
                                raw.view(np.float64)))
        value[counter] = got
        members = self.tables.metrics
        pair = ref * 4096 + index
        uniq, inverse = np.unique(pair, return_inverse=True)
        labels = []
        for p in uniq.tolist():  # one step per distinct (metric, member), not per value
            r, i = divmod(p, 4096)
            names_of = members.get(r, ())
            labels.append(names_of[i] if i < len(names_of) else f"metric {r}[{i}]")
        names = names.copy()
        if self.intern_names is not None:
            names[counter] = self.intern_names(labels)[inverse.reshape(-1)]
        return names, value

    def _collective_begins(self, code: np.ndarray, time: np.ndarray) -> np.ndarray:
        """Per row, the time of the collective begin before it (for COLLECTIVE rows)."""
        marks = np.where(code == COLL_BEGIN, time, -1)
        if self.pending_begin >= 0:
            marks = np.concatenate([[self.pending_begin], marks])
        idx = np.where(marks >= 0, np.arange(len(marks)), -1)
        last = np.maximum.accumulate(idx) if len(idx) else idx
        begins = np.where(last >= 0, marks[np.maximum(last, 0)], -1)
        if self.pending_begin >= 0:
            begins = begins[1:]
        ends = np.nonzero(code == Kind.COLLECTIVE)[0]
        after_end = ends[-1] if len(ends) else -1
        starts = np.nonzero(code == COLL_BEGIN)[0]
        if len(starts) and starts[-1] > after_end:
            self.pending_begin = int(time[starts[-1]])
        elif len(ends):
            self.pending_begin = -1
        return begins

    def _data_columns(self, code: np.ndarray, time: np.ndarray, rows: np.ndarray,
                      data: np.ndarray) -> dict:
        a, b, c, d, e = (rows[:, i] for i in range(2, 7))
        msg = (code == Kind.SEND) | (code == Kind.RECV)
        coll = code == Kind.COLLECTIVE
        rma = (code == Kind.RMA) | (code == Kind.RMA_SYNC)
        fill = np.full(len(code), -1, dtype=np.int64)
        peer = np.where((msg | rma | coll) & (a != UNDEFINED32), a, -1)
        comm = np.where(msg | coll, b, -1)
        peer = self._world(peer, comm, msg | coll)
        return {
            "peer": np.where(data, peer, -1),
            "comm": comm,
            "tag": np.where(msg, c, -1),
            "bytes": np.where(msg, d, np.where(coll | rma, c, -1)),
            "recv_bytes": np.where(coll | rma, d, -1),
            "request": np.where(msg & (e >= 0), e, -1),
            "window": np.where(rma, b, -1),
            "end": np.where(coll, time, fill),
        }

    def _world(self, peer: np.ndarray, comm: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = peer.copy()
        for ref in np.unique(comm[mask]).tolist():
            ranks = self.tables.comm_ranks.get(ref)
            if ranks is None or not len(ranks):
                continue
            sel = mask & (comm == ref) & (peer >= 0) & (peer < len(ranks))
            out[sel] = ranks[peer[sel]]
        return out
