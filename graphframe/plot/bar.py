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
from .common import check_top, fit_labels, node_metric, short_labels
from .matrix import rank_matrix

#: Stacked series drawn one by one at most: past it, the largest ``MAX_SERIES - 1``
#: are drawn and the rest summed into one grey "others" segment (always in the legend).
MAX_SERIES = 12

#: Colour of the "others" segment.
OTHERS_COLOR = "#b0b0b0"


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
              cmap: Optional[str] = None, colors: Optional[Sequence[Any]] = None,
              max_series: int = MAX_SERIES) -> Any:
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
    max_series : int
        Stacked series drawn one by one at most (2 or more): with more (512
        ranks), the ``max_series - 1`` largest (by their sum over the bars;
        ties: first) keep their order and colour, and the others are summed
        into one grey segment, ``"others (n ranks)"``, drawn last.

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
    if isinstance(max_series, bool) or not isinstance(max_series, (int, np.integer)) \
            or max_series < 2:
        raise ArgumentError(f"max_series={max_series!r}: give a whole number, 2 or more")
    others = 0
    if stacked and mat.shape[1] > max_series:
        mat, series, others = cap_series(mat, series, max_series - 1)
        series = list(series) + [f"others ({others} {series_label or 'series'}"
                                 f"{'s' if others != 1 else ''})"]
    colours = _series_colours(mat.shape[1] - (1 if others else 0), stacked, cmap)
    if others:
        mpl = _mpl.require("matplotlib")
        colours = np.vstack([colours, mpl.colors.to_rgba(OTHERS_COLOR)])
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
        a.set_yticklabels(fit_labels(labels), fontsize=8)
        a.invert_yaxis()
        a.set_xlabel(value_label)
        if stacked:  # beside the bars, never over them
            a.legend(title=series_label, fontsize=7, title_fontsize=8, loc="upper left",
                     bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        return a


def cap_series(values: np.ndarray, series: Sequence[Any], keep: int) -> tuple:
    """``(matrix, names, n)``: the ``keep`` columns of ``values`` with the largest sums
    (ties: first), in their order, then one column summing the ``n`` others.

    Examples
    --------
    >>> m = np.array([[1.0, 5.0, 2.0, 4.0], [1.0, 0.0, 2.0, 1.0]])
    >>> mat, names, n = cap_series(m, ["r0", "r1", "r2", "r3"], 2)
    >>> mat.tolist(), names, n
    ([[5.0, 4.0, 3.0], [0.0, 1.0, 3.0]], ['r1', 'r3'], 2)
    """
    totals = np.nansum(values, axis=0)
    cols = np.arange(values.shape[1])
    kept = np.sort(np.lexsort((cols, -totals))[:keep])
    rest = np.ones(values.shape[1], dtype=bool)
    rest[kept] = False
    merged = np.nansum(values[:, rest], axis=1)
    return (np.column_stack([values[:, kept], merged]), [series[i] for i in kept.tolist()],
            int(rest.sum()))


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
        cmap: Optional[str] = None, max_series: int = MAX_SERIES) -> Any:
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
        One segment per rank (thread); a bar is the sum over them. Past
        ``max_series`` ranks, the largest ``max_series - 1`` are drawn and the
        rest summed into one grey "others" segment.
    rank, thread, aggregate
        One value per node when not stacked: that rank's row, or the rows
        combined (default: mean over ranks).
    ax, cmap, max_series
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
                     series_label=t.series_label, cmap=cmap, max_series=max_series)
