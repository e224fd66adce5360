"""Heatmaps: call paths x ranks (or threads) of a metric or of its imbalance.

:func:`heatmap_matrix` draws any labelled matrix (one ``AxesImage``, so
1,000 x 512 cells cost one artist); :func:`heatmap` feeds it the top call
paths of a GraphFrame (:func:`~graphframe.plot.matrix.rank_matrix`). An
ensemble passes its node x profile matrix to :func:`heatmap_matrix` the same
way.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from . import _mpl
from ._sources import ArgumentError
from .common import LABEL_WIDTH, fit_labels
from .matrix import rank_matrix

#: Colour of empty cells.
EMPTY_COLOR = "#eeeeee"


def heatmap_matrix(values: Any, row_labels: Sequence[Any], column_labels: Sequence[Any], *,
                   ax: Any = None, cmap: Optional[str] = None, center: Optional[float] = None,
                   value_label: str = "", xlabel: str = "", ylabel: str = "",
                   max_row_labels: int = 40, max_column_labels: int = 16,
                   log: bool = False) -> Any:
    """Draw a ``(rows, columns)`` matrix as a heatmap with labelled rows and columns.

    Parameters
    ----------
    values : array-like
        Floats; NaN cells are drawn light grey.
    row_labels, column_labels : sequence
        One per row / column. When there are more than ``max_row_labels``
        rows (``max_column_labels`` columns), every k-th is labelled.
    ax : matplotlib.axes.Axes, optional
    cmap : str, optional
        Default ``"viridis"``, or ``"RdBu_r"`` with ``center``.
    center : float, optional
        A value drawn white, the scale diverging around it (1 for ratios);
        each side spans its own data (``TwoSlopeNorm``).
    value_label, xlabel, ylabel : str
        Colour bar and axis titles.
    log : bool
        A logarithmic colour scale (for heavy-tailed times; cells <= 0 are
        drawn as empty). Not with ``center``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0].get_array()`` holds the (masked) values.

    Examples
    --------
    >>> ax = heatmap_matrix([[1.0, 2.0], [3.0, np.nan]], ["a", "b"], [0, 1])  # doctest: +SKIP
    """
    mat = np.asarray(values, dtype=np.float64)
    if mat.ndim != 2 or 0 in mat.shape:
        raise ArgumentError(f"values: give a non-empty 2-d matrix, got shape {mat.shape}")
    if len(row_labels) != mat.shape[0] or len(column_labels) != mat.shape[1]:
        raise ArgumentError(f"{len(row_labels)} row labels and {len(column_labels)} column "
                            f"labels for a {mat.shape[0]} x {mat.shape[1]} matrix")
    colormap, norm = _scale(mat, cmap, center, log)
    rows = mat.shape[0]
    ticker = _mpl.require("matplotlib.ticker")
    with _mpl.axes(ax, figsize=(10.0, min(2.5 + 0.22 * min(rows, max_row_labels), 16.0))) as a:
        image = a.imshow(np.ma.masked_invalid(mat), aspect="auto", interpolation="nearest",
                         cmap=colormap, norm=norm)
        # row labels take at most a third of the figure's width
        width = int(a.figure.get_figwidth() * 72.0 / 3.0 / (0.6 * ROW_FONT))
        _label_axis(a.yaxis, fit_labels(row_labels, max(16, min(LABEL_WIDTH, width))),
                    max_row_labels, ROW_FONT, across=False)
        _label_axis(a.xaxis, fit_labels(column_labels, COLUMN_WIDTH), max_column_labels,
                    COLUMN_FONT, across=True)
        a.set_xlabel(xlabel)
        a.set_ylabel(ylabel)
        bar = a.figure.colorbar(image, ax=a, label=value_label, pad=0.01)
        if center is not None:  # the centre (1: the average rank) is always a tick
            bar.set_ticks(centred_ticks(norm.vmin, norm.vmax, center))
        if log:
            _mpl.plain_log_labels(bar.ax.yaxis)
        else:  # no "1e7" above the bar (it ran into the title): each tick says its value
            bar.ax.yaxis.set_major_formatter(
                ticker.FuncFormatter(lambda v, pos: _mpl.plain_number(v)))
        return a


def centred_ticks(lo: float, hi: float, center: float) -> list:
    """Colour bar ticks of a diverging scale: ``center`` itself, and round values on
    each side (each side is half the bar, whatever its span), none crowding the centre.

    Examples
    --------
    >>> centred_ticks(0.0, 16.0, 1.0)
    [0.0, 0.5, 1.0, 4.0, 8.0, 12.0, 16.0]
    >>> centred_ticks(0.8, 1.25, 1.0)
    [0.8, 0.9, 1.0, 1.1, 1.2]
    """
    ticker = _mpl.require("matplotlib.ticker")
    out = [float(center)]
    for a, b, room in ((lo, center, 2), (center, hi, 4)):
        if b - a <= 0:
            continue
        ticks = ticker.MaxNLocator(nbins=room, steps=[1, 2, 2.5, 4, 5, 10]).tick_values(a, b)
        # a sixth of the side (a twelfth of the bar) or more from the centre, in the data
        far = np.abs(ticks - center) >= (b - a) / 6.0
        inside = (ticks >= a - 1e-12 * abs(a)) & (ticks <= b + 1e-12 * abs(b))
        out.extend(float(t) for t in ticks[far & inside])
    return sorted({round(t, 12) for t in out})


def _scale(mat: np.ndarray, cmap: Optional[str], center: Optional[float], log: bool) -> tuple:
    mpl = _mpl.require("matplotlib")
    mcolors = _mpl.require("matplotlib.colors")
    name = cmap or ("RdBu_r" if center is not None else "viridis")
    if name not in mpl.colormaps:
        raise ArgumentError(f"cmap={name!r} is not a matplotlib colormap; for example "
                            "viridis, magma, RdBu_r")
    colormap = mpl.colormaps[name].with_extremes(bad=EMPTY_COLOR)
    if log:
        if center is not None:
            raise ArgumentError("log=True and center: choose one (a diverging scale is linear)")
        positive = mat[np.isfinite(mat) & (mat > 0)]
        if not len(positive):
            raise ArgumentError("log=True needs positive values; this matrix has none")
        lo, hi = float(positive.min()), float(positive.max())
        return colormap, mcolors.LogNorm(lo, hi if hi > lo else lo * 10.0)
    finite = mat[np.isfinite(mat)]
    lo = float(finite.min()) if len(finite) else 0.0
    hi = float(finite.max()) if len(finite) else 1.0
    if center is None:
        return colormap, mcolors.Normalize(lo, hi if hi > lo else lo + 1.0)
    # each side of the centre spans its own data: ratios run 0..1 below and 1..max above
    tiny = 1e-9 * max(abs(center), 1.0)
    return colormap, mcolors.TwoSlopeNorm(center, min(lo, center - tiny), max(hi, center + tiny))


#: Font sizes of the row (call path) and column labels, in points.
ROW_FONT = 7.0
COLUMN_FONT = 8.0

#: Longest column label, in characters (profile names).
COLUMN_WIDTH = 24

#: Steps between labelled rows or columns: every one, every 2nd, 4th, 5th, 8th, 10th...
NICE_STEPS = sorted({int(m * 10 ** k) for k in range(7) for m in (1, 2, 2.5, 4, 5, 8)}
                    | {2 ** k for k in range(21)})


def label_step(count: int, room: int, limit: int) -> int:
    """Label every ``step``-th of ``count`` rows or columns: the smallest nice step that
    leaves at most ``room`` labels (those that fit) and at most ``limit``.

    Examples
    --------
    >>> label_step(64, 20, 16), label_step(16, 40, 16), label_step(512, 30, 16)
    (4, 1, 32)
    """
    need = int(np.ceil(count / max(1, min(room, limit))))
    return next((s for s in NICE_STEPS if s >= need), need)


def _label_axis(axis: Any, labels: List[str], limit: int, fontsize: float,
                across: bool) -> None:
    """Labels on integer positions, as many as fit along ``axis`` when it is drawn
    (so they never overlap), every k-th with k a nice step; rank 0 always labelled."""
    ticker = _mpl.require("matplotlib.ticker")
    count = len(labels)
    # along the axis, one label takes its height (rows) or its width (columns), plus a gap
    longest = max((len(t) for t in labels), default=1)
    extent = fontsize * (0.62 * longest + 1.2 if across else 1.5)

    class SpacedLabels(ticker.Locator):
        def __call__(self) -> Any:
            box = self.axis.axes.get_window_extent()
            length = (box.width if across else box.height) * 72.0 / self.axis.axes.figure.dpi
            step = label_step(count, int(length // extent), limit)
            return np.arange(0, count, step)

    def text(value: float, pos: Any = None) -> str:
        i = int(round(value))
        return labels[i] if abs(value - i) < 1e-6 and 0 <= i < count else ""

    axis.set_major_locator(SpacedLabels())
    axis.set_major_formatter(ticker.FuncFormatter(text))
    axis.set_tick_params(labelsize=fontsize)


def heatmap(gf: Any, metric: Any = None, *, over: str = "rank", imbalance: bool = False,
            top: Optional[int] = 20, by: Optional[str] = None, inclusive: bool = False,
            aggregate: str = "mean", ax: Any = None, cmap: Optional[str] = None,
            log: bool = False, threshold: Optional[float] = None) -> Any:
    """Heatmap of the top call paths x ranks (or threads) of a metric or its imbalance.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        A numeric column (default: the default metric).
    over : {"rank", "thread"}
        The index level shown as columns.
    imbalance : bool
        Show each cell divided by its call path's mean over ranks: 1 (white)
        is the average rank, red slower, blue faster.
    top : int, optional
        Call paths shown (None: all).
    by : str, optional
        Statistic choosing and ordering them: ``max``, ``mean``, ``sum``,
        ``min``, ``std`` or ``imbalance`` (max / mean; the default with
        ``imbalance=True``, else ``max``).
    inclusive : bool
        Use the metric's inclusive form.
    aggregate : {"mean", "sum", "min", "max"}
        How threads of a rank combine into one cell (when ``over="rank"``).
    ax, cmap, log
        See :func:`heatmap_matrix` (``log``: a logarithmic colour scale).
    threshold : float, optional
        Percent of the largest value under which call paths are left out
        (default: 1 when ranking by imbalance, as ``graphframe stats``; see
        :func:`~graphframe.plot.matrix.rank_matrix`).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> ax = heatmap(example_graphframe(), imbalance=True, top=10)  # doctest: +SKIP
    """
    m = rank_matrix(gf, metric, over=over, inclusive=inclusive, imbalance=imbalance, top=top,
                    by=by, aggregate=aggregate, threshold=threshold)
    return heatmap_matrix(m.values, m.row_labels, m.columns.tolist(), ax=ax, cmap=cmap,
                          center=1.0 if imbalance else None, log=log, value_label=m.value_label,
                          xlabel=m.column_label, ylabel=f"call paths (top {len(m.nodes)} by "
                                                    f"{m.stat_name})")
