"""What the GC plots share: accepting a GC view or a TraceFrame, filtering, grouping, colours.

Every GC plot (``gc_pauses``, ``gc_phases``, ``gc_heap``, ``gc_allocation``,
``gc_histogram``, ``gc_percentiles``, ``gc_latency``, ``gc_heatmap``,
``gc_causes``) takes ``data`` (a :class:`~graphframe.traces.gc.GcView` or a
TraceFrame read from GC logs), ``filter`` (None, a dict of
:meth:`GcView.filter` keywords such as ``{"cause": "System.gc()"}``, or a
callable on the events table, GCGC's row filter), ``by`` (a column or list
of columns to group by; one colour per group) and ``ax=``, and returns the
Axes. The input is never changed.

Examples
--------
>>> import pandas as pd
>>> from graphframe.traces.gc import GcView
>>> ev = pd.DataFrame({"log": ["a", "a", "b"], "event_type": ["pause"] * 3,
...                    "time": [1.0, 2.0, 1.5], "duration": [0.1, 0.2, 0.3]})
>>> [(k, len(g)) for k, g in groups(select(GcView(ev), {"duration": (0.15, None)}), "log")]
[('a', 1), ('b', 1)]
"""

from __future__ import annotations

from typing import Any, List, Sequence, Tuple, Union

import pandas as pd

from .._sources import ArgumentError

By = Union[None, str, Sequence[str]]
#: colours of successive groups (matplotlib's tab10)
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
          "#7f7f7f", "#bcbd22", "#17becf")


def new_axes() -> Any:
    """A matplotlib Axes on a Figure outside pyplot (examples and tests)."""
    from .. import _mpl
    return _mpl.require("matplotlib.figure").Figure().add_subplot()


def gc_view(data: Any) -> Any:
    """The GcView of ``data`` (a GcView, or a TraceFrame read from GC logs)."""
    # duck-typed: the plots never import the trace layer (it imports the plots)
    if hasattr(data, "gc") and hasattr(data, "events") and hasattr(data, "metadata"):
        return data.gc
    if hasattr(data, "events") and hasattr(data, "filter") and hasattr(data, "summary"):
        return data
    raise ArgumentError(f"expected a GC view (tf.gc) or a TraceFrame of GC logs, got "
                        f"{type(data).__name__}")


def select(data: Any, filter: Any = None, **conditions: Any) -> Any:
    """The view after ``filter`` (dict of filter keywords or callable) and ``conditions``."""
    view = gc_view(data)
    if filter is not None:
        if isinstance(filter, dict):
            view = view.filter(**filter)
        elif callable(filter):
            view = view.filter(filter)
        else:
            raise ArgumentError(f"filter={filter!r}: give a dict of GcView.filter keywords "
                                "or a callable on the events table")
    if conditions:
        view = view.filter(**conditions)
    return view


def groups(view: Any, by: By) -> List[Tuple[str, pd.DataFrame]]:
    """(label, events) per group of ``by`` (None: one group named by the logs)."""
    ev = view.events
    if by is None:
        label = ", ".join(view.logs) if len(view.logs) <= 3 else f"{len(view.logs)} logs"
        return [(label, ev)]
    keys = [by] if isinstance(by, str) else list(by)
    missing = [k for k in keys if k not in ev.columns]
    if missing:
        raise ArgumentError(f"by={by!r}: no column {missing[0]!r}; choose among "
                            f"{', '.join(map(str, ev.columns))}")
    out = []
    for key, part in ev.groupby(keys, observed=True, sort=False):
        if isinstance(key, tuple):
            key = key[0] if len(key) == 1 else " / ".join(map(str, key))
        out.append((str(key) if str(key) != "" else "(none)", part))
    return out


def color(i: int) -> str:
    """The colour of group ``i``."""
    return COLORS[i % len(COLORS)]


def time_scale(unit: str) -> float:
    """Seconds -> ``unit`` ("s", "ms", "us")."""
    scales = {"s": 1.0, "ms": 1e3, "us": 1e6}
    if unit not in scales:
        raise ArgumentError(f"unit={unit!r}: choose s, ms or us")
    return scales[unit]


def empty_note(ax: Any, what: str) -> None:
    """Say on the Axes that there is nothing to draw."""
    ax.text(0.5, 0.5, f"no {what}", ha="center", va="center", transform=ax.transAxes)


def legend(ax: Any, n: int) -> None:
    """A legend when there is more than one group (and not too many)."""
    if 1 < n <= 20:
        ax.legend(fontsize=8, loc="best")


def gc_plot_kind(name: str, function: Any, help: str, grouping: Any = "log") -> Any:
    """The plot registry's entry of a GC plot: drawn from a GC view (``tf.gc.plot``) and
    from the command line (``graphframe plot gc-... LOG... -o OUT``, ``--by`` a column or
    ``a,b``; ``grouping`` is the default).

    Examples
    --------
    >>> gc_plot_kind("gc-x", lambda view, **kw: None, "x").inputs
    ('gc',)
    """
    from ..registry import PlotKind

    def cli(req: Any) -> Any:
        from .. import _mpl

        paths = list(req.paths)
        view = req.read_trace(paths if len(paths) > 1 else paths[0]).gc
        fig = req.figure(tuple(req.get("size") or (10.0, 4.5)))
        by = req.get("by")
        keys = [k.strip() for k in by.split(",")] if by else None
        chosen = (keys if keys and len(keys) > 1 else (keys[0] if keys else grouping))
        function(view, by=chosen, filter=req.get("filter"), ax=fig.axes[0])
        _mpl.fit_title(fig, req.get("title") or f"{name}: " + ", ".join(view.logs))
        return fig

    return PlotKind(name, help, {"gc": function}, cli=cli, size=(10.0, 4.5))
