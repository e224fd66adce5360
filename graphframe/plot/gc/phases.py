"""Pause and concurrent phases over time: a bar per phase from its start to its end.

One row per group of ``by``; pauses in red, concurrent phases in blue. Only
phases not inside another drawn phase of the same type are drawn (a
concurrent cycle, not its steps again).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _mpl
from .common import gc_plot_kind, By, empty_note, groups, select

#: colours per event type
PHASE_COLORS = {"pause": "#d62728", "concurrent": "#1f77b4"}


def gc_phases(data: Any, *, by: By = "log", filter: Any = None, ax: Any = None) -> Any:
    """Bars of pauses and concurrent phases over time (s), one row per group.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.plot.gc.common import new_axes
    >>> from graphframe.traces.gc import example_view
    >>> ax = gc_phases(example_view(), ax=new_axes())
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a.log', 'b.log']
    """
    view = select(data, filter, event_type=["pause", "concurrent"])
    ev_all = view.events
    if "parent" in ev_all.columns and len(ev_all):
        par = ev_all["parent"].to_numpy()
        ptype = np.where(par >= 0, ev_all["event_type"].astype(object).to_numpy()[
            np.maximum(par, 0)], "")
        keep = ~((ev_all["event_type"].astype(object).to_numpy() == "concurrent") &
                 (ptype == "concurrent"))
        view = view.filter(keep)
    with _mpl.axes(ax, figsize=(12.0, 3.0)) as a:
        parts = groups(view, by)
        for row, (label, ev) in enumerate(parts):
            for etype, c in PHASE_COLORS.items():
                e = ev[(ev["event_type"] == etype) & ev["duration"].notna()]
                if len(e):
                    spans = list(zip((e["time"] - e["duration"]).tolist(),
                                     e["duration"].tolist()))
                    a.broken_barh(spans, (row - 0.4, 0.8), color=c,
                                  label=etype if row == 0 else None)
        a.set_yticks(range(len(parts)))
        a.set_yticklabels([p[0] for p in parts], fontsize=8)
        if not len(view):
            empty_note(a, "phases")
        a.set_xlabel("time since JVM start (s)")
        handles, _ = a.get_legend_handles_labels()
        if handles:
            a.legend(fontsize=8, loc="upper right")
        return a


#: The plot registry's entry (``graphframe plot gc-phases``, ``tf.gc.plot.gc_phases``).
PLOT = gc_plot_kind("gc-phases", gc_phases, "LOG...: pause and concurrent phases over time", grouping="log")
