"""Text tree of a diff: signed deltas, before -> after, change and status.

Each line::

    <prefix><delta> <name> (<before> → <after>, <change>)[ [added]|[removed]]

with Hatchet's tree glyphs and walk (ascending ids; a shared node's subtree
printed once). With ``color`` regressions (delta > 0) are red, improvements
green and changes under the noise threshold faint; an ``[added]`` or
``[removed]`` tag has the colour of its delta (an added node is a cost, red;
a removed one a saving, green). ``changed_only`` keeps
significant nodes and their ancestors and drops the rest.

The work is proportional to what is printed: the per-node arrays (deltas,
significance) are whole-array operations, and only the nodes above the depth
limit (and, with ``changed_only``, on a changed path) are formatted and
walked. A change that rounds to zero prints as ``+0.000``, never ``-0.000``.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional

import numpy as np

from ..diffing.core import significant
from ..diffing.table import change_percent, diff_info, percent, resolve_metric
from ..kernels import structure as st
from . import colors as C
from .numbers import format_numbers
from .tree import GLYPHS, shown_nodes
from ..model.dataframe import plain_values

RED = C.RED
GREEN = C.GREEN


def render_diff_tree(d: Any, metric: Any = None, kind: str = "inclusive", precision: int = 3,
                     depth: int = 10000, name_column: str = "name", expand_name: bool = False,
                     changed_only: bool = False, color: bool = False, unicode: bool = True,
                     render_header: bool = True) -> str:
    """Render a diff result (:func:`graphframe.diff`) as a tree of changes.

    Parameters
    ----------
    d : GraphFrame
        A diff result.
    metric : str, optional
        A diffed metric (default: the primary one).
    kind : {"inclusive", "exclusive", "as-is"}
        Show the metric's inclusive (default) or exclusive form.
    precision : int
        Decimals of the values.
    depth : int
        Print nodes above this depth only.
    changed_only : bool
        Only significant changes and their ancestors.
    color, unicode : bool
        ANSI colours; box-drawing glyphs and arrows (else ASCII).
    render_header : bool
        Start with a line naming the metric and the two profiles.

    Examples
    --------
    >>> from graphframe import GraphFrame, diff
    >>> a = GraphFrame.from_lists(("main", "solve", "io"))
    >>> b = GraphFrame.from_lists(("main", ("solve", "mpi")))
    >>> print(render_diff_tree(diff(a, b), render_header=False), end="")
    +0.000 main (3.000 → 3.000, +0.0%)
    ├─ -1.000 io (1.000 → 0.000, -100.0%) [removed]
    └─ +1.000 solve (1.000 → 2.000, +100.0%)
       └─ +1.000 mpi (0.000 → 1.000, new) [added]
    """
    info = diff_info(d)
    col = resolve_metric(d, metric, kind)
    df = d.dataframe
    n = d.graph.num_nodes
    row = np.full(n, -1, dtype=np.int64)
    row[plain_values(df.index)] = np.arange(len(df))
    before = _per_node(df, f"{col} before", row)
    after = _per_node(df, f"{col} after", row)
    delta = after - before
    sig = significant(delta, info["totals"]["before"][col], info["threshold"])
    visible = _with_ancestors(d.graph, sig) if changed_only else None
    nodes = shown_nodes(d.graph, depth)
    if visible is not None:
        nodes = nodes[visible[nodes]]
    picked = np.maximum(row[nodes], 0)
    status = np.where(row[nodes] >= 0, df["status"].array.take(picked).to_numpy(dtype=object),
                      "common")
    names = _names(d, name_column, expand_name, row[nodes])
    bodies = _bodies(before[nodes], after[nodes], delta[nodes], sig[nodes], status, names,
                     precision, color, unicode)
    parts: List[str] = []
    if render_header:
        arrow = " → " if unicode else " -> "
        parts.append(f"{col}: delta ({info['before'] or 'before'}{arrow}"
                     f"{info['after'] or 'after'})\n\n")
    parts.extend(_walk(d.graph, dict(zip(nodes.tolist(), bodies)), visible, depth,
                       GLYPHS[bool(unicode)]))
    return "".join(parts)


def _per_node(df: Any, column: str, row: np.ndarray) -> np.ndarray:
    values = df[column].to_numpy(dtype=np.float64, na_value=np.nan)
    return np.where(row >= 0, values[np.maximum(row, 0)] if len(values) else 0.0, 0.0)


def _names(d: Any, name_column: str, expand: bool, rows: np.ndarray) -> List[str]:
    column = name_column if name_column in d.dataframe.columns else "name"
    values = d.dataframe[column].array.take(np.maximum(rows, 0)).to_numpy(dtype=object)
    out = []
    for name, ok in zip(values.tolist(), (rows >= 0).tolist()):
        name = str(name) if ok else ""
        if "\n" in name or "\r" in name:
            name = name.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
        if not expand and len(name) > 39:
            name = name[:18] + "..." + name[-18:]
        out.append(name)
    return out


def _bodies(before, after, delta, sig, status, names, precision, color, unicode) -> List[str]:
    arrow = " → " if unicode else " -> "
    change = change_percent(before, delta)
    values = format_numbers(delta, precision, sign=True)
    befores = format_numbers(before, precision)
    afters = format_numbers(after, precision)
    out = []
    for value, b, a, dv, s, st_, nm, ch in zip(values, befores, afters, delta.tolist(),
                                               sig.tolist(), status.tolist(), names,
                                               change.tolist()):
        pct = percent(ch)
        if pct == "-0.0%":
            pct = "+0.0%"
        detail = f" ({b}{arrow}{a}" + (f", {pct})" if pct else ")")
        mark = "" if st_ == "common" else f" [{st_}]"
        if color:
            shade = (RED if dv > 0 else GREEN) if s else C.FAINT
            value = shade + value + C.RESET
            detail = C.FAINT + detail + C.RESET
            if mark:  # the tag takes its delta's colour: an added node costs (red)
                mark = " " + shade + mark[1:] + C.RESET
        out.append(f"{value} {nm}{detail}{mark}\n")
    return out


def _with_ancestors(graph: Any, keep: np.ndarray) -> np.ndarray:
    """``keep`` plus every first-parent ancestor of a kept node."""
    shown = keep.copy()
    parent = graph.parent
    for level in reversed(st.levels(graph.depth)[1:]):
        marked = level[shown[level]]
        shown[parent[marked]] = True
    return shown


def _walk(graph: Any, bodies: Dict[int, str], visible: Optional[np.ndarray],
          max_depth: Optional[int], glyphs: Dict[str, str]) -> Iterator[str]:
    """Lines over the shown nodes (above ``max_depth`` and ``visible``), ascending ids."""
    ptr, idx = graph.sorted_children()
    depth = graph.depth
    expanded = set()
    roots = graph.root_ids
    keep = np.ones(len(roots), dtype=bool) if visible is None else visible[roots]
    if max_depth is not None:
        keep &= depth[roots] < max_depth
    stack = [(r, "", "") for r in reversed(roots[keep].tolist())]
    while stack:
        v, indent, child_indent = stack.pop()
        yield indent + bodies[v]
        if v in expanded:
            continue
        expanded.add(v)
        kids = idx[ptr[v]:ptr[v + 1]]
        if max_depth is not None:
            kids = kids[depth[kids] < max_depth]
        if visible is not None:
            kids = kids[visible[kids]]
        kids = kids.tolist()
        for pos in range(len(kids) - 1, -1, -1):
            last = pos == len(kids) - 1
            stack.append((kids[pos], child_indent + glyphs["last" if last else "mid"],
                          child_indent + glyphs["gap" if last else "bar"]))
