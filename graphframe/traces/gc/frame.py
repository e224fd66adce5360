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
    # a change made to one table never shows in the other: a small table's columns are
    # copied (taken by position, without a Series each), a large one's shared
    # copy-on-write (pandas copies a column when either side writes to it)
    labels = table.columns
    missing = [col for col in COLUMNS if _SOURCE.get(col, col) not in labels]
    if missing:
        raise KeyError(f"not a GC events table: no column {missing}")
    if len(table) < COPY_ROWS or not _copy_on_write():
        # (get_loc per label: a list of labels would be made an Index, through pyarrow)
        out = {col: _column(table, labels.get_loc(_SOURCE.get(col, col))).copy()
               for col in COLUMNS}
    else:
        out = {col: table[_SOURCE.get(col, col)] for col in COLUMNS}
    out["depth"], out["parent"] = nest(out)
    return frame(out)  # one constructor: no column inserted afterwards


#: events tables of fewer rows give the view copies of their columns (cheaper to make than
#: shared columns; a large table's copies would double its memory)
COPY_ROWS = 1 << 17

#: the view's columns that have another name in the events table
_SOURCE = {"time": "time_s", "duration": "duration_s"}


def _copy_on_write() -> bool:
    """Whether pandas copies shared data when it is written (always from pandas 3)."""
    if int(pd.__version__.split(".")[0]) >= 3:
        return True
    return pd.get_option("mode.copy_on_write") is True


def _column(table: pd.DataFrame, i: int):
    """Column ``i`` of ``table`` as its array (numpy or extension array)."""
    get = getattr(table, "_get_column_array", None)  # (pandas' own, without a Series)
    return get(i) if get is not None else table.iloc[:, i].array
