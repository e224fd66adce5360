"""Pauses over time: one dot per pause at the time it ended, height = its duration.

Examples
--------
>>> import pandas as pd
>>> from graphframe.traces.gc import GcView
>>> ev = pd.DataFrame({"log": ["a", "b"], "event_type": ["pause"] * 2, "time": [1.0, 2.0],
...                    "duration": [0.01, 0.02]})
>>> ax = gc_pauses(GcView(ev))  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, Sequence, Union

from .. import _mpl
from .common import gc_plot_kind, By, color, empty_note, groups, legend, select, time_scale


def gc_pauses(data: Any, *, by: By = "log", filter: Any = None,
              event_type: Union[str, Sequence[str]] = "pause", unit: str = "ms",
              ax: Any = None, **scatter: Any) -> Any:
    """Scatter of pause durations (``unit``) over time (s), one colour per group of ``by``.

    Parameters
    ----------
    data : GcView or TraceFrame
    by : str or list, optional
        Grouping column(s) (default ``log``; None: one group).
    filter : dict or callable, optional
        See :mod:`graphframe.plot.gc.common`.
    event_type : str or list
        Events drawn (default ``pause``; ``["pause", "concurrent"]``...).
    unit : str
        ``ms`` (default), ``s`` or ``us``.
    ax : matplotlib.axes.Axes, optional
    **scatter
        Passed to ``Axes.scatter``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.plot.gc.common import new_axes
    >>> from graphframe.traces.gc import example_view
    >>> ax = gc_pauses(example_view(), filter={"generation": "young"}, ax=new_axes())
    >>> [c.get_offsets().tolist() for c in ax.collections]
    [[[1.0, 4.0], [2.0, 6.0]], [[1.5, 9.0], [2.5, 11.0]]]
    """
    view = select(data, filter, event_type=event_type)
    k = time_scale(unit)
    with _mpl.axes(ax, figsize=(10.0, 4.5)) as a:
        parts = groups(view, by)
        size = scatter.pop("s", 12)
        for i, (label, ev) in enumerate(parts):
            a.scatter(ev["time"], ev["duration"] * k, s=size, color=color(i),
                      label=label, **scatter)
        if not len(view):
            empty_note(a, "pauses")
        a.set_xlabel("time since JVM start (s)")
        a.set_ylabel(f"duration ({unit})")
        legend(a, len(parts))
        return a


#: The plot registry's entry (``graphframe plot gc-pauses``, ``tf.gc.plot.gc_pauses``).
PLOT = gc_plot_kind("gc-pauses", gc_pauses, "LOG...: pause durations over time, one colour per log (--by a column)", grouping="log")
