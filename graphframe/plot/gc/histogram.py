"""Histogram of pause durations, one outline per group."""

from __future__ import annotations

from typing import Any, Union

import numpy as np

from .. import _mpl
from .common import gc_plot_kind, By, color, empty_note, groups, legend, select, time_scale


def gc_histogram(data: Any, *, by: By = "log", filter: Any = None, bins: Union[int, Any] = 30,
                 unit: str = "ms", event_type: Any = "pause", ax: Any = None) -> Any:
    """Pause-duration histogram (shared bins), one step outline per group.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.plot.gc.common import new_axes
    >>> from graphframe.traces.gc import example_view
    >>> ax = gc_histogram(example_view(), bins=4, ax=new_axes())
    >>> len(ax.patches)
    2
    """
    view = select(data, filter, event_type=event_type)
    k = time_scale(unit)
    with _mpl.axes(ax, figsize=(8.0, 4.5)) as a:
        parts = groups(view, by)
        values = view.events["duration"].dropna().to_numpy() * k
        if len(values):
            edges = np.histogram_bin_edges(values, bins=bins)
            for i, (label, ev) in enumerate(parts):
                a.hist(ev["duration"].dropna() * k, bins=edges, histtype="step", lw=1.5,
                       color=color(i), label=label)
        else:
            empty_note(a, "pauses")
        a.set_xlabel(f"duration ({unit})")
        a.set_ylabel("count")
        legend(a, len(parts))
        return a


#: The plot registry's entry (``graphframe plot gc-histogram``, ``tf.gc.plot.gc_histogram``).
PLOT = gc_plot_kind("gc-histogram", gc_histogram, "LOG...: histogram of pause durations per group", grouping="log")
