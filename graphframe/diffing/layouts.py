"""Matching the two HPCToolkit layouts of one program in a diff.

The old layout (``experiment.xml``) roots a program's call paths at
``<program root>`` (``<thread root>`` for other threads) and writes a call
site's line before the callee's name (``11:f``); the current layout
(``meta.db``) has entry points ``main thread`` and ``application thread`` and
the call site as a node of its own. ``diff`` uses these helpers so that both
match: by path, the old entry roots stand for the current ones; by name, a
function is keyed by its name without the call-site line.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from ..model.graph import Graph

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
    for i in np.flatnonzero(kind == "function").tolist():
        text = out[i]
        if isinstance(text, str):
            out[i] = _CALL_SITE.sub("", text)
    roots = gf.graph.root_ids
    out[roots] = [ENTRY_ROOTS.get(n, n) if isinstance(n, str) else n for n in out[roots]]
    return out
