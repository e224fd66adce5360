"""GcTableBuilder: the events table of GC logs, with the GC columns of every event.

A :class:`~graphframe_readers.traces.table.TableBuilder` (the standard events
table: ``time`` ns, ``kind``, ``name``, ``rank`` = the log's number...) that
also keeps each :class:`~.batch.GcBatch`'s GC columns and adds them:

``log`` (category: the log's label), ``time_s`` and ``duration_s`` (the
time and the duration in seconds, exactly as parsed), ``line`` (line number in its file),
``gc_id`` (-1 none), ``datetime`` (UTC, NaT when not logged), ``event_type``,
``cause``, ``info``, ``generation``, ``collector``, ``tags`` (categories),
``level`` (indentation of a sub-phase), ``prefix`` (``Y``/``O``: generational
ZGC's young / old generation phase prefix, else ``""``), ``heap_before``, ``heap_after``,
``heap_capacity`` (bytes), ``heap_before_pct``, ``heap_after_pct`` (ZGC's
percentages), ``time_to_reach``, ``at_safepoint``, ``cleanup``, ``leaving``,
``total``, ``time_since_last`` (seconds). ``duration`` (ns, as in every
events table) holds the GC duration of pauses, phases, collections and
safepoints. The definitions' metadata holds ``format`` = ``jvm-gc`` and
``logs`` (label -> what the decoder found, see :mod:`.decoder`); with one
log, its entries are also at the top level.

Examples
--------
>>> from graphframe_readers.traces import decode, MemorySource
>>> b = GcTableBuilder()
>>> log = b"[1.000s][info][gc] GC(0) Pause Full (System.gc()) 9M->3M(64M) 12.5ms\\n"
>>> ev = decode(MemorySource(log, name="a.log"), b, format="jvm-gc")
>>> ev[["log", "gc_id", "event_type", "name", "cause", "heap_after", "duration"]].values.tolist()
[['a.log', 0, 'pause', 'Pause Full', 'System.gc()', 3145728.0, 12500000.0]]
"""

from __future__ import annotations

from typing import Dict, List

import numpy as np
import pandas as pd

from ...pandas_text import categorical as text_categorical, frame
from ..definitions import Definitions
from ..events import EventBatch
from ..table import TableBuilder, build_table
from .batch import GcBatch
from .memory import no_huge_pages
from .parse import FLOATS
from .texts import Texts, categorical
from .titles import EVENT_TYPES, GENERATIONS

_GEN_CODE = {g: i for i, g in enumerate(GENERATIONS)}

#: GC columns added to the events table, in order
GC_COLUMNS = ("log", "time_s", "duration_s", "line", "gc_id", "datetime", "event_type", "cause",
              "info", "generation",
              "collector", "tags", "level", "prefix", "heap_before", "heap_after", "heap_capacity",
              "heap_before_pct", "heap_after_pct", "time_to_reach", "at_safepoint", "cleanup",
              "leaving", "total", "time_since_last")


class GcTableBuilder(TableBuilder):
    """Keeps every event and its GC columns; ``result()`` is the events DataFrame."""

    def __init__(self) -> None:
        super().__init__()
        self.gc_chunks: List[Dict[str, np.ndarray]] = []
        self.log_meta: Dict[int, dict] = {}

    def on_definitions(self, definitions: Definitions) -> None:
        md = definitions.metadata
        if md.get("format") == "jvm-gc":
            self.log_meta[int(md.get("rank", len(self.log_meta)))] = dict(md)
            definitions = Definitions(ranks=definitions.ranks)
        super().on_definitions(definitions)

    def on_batch(self, batch: EventBatch) -> None:
        if not len(batch):
            return
        super().on_batch(batch)
        gc = dict(batch.gc) if isinstance(batch, GcBatch) else {}
        gc["__rank"] = batch.rank
        gc["__n"] = len(batch)
        self.gc_chunks.append(gc)

    def fork(self) -> "GcTableBuilder":
        raise NotImplementedError("GC logs are read in one process")

    def on_end(self) -> None:
        chunks, self.gc_chunks = self.gc_chunks, []
        with no_huge_pages():
            columns = build_table(self.chunks, self.names.names.strings, warn=True,
                                  as_columns=True)
            self.chunks = []
            self.table = add_gc_columns(columns, chunks, self.log_meta)
        logs = {md.get("log", str(r)): md for r, md in sorted(self.log_meta.items())}
        meta = {"format": "jvm-gc", "logs": logs}
        if len(logs) == 1:
            meta.update({k: v for k, v in next(iter(logs.values())).items() if k != "rank"})
        self.definitions.metadata.update(meta)


def _column(chunks, name, n, fill, dtype=None):
    if chunks and not any(name in ch for ch in chunks):  # absent from every batch
        return np.full(sum(ch["__n"] for ch in chunks), fill, dtype=dtype or object)
    parts = []
    for ch in chunks:
        if name in ch:
            parts.append(ch[name])
        else:
            filler = np.empty(ch["__n"], dtype=dtype or object)
            filler[...] = fill
            parts.append(filler)
    return np.concatenate(parts) if parts else np.zeros(n, dtype=dtype or object)


def _texts(chunks, name) -> pd.Categorical:
    """The text column ``name`` of the chunks (absent: None) as one categorical."""
    return categorical([ch[name] if name in ch else Texts.absent(ch["__n"]) for ch in chunks])


def add_gc_columns(table: Dict[str, np.ndarray], chunks: List[Dict[str, np.ndarray]],
                   log_meta: Dict[int, dict]) -> pd.DataFrame:
    """The events table: its standard columns (``table``, from
    :func:`~graphframe_readers.traces.table.build_table`) and the GC columns (rows in
    the table's order)."""
    n = len(table["time"])
    rank = _column(chunks, "__rank", n, 0, np.int64).astype(np.int64)
    if len(rank) < 2 or bool((rank[1:] >= rank[:-1]).all()):
        order = slice(None)  # already in the table's order: no reordering copy
    else:
        order = np.lexsort((np.arange(len(rank)), np.zeros(len(rank), np.int64), rank))
    labels = {r: md.get("log", str(r)) for r, md in log_meta.items()}
    collectors = {r: md.get("collector", "") for r, md in log_meta.items()}
    # rows are in rank order: a log's number is its rank's place among the ranks
    rank = rank[order]
    first = np.ones(len(rank), bool)
    first[1:] = rank[1:] != rank[:-1]
    ranks = rank[first]
    codes = np.cumsum(first) - 1
    # (the codes made here are in range: categories built without checking them)
    out = {
        "log": pd.Categorical.from_codes(codes, categories=pd.Index(
            [labels.get(int(r), str(r)) for r in ranks], dtype=object), validate=False)
        if len(ranks) else pd.Categorical([]),
        "line": _column(chunks, "line", n, -1, np.int64)[order],
        "gc_id": _column(chunks, "gc_id", n, -1, np.int64)[order],
    }
    if any("date" in ch for ch in chunks):
        date = _column(chunks, "date", n, -1, np.int64)[order]
        stamps = np.where(date >= 0, date, np.iinfo(np.int64).min).view("M8[ns]")  # min = NaT
    else:  # no date logged
        stamps = np.full(n, np.iinfo(np.int64).min, np.int64).view("M8[ns]")
    out["datetime"] = pd.DatetimeIndex(stamps).tz_localize("UTC")
    et = _column(chunks, "event_type", n, 0, np.int8)[order]
    out["event_type"] = text_categorical(et, EVENT_TYPES)
    # the text columns from each block's codes (no text hashed per event), blocks in the
    # table's order (a batch holds one log's events: sorting batches by rank sorts rows)
    in_order = chunks if isinstance(order, slice) else [chunks[i] for i in np.argsort(
        [int(np.asarray(ch["__rank"]).flat[0]) for ch in chunks], kind="stable")]
    out["cause"] = _texts(in_order, "cause")
    out["info"] = _texts(in_order, "info")
    gen = _column(chunks, "generation", n, 0, np.int8)[order]
    out["generation"] = text_categorical(gen, GENERATIONS)
    names = sorted({collectors.get(int(r), "") for r in ranks})
    per_rank = np.array([names.index(collectors.get(int(r), "")) for r in ranks], np.int64)
    out["collector"] = pd.Categorical.from_codes(per_rank[codes] if len(ranks) else
                                                 np.zeros(0, np.int64),
                                                 categories=pd.Index(names, dtype=object),
                                                 validate=False)
    out["tags"] = _texts(in_order, "tags")
    out["level"] = _column(chunks, "level", n, 0, np.int8)[order]
    pre = _column(chunks, "prefix", n, 0, np.int8)[order]
    pre = np.where(pre == _GEN_CODE["young"], 1, np.where(pre == _GEN_CODE["old"], 2, 0))
    out["prefix"] = text_categorical(pre.astype(np.int8), ("", "Y", "O"))
    for col in FLOATS:
        if col in ("uptime", "duration"):
            continue
        out[col] = _column(chunks, col, n, np.nan, np.float64)[order]
    dur = _column(chunks, "duration", n, np.nan, np.float64)[order]
    out["duration_s"] = dur
    out["time_s"] = _column(chunks, "uptime", n, np.nan, np.float64)[order]
    data = dict(table)  # one constructor: no column-wise inserts
    data["duration"] = dur * 1e9
    data["exclusive"] = data["duration"].copy()  # (two columns: two arrays)
    data.update((c, out[c]) for c in GC_COLUMNS)
    return frame(data)
