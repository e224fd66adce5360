"""Allocations by class of a Mono log: bytes (or objects) per class, the largest first.

Takes what ``tf.mono.allocations()`` returns, a trace read from a ``.mlpd``
file (its ``mono`` view), or the model itself. One ``barh`` call; the
number of objects and the average size are written beside each bar.

Examples
--------
>>> import pandas as pd
>>> from graphframe.plot._mpl import require
>>> fig = require("matplotlib.figure").Figure()
>>> table = pd.DataFrame({"class": ["A.Node", "System.String"], "bytes": [4000, 900],
...                       "count": [100, 30], "average": [40, 30]})
>>> ax = allocations(table, ax=fig.add_subplot())
>>> [t.get_text() for t in ax.get_yticklabels()], ax.get_xlabel()  # largest at the top
(['A.Node', 'System.String'], 'bytes allocated')
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import pandas as pd

from . import _mpl
from ._sources import ArgumentError
from .common import check_top

BY = ("bytes", "count")


def allocation_table(data: Any, by: str = "bytes") -> pd.DataFrame:
    """The allocation table of ``data`` (a table, a Mono trace, a MonoView or a MonoModel)."""
    if by not in BY:
        raise ArgumentError(f"by={by!r}: choose 'bytes' or 'count'")
    if isinstance(data, pd.DataFrame):
        table = data
    elif hasattr(data, "allocations") and callable(data.allocations):
        table = data.allocations(by)                      # a MonoView
    elif hasattr(data, "mono"):
        table = data.mono.allocations(by)                 # a TraceFrame of a Mono log
    elif hasattr(data, "alloc_count"):
        from graphframe_readers.traces.mono.summary import allocations as table_of
        table = table_of(data, by)                        # a MonoModel
    else:
        raise ArgumentError(f"cannot draw allocations of {type(data).__name__}: give "
                            "tf.mono.allocations(), a trace of a .mlpd file or its model")
    missing = {"class", "bytes", "count"} - set(table.columns)
    if missing:
        raise ArgumentError(f"the allocation table lacks the column(s) {sorted(missing)}")
    return table


def allocations(data: Any, *, by: str = "bytes", top: int = 20, ax: Optional[Any] = None,
                color: str = "#d95f02", **options: Any) -> Any:
    """Horizontal bars of the ``top`` classes by bytes (or ``by="count"``: objects).

    Parameters
    ----------
    data : DataFrame, TraceFrame, MonoView or MonoModel
        See :func:`allocation_table`.
    by : {"bytes", "count"}
        What the bars measure and sort by.
    top : int
        Classes shown (the largest; the rest are summed into "other").
    ax : matplotlib Axes, optional
        Where to draw (a new figure otherwise).
    **options
        Passed to ``Axes.barh``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    check_top(top)
    table = allocation_table(data, by)
    table = table.sort_values([by, "class"], ascending=[False, True], kind="stable")
    shown = table.head(top)
    rest = table.iloc[top:]
    labels = shown["class"].tolist()
    values = shown[by].tolist()
    counts = shown["count"].tolist()
    sizes = shown["bytes"].tolist()
    if len(rest):
        labels.append(f"other ({len(rest)} classes)")
        values.append(int(rest[by].sum()))
        counts.append(int(rest["count"].sum()))
        sizes.append(int(rest["bytes"].sum()))
    with _mpl.axes(ax, figsize=(9.0, 0.35 * len(labels) + 1.5)) as ax:
        pos = list(range(len(labels)))[::-1]
        ax.barh(pos, values, color=color, **options)
        ax.set_yticks(pos, labels)
        for y, v, c, b in zip(pos, values, counts, sizes):
            ax.annotate(f" {c} objects, {b // c if c else 0} B avg", (v, y), va="center",
                        fontsize="small")
        ax.set_xlabel("bytes allocated" if by == "bytes" else "objects allocated")
        ax.margins(x=0.25)
        return ax


def _cli(req: Any) -> Any:
    """``graphframe plot allocations APP.mlpd -o OUT``: the log's allocations by class."""
    if len(req.paths) != 1:
        raise ArgumentError(f"allocations draws one Mono log; got {len(req.paths)}")
    view = req.read_trace(req.paths[0]).mono
    fig = req.figure(tuple(req.get("size") or (10.0, 7.0)))
    allocations(view, top=req.get("top") or 20, ax=fig.axes[0])
    _mpl.fit_title(fig, req.get("title") or f"allocations: {Path(req.paths[0]).name}")
    return fig


def _registry_entry() -> Any:
    from .registry import PlotKind

    return PlotKind("allocations", "MLPD: bytes allocated per class of a Mono log (--top N "
                                   "classes)", {"mono": allocations}, cli=_cli, size=(10.0, 7.0))


#: The plot registry's entry (``graphframe plot allocations``, ``tf.mono.plot.allocations``).
PLOT = _registry_entry()
