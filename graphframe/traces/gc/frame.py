"""The GC events DataFrame of a TraceFrame read from JVM GC logs.

:func:`gc_events` turns the events table of a GC log read (the standard
columns plus the GC columns, see
:mod:`graphframe_readers.traces.jvmgc.table`) into the table of the GC view:
one row per GC event, times in seconds, nesting added (:mod:`.nesting`).

Columns
-------
``log``, ``gc_id``, ``time`` (s since JVM start), ``datetime`` (UTC, when
logged), ``event_type`` (``pause``, ``concurrent``, ``phase``,
``collection``, ``safepoint``, ``heap``, ``metaspace``, ``codecache``),
``name``, ``cause``, ``collector``, ``generation`` (young/old/mixed/full or
""), ``heap_before``, ``heap_after``, ``heap_capacity`` (bytes), ``duration``
(s), the safepoint columns ``time_to_reach``, ``at_safepoint``, ``cleanup``,
``leaving``, ``total``, ``time_since_last`` (s); then ``info`` (the
parenthesised groups of the line), ``heap_before_pct``, ``heap_after_pct``,
``level``, ``prefix``, ``tags``, ``line``, ``depth`` and ``parent`` (row
position of the enclosing event in this table, -1 for none).
"""

from __future__ import annotations

import pandas as pd
from graphframe_readers.pandas_text import frame

from .nesting import nest

#: the columns of the GC view's events, in order
COLUMNS = ("log", "gc_id", "time", "datetime", "event_type", "name", "cause", "collector",
           "generation", "heap_before", "heap_after", "heap_capacity", "duration",
           "time_to_reach", "at_safepoint", "cleanup", "leaving", "total", "time_since_last",
           "info", "heap_before_pct", "heap_after_pct", "level", "prefix", "tags", "line")


def gc_events(table: pd.DataFrame) -> pd.DataFrame:
    """The GC view's events from a GC log's events table (see the module docs)."""
    out = {}
    for col in COLUMNS:
        if col == "time":
            out[col] = table["time_s"].to_numpy()
        elif col == "duration":
            out[col] = table["duration_s"].to_numpy()
        else:  # extension arrays (categories, dates with their zone) kept as they are
            out[col] = table[col].array
    out["depth"], out["parent"] = nest(out)
    return frame(out)  # one constructor: no column inserted afterwards
