"""TableBuilder: the handler that keeps every event and builds the events table.

Batches are kept as columns (names mapped to one global string table);
``on_end`` concatenates them, orders rows by (rank, thread) keeping each
stream's order, matches enter/leave pairs (:mod:`.matching`) and adds
``match``, ``depth``, ``parent``, ``duration`` and ``exclusive``. Unmatched
events follow the policy of :mod:`.tree` (one TraceWarning counting them):
an ENTER never left lasts until the end of the trace, a LEAVE without an
ENTER keeps ``match = -1``.

Events table columns
--------------------
``time`` int64 ns; ``kind`` category (``enter``, ``leave``, ``instant``,
``send``, ``recv``, ``collective``, ``io``, ``rma``, ``rma_sync``,
``counter``); ``name`` category (codes into the sorted names in use, int8 or
int16 for up to 32,767 names); ``rank``, ``thread`` the smallest integer type
of at least 32 bits that holds them (int32 unless an id needs int64); the
attribute columns some batch carried (:data:`graphframe_readers.traces.ATTRIBUTES`;
``file`` as a category; times and byte counts (``end``, ``bytes``,
``recv_bytes``, ``offset``) int64, the other integer attributes int32 when
they fit); ``match`` (row of the partner event), ``depth``, ``parent`` (row of
the enclosing ENTER) int32 (int64 beyond 2**31 rows), -1 when not
applicable; ``duration`` and ``exclusive`` float64 ns on ENTER rows (NaN
elsewhere). No column holds Python objects but ``args``, which decoders
fill only when asked.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from ..pandas_text import categorical, frame
from .events import ATTRIBUTES, KIND_NAMES, EventBatch, Kind
from .handler import EventHandler
from .warnings import TraceWarning

from .matching import match_events
from .names import NameMap


class TableBuilder(EventHandler):
    """Keeps all events; ``result()`` is the events DataFrame (see module docs)."""

    def __init__(self) -> None:
        super().__init__()
        self.names = NameMap()
        self.chunks: List[Dict[str, np.ndarray]] = []
        self.table: Optional[pd.DataFrame] = None

    def on_batch(self, batch: EventBatch) -> None:
        if not len(batch):
            return
        cols = {c: getattr(batch, c) for c in ("kind", "time", "rank", "thread")}
        cols["name"] = self.names.ids(batch.strings, batch.name)
        for col, arr in batch.attrs.items():
            cols[col] = self.names.ids(batch.strings, arr) if col == "file" else arr
        self.chunks.append(cols)

    def fork(self) -> "TableBuilder":
        return TableBuilder()

    def join(self, others: Sequence["TableBuilder"]) -> None:
        for other in others:
            self.on_definitions(other.definitions)
            table = other.names.names
            for chunk in other.chunks:
                chunk = dict(chunk)
                chunk["name"] = self.names.ids(table, chunk["name"])
                if "file" in chunk:
                    chunk["file"] = self.names.ids(table, chunk["file"])
                self.chunks.append(chunk)

    def on_end(self) -> None:
        self.table = build_table(self.chunks, self.names.names.strings, warn=True)
        self.chunks = []

    def result(self) -> pd.DataFrame:
        return self.table


def build_table(chunks: List[Dict[str, np.ndarray]], names: List[str],
                warn: bool = True, as_columns: bool = False) -> Any:
    """The events table from column chunks (global name ids); ``as_columns``: its columns
    (a dict, in order) for a caller that adds columns before making the DataFrame."""
    attrs = [c for c in ATTRIBUTES if any(c in ch for ch in chunks)]
    cols: Dict[str, np.ndarray] = {}
    for col in ("kind", "time", "rank", "thread", "name"):
        cols[col] = _concat([ch[col] for ch in chunks]) if chunks else \
            np.zeros(0, dtype=np.int64)
    for col in attrs:
        dtype, fill = ATTRIBUTES[col]
        parts = []
        for ch in chunks:
            if col in ch:
                parts.append(ch[col])
            else:
                filler = np.empty(len(ch["time"]), dtype=dtype)
                filler[...] = fill
                parts.append(filler)
        cols[col] = _concat(parts)
    chunks.clear()  # the columns hold the events now: the chunks' memory is freed
    order = _stream_order(cols["rank"], cols["thread"])
    if order is not None:
        for k in list(cols):
            cols[k] = cols[k][order]
    return finish_table(cols, names, attrs, warn, as_columns)


def _concat(parts: List[np.ndarray]) -> np.ndarray:
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _stream_order(rank: np.ndarray, thread: np.ndarray) -> Optional[np.ndarray]:
    """The stable order of rows by (rank, thread), or None when they are in that order."""
    if len(rank) < 2:
        return None
    r0, r1, t0, t1 = rank[:-1], rank[1:], thread[:-1], thread[1:]
    if ((r1 > r0) | ((r1 == r0) & (t1 >= t0))).all():
        return None
    return np.lexsort((thread, rank))  # lexsort is stable: each stream keeps its order


def smallest_int(values: np.ndarray, floor: type = np.int32) -> np.ndarray:
    """``values`` as the smallest of int8/16/32/64 (not below ``floor``) that holds them.

    Examples
    --------
    >>> smallest_int(np.array([-1, 7])).dtype, smallest_int(np.array([2**40])).dtype
    (dtype('int32'), dtype('int64'))
    >>> smallest_int(np.array([3, 300]), floor=np.int8).dtype
    dtype('int16')
    """
    values = np.asarray(values)
    if values.dtype.kind not in "iu":
        return values
    if not len(values):
        return values.astype(floor)
    lo, hi = int(values.min()), int(values.max())
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        if np.dtype(dtype).itemsize < np.dtype(floor).itemsize:
            continue
        info = np.iinfo(dtype)
        if info.min <= lo and hi <= info.max:
            return values.astype(dtype, copy=False)
    return values


#: Attribute columns kept as int64 whatever their values (times and byte counts, which
#: users sum); the other integer attributes (ids, tags, descriptors) take the smallest
#: type of at least 32 bits that holds them
WIDE = ("end", "bytes", "recv_bytes", "offset")


def finish_table(cols: Dict[str, np.ndarray], names: List[str], attrs: List[str],
                 warn: bool, as_columns: bool = False) -> Any:
    """Add matching columns and build the DataFrame (rows already in stream order;
    ``as_columns``: the dict of its columns instead)."""
    kind = np.asarray(cols["kind"]).astype(np.uint8, copy=False)
    time = np.asarray(cols["time"]).astype(np.int64, copy=False)
    rank, thread = np.asarray(cols["rank"]), np.asarray(cols["thread"])
    n = len(kind)
    stream = np.zeros(n, dtype=np.int64)
    if n > 1:
        np.cumsum((rank[1:] != rank[:-1]) | (thread[1:] != thread[:-1]), out=stream[1:])
    m = match_events(kind, stream)
    del stream
    end = int(time.max()) if len(time) else 0
    enter = kind == Kind.ENTER
    duration = np.full(n, np.nan)
    matched = np.flatnonzero(enter & (m.match >= 0))
    duration[matched] = time[m.match[matched]] - time[matched]
    open_ = enter & (m.match < 0)
    duration[open_] = end - time[open_]
    child = np.flatnonzero(enter & (m.parent >= 0))
    exclusive = duration - np.bincount(m.parent[child], weights=duration[child], minlength=n)
    del child, matched, open_
    if warn and (m.unmatched_enters or m.unmatched_leaves):
        warnings.warn(
            f"unmatched events: {m.unmatched_enters} enter(s) without a leave were closed at "
            f"the end of the trace, {m.unmatched_leaves} leave(s) without an enter were "
            "dropped", TraceWarning, stacklevel=3)
    codes = np.asarray(cols["name"])
    lone = np.flatnonzero((kind == Kind.LEAVE) & (codes < 0) & (m.match >= 0))
    if len(lone):
        codes = codes.copy()
        codes[lone] = codes[m.match[lone]]  # a nameless LEAVE takes its ENTER's name
    used = [codes] + ([np.asarray(cols["file"])] if "file" in attrs else [])
    categories, remap = _sorted_categories(names, used)
    code_type = smallest_int(np.array([-1, len(categories)]), floor=np.int8).dtype
    remap = remap.astype(code_type)
    data = {
        "time": time,
        "kind": categorical(kind.view(np.int8), KIND_NAMES),
        "name": categorical(remap[codes], categories),
        "rank": smallest_int(rank),
        "thread": smallest_int(thread),
    }
    for col in attrs:
        if col == "file":
            data[col] = categorical(remap[np.asarray(cols[col])], categories)
        elif col in WIDE:
            data[col] = np.asarray(cols[col])
        else:
            data[col] = smallest_int(cols[col])
    data.update(match=m.match, depth=m.depth, parent=m.parent, duration=duration,
                exclusive=exclusive)
    return data if as_columns else frame(data)


#: names up to this length are sorted as numpy fixed-width strings
_NUMPY_SORT_CHARS = 256


def _sorted_categories(names: List[str], used: List[np.ndarray]):
    """The names in use, sorted, and a code map (old id -> new code; index -1 -> -1)."""
    allc = np.concatenate(used) if used else np.zeros(0, dtype=np.int64)
    ids = np.unique(allc[allc >= 0])
    table = np.asarray(names, dtype=object)[ids] if len(ids) else np.zeros(0, dtype=object)
    if len(table) and max(map(len, table)) > _NUMPY_SORT_CHARS:
        # numpy's fixed-width strings would take the longest name's width for every name
        # (a 50 MB name: gigabytes); Python's sort compares the same code points
        order = np.asarray(sorted(range(len(table)), key=table.__getitem__), dtype=np.int64)
    else:
        order = np.argsort(table.astype(str), kind="stable")
    remap = np.full(len(names) + 1, -1, dtype=np.int64)
    remap[ids[order]] = np.arange(len(ids))
    return list(table[order]), remap
