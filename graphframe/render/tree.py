"""Text tree renderer (Hatchet's ``tree()`` layout).

Each printed line is::

    <prefix><value>[ <more values>][ [<annotation>]] <name>[ ◀ | ▶ ][ <context>]

Roots and children appear in ascending id order (pre-order). A node reached
through several parents is printed under each of them, but its subtree only
the first time. Per-node strings are prepared with array operations; the
walk itself visits only the printed lines, so the cost is linear.
Colour and glyphs are plain arguments: the caller (the CLI) decides.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from .._version import __version__
from ..errors import ArgumentError, MetricError
from ..model.rowselect import level_value, node_rows
from . import colors as C
from ..model.nodevalues import check_metric
from ..model.fields import GraphFrameLike, metric_columns

GLYPHS = {
    True: {"mid": "├─ ", "bar": "│  ", "last": "└─ ", "gap": "   ", "left": "◀ ", "right": "▶ "},
    False: {"mid": "|- ", "bar": "|  ", "last": "`- ", "gap": "   ", "left": "< ", "right": "> "},
}
PATTERN_SYMBOLS = {"none": "", "constant": "\u2192", "phased": "\u2933",
                   "dynamic": "\u21dd", "sporadic": "\u219d"}
_RENAMED = {"metric": "metric_column", "name": "name_column", "expand_names": "expand_name",
            "context": "context_column", "invert_colors": "invert_colormap"}


def render_tree(gf: GraphFrameLike, metric_column: Union[None, str, Sequence[str]] = None,
                annotation_column: Optional[str] = None, precision: int = 3,
                name_column: str = "name", expand_name: bool = False,
                context_column: Optional[str] = "file", rank: Optional[int] = None,
                thread: Optional[int] = None, depth: Optional[int] = 10000, highlight_name: bool = False,
                colormap: str = "RdYlGn", invert_colormap: bool = False,
                colormap_annotations: Any = None, render_header: bool = True,
                min_value: Optional[float] = None, max_value: Optional[float] = None,
                color: bool = False, unicode: bool = True, legend: Optional[bool] = None,
                **renamed: Any) -> str:
    """Render ``gf`` as an indented text tree.

    Parameters are those of :meth:`GraphFrame.tree`, which documents them.
    Every argument is checked before anything is rendered: an unknown
    column raises :class:`~graphframe.errors.MetricError`, any other bad
    value (a negative precision or depth, an unknown colormap, a rank the
    data does not have) :class:`~graphframe.errors.ArgumentError`. A profile
    without metrics (no default metric and none declared) is printed as its
    structure: names only.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", ("b", "c"), "d"))
    >>> print(render_tree(gf, metric_column=["time (inc)", "time"],
    ...                   render_header=False, unicode=False), end="")
    4.000 1.000 a
    |- 2.000 1.000 b
    |  `- 1.000 1.000 c
    `- 1.000 1.000 d
    >>> render_tree(gf, precision=-1)
    Traceback (most recent call last):
    ...
    readers.errors.ArgumentError: precision=-1 is not allowed (expected an integer >= 0)
    """
    options = _rename(renamed)
    metric_column = options.pop("metric_column", metric_column)
    name_column = options.pop("name_column", name_column)
    expand_name = options.pop("expand_name", expand_name)
    context_column = options.pop("context_column", context_column)
    invert_colormap = options.pop("invert_colormap", invert_colormap)
    metrics = _metric_list(gf, metric_column)
    precision = _count(precision, "precision")
    max_depth = None if depth is None else _count(depth, "depth")
    C.check_colormap(colormap)
    if isinstance(colormap_annotations, str):
        C.check_colormap(colormap_annotations, "colormap_annotations")
    _check_columns(gf, annotation_column, name_column)
    min_value, max_value = _number(min_value, "min_value"), _number(max_value, "max_value")
    show_legend = (color if legend is None else legend) and bool(metrics)
    glyphs = GLYPHS[bool(unicode)]
    table = _NodeTable(gf, metrics, rank, thread)
    lo, hi = table.value_range(min_value, max_value)
    cmap = C.palette(colormap, invert_colormap) if color else [""] * 6
    bodies = _bodies(gf, table, metrics, precision, name_column, expand_name, context_column,
                     annotation_column, colormap_annotations, highlight_name, color, cmap,
                     lo, hi, glyphs)
    parts: List[str] = []
    if render_header:
        parts.append(_header(metrics, gf, rank, unicode))
    parts.extend(_walk(gf.graph, bodies, max_depth, glyphs))
    if show_legend:
        parts.append(_legend(metrics[0], lo, hi, cmap, color, glyphs))
    return "".join(parts)


def _rename(renamed: Dict[str, Any]) -> Dict[str, Any]:
    out = {}
    for key, value in renamed.items():
        if key not in _RENAMED:
            raise TypeError(f"tree() got an unexpected keyword argument {key!r}")
        warnings.warn(f'tree(): "{key}=" is deprecated, use "{_RENAMED[key]}="',
                      DeprecationWarning, stacklevel=4)
        out[_RENAMED[key]] = value
    return out


def _metric_list(gf: GraphFrameLike, metric_column: Any) -> List[Any]:
    if metric_column is None:
        metric_column = gf.default_metric
        if metric_column is None:  # no default: the first declared metric, if any
            declared = [m for m in metric_columns(gf) if m in gf.dataframe.columns]
            if not declared:
                return []  # a structure-only profile: print the names
            metric_column = declared[0]
    metrics = list(metric_column) if isinstance(metric_column, list) else [metric_column]
    if not metrics:
        raise MetricError("tree(): metric_column is an empty list")
    return [check_metric(gf, m, what="metric_column") for m in metrics]


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ArgumentError(f"{what}={value!r} is not allowed (expected an integer >= 0)")
    return int(value)


def _number(value: Any, what: str) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ArgumentError(f"{what}={value!r} is not a number")
    return float(value)


def _check_columns(gf: GraphFrameLike, annotation_column: Any, name_column: Any) -> None:
    columns = gf.dataframe.columns
    if annotation_column is not None and annotation_column not in columns:
        raise MetricError(f"annotation_column={annotation_column!r} does not exist in the "
                          f"dataframe; columns: {', '.join(map(str, columns))}")
    if name_column not in columns and name_column not in gf.graph.attr_names():
        raise MetricError(f"name_column={name_column!r} is neither a dataframe column nor a "
                          f"frame attribute; columns: {', '.join(map(str, columns))}")


class _NodeTable:
    """One row per node (the rank/thread asked for), as arrays."""

    def __init__(self, gf: GraphFrameLike, metrics: List[Any], rank: Optional[int],
                 thread: Optional[int]) -> None:
        self.df = gf.dataframe
        self.n = gf.graph.num_nodes
        self.rows = node_rows(self.df, self.n, rank=rank, thread=thread)
        self.has_row = self.rows >= 0
        self.values = [self.numbers(m) for m in metrics]

    def numbers(self, column: Any) -> np.ndarray:
        values = self.df[column].to_numpy(dtype=np.float64, na_value=np.nan)
        return np.where(self.has_row, values[np.maximum(self.rows, 0)] if len(values) else np.nan,
                        np.nan)

    def objects(self, column: Any) -> List[Any]:
        series = self.df[column]
        if not len(series):
            return [None] * self.n
        # pick the rows first, then convert: only one value per node becomes an object
        picked = series.array.take(np.maximum(self.rows, 0)).to_numpy(dtype=object).tolist()
        return [v if ok else None for v, ok in zip(picked, self.has_row.tolist())]

    def value_range(self, min_value, max_value):
        primary = self.values[0] if self.values else np.zeros(0)
        finite = primary[np.isfinite(primary)]
        lo = float(finite.min()) if len(finite) else float("nan")
        hi = float(finite.max()) if len(finite) else float("nan")
        return (lo if min_value is None else float(min_value),
                hi if max_value is None else float(max_value))


def _bodies(gf, table, metrics, precision, name_column, expand_name, context_column,
            annotation_column, colormap_annotations, highlight, color, cmap, lo, hi, glyphs):
    """The text of each node's line after the indentation prefix."""
    fmt = f"{{:.{int(precision)}f}}"
    end = C.RESET if color else ""
    faint = C.FAINT if color else ""
    if metrics:
        primary = table.values[0]
        shade = _shades(primary, lo, hi, cmap, color)
        text = [s + fmt.format(v) + end for s, v in zip(shade, primary.tolist())]
        for values in table.values[1:]:
            text = [t + " " + faint + fmt.format(v) + end for t, v in zip(text, values.tolist())]
    else:  # structure only: the line starts with the annotation or the name
        text = [""] * table.n
    if annotation_column is not None:
        text = _annotate(text, table, annotation_column, colormap_annotations, color)
    names = _names(gf, table, name_column, expand_name)
    if highlight and color:
        names = [n if ("<unknown procedure>" in n or "<unknown file>" in n)
                 else C.HIGHLIGHT + n + C.RESET for n in names]
    text = [(t + " " + n) if t else n for t, n in zip(text, names)]
    if "_missing_node" in gf.dataframe.columns:
        side = table.numbers("_missing_node")
        left = " " + (C.LEFT if color else "") + glyphs["left"] + end
        right = " " + (C.RIGHT if color else "") + glyphs["right"] + end
        text = [t + (left if s == 1 else right if s == 2 else "")
                for t, s in zip(text, side.tolist())]
    if context_column is not None and context_column in gf.dataframe.columns:
        ctx = table.objects(context_column)
        text = [t + " " + faint + str(c) + end for t, c in zip(text, ctx)]
    return [t + "\n" for t in text]


def _shades(values: np.ndarray, lo: float, hi: float, cmap: List[str], color: bool) -> List[str]:
    if not color:
        return [""] * len(values)
    span = hi - lo
    with np.errstate(invalid="ignore", divide="ignore"):
        p = (values - lo) / span if span != 0 else values
    choice = np.select([p > 0.9, p > 0.7, p > 0.5, p > 0.3, p > 0.1, p >= 0],
                       [0, 1, 2, 3, 4, 5], default=6)
    table = list(cmap) + [C.BLUE]
    return [table[c] for c in choice.tolist()]


def _names(gf, table, name_column, expand_name) -> List[str]:
    if name_column in gf.dataframe.columns:
        names = table.objects(name_column)
    else:  # a frame attribute (checked by the caller)
        names = gf.graph.attr_values(name_column).tolist()
    if "name" in gf.graph.attr_names() and any(n is None for n in names):
        fallback = gf.graph.attr_values("name").tolist()
        names = [f if n is None else n for n, f in zip(names, fallback)]
    out = [n if type(n) is str else str(n) for n in names]
    if not expand_name:
        out = [n if len(n) <= 39 else n[:18] + "..." + n[-18:] for n in out]
    return out


def _annotate(text, table, column, colormap_annotations, color):
    values = table.objects(column)
    end = C.RESET if color else ""
    if "_pattern" in str(column):
        return [_join(t, PATTERN_SYMBOLS.get(str(v), str(v))) for t, v in zip(text, values)]
    if color and colormap_annotations:
        keys = sorted({str(v) for v in values})
        if isinstance(colormap_annotations, dict):
            codes = {k: colormap_annotations.get(k, "") for k in keys}
        else:
            cmap = (C.palette(colormap_annotations) if isinstance(colormap_annotations, str)
                    else list(colormap_annotations))
            codes = {k: cmap[i % len(cmap)] for i, k in enumerate(keys)}
        return [_join(t, "[" + codes[str(v)] + str(v) + end + "]") for t, v in zip(text, values)]
    return [_join(t, "[" + str(v) + "]") for t, v in zip(text, values)]


def _join(text: str, more: str) -> str:
    return text + " " + more if text else more


def _walk(graph: Any, bodies: List[str], max_depth: Optional[int],
          glyphs: Dict[str, str]) -> List[str]:
    """Lines of the tree: iterative depth-first walk over ascending child ids."""
    if max_depth is None:
        max_depth = graph.num_nodes + 1  # deeper than any node
    ptr, idx = graph.sorted_children()
    ptr, idx = ptr.tolist(), idx.tolist()
    depth = graph.depth.tolist()
    expanded = [False] * graph.num_nodes
    mid, bar, last, gap = glyphs["mid"], glyphs["bar"], glyphs["last"], glyphs["gap"]
    lines: List[str] = []
    add = lines.append
    # stack entries: (node, prefix of its own line, prefix for its children)
    stack = [(r, "", "") for r in reversed(graph.root_ids.tolist())]
    pop, push = stack.pop, stack.append
    while stack:
        v, indent, child_indent = pop()
        if depth[v] >= max_depth:
            continue
        add(indent + bodies[v])
        if expanded[v]:
            continue
        expanded[v] = True
        first, end = ptr[v], ptr[v + 1]
        if first == end:
            continue
        push((idx[end - 1], child_indent + last, child_indent + gap))
        if end - first > 1:
            own, below = child_indent + mid, child_indent + bar
            for pos in range(end - 2, first - 1, -1):
                push((idx[pos], own, below))
    return lines


def _header(metrics: List[Any], gf: GraphFrameLike, rank: Optional[int], unicode: bool) -> str:
    dash = "\u2014" if unicode else "-"
    shown = ", ".join(str(m) for m in metrics) if metrics else "structure only (no metrics)"
    shown_rank = level_value(gf.dataframe.index, "rank", rank)
    where = f" (rank {shown_rank})" if shown_rank is not None else ""
    return f"graphframe v{__version__} {dash} {shown}{where}\n\n"


def _legend(metric: Any, lo: float, hi: float, cmap: List[str], color: bool,
            glyphs: Dict[str, str]) -> str:
    end = C.RESET if color else ""
    span = hi - lo
    lines = ["\n" + (C.UNDERLINE if color else "") + "Legend" + end
             + f" (Metric: {metric} Min: {lo:.2f} Max: {hi:.2f})\n"]
    bands = [(0.9, 1.0), (0.7, 0.9), (0.5, 0.7), (0.3, 0.5), (0.1, 0.3), (0.0, 0.1)]
    block = "\u2588 " if glyphs["left"] == "◀ " else "# "
    for i, (a, b) in enumerate(bands):
        lines.append(f"{cmap[i]}{block}{end}{a * span + lo:.2f} - {b * span + lo:.2f}\n")
    lines.append("\n" + (C.HIGHLIGHT if color else "") + "name" + end + " User code    "
                 + (C.LEFT if color else "") + glyphs["left"] + end + " Only in left graph    "
                 + (C.RIGHT if color else "") + glyphs["right"] + end + " Only in right graph\n")
    return "".join(lines)
