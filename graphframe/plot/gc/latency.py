"""Latency percentile bars comparing groups (logs): one cluster per percentile."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _mpl
from .common import gc_plot_kind, By, color, empty_note, legend, select, time_scale


def gc_latency(data: Any, *, by: By = "log", filter: Any = None,
               q: Sequence[float] = (50, 90, 99, 99.9, 100), unit: str = "ms",
               event_type: Any = "pause", ax: Any = None) -> Any:
    """Bars of pause-duration percentiles ``q``, one bar per group in each cluster.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.plot.gc.common import new_axes
    >>> from graphframe.traces.gc import example_view
    >>> ax = gc_latency(example_view(), q=(50, 100), ax=new_axes())
    >>> [round(float(p.get_height()), 3) for p in ax.patches]
    [6.0, 20.0, 10.0, 11.0]
    """
    view = select(data, filter, event_type=event_type)
    k = time_scale(unit)
    table = view.percentiles(q=q, by=by or "log", event_type=None) * k
    with _mpl.axes(ax, figsize=(9.0, 4.5)) as a:
        n = len(table)
        width = 0.8 / max(n, 1)
        x = np.arange(len(q))
        for i, (label, row) in enumerate(table.iterrows()):
            label = " / ".join(map(str, label)) if isinstance(label, tuple) else str(label)
            a.bar(x + (i - (n - 1) / 2) * width, row.to_numpy(), width, color=color(i),
                  label=label)
        if not n:
            empty_note(a, "pauses")
        a.set_xticks(x)
        a.set_xticklabels([f"p{v:g}" for v in q])
        a.set_ylabel(f"duration ({unit})")
        legend(a, n)
        return a


#: The plot registry's entry (``graphframe plot gc-latency``, ``tf.gc.plot.gc_latency``).
PLOT = gc_plot_kind("gc-latency", gc_latency, "LOG...: latency percentile bars comparing logs", grouping="log")
