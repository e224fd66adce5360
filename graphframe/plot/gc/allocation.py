"""Allocation rate over time: bytes allocated between two GCs / the time between them."""

from __future__ import annotations

from typing import Any

from .. import _mpl
from .common import gc_plot_kind, By, color, empty_note, legend, select


def gc_allocation(data: Any, *, by: By = "log", filter: Any = None, ax: Any = None) -> Any:
    """Allocation rate (MB/s) at each GC, per log (``by`` groups among the GC lines).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.plot.gc.common import new_axes
    >>> from graphframe.traces.gc import example_view
    >>> ax = gc_allocation(example_view(), ax=new_axes())
    >>> ax.get_lines()[0].get_ydata().tolist()
    [40.0, 40.0, 18.0]
    """
    view = select(data, filter)
    alloc = view.allocation()
    keys = "log" if by is None else by
    with _mpl.axes(ax, figsize=(10.0, 4.5)) as a:
        n = 0
        for i, (label, ev) in enumerate(alloc.groupby(keys, observed=True, sort=False)):
            label = label[0] if isinstance(label, tuple) and len(label) == 1 else label
            a.plot(ev["time"], ev["allocation_rate"] / 2.0 ** 20, marker=".", lw=1,
                   color=color(i), label=str(label))
            n += 1
        if not len(alloc):
            empty_note(a, "heap figures")
        a.set_xlabel("time since JVM start (s)")
        a.set_ylabel("allocation rate (MB/s)")
        legend(a, n)
        return a


#: The plot registry's entry (``graphframe plot gc-allocation``, ``tf.gc.plot.gc_allocation``).
PLOT = gc_plot_kind("gc-allocation", gc_allocation, "LOG...: allocation rate over time", grouping="log")
