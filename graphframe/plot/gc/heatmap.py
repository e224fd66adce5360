"""GCGC's heatmap: pause count (or pause time) per time bucket x duration bucket."""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from .._sources import ArgumentError
from .common import gc_plot_kind, By, groups, select, time_scale
from ..heatmap import heatmap_matrix


def heatmap_data(data: Any, *, filter: Any = None, value: str = "count",
                 time_buckets: int = 20, duration_buckets: int = 20, unit: str = "ms",
                 event_type: Any = "pause") -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(matrix duration bucket x time bucket, duration edges, time edges).

    ``value``: ``count`` (pauses per cell) or ``time`` (their summed duration, ``unit``).

    Examples
    --------
    >>> import pandas as pd
    >>> from graphframe.traces.gc import GcView
    >>> ev = pd.DataFrame({"log": ["a"] * 3, "event_type": ["pause"] * 3,
    ...                    "time": [0.0, 1.0, 2.0], "duration": [0.001, 0.001, 0.003]})
    >>> m, d, t = heatmap_data(GcView(ev), time_buckets=2, duration_buckets=2)
    >>> m.tolist()
    [[1.0, 1.0], [0.0, 1.0]]
    """
    if value not in ("count", "time"):
        raise ArgumentError(f"value={value!r}: choose count or time")
    view = select(data, filter, event_type=event_type)
    ev = view.events.dropna(subset=["time", "duration"])
    k = time_scale(unit)
    t = ev["time"].to_numpy()
    d = ev["duration"].to_numpy() * k
    if not len(t):
        return np.zeros((duration_buckets, time_buckets)), np.arange(duration_buckets + 1.0), \
            np.arange(time_buckets + 1.0)
    t_edges = np.linspace(t.min(), t.max() if t.max() > t.min() else t.min() + 1,
                          time_buckets + 1)
    d_edges = np.linspace(d.min(), d.max() if d.max() > d.min() else d.min() + 1,
                          duration_buckets + 1)
    mat, _, _ = np.histogram2d(d, t, bins=[d_edges, t_edges],
                               weights=d if value == "time" else None)
    return mat, d_edges, t_edges


def gc_heatmap(data: Any, *, by: By = None, filter: Any = None, value: str = "count",
               time_buckets: int = 20, duration_buckets: int = 20, unit: str = "ms",
               event_type: Any = "pause", ax: Any = None) -> Any:
    """Heatmap of pauses: rows = duration buckets (longest at the top), columns = time
    buckets; one group only (``by`` must give one group: filter first to pick it).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.plot.gc.common import new_axes
    >>> from graphframe.traces.gc import example_view
    >>> ax = gc_heatmap(example_view(), filter={"log": "a.log"}, ax=new_axes())
    >>> int(ax.images[0].get_array().count())
    3
    """
    view = select(data, filter)
    parts = groups(view.filter(event_type=event_type), by)
    if by is not None and len(parts) > 1:
        raise ArgumentError(f"a heatmap draws one group, {len(parts)} found for by={by!r}; "
                            "filter to one first (filter={...})")
    mat, d_edges, t_edges = heatmap_data(view, value=value, time_buckets=time_buckets,
                                         duration_buckets=duration_buckets, unit=unit,
                                         event_type=event_type)
    rows = [f"{lo:.3g}-{hi:.3g}" for lo, hi in zip(d_edges[:-1], d_edges[1:])][::-1]
    cols = [f"{lo:.3g}" for lo in t_edges[:-1]]
    shown = np.where(mat[::-1] > 0, mat[::-1], np.nan)
    label = "pauses" if value == "count" else f"pause time ({unit})"
    return heatmap_matrix(shown, rows, cols, ax=ax, value_label=label,
                          xlabel="time since JVM start (s)", ylabel=f"duration ({unit})")


#: The plot registry's entry (``graphframe plot gc-heatmap``, ``tf.gc.plot.gc_heatmap``).
PLOT = gc_plot_kind("gc-heatmap", gc_heatmap, "LOG...: pause count (or time) by time bucket x duration bucket", grouping=None)
