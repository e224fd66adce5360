"""Notebook view of a GraphFrame: a summary line and a collapsible tree with bars.

Only the top of the profile is shown (``max_depth`` levels, the
``max_children`` largest children of each node, the rest summarised as "n
more", and at most ``max_lines`` nodes in all), so the HTML stays small for
million-node profiles. Nodes are
``<details>`` elements (collapsible without JavaScript); levels below
``open_depth`` start collapsed. Bars are proportional to the value over the
largest root's value. Everything shown is HTML-escaped.
"""

from __future__ import annotations

import html
from typing import Any, List, Optional

import numpy as np

from ..rowselect import level_value
from .nodevalues import display_names, node_values

BAR_PX = 80
STYLE = ("font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; "
         "line-height: 1.45")


def summary(gf: Any) -> str:
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
    metrics = [str(m) for m in gf.show_metric_columns()]
    listed = ", ".join(metrics[:6]) + (f", ... (+{len(metrics) - 6})" if len(metrics) > 6 else "")
    default = f" [default {gf.default_metric}]" if gf.default_metric is not None else ""
    return f"{g.num_nodes} nodes ({kind}), {rows}; metrics: {listed or 'none'}{default}"


def render_html(gf: Any, metric: Optional[str] = None, max_depth: int = 4,
                max_children: int = 8, max_lines: int = 150, open_depth: int = 2,
                rank: Optional[int] = None, thread: Optional[int] = None) -> str:
    """HTML for Jupyter's ``_repr_html_``.

    Parameters
    ----------
    gf : GraphFrame
    metric : str, optional
        Column shown (default: the inclusive partner of the default metric,
        else the default metric). Non-numeric or missing: no tree, summary only.
    max_depth, max_children, max_lines, open_depth : int
        How much of the tree is written (levels, children per node, node lines
        in all) and how many levels start expanded.
    rank, thread : int, optional
        Row shown per node (default: the lowest the data has).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> text = render_html(GraphFrame.from_lists(("main", "solve")))
    >>> text.count("<details"), "main" in text, "2.000" in text
    (1, True, True)
    """
    head = f"<b>GraphFrame</b>: {html.escape(summary(gf))}"
    column = _column(gf, metric)
    if column is None or gf.graph.num_nodes == 0:
        return f'<div style="{STYLE}">{head}</div>'
    values = node_values(gf, column, rank=rank, thread=thread)
    shown = level_value(gf.dataframe.index, "rank", rank)
    where = f" (rank {shown})" if shown is not None else ""
    head += f"<br><span style='opacity:0.7'>{html.escape(str(column))}{where}</span>"
    names = display_names(gf)
    roots = gf.graph.root_ids
    top = np.nanmax(np.abs(values[roots])) if np.isfinite(values[roots]).any() else 0.0
    body = _tree(gf.graph, values, names, top, max_depth, max_children, max_lines, open_depth)
    return f'<div class="graphframe" style="{STYLE}">{head}{body}</div>'


def _column(gf: Any, metric: Optional[str]) -> Any:
    df = gf.dataframe
    if metric is None:
        base = gf.default_metric
        metric = gf.inclusive_of.get(base, base)
        if metric not in df.columns:
            metric = base
    if metric not in df.columns or not np.issubdtype(np.asarray(df[metric]).dtype, np.number):
        return None
    return metric


def _tree(graph, values, names, top, max_depth, max_children, max_lines, open_depth) -> str:
    ptr, idx = graph.sorted_children()
    ptr, idx = ptr.tolist(), idx.tolist()
    vals = values.tolist()
    expanded = [False] * graph.num_nodes
    parts: List[str] = []
    # stack items: ("node", id, depth) or ("text", html)
    root_extra: List[str] = []
    roots = _largest(graph.root_ids.tolist(), vals, max_children, root_extra)
    stack: List[Any] = [("node", r, 0) for r in reversed(roots)]
    shown_lines = skipped = 0
    while stack:
        item = stack.pop()
        if item[0] == "text":
            parts.append(item[1])
            continue
        _, v, depth = item
        if shown_lines >= max_lines:
            skipped += 1
            continue
        shown_lines += 1
        line = _line(vals[v], names[v], top)
        kids = idx[ptr[v]:ptr[v + 1]]
        if not kids or depth + 1 >= max_depth or expanded[v]:
            more = " …" if kids and not expanded[v] else ""
            parts.append(f"<div style='margin-left:1.1em'>{line}{more}</div>")
            continue
        expanded[v] = True
        opened = " open" if depth + 1 < open_depth else ""
        parts.append(f"<details{opened} style='margin-left:1.1em'><summary>{line}</summary>")
        extra: List[str] = []
        shown = _largest(kids, vals, max_children, extra)
        stack.append(("text", (extra[0] if extra else "") + "</details>"))
        for c in reversed(shown):
            stack.append(("node", c, depth + 1))
    if skipped:
        parts.append(f"<div style='opacity:0.6'>… more nodes not shown (the view stops at "
                     f"{max_lines} lines; render_html(gf, max_lines=...) shows more)</div>")
    return "".join(parts) + "".join(root_extra)


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
    number = "nan" if value != value else f"{value:.3f}"
    return f"{bar}{number} {html.escape(name)}"
