"""Text tree of a diff: signed deltas, before -> after, change and status.

Each line::

    <prefix><delta> <name> (<before> → <after>, <change>)[ [added]|[removed]]

with Hatchet's tree glyphs and walk (ascending ids; a shared node's subtree
printed once). With ``color`` regressions (delta > 0) are red, improvements
green and changes under the noise threshold faint; an ``[added]`` or
``[removed]`` tag has the colour of its delta (an added node is a cost, red;
a removed one a saving, green). ``changed_only`` keeps
significant nodes and their ancestors and drops the rest.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List

import numpy as np

from ..kernels import structure as st
from ..diffing.core import significant
from ..diffing.table import change_percent, diff_info, percent, resolve_metric
from . import colors as C
from .tree import GLYPHS

RED = "\033[38;5;160m"
GREEN = "\033[38;5;28m"


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
    before = _per_node(d, f"{col} before", n)
    after = _per_node(d, f"{col} after", n)
    delta = after - before
    sig = significant(delta, info["totals"]["before"][col], info["threshold"])
    status = np.full(n, "common", dtype=object)
    status[df.index.to_numpy()] = df["status"].to_numpy(dtype=object)
    names = _names(d, name_column, expand_name)
    bodies = _bodies(before, after, delta, sig, status, names, precision, color, unicode)
    shown = _with_ancestors(d.graph, sig) if changed_only else np.ones(n, dtype=bool)
    parts: List[str] = []
    if render_header:
        arrow = " → " if unicode else " -> "
        parts.append(f"{col}: delta ({info['before'] or 'before'}{arrow}"
                     f"{info['after'] or 'after'})\n\n")
    parts.extend(_walk(d.graph, bodies, shown, depth, GLYPHS[bool(unicode)]))
    return "".join(parts)


def _per_node(d: Any, column: str, n: int) -> np.ndarray:
    out = np.zeros(n, dtype=np.float64)
    out[d.dataframe.index.to_numpy()] = d.dataframe[column].to_numpy(dtype=np.float64)
    return out


def _names(d: Any, name_column: str, expand: bool) -> List[str]:
    values = np.full(d.graph.num_nodes, "", dtype=object)
    column = name_column if name_column in d.dataframe.columns else "name"
    values[d.dataframe.index.to_numpy()] = d.dataframe[column].to_numpy(dtype=object)
    out = []
    for name in values.tolist():
        name = str(name)
        if not expand and len(name) > 39:
            name = name[:18] + "..." + name[-18:]
        out.append(name)
    return out


def _bodies(before, after, delta, sig, status, names, precision, color, unicode) -> List[str]:
    fmt = f"{{:.{int(precision)}f}}"
    arrow = " → " if unicode else " -> "
    change = change_percent(before, delta)
    out = []
    for b, a, dv, s, st_, nm, ch in zip(before.tolist(), after.tolist(), delta.tolist(),
                                        sig.tolist(), status.tolist(), names, change.tolist()):
        value = "nan" if dv != dv else f"{dv:+.{int(precision)}f}"
        pct = percent(ch)
        detail = f" ({fmt.format(b)}{arrow}{fmt.format(a)}" + (f", {pct})" if pct else ")")
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


def _walk(graph: Any, bodies: List[str], shown: np.ndarray, max_depth: int,
          glyphs: Dict[str, str]) -> Iterator[str]:
    ptr, idx = graph.sorted_children()
    ptr, idx = ptr.tolist(), idx.tolist()
    depth = graph.depth.tolist()
    visible = shown.tolist()
    expanded = [False] * graph.num_nodes
    roots = [r for r in graph.root_ids.tolist() if visible[r]]
    stack = [(r, "", "") for r in reversed(roots)]
    while stack:
        v, indent, child_indent = stack.pop()
        if depth[v] >= max_depth:
            continue
        yield indent + bodies[v]
        if expanded[v]:
            continue
        expanded[v] = True
        kids = [c for c in idx[ptr[v]:ptr[v + 1]] if visible[c]]
        for pos in range(len(kids) - 1, -1, -1):
            last = pos == len(kids) - 1
            stack.append((kids[pos], child_indent + glyphs["last" if last else "mid"],
                          child_indent + glyphs["gap" if last else "bar"]))
