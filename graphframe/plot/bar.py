"""Bars of the top call paths: one value each, or stacked by rank (thread, profile).

:func:`top_values` picks the call paths (numpy over all nodes); :func:`bar_chart`
draws any labelled values, one ``barh`` call per stacked series, so an
ensemble can pass node x profile values the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Sequence

import numpy as np

from . import _mpl
from ._sources import ArgumentError
from .common import check_top, node_metric, short_labels
from .matrix import rank_matrix

#: Series named in the legend at most (more ranks are still drawn).
MAX_LEGEND = 16


@dataclass(frozen=True)
class TopValues:
    """The call paths a bar chart shows, largest first.

    Attributes
    ----------
    nodes : numpy.ndarray
        Node ids.
    labels : list of str
        Short call paths.
    values : numpy.ndarray
        ``(rows,)``, or ``(rows, series)`` when stacked.
    series : list
        Stack names (ranks), empty when not stacked.
    value_label, series_label : str
    """

    nodes: np.ndarray
    labels: List[str]
    values: np.ndarray
    series: List[Any]
    value_label: str
    series_label: str


def top_values(gf: Any, metric: Any = None, *, top: Optional[int] = 10, inclusive: bool = False,
               stacked: Optional[str] = None, rank: Optional[int] = None,
               thread: Optional[int] = None, aggregate: str = "mean") -> TopValues:
    """The ``top`` call paths by ``metric`` (one value per node, or per node and rank).

    Unstacked, a node's value combines its rows with ``aggregate`` (or is the
    ``rank``'s row). Stacked by ``"rank"`` (or ``"thread"``), the segments are
    the node's values on each rank, so a bar is the sum over ranks, and call
    paths are ranked by that sum.

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> t = top_values(example_graphframe(), "time", top=2)
    >>> t.labels, t.values.round(2).tolist(), t.value_label
    (['spmv', 'compute_fluxes'], [8.75, 7.1], 'time, mean over ranks')
    """
    top = check_top(top)
    if stacked is not None:
        m = rank_matrix(gf, metric, over=stacked, inclusive=inclusive, top=top, by="sum",
                        aggregate=aggregate)
        return TopValues(m.nodes, m.row_labels, np.nan_to_num(m.values), m.columns.tolist(),
                         f"{m.value_label}, stacked by {stacked}", stacked)
    nv = node_metric(gf, metric, inclusive=inclusive, rank=rank, thread=thread,
                     aggregate=aggregate)
    has = np.flatnonzero(np.isfinite(nv.values))
    order = has[np.lexsort((has, -nv.values[has]))][:top]
    if not len(order):
        raise ArgumentError(f"nothing to draw: no call path has a {nv.label} value")
    return TopValues(order, short_labels(gf, order), nv.values[order], [], nv.label, "")


def bar_chart(labels: Sequence[Any], values: Any, *, series: Sequence[Any] = (),
              ax: Any = None, value_label: str = "", series_label: str = "",
              cmap: Optional[str] = None, colors: Optional[Sequence[Any]] = None) -> Any:
    """Horizontal bars, the first label on top; stacked when ``values`` is 2-d.

    Parameters
    ----------
    labels : sequence
        One per bar.
    values : array-like
        ``(bars,)`` or ``(bars, series)`` (segments left to right in series order).
    series : sequence
        Names of the stacked series (ranks, profiles), for the legend.
    ax : matplotlib.axes.Axes, optional
    value_label, series_label : str
        Axis and legend titles.
    cmap : str, optional
        Colormap of stacked series (default ``"viridis"``); single bars are blue.
    colors : sequence, optional
        One matplotlib colour per bar (single bars only).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.containers`` holds one ``BarContainer`` per series.

    Examples
    --------
    >>> ax = bar_chart(["solve", "io"], [3.0, 1.0], value_label="time (s)")  # doctest: +SKIP
    """
    mat = np.asarray(values, dtype=np.float64)
    stacked = mat.ndim == 2
    mat = mat if stacked else mat[:, None]
    if mat.ndim != 2 or not mat.shape[0] or not mat.shape[1]:
        raise ArgumentError("values: give one value per label, or a (labels, series) matrix")
    if len(labels) != mat.shape[0]:
        raise ArgumentError(f"{len(labels)} labels for {mat.shape[0]} bars")
    if stacked and len(series) != mat.shape[1]:
        raise ArgumentError(f"{len(series)} series names for {mat.shape[1]} stacked series")
    colours = _series_colours(mat.shape[1], stacked, cmap)
    if colors is not None:
        if stacked or len(colors) != mat.shape[0]:
            raise ArgumentError("colors: give one colour per bar (bars that are not stacked)")
        colours = [list(colors)]
    y = np.arange(mat.shape[0])
    left = np.zeros(mat.shape[0])
    with _mpl.axes(ax, figsize=(9.0, 1.2 + 0.35 * mat.shape[0])) as a:
        for j in range(mat.shape[1]):
            a.barh(y, mat[:, j], left=left, color=colours[j], height=0.8,
                   label=str(series[j]) if stacked else None)
            left = left + mat[:, j]
        a.set_yticks(y)
        a.set_yticklabels([str(v) for v in labels], fontsize=8)
        a.invert_yaxis()
        a.set_xlabel(value_label)
        if stacked and mat.shape[1] <= MAX_LEGEND:
            a.legend(title=series_label, fontsize=7, title_fontsize=8, loc="lower right")
        return a


def _series_colours(count: int, stacked: bool, cmap: Optional[str]) -> np.ndarray:
    mpl = _mpl.require("matplotlib")
    if not stacked:
        return np.array([mpl.colors.to_rgba("#4c72b0")])
    name = cmap or "viridis"
    if name not in mpl.colormaps:
        raise ArgumentError(f"cmap={name!r} is not a matplotlib colormap; for example "
                            "viridis, tab10, magma")
    return mpl.colormaps[name](np.linspace(0.0, 1.0, count) if count > 1 else np.zeros(1))


def bar(gf: Any, metric: Any = None, *, top: Optional[int] = 10, inclusive: bool = False,
        stacked: Optional[str] = None, rank: Optional[int] = None,
        thread: Optional[int] = None, aggregate: str = "mean", ax: Any = None,
        cmap: Optional[str] = None) -> Any:
    """Bar chart of the ``top`` call paths by exclusive (or inclusive) value.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        Default: the default metric, in its exclusive form (or inclusive with
        ``inclusive=True``, computed when the profile has none).
    top : int, optional
        Bars (None: every node with a value).
    stacked : {"rank", "thread"}, optional
        One segment per rank (thread); a bar is the sum over them.
    rank, thread, aggregate
        One value per node when not stacked: that rank's row, or the rows
        combined (default: mean over ranks).
    ax, cmap
        See :func:`bar_chart`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> ax = bar(example_graphframe(), top=5, stacked="rank")  # doctest: +SKIP
    """
    t = top_values(gf, metric, top=top, inclusive=inclusive, stacked=stacked, rank=rank,
                   thread=thread, aggregate=aggregate)
    return bar_chart(t.labels, t.values, series=t.series, ax=ax, value_label=t.value_label,
                     series_label=t.series_label, cmap=cmap)
