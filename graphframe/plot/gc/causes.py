"""Pause time by cause: horizontal bars, one bar per group in each cause."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _mpl
from .common import gc_plot_kind, By, color, empty_note, legend, select, time_scale


def gc_causes(data: Any, *, by: By = "log", filter: Any = None, unit: str = "ms",
              value: str = "time", ax: Any = None) -> Any:
    """Total pause time (``value="time"``) or pause count (``"count"``) per cause.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.plot.gc.common import new_axes
    >>> from graphframe.traces.gc import example_view
    >>> ax = gc_causes(example_view(), value="count", ax=new_axes())
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['System.gc()', 'Allocation Failure']
    """
    view = select(data, filter, event_type="pause")
    ev = view.events
    ev = ev.assign(cause=ev["cause"].astype(object).fillna("(none)"))
    keys = "log" if by is None else by
    k = time_scale(unit)
    agg = ev.groupby(["cause"] + ([keys] if isinstance(keys, str) else list(keys)),
                     observed=True)["duration"]
    table = (agg.sum() * k if value == "time" else agg.count()).unstack(fill_value=0)
    table = table.loc[table.sum(axis=1).sort_values().index]
    with _mpl.axes(ax, figsize=(9.0, 1.5 + 0.35 * max(len(table), 1))) as a:
        n = len(table.columns)
        height = 0.8 / max(n, 1)
        y = np.arange(len(table))
        for i, col in enumerate(table.columns):
            a.barh(y + (i - (n - 1) / 2) * height, table[col].to_numpy(), height,
                   color=color(i), label=str(col))
        if not len(table):
            empty_note(a, "pauses")
        a.set_yticks(y)
        a.set_yticklabels([str(c) for c in table.index], fontsize=8)
        a.set_xlabel(f"pause time ({unit})" if value == "time" else "pauses")
        legend(a, n)
        return a


#: The plot registry's entry (``graphframe plot gc-causes``, ``tf.gc.plot.gc_causes``).
PLOT = gc_plot_kind("gc-causes", gc_causes, "LOG...: pause time by cause", grouping="log")
