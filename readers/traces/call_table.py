"""CallTableBuilder: one row per call, without matching enters and leaves.

The I/O analyses (per run and across runs: records, calls, files, time per
rank and function) need each call with its start, end, file and bytes, not
the whole events table. For traces whose ENTER events carry the call's
``end`` (Recorder, DUMPI) this handler keeps ENTER rows and attaches the
data event a decoder puts right after an ENTER (IO, SEND, RECV, COLLECTIVE,
RMA... with ``bytes``, ``offset``, ``peer``, ``file``...) to its call: a
few numpy steps per batch, no per-event Python, and it reads in worker
processes (``fork``/``join``). A call whose ENTER has no ``end`` is a
ReadError-free fallback case: its ``end`` is the end of its data event when
it has one, else -1 (``complete`` is False; use the events table then).

Call table columns
------------------
``rank``, ``thread`` int64; ``name`` category; ``start``, ``end`` int64 ns;
``duration`` float64 ns (NaN when the end is unknown); ``kind`` category
(the data event's kind, ``call`` when the call has none); ``file``
category; ``fd``, ``bytes``, ``offset``, ``peer``, ``tag``, ``comm``,
``window``, ``recv_bytes``, ``assertion`` int64 (-1 absent); ``args`` object when a decoder gave them.
Rows are ordered by rank, thread and start (stable).

Examples
--------
>>> from graphframe_readers.traces.events import EventBatch, Kind, StringTable
>>> t = StringTable(["write", "/d/a"])
>>> h = CallTableBuilder()
>>> h.on_batch(EventBatch.build(t, kind=[Kind.ENTER, Kind.IO, Kind.LEAVE], time=[5, 5, 9],
...            rank=0, name=0, end=[9, 9, -1], file=[1, 1, -1], bytes=[-1, 8, -1]))
>>> h.on_end()
>>> h.result()[["name", "start", "duration", "kind", "file", "bytes"]].values.tolist()
[['write', 5, 4.0, 'io', '/d/a', 8]]
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from ..pandas_text import categorical
from .events import ATTRIBUTES, KIND_NAMES, EventBatch, Kind, StringTable
from .handler import EventHandler
from . import shared_columns
from .names import NameMap

#: pandas copies on write (pandas 3, or its option set): frames may share data safely
try:
    COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3 or \
        pd.get_option("mode.copy_on_write") is True
except (ValueError, KeyError):  # pragma: no cover - an unusual pandas version string
    COPY_ON_WRITE = False
#: data-event columns copied to the call
DATA_COLUMNS = ("fd", "bytes", "offset", "peer", "tag", "comm", "window", "recv_bytes",
                "assertion")
#: the ``kind`` of a call without a data event
CALL = "call"
#: kind code -> whether it is a data event (one that describes the call it follows)
_IS_DATA = np.ones(256, dtype=bool)
_IS_DATA[[Kind.ENTER, Kind.LEAVE, Kind.INSTANT, Kind.COUNTER]] = False


class CallTableBuilder(EventHandler):
    """Keeps one row per call (see the module docs); ``result()`` is the call table."""

    def __init__(self, *, args: bool = True) -> None:
        super().__init__()
        self.keep_args = args
        self.names = NameMap()
        self.chunks: List[Dict[str, np.ndarray]] = []
        self.table: Optional[pd.DataFrame] = None
        self._pending: Dict[tuple, tuple] = {}

    def on_batch(self, batch: EventBatch) -> None:
        n = len(batch)
        if not n:
            return
        kind = batch.kind
        enter = np.flatnonzero(kind == Kind.ENTER)
        data = np.flatnonzero(_IS_DATA[kind])
        # a data event belongs to the ENTER right before it in its stream
        owner = np.full(len(data), -1, dtype=np.int64)
        if len(data) and len(enter):
            k = np.searchsorted(enter, data) - 1
            ok = k >= 0
            cand = enter[np.maximum(k, 0)]
            ok &= (batch.rank[cand] == batch.rank[data]) & (batch.thread[cand] == batch.thread[data])
            ok &= batch.time[cand] == batch.time[data]
            owner = np.where(ok, k, -1)
        cols = {"rank": batch.rank[enter], "thread": batch.thread[enter],
                "name": self.names.ids(batch.strings, batch.name[enter]),
                "start": batch.time[enter], "end": batch.column("end")[enter],
                "kind": np.full(len(enter), -1, dtype=np.int64)}
        file_ids = np.full(n, -1, dtype=np.int32)  # only the rows kept need their file
        if "file" in batch.attrs:
            used = np.concatenate([enter, data])
            file_ids[used] = self.names.ids(batch.strings, batch.attrs["file"][used])
        cols["file"] = file_ids[enter]
        for col in DATA_COLUMNS:  # None: no value in this batch (less to send from workers)
            cols[col] = batch.attrs[col][enter] if col == "fd" and col in batch.attrs else \
                None if col not in batch.attrs else \
                np.full(len(enter), ATTRIBUTES[col][1], dtype=ATTRIBUTES[col][0])
        if self.keep_args and "args" in batch.attrs:
            cols["args"] = batch.attrs["args"][enter]
        has = owner >= 0
        o, d = owner[has], data[has]
        if len(o):
            cols["kind"][o] = kind[d]
            data_end = batch.column("end")[d]
            cols["end"][o] = np.where(cols["end"][o] >= 0, cols["end"][o], data_end)
            f = file_ids[d]
            cols["file"][o] = np.where(f >= 0, f, cols["file"][o])
            for col in DATA_COLUMNS:
                if cols[col] is None:
                    continue
                v = batch.attrs[col][d]
                if col == "fd":
                    cols[col][o] = np.where(v >= 0, v, cols[col][o])
                else:
                    cols[col][o] = v
        self._attach_across(batch, data[~has], file_ids)
        self._keep(cols)
        if len(enter):  # the last call of each stream may own a data event of the next batch
            key = cols["rank"] * (1 << 20) + cols["thread"]
            _, last = np.unique(key[::-1], return_index=True)
            for row in (len(key) - 1 - last).tolist():
                stream = (int(cols["rank"][row]), int(cols["thread"][row]))
                self._pending[stream] = (len(self.chunks) - 1, row)

    takes_calls = True

    def on_calls(self, strings: StringTable, columns: Dict[str, np.ndarray]) -> None:
        """Whole calls from a decoder (see :meth:`.EventHandler.on_calls`): kept as they are."""
        n = len(columns["start"])
        if not n:
            return
        cols: Dict[str, Optional[np.ndarray]] = {
            "rank": np.broadcast_to(np.asarray(columns["rank"], dtype=np.int64), (n,)),
            "thread": np.broadcast_to(np.asarray(columns["thread"], dtype=np.int64), (n,)),
            "name": self.names.ids(strings, np.asarray(columns["name"])),
            "start": np.asarray(columns["start"], dtype=np.int64),
            "end": np.asarray(columns["end"], dtype=np.int64),
            "kind": np.asarray(columns["kind"]),
            "file": self.names.ids(strings, np.asarray(columns["file"]))}
        for col in DATA_COLUMNS:
            cols[col] = np.asarray(columns[col], dtype=np.int64) if col in columns else None
        if self.keep_args and "args" in columns:
            cols["args"] = columns["args"]
        self._keep(cols)

    def _keep(self, cols: Dict[str, Optional[np.ndarray]]) -> None:
        """Append a chunk, narrowed (less to send back from workers)."""
        for col in DATA_COLUMNS:  # a column without a value travels as None
            if cols[col] is not None and (cols[col] == -1).all():
                cols[col] = None
        cols["kind"] = cols["kind"].astype(np.int16)
        for col in ("rank", "thread"):
            v = cols[col]
            if len(v) and -(1 << 31) <= v.min() and v.max() < (1 << 31):
                cols[col] = v.astype(np.int32)
        self.chunks.append(cols)

    def _attach_across(self, batch: EventBatch, rows: np.ndarray, file_ids: np.ndarray) -> None:
        """Data events whose ENTER ended the previous batch (rare: a batch boundary)."""
        for i in rows.tolist():
            key = (int(batch.rank[i]), int(batch.thread[i]))
            where = self._pending.get(key)
            if where is None:
                continue
            chunk = self.chunks[where[0]]
            row = where[1]
            if chunk["start"][row] != batch.time[i] or chunk["kind"][row] >= 0:
                continue
            chunk["kind"][row] = batch.kind[i]
            if chunk["end"][row] < 0:
                chunk["end"][row] = batch.column("end")[i]
            if file_ids[i] >= 0:
                chunk["file"][row] = file_ids[i]
            for col in DATA_COLUMNS:
                v = batch.column(col)[i]
                if col != "fd" or v >= 0:
                    if chunk[col] is None:
                        chunk[col] = np.full(len(chunk["start"]), -1, dtype=np.int64)
                    chunk[col][row] = v

    def fork(self) -> "CallTableBuilder":
        return CallTableBuilder(args=self.keep_args)

    def __getstate__(self) -> dict:
        """Pickled (a worker's handler going back): the chunks as one packed chunk whose
        arrays travel in a shared-memory file (:mod:`.shared_columns`), not in the pickle."""
        state = self.__dict__.copy()
        state["_pending"] = {}
        if self.chunks:
            state["chunks"] = [shared_columns.share(pack_chunks(self.chunks))]
        return state

    def __setstate__(self, state: dict) -> None:
        state["chunks"] = [shared_columns.load(c) if isinstance(c, shared_columns.Shared)
                           else c for c in state["chunks"]]
        self.__dict__.update(state)

    def join(self, others: Sequence["CallTableBuilder"]) -> None:
        for other in others:
            self.on_definitions(other.definitions)
            table = other.names.names
            for chunk in other.chunks:
                chunk = dict(chunk)
                chunk["name"] = self.names.ids(table, chunk["name"])
                chunk["file"] = self.names.ids(table, chunk["file"])
                self.chunks.append(chunk)

    def on_end(self) -> None:
        self.table = build_call_table(self.chunks, self.names.names.strings)
        self.chunks = []

    def result(self) -> pd.DataFrame:
        return self.table


def pack_chunks(chunks: List[Dict[str, Optional[np.ndarray]]]) -> Dict[str, Any]:
    """Chunks as one, for :func:`.shared_columns.share`: each column as the
    :class:`~.shared_columns.Parts` of every chunk (written one after the other, no
    concatenation; -1 where a chunk has no value), None where no chunk has a value, integer
    columns as narrow as their values allow (widened again in :func:`build_call_table`).

    >>> c = {"rank": np.array([0]), "start": np.array([5]), "bytes": None}
    >>> d = {"rank": np.array([1]), "start": np.array([7]), "bytes": np.array([8])}
    >>> packed = pack_chunks([c, d])
    >>> packed["bytes"].dtype, [a.tolist() for a in packed["bytes"].arrays]
    (dtype('int32'), [[-1], [8]])
    >>> packed["start"].dtype
    dtype('int64')
    """
    out: Dict[str, Any] = {}
    for key in [k for k in chunks[0] if all(k in ch for ch in chunks)]:
        values = [ch[key] for ch in chunks]
        if all(v is None for v in values):
            out[key] = None
            continue
        present = [v for v in values if v is not None and len(v)]
        if any(v.dtype == object for v in present):
            out[key] = np.concatenate(values)
            continue
        dtype = np.result_type(*[v.dtype for v in present]) if present else np.dtype(np.int64)
        if dtype == np.int64 and key not in ("start", "end") and \
                all(-(1 << 31) <= v.min() and v.max() < (1 << 31) for v in present):
            dtype = np.dtype(np.int32)
        out[key] = shared_columns.Parts(dtype, [
            v if v is not None else np.full(len(ch["start"]), -1, dtype=dtype)
            for v, ch in zip(values, chunks)])
    return out


def build_call_table(chunks: List[Dict[str, np.ndarray]], names: List[str]) -> pd.DataFrame:
    """The call table from column chunks (global name ids).

    Each column is allocated once and filled chunk by chunk (a chunk without a value
    fills -1), so the table costs one write per value."""
    with_args = bool(chunks) and all("args" in ch for ch in chunks)
    sizes = [len(ch["start"]) for ch in chunks]
    total = sum(sizes)
    cols = {k: _column(chunks, sizes, total, k, dtype) for k, dtype in
            (("rank", np.int64), ("thread", np.int64), ("name", np.int32),
             ("start", np.int64), ("end", np.int64), ("kind", np.int16), ("file", np.int32))}
    # columns no chunk has a value for: one Series of -1 serves them all where pandas
    # copies on write (a write to one of them copies it), else one array each
    absent = [c for c in DATA_COLUMNS if all(ch[c] is None for ch in chunks)]
    filled = pd.Series(np.full(total, -1, dtype=np.int64)) \
        if COPY_ON_WRITE and len(absent) > 1 else None
    for col in DATA_COLUMNS:
        if filled is None or col not in absent:
            cols[col] = _column(chunks, sizes, total, col, np.int64)
    if with_args:
        cols["args"] = _column(chunks, sizes, total, "args", object)
    if not _in_order(chunks, sizes, cols):
        order = np.lexsort((cols["start"], cols["thread"], cols["rank"]))
        cols = {k: v[order] for k, v in cols.items()}
    kinds = list(KIND_NAMES) + [CALL]
    kind_code = np.append(np.arange(len(KIND_NAMES), dtype=np.int8), np.int8(len(KIND_NAMES)))
    end = cols["end"]
    start = cols["start"]
    duration = (end - start).astype(np.float64)
    duration[end < 0] = np.nan
    data = {
        "rank": cols["rank"], "thread": cols["thread"],
        "name": _categorical(names, cols["name"]),
        "start": start, "end": end, "duration": duration,
        # kind -1 (no data event) -> the last code, CALL
        "kind": categorical(kind_code[cols["kind"]], kinds),
        "file": _categorical(names, cols["file"]),
    }
    for col in DATA_COLUMNS:
        data[col] = cols[col] if col in cols else filled
    if with_args:
        data["args"] = cols["args"]
    return pd.DataFrame(data, copy=False)  # fresh arrays: no consolidating copy


def _column(chunks: List[Dict[str, Optional[np.ndarray]]], sizes: List[int], total: int,
            key: str, dtype: Any) -> np.ndarray:
    """Column ``key`` of every chunk in one new array of ``dtype`` (-1 where a chunk has
    no value)."""
    out = np.empty(total, dtype=dtype)
    at = 0
    for ch, size in zip(chunks, sizes):
        value = ch[key]
        out[at:at + size] = -1 if value is None else value
        at += size
    return out


def _categorical(names: List[str], codes: np.ndarray) -> pd.Categorical:
    """Global name ids -> a categorical with only the names used, sorted."""
    used = np.bincount(codes.astype(np.int64) + 1, minlength=len(names) + 1)[1:]
    ids = np.flatnonzero(used)
    table = np.asarray(names, dtype=object)[ids] if len(ids) else np.zeros(0, dtype=object)
    sort = np.argsort(table.astype(str), kind="stable")
    small = np.int8 if len(ids) < 127 else np.int16 if len(ids) < 32767 else np.int32
    remap = np.full(len(names) + 1, -1, dtype=small)  # the last entry: id -1 -> code -1
    remap[ids[sort]] = np.arange(len(ids))
    return categorical(remap[codes], list(table[sort]))


def _in_order(chunks: List[Dict[str, Optional[np.ndarray]]], sizes: List[int],
              cols: Dict[str, np.ndarray]) -> bool:
    """True when rows are already sorted by (rank, thread, start): checked chunk by chunk
    where a chunk is one (rank, thread), on the whole columns otherwise."""
    last = None
    for ch, size in zip(chunks, sizes):
        if not size:
            continue
        rank, thread, start = ch["rank"], ch["thread"], ch["start"]
        r, t = int(rank[0]), int(thread[0])
        if not ((rank == r).all() and (thread == t).all()):
            return _rows_in_order(cols["rank"], cols["thread"], cols["start"])
        if size > 1 and not (start[1:] >= start[:-1]).all():
            return False
        first = (r, t, int(start[0]))
        if last is not None and first < last:
            return False
        last = (r, t, int(start[-1]))
    return True


def _rows_in_order(rank: np.ndarray, thread: np.ndarray, start: np.ndarray) -> bool:
    """True when rows are already sorted by (rank, thread, start)."""
    if len(rank) < 2:
        return True
    dr, dt, ds = np.diff(rank), np.diff(thread), np.diff(start)
    return bool(((dr > 0) | ((dr == 0) & ((dt > 0) | ((dt == 0) & (ds >= 0))))).all())
