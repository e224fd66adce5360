"""Flame graphs and icicles of a GraphFrame or of a diff.

:func:`flame_data` computes everything a picture shows (boxes, labels, the
value behind each colour) without matplotlib; :func:`draw_flame` draws it
with one ``PolyCollection`` per depth level, so drawing cost does not grow
with one artist per node.

Colours
-------
- ``color=None``: the ``module`` column when the profile has one, else a warm
  palette keyed by function name (the same name, the same colour);
- ``color="name"``: that palette; ``color=<text column>``: one colour per
  value (the 9 widest values, then "other"), with a legend;
- ``color=<numeric column>``: a colormap (``cmap``, default ``"YlOrRd"``) of
  the column's value per node, with a colour bar;
- a diff result (:func:`graphframe.diff`): the change of each node's own
  (exclusive) value, red where the after profile is slower, blue where it is
  faster, white unchanged, on a scale symmetric around 0 (``color="time (inc)
  delta"`` colours by the inclusive change instead). Widths are the after (or
  ``width="before"``) profile's inclusive values.

Merged boxes of small nodes are grey.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Tuple

import numpy as np
import pandas as pd

from . import _mpl
from ._sources import (ArgumentError, MetricError, diff_record, first_row_objects, per_node,
                       resolve_metric)
from .common import check_aggregate, names, node_metric
from .flame_layout import FlameLayout, flame_boxes

#: Colours of boxes that are not a node's own value.
MERGED_COLOR = "#bdbdbd"
MISSING_COLOR = "#e0e0e0"
OTHER_COLOR = "#9e9e9e"
#: Distinct colours of a text column before the rest becomes "other".
MAX_CATEGORIES = 9
#: Labels written at most (the widest boxes first).
MAX_LABELS = 300
WIDTH_SIDES = ("after", "before")


@dataclass(frozen=True)
class FlameData:
    """What a flame graph shows.

    Attributes
    ----------
    layout : FlameLayout
        The boxes.
    labels : numpy.ndarray
        Text of each box: the node's name, or ``"(n more)"``.
    color_kind : str
        ``"name"``, ``"category"`` (codes into ``categories``), ``"numeric"``
        or ``"diverging"`` (floats).
    color_values : numpy.ndarray
        Per box: a float (NaN: no value) or a category code (-1: missing,
        -2: a merged box).
    categories : tuple
        Names of the codes of a ``"category"`` colouring.
    color_label, value_label : str
        Title of the legend or colour bar, and of the x axis.
    """

    layout: FlameLayout
    labels: np.ndarray
    color_kind: str
    color_values: np.ndarray
    categories: Tuple[str, ...]
    color_label: str
    value_label: str


def flame_data(gf: Any, metric: Any = None, color: Any = None, rank: Optional[int] = None,
               thread: Optional[int] = None, aggregate: str = "mean",
               min_fraction: float = 0.001, width: str = "after") -> FlameData:
    """The boxes, labels and colour values of a flame graph of ``gf``.

    Parameters are those of :func:`flamegraph`.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
    >>> data = flame_data(gf)
    >>> data.labels.tolist(), data.layout.width.tolist(), data.layout.x.tolist()
    (['main', 'io', 'solve', 'mpi'], [4.0, 1.0, 2.0, 1.0], [0.0, 0.0, 1.0, 1.0])
    """
    aggregate = check_aggregate(aggregate)
    if not isinstance(min_fraction, (int, float)) or not 0 <= min_fraction < 1:
        raise ArgumentError(f"min_fraction={min_fraction!r}: give a fraction of the total "
                            "width, 0 <= min_fraction < 1")
    width_metric, color, diverging = _diff_defaults(gf, metric, color, width)
    widths = node_metric(gf, width_metric, inclusive=True, rank=rank, thread=thread,
                         aggregate=aggregate)
    layout = flame_boxes(gf.graph.parent, gf.graph.depth, widths.values, min_fraction)
    if not len(layout):
        raise ArgumentError(f"nothing to draw: no node has a positive {widths.label} value")
    own = layout.node >= 0
    labels = np.empty(len(layout), dtype=object)
    labels[own] = names(gf)[layout.node[own]]
    labels[~own] = [f"({m} more)" for m in layout.merged[~own].tolist()]
    kind, values, cats, title = _colours(gf, layout, labels, color, diverging,
                                         rank, thread, aggregate)
    return FlameData(layout, labels, kind, values, cats, title, widths.label)


def _diff_defaults(gf: Any, metric: Any, color: Any, width: str) -> Tuple[Any, Any, bool]:
    """For a diff: widths from the inclusive form's after (before) column, colours from
    the exclusive form's delta (a node's own change), when the diff has those forms."""
    info = diff_record(gf)
    if info is None or (metric is not None and metric not in info["metrics"]):
        return metric, color, False
    if width not in WIDTH_SIDES:
        raise ArgumentError(f"width={width!r}: choose one of {', '.join(WIDTH_SIDES)}")
    base = info["primary"] if metric is None else metric
    inc, exc = _form(gf, base, "inclusive"), _form(gf, base, "exclusive")
    return f"{inc} {width}", f"{exc} delta" if color is None else color, True


def _form(gf: Any, metric: Any, kind: str) -> Any:
    try:
        return resolve_metric(gf, metric, kind)
    except MetricError:  # no partner of that kind: the metric itself
        return metric


def _colours(gf: Any, layout: FlameLayout, labels: np.ndarray, color: Any, diverging: bool,
             rank: Optional[int], thread: Optional[int], aggregate: str) -> tuple:
    df = gf.dataframe
    own = layout.node >= 0
    if color is None:
        color = "module" if "module" in df.columns and df["module"].notna().any() else "name"
    if color == "name":
        codes = np.full(len(layout), -2, dtype=np.int64)
        codes[own] = np.unique(labels[own].astype(str), return_inverse=True)[1]
        return "name", codes, (), "name"
    if color not in df.columns:
        raise MetricError(f"color={color!r} is not a column; choose 'name' or one of: "
                          f"{', '.join(map(str, df.columns))}")
    if _is_numeric(df[color]):
        rows = df[color].to_numpy(dtype=np.float64, na_value=np.nan)
        per = per_node(gf, rows, rank=rank, thread=thread, aggregate=aggregate)
        values = np.full(len(layout), np.nan)
        values[own] = per[layout.node[own]]
        kind = "diverging" if diverging else "numeric"
        return kind, values, (), str(color)
    objects, has = first_row_objects(gf, color)
    box = np.empty(len(layout), dtype=object)
    box[own] = objects[layout.node[own]]
    return ("category",) + _categories(box, own, layout.width) + (str(color),)


def _is_numeric(column: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def _categories(box: np.ndarray, own: np.ndarray, width: np.ndarray) -> Tuple[np.ndarray, tuple]:
    """Codes by total width (widest first, ties by text); the rest is "other"."""
    codes = np.full(len(box), -2, dtype=np.int64)
    missing = own & pd.isna(box)
    valid = own & ~missing
    codes[missing] = -1
    if not valid.any():
        return codes, ()
    text = box[valid].astype(str)
    uniq, inverse = np.unique(text, return_inverse=True)
    totals = np.bincount(inverse, weights=width[valid], minlength=len(uniq))
    rank = np.lexsort((uniq, -totals))
    position = np.empty(len(uniq), dtype=np.int64)
    position[rank] = np.arange(len(uniq))
    shown = list(uniq[rank][:MAX_CATEGORIES])
    code = position[inverse]
    if len(uniq) > MAX_CATEGORIES:
        code = np.minimum(code, MAX_CATEGORIES)
        shown.append("other")
    codes[valid] = code
    return codes, tuple(shown)


def flamegraph(gf: Any, metric: Any = None, *, color: Any = None, ax: Any = None,
               rank: Optional[int] = None, thread: Optional[int] = None,
               aggregate: str = "mean", min_fraction: float = 0.001, width: str = "after",
               cmap: Optional[str] = None, labels: bool = True, icicle: bool = False) -> Any:
    """Draw a flame graph: roots at the bottom, callees above, width = inclusive value.

    Parameters
    ----------
    gf : GraphFrame
        A profile, or a diff result (:func:`graphframe.diff`), which is
        coloured by delta.
    metric : str, optional
        Metric whose inclusive form gives the widths (default: the default
        metric; for a diff, its primary metric). An exclusive metric without
        an inclusive column is summed over subtrees first.
    color : str, optional
        ``"name"``, a text column (``"module"``...) or a numeric column; see
        the module docs for the default.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).
    rank, thread : int, optional
        Draw this rank's (thread's) values instead of combining ranks.
    aggregate : {"mean", "sum", "min", "max"}
        How a node's rows are combined (default: the mean over ranks).
    min_fraction : float
        Boxes narrower than this fraction of the total are merged (0: none).
    width : {"after", "before"}
        For a diff: which profile's values give the widths.
    cmap : str, optional
        Colormap of a numeric colouring (default ``"YlOrRd"``, diffs ``"RdBu_r"``).
    labels : bool
        Write names in boxes wide enough for them.
    icicle : bool
        Roots at the top (see :func:`icicle`).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> ax = flamegraph(example_graphframe())   # doctest: +SKIP
    >>> ax.set_title("solver, mean over ranks")  # doctest: +SKIP
    """
    data = flame_data(gf, metric, color=color, rank=rank, thread=thread, aggregate=aggregate,
                      min_fraction=min_fraction, width=width)
    return draw_flame(data, ax=ax, cmap=cmap, labels=labels, icicle=icicle)


def icicle(gf: Any, metric: Any = None, **options: Any) -> Any:
    """:func:`flamegraph` with the roots at the top (callees below).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> ax = icicle(example_graphframe(), color="name")  # doctest: +SKIP
    """
    options["icicle"] = True
    return flamegraph(gf, metric, **options)


def draw_flame(data: FlameData, ax: Any = None, cmap: Optional[str] = None,
               labels: bool = True, icicle: bool = False) -> Any:
    """Draw :func:`flame_data`'s boxes: one ``PolyCollection`` per depth level
    (``ax.collections[d]`` holds row ``d``, boxes left to right)."""
    face, legend, mappable = _face_colours(data, cmap)
    collections = _mpl.require("matplotlib.collections")
    lay = data.layout
    rows = lay.max_depth + 1
    with _mpl.axes(ax, figsize=(12.0, min(2.0 + 0.28 * rows, 14.0))) as a:
        bounds = np.searchsorted(lay.depth, np.arange(rows + 1))
        row_pt = a.bbox.height * 72.0 / a.figure.dpi / rows
        edge = 0.4 if row_pt >= 5.0 else 0.0  # gaps would hide rows thinner than that
        for d in range(rows):
            sel = slice(bounds[d], bounds[d + 1])
            x0, w = lay.x[sel], lay.width[sel]
            verts = np.empty((len(x0), 4, 2))
            verts[:, :, 0] = np.stack([x0, x0 + w, x0 + w, x0], axis=1)
            verts[:, :, 1] = np.array([d, d, d + 1, d + 1], dtype=np.float64)
            a.add_collection(collections.PolyCollection(
                verts, facecolors=face[sel], linewidths=edge,
                edgecolors="#dddddd" if data.color_kind == "diverging" else "white",
                label=f"depth {d}"))
        a.set_xlim(0.0, lay.total)
        a.set_ylim(0.0, rows)
        if icicle:
            a.invert_yaxis()
        a.set_xlabel(data.value_label)
        a.set_ylabel("depth")
        a.set_yticks([])
        if labels:
            _write_labels(a, data, face)
        if legend:
            a.legend(handles=legend, title=data.color_label, loc="upper left", fontsize=7,
                     title_fontsize=8, bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        if mappable is not None:
            a.figure.colorbar(mappable, ax=a, label=data.color_label, pad=0.01)
        return a


def _face_colours(data: FlameData, cmap: Optional[str]) -> tuple:
    """RGBA per box, legend handles and a ScalarMappable for the colour bar."""
    mcolors = _mpl.require("matplotlib.colors")
    n = len(data.layout)
    face = np.tile(mcolors.to_rgba(MERGED_COLOR), (n, 1))
    values = data.color_values
    if data.color_kind == "name":
        own = values >= 0
        code = values[own].astype(np.float64)
        hsv = np.stack([0.13 * ((code * 0.618034) % 1.0),
                        0.55 + 0.3 * ((code * 0.381966) % 1.0),
                        np.full(len(code), 0.95)], axis=1)
        face[own, :3] = mcolors.hsv_to_rgb(hsv)
        return face, [], None
    if data.color_kind == "category":
        patches = _mpl.require("matplotlib.patches")
        palette = [mcolors.to_rgba(c) for c in _mpl.require("matplotlib").colormaps["tab10"].colors]
        table = np.array(palette[:MAX_CATEGORIES] + [mcolors.to_rgba(OTHER_COLOR)])
        shown = values >= 0
        face[shown] = table[values[shown]]
        face[values == -1] = mcolors.to_rgba(MISSING_COLOR)
        handles = [patches.Patch(facecolor=table[i], label=_short(name))
                   for i, name in enumerate(data.categories)]
        return face, handles, None
    return _numeric_colours(data, cmap, face)


def _short(text: str, limit: int = 40) -> str:
    """A legend entry: the last part of a path, at most ``limit`` characters."""
    tail = text.rstrip("/").rsplit("/", 1)[-1] or text
    return tail if len(tail) <= limit else tail[: limit - 1] + "…"


def _numeric_colours(data: FlameData, cmap: Optional[str], face: np.ndarray) -> tuple:
    mpl = _mpl.require("matplotlib")
    mcolors = _mpl.require("matplotlib.colors")
    cm = _mpl.require("matplotlib.cm")
    values = data.color_values
    finite = np.isfinite(values)
    diverging = data.color_kind == "diverging"
    name = cmap or ("RdBu_r" if diverging else "YlOrRd")
    if name not in mpl.colormaps:
        raise ArgumentError(f"cmap={name!r} is not a matplotlib colormap; for example "
                            "viridis, YlOrRd, RdBu_r")
    colormap = mpl.colormaps[name]
    if diverging:
        top = float(np.max(np.abs(values[finite]))) if finite.any() else 0.0
        norm = mcolors.Normalize(-top if top > 0 else -1.0, top if top > 0 else 1.0)
    else:
        lo = float(np.min(values[finite])) if finite.any() else 0.0
        hi = float(np.max(values[finite])) if finite.any() else 1.0
        norm = mcolors.Normalize(lo, hi if hi > lo else lo + 1.0)
    face[finite] = colormap(norm(values[finite]))
    face[~finite & (data.layout.node >= 0)] = mcolors.to_rgba(MISSING_COLOR)
    mappable = cm.ScalarMappable(norm=norm, cmap=colormap)
    mappable.set_array(values[finite])
    return face, [], mappable


def _write_labels(a: Any, data: FlameData, face: np.ndarray) -> None:
    """Names in boxes wide enough for three characters (the widest first), white
    on dark boxes."""
    lay = data.layout
    row_pt = a.bbox.height * 72.0 / a.figure.dpi / max(lay.max_depth + 1, 1)
    fontsize = min(7.5, 0.75 * row_pt)
    if fontsize < 4.0:
        return  # rows too thin to read
    axes_px = max(a.bbox.width, 1.0)
    char_px = 0.6 * fontsize * a.figure.dpi / 72.0
    chars = np.floor(lay.width / lay.total * axes_px / char_px).astype(np.int64) - 1
    fits = np.flatnonzero(chars >= 3)
    fits = fits[np.argsort(-lay.width[fits], kind="stable")][:MAX_LABELS]
    pad = 0.3 * char_px / axes_px * lay.total
    dark = face[:, :3] @ np.array([0.299, 0.587, 0.114]) < 0.5
    for i in np.sort(fits).tolist():
        text = str(data.labels[i])
        if len(text) > chars[i]:
            text = text[: int(chars[i]) - 1] + "…"
        a.text(lay.x[i] + pad, lay.depth[i] + 0.5, text, fontsize=fontsize, va="center",
               ha="left", clip_on=True, color="white" if dark[i] else "black")
