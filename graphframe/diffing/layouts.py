"""Matching the two HPCToolkit layouts of one program in a diff.

The old layout (``experiment.xml``) roots a program's call paths at
``<program root>`` (``<thread root>`` for other threads) and writes a call
site's line before the callee's name (``11:f``); the current layout
(``meta.db``) has entry points ``main thread`` and ``application thread`` and
the call site as a node of its own (``main.c:11`` > ``f``). ``diff`` uses
these helpers so that both match: by path, the old entry roots stand for the
current ones, and when one profile is of each layout the paths are matched by
name on "matching graphs" where a current-layout function called from a line
is that line's ``<line>:<name>`` under the line's parent, as the old layout
writes it (:func:`layout_matching`); by name, a function is keyed by its name
without the call-site line.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from ..kernels import structure as st
from ..model.graph import Graph
from ..model.nodevalues import display_name_array

#: Old-layout root name -> the current layout's entry point it stands for.
ENTRY_ROOTS = {"<program root>": "main thread", "<thread root>": "application thread"}
_CALL_SITE = re.compile(r"^\d+:(?=.)")


def aligned_entry_roots(graph: Graph, other: Graph) -> Graph:
    """``graph`` with its old-layout entry roots given the frame of ``other``'s matching
    entry point (same node ids), or ``graph`` itself when there is nothing to align.

    Examples
    --------
    >>> old = Graph.build(pd.DataFrame({"name": ["<program root>", "main"]}), [-1, 0])[0]
    >>> new = Graph.build(pd.DataFrame({"name": ["main thread", "main"],
    ...                                 "type": ["entry", "function"]}), [-1, 0])[0]
    >>> aligned = aligned_entry_roots(old, new)
    >>> aligned.frame_dict(0), aligned.frame_dict(1)
    ({'name': 'main thread', 'type': 'entry'}, {'name': 'main'})
    >>> aligned_entry_roots(new, old) is new
    True
    """
    if not graph.is_forest or "name" not in graph.attr_names():
        return graph
    targets = {}
    other_roots = other.root_ids.tolist()
    other_names = other.attr_values("name") if "name" in other.attr_names() else None
    if other_names is None:
        return graph
    by_name = {other_names[r]: r for r in other_roots}
    names = graph.attr_values("name")
    for r in graph.root_ids.tolist():
        target = ENTRY_ROOTS.get(names[r])
        if target is not None and target in by_name and target not in names[graph.root_ids]:
            targets[r] = other.frame_dict(by_name[target])
    if not targets:
        return graph
    columns = {c: np.asarray(graph.attr_values(c), dtype=object).copy()
               for c in graph.attr_names()}
    for frame in targets.values():
        for key in frame:
            if key not in columns:
                columns[key] = np.full(graph.num_nodes, np.nan, dtype=object)
    for r, frame in targets.items():
        for key, values in columns.items():
            values[r] = frame.get(key, np.nan)
    attrs = pd.DataFrame(columns)
    return Graph(roots=graph.root_ids, parent=graph.parent, parent_ptr=graph.parent_ptr,
                 parent_idx=graph.parent_idx, child_ptr=graph.child_ptr,
                 child_idx=graph.child_idx, depth=graph.depth, attrs=attrs,
                 ordered=graph.ordered, forest=True)


def function_keys(gf: Any, names: np.ndarray) -> np.ndarray:
    """``names`` (one per node of ``gf``) with the old HPCToolkit layout's call-site line
    dropped from function names (``11:f`` -> ``f``), so a by-name diff pairs them with
    the current layout's.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.model.fields import replace
    >>> gf = GraphFrame.from_literal([{"frame": {"name": "main", "type": "function"},
    ...     "metrics": {"time": 1.0}, "children": [{"frame": {"name": "11:f",
    ...     "type": "function"}, "metrics": {"time": 2.0}}]}])
    >>> gf = replace(gf, metadata={"format": "hpctoolkit"})
    >>> function_keys(gf, np.array(["main", "11:f"], dtype=object)).tolist()
    ['main', 'f']

    Old-layout entry roots are keyed as the current layout's entry points
    (``<program root>`` -> ``main thread``).
    """
    if gf.metadata.get("format") != "hpctoolkit" or "type" not in gf.graph.attr_names():
        return names
    kind = np.asarray(gf.graph.attr_values("type"), dtype=object)
    if len(kind) != len(names):
        return names
    out = np.asarray(names, dtype=object).copy()
    functions = np.flatnonzero(kind == "function")
    stripped = pd.Series(out[functions], dtype=object).str.replace(_CALL_SITE, "", regex=True)
    text = stripped.notna().to_numpy(dtype=bool)   # non-text names stay as they are
    out[functions[text]] = stripped[text].to_numpy(dtype=object)
    roots = gf.graph.root_ids
    out[roots] = [ENTRY_ROOTS.get(n, n) if isinstance(n, str) else n for n in out[roots]]
    return out


#: The formats of the two layouts (``metadata["format"]``).
LAYOUTS = ("hpctoolkit", "hpctoolkit-latest")


def layout_matching(before: Any, after: Any) -> Any:
    """For one profile of each HPCToolkit layout: ``(map_b, map_a, graph)``, each
    side's nodes mapped onto the union of their matching graphs (see the module
    docs), else None.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.model.fields import replace
    >>> def node(name, kind, *kids):
    ...     return {"frame": {"name": name, "type": kind}, "metrics": {"time": 1.0},
    ...             "children": list(kids)}
    >>> def gf(root, fmt):
    ...     return replace(GraphFrame.from_literal([root]), metadata={"format": fmt})
    >>> old = gf(node("<program root>", "function", node("main", "function",
    ...                                                 node("11:f", "function"))),
    ...          "hpctoolkit")
    >>> new = gf(node("main thread", "entry", node("main", "function", node(
    ...     "main.c:11", "line", node("f", "function")))), "hpctoolkit-latest")
    >>> map_b, map_a, graph = layout_matching(old, new)
    >>> [graph.frame_dict(int(i))["name"] for i in map_b]
    ['main thread', 'main', '11:f']
    >>> [graph.frame_dict(int(i))["name"] for i in map_a]   # f called from main.c:11
    ['main thread', 'main', 'main.c:11', '11:f']
    """
    formats = (before.metadata.get("format"), after.metadata.get("format"))
    if sorted(map(str, formats)) != sorted(LAYOUTS):
        return None
    sides = [_matching_graph(gf) for gf in (before, after)]
    if any(side is None for side in sides):
        return None
    (gb, ob), (ga, oa) = sides
    graph, mb, ma = gb.union(ga, return_mappings=True)
    return (mb[st.invert(ob, len(ob))], ma[st.invert(oa, len(oa))], graph)


def _matching_graph(gf: Any) -> Any:
    """``(graph, order)``: ``gf``'s tree keyed by names only, call sites folded."""
    g = gf.graph
    if not g.is_forest or "type" not in g.attr_names():
        return None
    names = np.asarray(display_name_array(gf), dtype=object).copy()
    parent = np.asarray(g.parent, dtype=np.int64).copy()
    kind = np.asarray(g.attr_values("type"), dtype=object)
    roots = g.root_ids
    names[roots] = [ENTRY_ROOTS.get(n, n) for n in names[roots]]
    if gf.metadata.get("format") == "hpctoolkit-latest":
        original = np.asarray(g.parent, dtype=np.int64)
        called = np.flatnonzero((kind == "function") & (original >= 0))
        called = called[kind[original[called]] == "line"]
        site = original[called]
        line = pd.Series(names[site], dtype=object).astype(str).str.rsplit(":", n=1).str[-1]
        callee = pd.Series(names[called], dtype=object).astype(str).str.removeprefix(
            "function: ")
        names[called] = (line + ":" + callee).to_numpy(dtype=object)
        parent[called] = original[site]
    return Graph.build(pd.DataFrame({"name": names}), parent)
