"""Text tree renderer (Hatchet's ``tree()`` layout).

Each printed line is::

    <prefix><value>[ <more values>][ [<annotation>]] <name>[ ◀ | ▶ ][ <context>]

Roots and children appear in ascending id order (pre-order). A node reached
through several parents is printed under each of them, but its subtree only
the first time. The work is proportional to what is printed: the nodes above
the depth limit are selected with one array comparison, and only their rows
are looked up, formatted and walked (``tree(depth=2)`` of a 1,000,000-node
profile formats a few lines, not a million). A missing context (no file)
prints nothing, integer columns print with ``precision`` decimals as in
Hatchet, and a value that rounds to zero never prints as ``-0.000``. Colour and glyphs are plain
arguments: the caller (the CLI) decides.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np
import pandas as pd

from .. import options as settings
from .._version import __version__
from ..errors import ArgumentError, MetricError
from ..model.fields import GraphFrameLike, metric_columns
from ..model.frame import is_missing
from ..model.nodevalues import check_metric
from ..model.rowselect import level_value, node_rows
from . import colors as C
from .numbers import format_numbers
from .units import unit_of, with_unit
from .unattributed import footer

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
    graphframe_readers.errors.ArgumentError: precision=-1 is not allowed (expected an integer >= 0)
    """
    both = "metric" in renamed and metric_column is not None
    if both and settings.hatchet_compat:  # checked before the old names are refused
        raise TypeError("tree() got both metric= (deprecated) and metric_column=")
    options = _rename(renamed)
    if both:   # as Hatchet: ambiguous
        raise TypeError("tree() got both metric= (deprecated) and metric_column=")
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
    table = _NodeTable(gf, metrics, rank, thread, shown_nodes(gf.graph, max_depth))
    lo, hi = (table.value_range(min_value, max_value) if color or show_legend
              else (float("nan"), float("nan")))
    cmap = C.palette(colormap, invert_colormap) if color else [""] * 6
    bodies = _bodies(gf, table, metrics, precision, name_column, expand_name, context_column,
                     annotation_column, colormap_annotations, highlight_name, color, cmap,
                     lo, hi, glyphs)
    parts: List[str] = []
    if render_header:
        parts.append(_header(metrics, gf, rank, thread, unicode))
    parts.extend(_walk(gf.graph, dict(zip(table.nodes.tolist(), bodies)), max_depth, glyphs))
    if show_legend:
        parts.append(_legend(metrics[0], lo, hi, cmap, color, glyphs, highlight_name))
    if metrics:  # records the reader left out (Caliper's, outside every region), if many
        parts.append(footer(gf, metrics[0]))
    return "".join(parts)


def _rename(renamed: Dict[str, Any]) -> Dict[str, Any]:
    out = {}
    for key, value in renamed.items():
        if key not in _RENAMED:
            raise TypeError(f"tree() got an unexpected keyword argument {key!r}")
        if settings.hatchet_compat:  # Hatchet 2024 refuses its old names (graphframe.options)
            raise ArgumentError(f'tree(): "{key}=" is an old name that Hatchet no longer '
                                f'takes; use "{_RENAMED[key]}="')
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


def shown_nodes(graph: Any, max_depth: Optional[int]) -> np.ndarray:
    """Ids of the nodes a tree shows: those above ``max_depth`` (None: all), ascending.

    Examples
    --------
    >>> from graphframe import Graph
    >>> shown_nodes(Graph.from_lists(("a", ("b", "c"), "d")), 2).tolist()
    [0, 1, 3]
    """
    if max_depth is None:
        return np.arange(graph.num_nodes)
    return np.flatnonzero(graph.depth < max_depth)


class _NodeTable:
    """The row (at the rank/thread asked for) of each shown node, and its values."""

    def __init__(self, gf: GraphFrameLike, metrics: List[Any], rank: Optional[int],
                 thread: Optional[int], nodes: np.ndarray) -> None:
        self.df = gf.dataframe
        self.nodes = nodes
        self.n = len(nodes)
        self.all_rows = node_rows(self.df, gf.graph.num_nodes, rank=rank, thread=thread)
        self.rows = self.all_rows[nodes]
        self.has_row = self.rows >= 0
        self.metrics = metrics
        self.values = [self.numbers(m) for m in metrics]

    def numbers(self, column: Any, rows: Optional[np.ndarray] = None) -> np.ndarray:
        """Float value of ``column`` per shown node (per ``rows`` if given); NaN without a row."""
        rows = self.rows if rows is None else rows
        series = self.df[column]
        if not len(series):
            return np.full(len(rows), np.nan)
        picked = series.array.take(np.maximum(rows, 0))
        values = np.asarray(picked.to_numpy(dtype=np.float64, na_value=np.nan), dtype=np.float64)
        return np.where(rows >= 0, values, np.nan)

    def objects(self, column: Any) -> List[Any]:
        """Value of ``column`` per shown node as Python objects (None without a row)."""
        series = self.df[column]
        if not len(series):
            return [None] * self.n
        # pick the rows first, then convert: only one value per shown node becomes an object
        picked = series.array.take(np.maximum(self.rows, 0)).to_numpy(dtype=object).tolist()
        return [v if ok else None for v, ok in zip(picked, self.has_row.tolist())]

    def value_range(self, min_value, max_value):
        """Colour range: the primary metric's extremes over every node (not only shown)."""
        primary = self.numbers(self.metrics[0], self.all_rows) if self.metrics else np.zeros(0)
        finite = primary[np.isfinite(primary)]
        lo = float(finite.min()) if len(finite) else float("nan")
        hi = float(finite.max()) if len(finite) else float("nan")
        return (lo if min_value is None else float(min_value),
                hi if max_value is None else float(max_value))


def _bodies(gf, table, metrics, precision, name_column, expand_name, context_column,
            annotation_column, colormap_annotations, highlight, color, cmap, lo, hi, glyphs):
    """The text of each shown node's line after the indentation prefix."""
    end = C.RESET if color else ""
    faint = C.FAINT if color else ""
    if metrics:
        shown = [format_numbers(values, precision)
                 for m, values in zip(metrics, table.values)]
        shade = _shades(table.values[0], lo, hi, cmap, color)
        text = [s + v + end for s, v in zip(shade, shown[0])]
        for column in shown[1:]:
            text = [t + " " + faint + v + end for t, v in zip(text, column)]
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
        ctx = [None if is_missing(c) else _one_line(str(c))
               for c in table.objects(context_column)]
        ctx = _with_lines(gf, table, names, ctx)
        text = [t if c is None else t + " " + faint + c + end for t, c in zip(text, ctx)]
    return [t + "\n" for t in text]


def _with_lines(gf, table, names: List[str], ctx: List[Optional[str]]) -> List[Optional[str]]:
    """``ctx`` with ``:line`` added where siblings would print the same name and context
    but have different ``line`` values (TAU's ``[SAMPLE] f`` per source line); every
    other context is left as it is (Hatchet's look)."""
    if "line" not in gf.dataframe.columns or not table.n:
        return ctx
    parent = np.asarray(gf.graph.parent)[table.nodes].tolist()
    seen: Dict[Any, int] = {}
    clash = set()
    for i, key in enumerate(zip(parent, names, ctx)):
        if key in seen:
            clash.update((seen[key], i))
        else:
            seen[key] = i
    if not clash:
        return ctx
    lines = table.objects("line")
    out = list(ctx)
    for i in clash:
        line = lines[i]
        if ctx[i] is not None and not is_missing(line) and str(line) not in ("0", "0.0"):
            out[i] = f"{ctx[i]}:{int(line) if isinstance(line, float) else line}"
    return out


def _one_line(text: str) -> str:
    """``text`` with line breaks as spaces (a line's colours close before its newline)."""
    if "\n" in text or "\r" in text:
        text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    return text


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
        names = _attr_values(gf.graph, name_column, table.nodes)
    if "name" in gf.graph.attr_names() and any(n is None for n in names):
        fallback = _attr_values(gf.graph, "name", table.nodes)
        names = [f if n is None else n for n, f in zip(names, fallback)]
    out = [_one_line(n if type(n) is str else str(n)) for n in names]
    if not expand_name:
        out = [n if len(n) <= 39 else n[:18] + "..." + n[-18:] for n in out]
    return out


def _attr_values(graph: Any, key: str, nodes: np.ndarray) -> List[Any]:
    values = graph.attrs[key].iloc[nodes].to_numpy(dtype=object)
    return np.where(pd.isna(values), None, values).tolist()


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


def _walk(graph: Any, bodies: Dict[int, str], max_depth: Optional[int],
          glyphs: Dict[str, str]) -> List[str]:
    """Lines of the tree: iterative depth-first walk over ascending child ids.

    Only the nodes above ``max_depth`` are visited (children below it are
    dropped with one array comparison per expanded node).
    """
    ptr, idx = graph.sorted_children()
    depth = graph.depth
    mid, bar, last, gap = glyphs["mid"], glyphs["bar"], glyphs["last"], glyphs["gap"]
    lines: List[str] = []
    add = lines.append
    expanded = set()
    roots = graph.root_ids
    if max_depth is not None:
        roots = roots[depth[roots] < max_depth]
    # stack entries: (node, prefix of its own line, prefix for its children)
    stack = [(r, "", "") for r in reversed(roots.tolist())]
    pop, push = stack.pop, stack.append
    while stack:
        v, indent, child_indent = pop()
        add(indent + bodies[v])
        if v in expanded:
            continue
        expanded.add(v)
        kids = idx[ptr[v]:ptr[v + 1]]
        if max_depth is not None:
            kids = kids[depth[kids] < max_depth]
        if not len(kids):
            continue
        kids = kids.tolist()
        push((kids[-1], child_indent + last, child_indent + gap))
        own, below = child_indent + mid, child_indent + bar
        for child in reversed(kids[:-1]):
            push((child, own, below))
    return lines


def _header(metrics: List[Any], gf: GraphFrameLike, rank: Optional[int],
            thread: Optional[int], unicode: bool) -> str:
    dash = "\u2014" if unicode else "-"
    shown = ", ".join(with_unit(m, unit_of(gf, m), unicode) for m in metrics) if metrics \
        else "structure only (no metrics)"
    index = gf.dataframe.index
    where = [f"{level} {value}" for level, value in
             (("rank", level_value(index, "rank", rank)),
              ("thread", level_value(index, "thread", thread))) if value is not None]
    place = f" ({', '.join(where)})" if where else ""
    return f"graphframe v{__version__} {dash} {shown}{place}\n\n"


def _legend(metric: Any, lo: float, hi: float, cmap: List[str], color: bool,
            glyphs: Dict[str, str], highlight: bool = False) -> str:
    end = C.RESET if color else ""
    span = hi - lo
    lines = ["\n" + (C.UNDERLINE if color else "") + "Legend" + end
             + f" (Metric: {metric} Min: {lo:.2f} Max: {hi:.2f})\n"]
    bands = [(0.9, 1.0), (0.7, 0.9), (0.5, 0.7), (0.3, 0.5), (0.1, 0.3), (0.0, 0.1)]
    block = "\u2588 " if glyphs["left"] == "◀ " else "# "
    for i, (a, b) in enumerate(bands):
        lines.append(f"{cmap[i]}{block}{end}{a * span + lo:.2f} - {b * span + lo:.2f}\n")
    # "name" is shown highlighted only when names are (highlight_name), as in Hatchet
    lines.append("\n" + (C.HIGHLIGHT if color and highlight else "") + "name" + end
                 + " User code    "
                 + (C.LEFT if color else "") + glyphs["left"] + end + " Only in left graph    "
                 + (C.RIGHT if color else "") + glyphs["right"] + end + " Only in right graph\n")
    return "".join(lines)
