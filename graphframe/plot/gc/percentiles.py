"""Percentile curves of pause durations per group (latency at 50, 90, 99, 99.9 ... %)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _mpl
from .common import gc_plot_kind, By, color, empty_note, groups, legend, select, time_scale


def gc_percentiles(data: Any, *, by: By = "log", filter: Any = None, unit: str = "ms",
                   event_type: Any = "pause", ax: Any = None) -> Any:
    """Duration at each percentile (x: 0..99.99 on a "nines" scale), one curve per group.

    The x axis is ``-log10(1 - p/100)``: 90 % at 1, 99 % at 2, 99.9 % at 3.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.plot.gc.common import new_axes
    >>> from graphframe.traces.gc import example_view
    >>> ax = gc_percentiles(example_view(), ax=new_axes())
    >>> round(float(ax.get_lines()[1].get_ydata()[0]), 3)
    9.0
    """
    view = select(data, filter, event_type=event_type)
    k = time_scale(unit)
    p = np.concatenate([np.linspace(0, 90, 46), np.linspace(90.5, 99.99, 120)])
    x = -np.log10(1 - p / 100.0)
    with _mpl.axes(ax, figsize=(8.0, 4.5)) as a:
        parts = groups(view, by)
        for i, (label, ev) in enumerate(parts):
            d = ev["duration"].dropna().to_numpy() * k
            if len(d):
                a.plot(x, np.percentile(d, p), color=color(i), lw=1.5, label=label)
        if not len(view):
            empty_note(a, "pauses")
        ticks = [0, 50, 90, 99, 99.9, 99.99]
        a.set_xticks(-np.log10(1 - np.array(ticks) / 100.0))
        a.set_xticklabels([f"{t:g}%" for t in ticks])
        a.set_xlabel("percentile")
        a.set_ylabel(f"duration ({unit})")
        legend(a, len(parts))
        return a


#: The plot registry's entry (``graphframe plot gc-percentiles``, ``tf.gc.plot.gc_percentiles``).
PLOT = gc_plot_kind("gc-percentiles", gc_percentiles, "LOG...: pause-duration percentile curves per group", grouping="log")
