"""GcView: the garbage-collection view of a TraceFrame read from JVM GC logs.

``tf.gc`` gives it. It never changes the frame: :meth:`GcView.filter`
returns a new view, and every analysis returns a new DataFrame.

Examples
--------
>>> import os, tempfile, graphframe
>>> d = tempfile.mkdtemp()
>>> with open(os.path.join(d, "g1.log"), "w") as fh:
...     _ = fh.write("[0.5s][info][gc] Using G1\\n"
...                  "[1.0s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) "
...                  "24M->4M(64M) 4.0ms\\n"
...                  "[2.0s][info][gc] GC(1) Pause Full (System.gc()) 30M->3M(64M) 20.0ms\\n")
>>> gc = graphframe.read_trace(os.path.join(d, "g1.log")).gc
>>> gc.events[["gc_id", "time", "name", "cause", "generation", "duration"]].values.tolist()
[[0, 1.0, 'Pause Young', 'G1 Evacuation Pause', 'young', 0.004], [1, 2.0, 'Pause Full', 'System.gc()', 'full', 0.02]]
>>> s = gc.summary()
>>> s[["pause_count", "full_gc_count"]].values.tolist(), s["throughput"].round(3).tolist()
([[2, 1]], [0.988])
>>> len(gc.filter(generation="full").events), gc.filter(time=(0, 1.5)).events["gc_id"].tolist()
(1, [0])
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from . import summary as _summary
from .frame import gc_events
from .summary import By, group_keys

Values = Union[None, str, Iterable[Any]]
#: pandas 3 always copies on write: a shallow copy is then a safe, cheap one
_COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3


class GcView:
    """GC events of one or several logs, with GCGC's analyses (see the module docs).

    Parameters
    ----------
    events : pandas.DataFrame
        The GC events table (:mod:`graphframe.traces.gc.frame`).
    metadata : dict, optional
        What the reader found per log (``metadata["logs"]``).
    """

    def __init__(self, events: pd.DataFrame, metadata: Optional[dict] = None) -> None:
        self._events = events
        self.metadata = dict(metadata or {})

    @classmethod
    def from_trace(cls, tf: Any) -> "GcView":
        """The view of a TraceFrame read from GC logs."""
        if tf.metadata.get("format") != "jvm-gc":
            raise ValueError("tf.gc needs a trace read from JVM GC logs (format 'jvm-gc'), "
                             f"not {tf.metadata.get('format')!r}")
        return cls(gc_events(tf.events), tf.metadata)

    # ------------------------------------------------------------------ data
    @property
    def events(self) -> pd.DataFrame:
        """One row per GC event (a new DataFrame sharing the data: with pandas'
        copy-on-write, changing it leaves the view as it was)."""
        return self._events.copy(deep=not _COPY_ON_WRITE)

    def __len__(self) -> int:
        return len(self._events)

    @property
    def plot(self) -> Any:
        """The GC plots of this view: ``view.plot.gc_pauses(by="cause")``, ... (every plot
        kind of the plot registry that takes a GC view; ``graphframe plot gc-...`` draws the
        same)."""
        from graphframe.plot.accessor import GcPlotAccessor

        return GcPlotAccessor(self)

    def __repr__(self) -> str:
        logs = self._events["log"].nunique()
        return f"GcView({len(self._events)} events, {logs} log(s))"

    @property
    def logs(self) -> List[str]:
        """The log labels, in reading order."""
        return [str(x) for x in self._events["log"].astype(object).unique()]

    # ------------------------------------------------------------------ selection
    def filter(self, mask: Any = None, *, event_type: Values = None, name: Values = None,
               cause: Values = None, collector: Values = None, generation: Values = None,
               log: Values = None, gc_id: Values = None,
               time: Optional[Tuple[Optional[float], Optional[float]]] = None,
               duration: Optional[Tuple[Optional[float], Optional[float]]] = None
               ) -> "GcView":
        """A new view with the events that pass every given condition.

        Parameters
        ----------
        mask : bool array, Series or callable, optional
            Rows to keep; a callable gets the events table and returns the
            mask (GCGC's row filters: ``lambda ev: ev["duration"] > 0.01``).
        event_type, name, cause, collector, generation, log, gc_id : value or list
            Keep rows whose column is one of the values.
        time, duration : (low, high), optional
            Keep ``low <= value < high`` (seconds; None = unbounded).

        Examples
        --------
        >>> ev = pd.DataFrame({"log": ["a", "a"], "event_type": ["pause", "safepoint"],
        ...                    "duration": [0.5, 0.1], "time": [1.0, 2.0]})
        >>> GcView(ev).filter(event_type="pause", duration=(0.2, None)).events["time"].tolist()
        [1.0]
        """
        ev = self._events
        keep = np.ones(len(ev), dtype=bool)
        if mask is not None:
            m = mask(ev) if callable(mask) else mask
            keep &= np.asarray(m, dtype=bool)
        for col, values in (("event_type", event_type), ("name", name), ("cause", cause),
                            ("collector", collector), ("generation", generation),
                            ("log", log), ("gc_id", gc_id)):
            if values is None:
                continue
            vals = [values] if isinstance(values, (str, int, np.integer)) else list(values)
            keep &= ev[col].isin(vals).to_numpy()
        for col, bounds in (("time", time), ("duration", duration)):
            if bounds is None:
                continue
            lo, hi = bounds
            v = ev[col].to_numpy(dtype=float)
            if lo is not None:
                keep &= v >= lo
            if hi is not None:
                keep &= v < hi
        return GcView(_reindex(ev, keep), self.metadata)

    def groups(self, by: By = "log") -> Iterator[Tuple[Any, "GcView"]]:
        """(group value, view) per value of ``by`` (a column or list), in order.

        Examples
        --------
        >>> ev = pd.DataFrame({"log": ["a", "b", "a"], "event_type": ["pause"] * 3})
        >>> [(k, len(v)) for k, v in GcView(ev).groups("log")]
        [('a', 2), ('b', 1)]
        """
        keys = group_keys(by)
        for key, part in self._events.groupby(keys, observed=True, sort=False):
            label = key[0] if isinstance(key, tuple) and len(keys) == 1 else key
            yield label, GcView(_reindex(self._events, self._events.index.isin(part.index)),
                                self.metadata)

    # ------------------------------------------------------------------ analyses
    def summary(self, by: By = "log",
                percentiles: Sequence[float] = _summary.PERCENTILES) -> pd.DataFrame:
        """Per group: run time, GC and pause counts, pause time total / mean / max /
        percentiles, throughput, concurrent time, full GCs, allocation rate,
        reclaimed and promoted bytes, safepoint totals and time to reach them.

        Columns: ``run_time`` (s), ``gc_count``, ``pause_count``, ``pause_total``,
        ``pause_mean``, ``pause_max``, ``pause_p50`` ... (s), ``throughput``
        (share of the run time not paused), ``concurrent_time`` (s),
        ``full_gc_count``, ``allocated`` (bytes), ``allocation_rate`` (bytes/s),
        ``reclaimed``, ``promoted`` (bytes, NaN where the log does not show
        them), ``safepoint_count``, ``safepoint_total``, ``time_to_reach_total``,
        ``time_to_reach_max`` (s). See :mod:`graphframe.traces.gc.summary`.

        Examples
        --------
        >>> ev = pd.DataFrame({"log": ["a", "a"], "gc_id": [0, 1], "time": [1.0, 2.0],
        ...                    "event_type": ["pause", "pause"], "name": ["Pause Young"] * 2,
        ...                    "generation": ["young"] * 2, "duration": [0.1, 0.3],
        ...                    "heap_before": [8.0, 9.0], "heap_after": [2.0, 3.0],
        ...                    "total": [None, None], "time_to_reach": [None, None],
        ...                    "parent": [-1, -1]})
        >>> s = GcView(ev).summary()
        >>> s[["pause_count", "pause_total", "throughput", "allocated"]].values.tolist()
        [[2.0, 0.4, 0.8, 15.0]]
        """
        return _summary.summary(self._events, by, percentiles)

    def percentiles(self, q: Sequence[float] = _summary.PERCENTILES + (100,), by: By = "log",
                    column: str = "duration", event_type: Values = "pause") -> pd.DataFrame:
        """Percentiles of ``column`` (pause durations by default) per group.

        Examples
        --------
        >>> ev = pd.DataFrame({"log": ["a"] * 4, "event_type": ["pause"] * 4,
        ...                    "duration": [1.0, 2.0, 3.0, 4.0]})
        >>> GcView(ev).percentiles(q=(50, 100)).values.tolist()
        [[2.5, 4.0]]
        """
        view = self.filter(event_type=event_type) if event_type is not None else self
        return _summary.percentiles(view._events, q, by, column)

    def gcgc_frame(self) -> pd.DataFrame:
        """The events with GCGC's column names (its 22 columns and ``TimeFromStart_seconds``;
        see :mod:`graphframe.traces.gc.gcgc`).

        Examples
        --------
        >>> import graphframe  # doctest: +SKIP
        >>> frame = graphframe.read_trace("gc.log").gc.gcgc_frame()  # doctest: +SKIP
        >>> frame.groupby("EventName")["Duration_milliseconds"].max()  # doctest: +SKIP
        """
        from .gcgc import gcgc_frame
        return gcgc_frame(self._events)

    def to_graphframe(self):
        """The GC phase tree as a GraphFrame (GC -> phase -> sub-phase; count and time per log).

        Examples
        --------
        >>> import graphframe  # doctest: +SKIP
        >>> print(graphframe.read_trace("gc.log").gc.to_graphframe().tree())  # doctest: +SKIP
        """
        from .tree import phase_tree
        return phase_tree(self._events)

    def heap_rows(self) -> pd.DataFrame:
        """The events carrying a heap transition of a GC (what ``gc-heap`` draws)."""
        return _summary.gc_heap_rows(self._events)

    def allocation(self) -> pd.DataFrame:
        """Per whole GC: time, heap before/after, bytes allocated since the previous GC
        and the allocation rate (bytes/s) over that interval.

        Examples
        --------
        >>> ev = pd.DataFrame({"log": ["a", "a"], "gc_id": [0, 1], "time": [1.0, 3.0],
        ...                    "event_type": ["pause", "pause"], "name": ["Pause Young"] * 2,
        ...                    "heap_before": [8.0, 9.0], "heap_after": [2.0, 3.0]})
        >>> GcView(ev).allocation()[["allocated", "allocation_rate"]].values.tolist()
        [[8.0, 8.0], [7.0, 3.5]]
        """
        rows = _summary.gc_heap_rows(self._events)
        prev = rows.groupby("log", observed=True)["time"].shift(1)
        rate = rows["allocated"] / (rows["time"] - prev.fillna(0.0))
        return rows[["log", "gc_id", "time", "name", "heap_before", "heap_after",
                     "allocated", "reclaimed"]].assign(allocation_rate=rate.to_numpy())


def _reindex(ev: pd.DataFrame, keep: np.ndarray) -> pd.DataFrame:
    """Rows ``keep`` with ``parent`` renumbered (-1 when the parent is dropped)."""
    keep = np.asarray(keep, dtype=bool)
    out = ev[keep].reset_index(drop=True)
    if "parent" in ev.columns:
        newpos = np.full(len(ev) + 1, -1, np.int64)
        newpos[np.flatnonzero(keep)] = np.arange(int(keep.sum()))
        par = ev["parent"].to_numpy()[keep]
        out["parent"] = np.where(par >= 0, newpos[np.where(par >= 0, par, len(ev))], -1)
    for col in out.columns:
        if isinstance(out[col].dtype, pd.CategoricalDtype):
            out[col] = out[col].cat.remove_unused_categories()
    return out
