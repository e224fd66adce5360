"""GcBatch: an EventBatch that also carries the GC columns of its events.

Handlers that know nothing of GC logs see ordinary events: a COUNTER per
heap, metaspace and code-cache figure (``value`` = the occupancy after, in
bytes) and an INSTANT per phase, pause, collection and safepoint, at the time
the line was logged (when the phase ended; ns since JVM start, ``-1`` when
the line has no time). The duration is a GC column. A GC-aware
handler reads ``batch.gc``: the columns of :data:`.parse.COLUMNS` (plus
``time``: seconds since JVM start), row for row (an :class:`~.parse.EventColumns`:
a column no event of the batch has is made, all absent, when asked for).
"""

from __future__ import annotations

from typing import Dict

import numpy as np
import pandas as pd

from ..events import EventBatch, Kind, StringTable
from .parse import EventColumns
from .titles import EVENT_TYPES

_COUNTERS = np.array([t in ("heap", "metaspace", "codecache") for t in EVENT_TYPES])


class GcBatch(EventBatch):
    """An EventBatch with ``gc``: the GC columns, aligned with the events."""

    __slots__ = ("gc",)

    def __init__(self, *args, gc: Dict[str, np.ndarray], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.gc = gc

    def take(self, index) -> "GcBatch":
        base = super().take(index)
        gc = EventColumns(len(base))
        gc.update((k, v[index]) for k, v in self.gc.items())
        return GcBatch(base.kind, base.time, base.rank, base.thread, base.name, base.strings,
                       base.attrs, base.source, gc=gc)


def build_batch(strings: StringTable, cols: Dict[str, np.ndarray], source: str,
                rank: int = 0) -> GcBatch:
    """The batch of one block's event columns."""
    n = len(cols["line"])
    etype = cols["event_type"].astype(np.int64)
    counter = _COUNTERS[etype] if n else np.zeros(0, bool)
    end_s = cols["uptime"]
    known = ~np.isnan(end_s)
    time_ns = np.where(known, np.round(np.where(known, end_s, 0) * 1e9), -1).astype(np.int64)
    codes, uniques = pd.factorize(cols["name"])  # hashing: no sort of the strings
    table = strings.intern_many([str(u) for u in uniques]) if len(uniques) else \
        np.zeros(0, np.int32)
    ids = np.where(codes >= 0, table[np.maximum(codes, 0)] if len(table) else -1,
                   -1).astype(np.int32)
    kind = np.where(counter, Kind.COUNTER, Kind.INSTANT).astype(np.uint8)
    value = np.where(counter, cols["heap_after"], np.nan)
    base = EventBatch.build(strings, kind=kind, time=time_ns, rank=rank, thread=0,
                            name=ids, source=source, value=value)
    return GcBatch(base.kind, base.time, base.rank, base.thread, base.name, strings,
                   base.attrs, source, gc=cols)
