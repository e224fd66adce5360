"""Counter samples (OTF2 metrics, Chrome ``C`` events...) with the region they fall in.

A COUNTER event's ``name`` is the metric (``PAPI_TOT_INS``), its ``value``
the sample; the region is the innermost call open at that point of its
stream: the ENTER just before it, or, after a LEAVE, the call that encloses
the one left. Units come from the trace's definitions
(``metadata["metrics"][name]["unit"]`` for OTF2).

Examples
--------
>>> import pandas as pd
>>> ev = pd.DataFrame({"kind": ["enter", "counter", "enter", "counter", "leave", "counter",
...                             "leave"], "name": ["main", "c", "f", "c", "f", "c", "main"],
...                    "rank": 0, "thread": 0, "time": [0, 0, 1, 2, 3, 3, 9],
...                    "value": [None, 1.0, None, 2.0, None, 3.0, None],
...                    "match": [6, -1, 4, -1, 2, -1, 0], "parent": [-1, -1, 0, -1, 0, -1, -1]})
>>> counter_samples(ev)[["metric", "value", "region"]].values.tolist()
[['c', 1.0, 'main'], ['c', 2.0, 'f'], ['c', 3.0, 'main']]
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
import pandas as pd


def counter_samples(events: pd.DataFrame, metrics: Optional[Dict[str, Any]] = None) -> pd.DataFrame:
    """One row per counter sample: rank, thread, time, metric, value, unit, region, and
    ``call`` (row of the enclosing ENTER in the events table, -1 outside any call)."""
    kind = events["kind"].astype(str).to_numpy()
    counter = np.flatnonzero(kind == "counter")
    call = enclosing_calls(events, counter)
    rank = events["rank"].to_numpy()
    thread = events["thread"].to_numpy()
    names = events["name"].astype(object).to_numpy()
    metric = names[counter]
    units = metrics or {}
    return pd.DataFrame({
        "rank": rank[counter], "thread": thread[counter],
        "time": events["time"].to_numpy()[counter], "metric": metric,
        "value": (events["value"].to_numpy(dtype=float)[counter] if "value" in events.columns
                  else np.full(len(counter), np.nan)),
        "unit": [units.get(m, {}).get("unit", "") for m in metric],
        "region": np.where(call >= 0, names[np.maximum(call, 0)], None),
        "call": call})


def enclosing_calls(events: pd.DataFrame, rows: np.ndarray) -> np.ndarray:
    """For each row index of an events table (in stream order, with ``match`` and
    ``parent``), the row of the innermost ENTER open there (-1: none): the ENTER just
    before it in its stream, or, after a LEAVE, the call enclosing the one left."""
    kind = events["kind"].astype(str).to_numpy()
    n = len(events)
    enter, leave = kind == "enter", kind == "leave"
    rank = events["rank"].to_numpy()
    thread = events["thread"].to_numpy()
    marks = np.where(enter | leave, np.arange(n), -1)
    last = np.maximum.accumulate(marks) if n else marks
    stream_start = np.r_[True, (rank[1:] != rank[:-1]) | (thread[1:] != thread[:-1])] if n \
        else np.zeros(0, bool)
    first_row = np.maximum.accumulate(np.where(stream_start, np.arange(n), 0)) if n else marks
    last = np.where(last >= first_row, last, -1)
    match = events["match"].to_numpy() if "match" in events.columns else np.full(n, -1)
    parent = events["parent"].to_numpy() if "parent" in events.columns else np.full(n, -1)
    at = last[rows]
    call = np.full(len(rows), -1, dtype=np.int64)
    ok = at >= 0
    entered = ok & enter[np.maximum(at, 0)]
    call[entered] = at[entered]
    left = ok & leave[np.maximum(at, 0)]
    opened = match[at[left]]
    call[left] = np.where(opened >= 0, parent[np.maximum(opened, 0)], -1)
    return call
