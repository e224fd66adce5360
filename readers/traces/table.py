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
``counter``); ``name`` category; ``rank``, ``thread`` int64; the attribute
columns some batch carried (:data:`graphframe_readers.traces.ATTRIBUTES`; ``file`` as
a category); ``match`` (row of the partner event), ``depth``, ``parent``
(row of the enclosing ENTER) int64, -1 when not applicable; ``duration``
and ``exclusive`` float64 ns on ENTER rows (NaN elsewhere).
"""

from __future__ import annotations

import warnings
from typing import Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

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
                warn: bool = True) -> pd.DataFrame:
    """The events table from column chunks (global name ids)."""
    attrs = [c for c in ATTRIBUTES if any(c in ch for ch in chunks)]
    cols: Dict[str, np.ndarray] = {}
    for col in ("kind", "time", "rank", "thread", "name"):
        cols[col] = np.concatenate([ch[col] for ch in chunks]) if chunks else \
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
        cols[col] = np.concatenate(parts)
    if not _stream_ordered(cols["rank"], cols["thread"]):
        order = np.lexsort((np.arange(len(cols["time"])), cols["thread"], cols["rank"]))
        cols = {k: v[order] for k, v in cols.items()}
    return finish_table(cols, names, attrs, warn, own=True)


def _stream_ordered(rank: np.ndarray, thread: np.ndarray) -> bool:
    """True when the rows are already sorted by (rank, thread): the stable sort would
    leave them as they are (one stream, or streams delivered one after the other)."""
    if len(rank) < 2:
        return True
    up = rank[1:] > rank[:-1]
    return bool((up | (rank[1:] == rank[:-1])).all() and (up | (thread[1:] >= thread[:-1])).all())


def finish_table(cols: Dict[str, np.ndarray], names: List[str], attrs: List[str],
                 warn: bool, own: bool = False) -> pd.DataFrame:
    """Add matching columns and build the DataFrame (rows already in stream order).

    ``own``: the arrays of ``cols`` belong to this table alone (just concatenated), so
    the table keeps them instead of copying them.
    """
    kind = cols["kind"].astype(np.uint8, copy=not own)
    time = cols["time"].astype(np.int64, copy=not own)
    pairs = np.stack([cols["rank"], cols["thread"]], axis=1)
    stream = np.zeros(len(kind), dtype=np.int64)
    if len(kind) > 1:
        stream[1:] = np.cumsum((pairs[1:] != pairs[:-1]).any(axis=1))
    m = match_events(kind, stream)
    end = int(time.max()) if len(time) else 0
    enter = kind == Kind.ENTER
    duration = np.full(len(kind), np.nan)
    matched = enter & (m.match >= 0)
    duration[matched] = time[m.match[matched]] - time[matched]
    open_ = enter & (m.match < 0)
    duration[open_] = end - time[open_]
    exclusive = duration.copy()
    child = enter & (m.parent >= 0)
    np.add.at(exclusive, m.parent[child], -duration[child])
    if warn and (m.unmatched_enters or m.unmatched_leaves):
        warnings.warn(
            f"unmatched events: {m.unmatched_enters} enter(s) without a leave were closed at "
            f"the end of the trace, {m.unmatched_leaves} leave(s) without an enter were "
            "dropped", TraceWarning, stacklevel=3)
    codes = cols["name"].astype(np.int64)
    lone = (kind == Kind.LEAVE) & (codes < 0) & (m.match >= 0)
    codes = codes.copy()
    codes[lone] = codes[m.match[lone]]  # a nameless LEAVE takes its ENTER's name
    used = [codes] + ([cols["file"].astype(np.int64)] if "file" in attrs else [])
    categories, remap = _sorted_categories(names, used)
    data = {
        "time": time,
        "kind": pd.Categorical.from_codes(kind.astype(np.int8), categories=list(KIND_NAMES)),
        "name": pd.Categorical.from_codes(remap[codes], categories=categories),
        "rank": cols["rank"].astype(np.int64, copy=not own),
        "thread": cols["thread"].astype(np.int64, copy=not own),
    }
    for col in attrs:
        if col == "file":
            data[col] = pd.Categorical.from_codes(remap[cols[col].astype(np.int64)],
                                                  categories=categories)
        else:
            data[col] = cols[col]
    data.update(match=m.match, depth=m.depth, parent=m.parent, duration=duration,
                exclusive=exclusive)
    # arrays of this table's own: kept as they are (no copy into consolidated blocks)
    return pd.DataFrame(data, copy=not own)


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
