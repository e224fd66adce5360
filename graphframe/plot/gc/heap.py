"""Heap before and after each GC, and its capacity, over time."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _mpl
from .common import gc_plot_kind, By, color, empty_note, groups, legend, select

_UNITS = {"B": 1.0, "K": 2.0 ** 10, "M": 2.0 ** 20, "G": 2.0 ** 30}


def gc_heap(data: Any, *, by: By = "log", filter: Any = None, unit: str = "M",
            capacity: bool = True, ax: Any = None) -> Any:
    """Heap occupancy over time: a sawtooth through each GC's before (rising) and after
    (falling) figures, and the capacity dashed. Uses the whole-GC lines (pauses and
    collections with heap figures).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.plot.gc.common import new_axes
    >>> from graphframe.traces.gc import example_view
    >>> ax = gc_heap(example_view(), capacity=False, ax=new_axes())
    >>> ax.get_lines()[1].get_ydata().tolist()
    [20.0, 5.0, 25.0, 6.0]
    """
    view = select(data, filter)
    scale = _UNITS[unit]
    with _mpl.axes(ax, figsize=(10.0, 4.5)) as a:
        rows = view.heap_rows()
        parts = groups(view.filter(np.isin(np.arange(len(view)), rows.index.to_numpy())), by)
        dashed = False
        for i, (label, ev) in enumerate(parts):
            ev = ev.sort_values("time", kind="stable")
            t = np.repeat(ev["time"].to_numpy(), 2)
            y = np.column_stack([ev["heap_before"], ev["heap_after"]]).reshape(-1) / scale
            a.plot(t, y, color=color(i), lw=1, label=label if len(parts) > 1 else "used")
            if capacity and ev["heap_capacity"].notna().any():
                a.plot(ev["time"], ev["heap_capacity"] / scale, color=color(i), lw=1, ls="--",
                       label="_capacity" if len(parts) > 1 else "capacity")
                dashed = True
        if not sum(len(p[1]) for p in parts):
            empty_note(a, "heap figures")
        a.set_xlabel("time since JVM start (s)")
        a.set_ylabel(f"heap ({unit}B)" if unit != "B" else "heap (bytes)")
        _legend(a, len(parts), dashed)
        return a


def _legend(ax: Any, n: int, dashed: bool) -> None:
    """The groups' legend, saying what the dashed lines are; one group: used and capacity."""
    if n == 1 and dashed:
        ax.legend(fontsize=8, loc="best")
    elif dashed and 1 < n <= 20:
        from matplotlib.lines import Line2D
        handles, labels = ax.get_legend_handles_labels()
        ax.legend(handles + [Line2D([], [], color="0.3", lw=1, ls="--")],
                  labels + ["capacity (dashed)"], fontsize=8, loc="best")
    else:
        legend(ax, n)


#: The plot registry's entry (``graphframe plot gc-heap``, ``tf.gc.plot.gc_heap``).
PLOT = gc_plot_kind("gc-heap", gc_heap, "LOG...: heap before/after each GC and its capacity over time", grouping="log")
