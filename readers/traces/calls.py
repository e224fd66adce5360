"""One node per call: a trace as the tree of its calls (PerfFlowAspect, Hatchet's layout).

Hatchet's ``from_perfflowaspect`` does not aggregate a trace into a calling-context
tree: every call becomes its own node, whose frame holds the call's start and
duration, nested in the call that encloses it. :func:`call_tree_profile` builds that
RawProfile from the events table of :class:`~graphframe_readers.traces.table.TableBuilder`
(the Chrome decoder has expanded ``X`` events, the table has paired ENTER and LEAVE
events and found each call's enclosing call on its own process and thread), with
arrays only:

* frames ``{"name", "type": "function", "ts", "dur"}``, seconds (Hatchet multiplies the
  file's microseconds by 1e-6, and so do we, from the exact microsecond values);
* one row per call: ``name``, ``ts``, ``dur``, ``pid``, ``tid``, ``ph`` (``"X"``), and
  with ``counters=True`` ``usage_memory``/``usage_cpu``: the ``memory_usage`` and
  ``cpu_usage`` of the counter (``"C"``) events recorded at the call's start time
  (0 when there is none, or when both are 0), as in Hatchet;
* ``dur`` is the call's inclusive duration: it is declared the inclusive metric and
  the default metric (Hatchet declares every column, ``name`` included, exclusive).
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np
import pandas as pd

from ..builder import ProfileBuilder
from ..profile import RawProfile
from ..errors import ReadError

#: counter keys PerfFlowAspect writes, and the columns they become
USAGE = {"memory_usage": "usage_memory", "cpu_usage": "usage_cpu"}


def call_tree_profile(events: pd.DataFrame, source: Any, counters: bool = False) -> RawProfile:
    """The calls of a trace as a tree with one node per call (see the module docs).

    Parameters
    ----------
    events : pandas.DataFrame
        The trace's events table (``TableBuilder.result()``, ``TraceFrame.events``).
    source : path-like or str
        Names the trace in errors and in the metadata.
    counters : bool
        Add ``usage_memory``/``usage_cpu`` from the trace's ``C`` events (Hatchet's
        ``scan_cpu_mem``).

    Raises
    ------
    ReadError
        ``counters`` is asked for but the trace has no ``C`` event.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe_readers.traces import decode
    >>> from graphframe_readers.traces.table import TableBuilder
    >>> p = os.path.join(tempfile.mkdtemp(), "t.pfw")
    >>> _ = open(p, "w").write('[{"ph": "X", "name": "f", "pid": 1, "tid": 1, "ts": 2, "dur": 2},'
    ...                        ' {"ph": "X", "name": "main", "pid": 1, "tid": 1, "ts": 1, "dur": 5},')
    >>> raw = call_tree_profile(decode(p, TableBuilder(), format="chrome"), p)
    >>> raw.nodes[["parent", "name", "ts", "dur"]].values.tolist()
    [[-1, 'main', 1e-06, 4.9999999999999996e-06], [0, 'f', 2e-06, 2e-06]]
    """
    ev = events
    kind = ev["kind"].astype(object).to_numpy()
    calls = np.flatnonzero(kind == "enter")
    node_of = np.full(len(ev), -1, dtype=np.int64)
    node_of[calls] = np.arange(len(calls), dtype=np.int64)
    enclosing = ev["parent"].to_numpy()[calls]
    parents = np.where(enclosing >= 0, node_of[np.maximum(enclosing, 0)], -1)
    names = ev["name"].astype(object).to_numpy()[calls]
    # Hatchet: float(µs) * 1e-6; the table holds exact integer nanoseconds
    ts = (ev["time"].to_numpy()[calls] / 1000.0) * 1e-6
    dur = (ev["duration"].to_numpy()[calls] / 1000.0) * 1e-6
    frames = {"name": names, "type": np.full(len(calls), "function", dtype=object),
              "ts": ts, "dur": dur}
    rows: Dict[str, Any] = {"ts": ts, "dur": dur,
                            "pid": ev["rank"].to_numpy()[calls],
                            "tid": ev["thread"].to_numpy()[calls],
                            "ph": np.full(len(calls), "X", dtype=object)}
    if counters:
        usage = _usage_at(ev, kind, ev["time"].to_numpy()[calls], source)
        frames.update(usage)
        rows.update(usage)
    builder = ProfileBuilder(source)
    ids = builder.add_nodes(parents, frames, columns={"name": names})
    builder.add_rows(ids, rows)
    columns = ["name", *rows]
    return builder.build(exc_metrics=[], inc_metrics=["dur"], default_metric="dur",
                         metadata={"format": "perfflowaspect"}, columns=columns)


def _usage_at(ev: pd.DataFrame, kind: np.ndarray, starts: np.ndarray,
              source: Any) -> Dict[str, np.ndarray]:
    """``usage_memory``/``usage_cpu`` per call: the counters at the call's start time."""
    counter = np.flatnonzero(kind == "counter")
    if not len(counter):
        raise ReadError(source, "scan_cpu_mem=True, but the trace has no counter ('C') event",
                        expected="'C' events with memory_usage and cpu_usage args")
    # each counter row holds one value, its args one member: {"memory_usage": 1024}
    keys = pd.Series(ev["args"].to_numpy()[counter], dtype=object).str.extract(
        r'^\{\s*"([^"]*)"', expand=False).to_numpy(dtype=object)
    times = ev["time"].to_numpy()[counter]
    values = ev["value"].to_numpy()[counter]
    table = pd.DataFrame({"time": times, "key": keys, "value": values})
    table = table[table["key"].isin(list(USAGE))]
    wide = table.pivot_table(index="time", columns="key", values="value", aggfunc="last")
    for key in USAGE:
        if key not in wide.columns:
            wide[key] = 0.0
    wide = wide.fillna(0.0)
    # Hatchet keeps a time's pair only when one of the two is nonzero (else 0, 0)
    wide = wide[(wide["memory_usage"] != 0) | (wide["cpu_usage"] != 0)]
    at = wide.reindex(starts)
    out = {}
    for key, column in USAGE.items():
        values = at[key].fillna(0.0).to_numpy()
        if len(values) and bool(np.all(values == np.round(values))) and key == "memory_usage":
            values = values.astype(np.int64)  # bytes: Hatchet's ints
        out[column] = values
    return out
