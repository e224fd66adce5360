"""Notebook view of a GraphFrame: a summary line and a collapsible tree with bars.

Only the top of the profile is shown (``max_depth`` levels, the
``max_children`` largest children of each node, the rest summarised as "n
more", and at most ``max_lines`` nodes in all), so the HTML stays small for
million-node profiles. Nodes are
``<details>`` elements (collapsible without JavaScript); levels below
``open_depth`` start collapsed. Everything shown is HTML-escaped.

Values are inclusive: the default metric's inclusive partner, or, when the
profile has only exclusive values, their sums over each subtree (computed
for the row shown, as ``update_inclusive_columns`` would), so a node's bar
covers what it calls and children are ranked by what they cost in all.
Bars are proportional to ``|value|`` over the largest ``|value|`` among
the nodes shown, so no bar is ever clipped (exclusive metrics asked for
explicitly, and diffs with negative deltas, stay in proportion too).
"""

from __future__ import annotations

import html
from typing import Any, List, Optional, Tuple

import numpy as np

import pandas as pd

from ..model.metrics import inclusive_name
from ..ops import merge_rules
from ..ops.inclusive import subgraph_sums
from ..model.rowselect import level_value
from ..model.nodevalues import display_names, node_values
from ..model.fields import GraphFrameLike, metric_columns
from .numbers import format_numbers

BAR_PX = 80
FONT = "ui-monospace, SFMono-Regular, Menlo, monospace"
STYLE = f"font-family: {FONT}; font-size: 12px; line-height: 1.45"


def summary(gf: GraphFrameLike) -> str:
    """One line describing ``gf`` (used by ``repr`` and the HTML view).

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> summary(example_graphframe())
    '20 nodes (tree), 80 rows over 4 ranks; metrics: time, time (inc) [default time]'
    """
    g = gf.graph
    kind = ("tree" if g.is_tree() else f"forest of {len(g.root_ids)} trees") if g.is_forest \
        else "graph with shared nodes"
    df = gf.dataframe
    spread = []
    for level in df.index.names[1:]:
        count = len(df.index.unique(level=level))
        word = {"rank": "ranks", "thread": "threads"}.get(level, str(level))
        spread.append(f"{count} {word if count != 1 else word.rstrip('s')}")
    rows = f"{len(df)} rows" + (" over " + " x ".join(spread) if spread else "")
    metrics = [str(m) for m in metric_columns(gf)]
    listed = ", ".join(metrics[:6]) + (f", ... (+{len(metrics) - 6})" if len(metrics) > 6 else "")
    default = f" [default {gf.default_metric}]" if gf.default_metric is not None else ""
    return f"{g.num_nodes} nodes ({kind}), {rows}; metrics: {listed or 'none'}{default}"


def render_html(gf: GraphFrameLike, metric: Optional[str] = None, max_depth: int = 4,
                max_children: int = 8, max_lines: int = 150, open_depth: int = 2,
                rank: Optional[int] = None, thread: Optional[int] = None,
                hot_paths: bool = False, font_px: int = 12) -> str:
    """HTML for Jupyter's ``_repr_html_``.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        Column shown (default: the inclusive partner of the default metric;
        when there is none and the default metric is exclusive, its sums
        over each subtree). Non-numeric or missing: no tree, summary only.
    max_depth, max_children, max_lines, open_depth : int
        How much of the tree is written (levels, children per node, node lines
        in all) and how many levels start expanded.
    rank, thread : int, optional
        Row shown per node (default: the lowest the data has).
    hot_paths : bool
        Also show each root's hot path expanded, however deep: from the root,
        the child with the largest value, then its largest child, down to a
        leaf (the heaviest path; ties: the lower id). Nodes on it are shown
        beyond ``max_depth`` and ``max_lines``, open, with their siblings
        (the ``max_children`` largest) collapsed beside them.
    font_px : int
        Font size of the view, in CSS pixels.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> text = render_html(GraphFrame.from_lists(("main", "solve")))
    >>> text.count("<details"), "main" in text, "2.000" in text
    (1, True, True)
    """
    head = f"<b>GraphFrame</b>: {html.escape(summary(gf))}"
    style = STYLE.replace("font-size: 12px", f"font-size: {int(font_px)}px")
    column, summed = _column(gf, metric)
    if column is None or gf.graph.num_nodes == 0:
        return f'<div style="{style}">{head}</div>'
    values = node_values(gf, column, rank=rank, thread=thread)
    label = str(column)
    if summed:
        values = _subtree_sums(gf.graph, values)
        label = f"{inclusive_name(column)}, summed from {column}"
    shown = level_value(gf.dataframe.index, "rank", rank)
    where = f" (rank {shown})" if shown is not None else ""
    head += f"<br><span style='opacity:0.7'>{html.escape(label)}{where}</span>"
    names = display_names(gf)
    hot = _hot_paths(gf.graph, values, max_children) if hot_paths else set()
    items, root_extra, skipped = _walk(gf.graph, values, max_depth, max_children, max_lines,
                                       open_depth, hot)
    body = _render(items, values.tolist(), names, skipped, max_lines) + "".join(root_extra)
    return f'<div class="graphframe" style="{style}">{head}{body}</div>'


def _column(gf: GraphFrameLike, metric: Optional[str]) -> Tuple[Any, bool]:
    """``(column shown, whether to sum it over subtrees)``; ``(None, False)``: no tree."""
    df = gf.dataframe
    summed = False
    if metric is None:
        base = gf.default_metric
        metric = gf.inclusive_of.get(base)
        if metric not in df.columns:
            metric = base
            summed = base in gf.exc_metrics and merge_rules.summed(gf, base)
    if metric not in df.columns or not np.issubdtype(np.asarray(df[metric]).dtype, np.number):
        return None, False
    return metric, summed


def _subtree_sums(graph: Any, values: np.ndarray) -> np.ndarray:
    """Each node's value plus its descendants' (NaN: no value), like inclusive columns."""
    frame = pd.DataFrame({"v": values},
                         index=pd.Index(np.arange(graph.num_nodes, dtype=np.int64), name="node"))
    return subgraph_sums(graph, frame, ["v"])[0]


def _hot_paths(graph: Any, values: np.ndarray, max_roots: int) -> set:
    """The nodes on the hot path of each root shown: its largest child (by ``|value|``,
    then id, as the view orders children), that one's largest child, ... to a leaf.
    One step per level: the cost is the paths' length, not the profile's size."""
    ptr, idx = graph.sorted_children()
    vals = values.tolist()
    hot = set()
    for v in _largest(graph.root_ids.tolist(), vals, max_roots, []):
        while v not in hot:  # a node reached twice (shared, in a graph) ends the path
            hot.add(v)
            kids = idx[ptr[v]:ptr[v + 1]].tolist()
            if not kids:
                break
            v = _largest(kids, vals, 1, [])[0]
    return hot


def _walk(graph, values, max_depth, max_children, max_lines, open_depth, hot=frozenset()):
    """What to show, in document order: ``("open"|"leaf", node, flag)`` and ``("text", s)``;
    then the "n more" line of the roots and the count of nodes left out. Nodes in ``hot``
    are always shown, open, and expanded whatever their depth."""
    ptr, idx = graph.sorted_children()
    ptr, idx = ptr.tolist(), idx.tolist()
    vals = values.tolist()
    expanded = [False] * graph.num_nodes
    items: List[Tuple[str, Any, Any]] = []
    root_extra: List[str] = []
    roots = _largest(graph.root_ids.tolist(), vals, max_children, root_extra)
    stack: List[Any] = [("node", r, 0) for r in reversed(roots)]
    shown_lines = skipped = 0
    while stack:
        item = stack.pop()
        if item[0] == "text":
            items.append(("text", item[1], None))
            continue
        _, v, depth = item
        on_path = v in hot
        if shown_lines >= max_lines and not on_path:
            skipped += 1
            continue
        shown_lines += 1
        kids = idx[ptr[v]:ptr[v + 1]]
        if not kids or (depth + 1 >= max_depth and not on_path) or expanded[v]:
            items.append(("leaf", v, bool(kids) and not expanded[v]))
            continue
        expanded[v] = True
        items.append(("open", v, depth + 1 < open_depth or on_path))
        extra: List[str] = []
        shown = _largest(kids, vals, max_children, extra)
        stack.append(("text", (extra[0] if extra else "") + "</details>"))
        for c in reversed(shown):
            stack.append(("node", c, depth + 1))
    return items, root_extra, skipped


def _render(items, vals: List[float], names: List[str], skipped: int, max_lines: int) -> str:
    shown = [vals[v] for kind, v, _ in items if kind != "text"]
    sizes = [abs(x) for x in shown if x == x and abs(x) != float("inf")]
    top = max(sizes) if sizes else 0.0
    parts: List[str] = []
    for kind, v, flag in items:
        if kind == "text":
            parts.append(v)
        elif kind == "leaf":
            more = " …" if flag else ""
            parts.append(f"<div style='margin-left:1.1em'>{_line(vals[v], names[v], top)}"
                         f"{more}</div>")
        else:
            opened = " open" if flag else ""
            parts.append(f"<details{opened} style='margin-left:1.1em'><summary>"
                         f"{_line(vals[v], names[v], top)}</summary>")
    if skipped:
        parts.append(f"<div style='opacity:0.6'>… more nodes not shown (the view stops at "
                     f"{max_lines} lines; render_html(gf, max_lines=...) shows more)</div>")
    return "".join(parts)


def _largest(nodes: List[int], vals: List[float], limit: int, extra: List[str]) -> List[int]:
    """The ``limit`` largest nodes (by |value|, then id); a "n more" line goes to ``extra``."""
    key = sorted(nodes, key=lambda v: (-(abs(vals[v]) if vals[v] == vals[v] else -1.0), v))
    if len(key) > limit:
        extra.append(f"<div style='margin-left:1.1em;opacity:0.6'>… {len(key) - limit} more"
                     "</div>")
    return key[:limit]


def _line(value: float, name: str, top: float) -> str:
    if value == value and top > 0:
        width = int(round(min(abs(value) / top, 1.0) * BAR_PX))
    else:
        width = 0
    colour = "#d62728" if value == value and value >= 0 else "#2ca02c"
    bar = (f"<span style='display:inline-block;width:{BAR_PX}px;height:0.7em;"
           f"background:#eee;margin-right:0.5em'><span style='display:inline-block;"
           f"width:{width}px;height:0.7em;background:{colour}'></span></span>")
    (number,) = format_numbers(np.array([value], dtype=np.float64), 3)  # never -0.000
    return f"{bar}{number} {html.escape(name)}"
