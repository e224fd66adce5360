"""Flat diffs: profiles keyed by function name instead of call path.

Each profile becomes one value per distinct ``name`` (the dataframe's
``name`` column, else the frame's name; an old-layout HPCToolkit function
without its call-site line, ``11:f`` -> ``f``, see ``layouts.py``):

- an **exclusive** metric is summed over every node with that name (all
  call sites);
- an **inclusive** metric is summed over the *outermost* nodes with that
  name only: a node nested under another node of the same name (recursion)
  is already inside that node's inclusive value, so counting it again would
  double count. Nesting is checked along first parents (for call graphs with
  shared nodes, along the path ``tree()`` expands them under).

The result graph is a forest of one root per name (frame ``{"name": n,
"type": "function"}``), numbered in frame order.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np
import pandas as pd

from ..kernels import structure as st
from ..model.graph import Graph
from ..model.nodevalues import display_name_array
from .layouts import function_keys

INT = np.int64


def by_name(before: Any, after: Any, vb: Dict, va: Dict, metrics: List[Any],
            pairs: Dict[Any, Any]) -> Tuple[Graph, Dict, Dict, np.ndarray, Dict]:
    """Flat graph, per-name values of both sides, status codes and the ``name`` column."""
    names_b = function_keys(before, display_name_array(before))
    names_a = function_keys(after, display_name_array(after))
    codes, found = pd.factorize(np.concatenate([names_b, names_a]))
    found = np.asarray(found, dtype=object)
    by_name = np.argsort(found, kind="stable")  # sort only the distinct names
    uniq = found[by_name]
    codes = st.invert(by_name, len(by_name))[codes]
    code_b, code_a = codes[:len(names_b)], codes[len(names_b):]
    k = len(uniq)
    attrs = pd.DataFrame({"name": uniq, "type": np.full(k, "function", dtype=object)})
    graph, order = Graph.build(attrs, np.full(k, -1, dtype=INT))
    inclusive = set(pairs.values()) | {m for m in metrics if m in before.inc_metrics}
    values_b, values_a = {}, {}
    for m in metrics:
        for gf, codes, side, out in ((before, code_b, vb, values_b), (after, code_a, va, values_a)):
            values = np.nan_to_num(side[m], nan=0.0, posinf=np.inf, neginf=-np.inf)
            if m in inclusive:
                values = np.where(outermost(gf.graph, codes), values, 0.0)
            out[m] = np.bincount(codes, weights=values, minlength=k)[order]
    in_b = (np.bincount(code_b, minlength=k) > 0)[order]
    in_a = (np.bincount(code_a, minlength=k) > 0)[order]
    status = np.where(in_b & in_a, 0, np.where(in_a, 1, 2))
    names = pd.Series(uniq[order]).infer_objects().array
    return graph, values_b, values_a, status, {"name": names}


def outermost(graph: Graph, codes: np.ndarray) -> np.ndarray:
    """True for nodes with no ancestor (along first parents) of the same code.

    Ids are a depth-first pre-order, so the first-parent subtree of ``v`` is
    the id range ``[v, v + size)``; within each code, a node is nested when
    an earlier node's range still covers it (a running maximum).

    Examples
    --------
    >>> g = Graph.from_lists(("f", ("g", ("f", "h")), "f"))
    >>> [n.frame["name"] for n in g.traverse()]
    ['f', 'f', 'g', 'f', 'h']
    >>> codes = np.array([0, 0, 1, 0, 2])
    >>> outermost(g, codes).tolist()
    [True, False, True, False, True]
    """
    n = graph.num_nodes
    if not n:
        return np.zeros(0, dtype=bool)
    ids = np.arange(n, dtype=INT)
    end = ids + _first_parent_sizes(graph)
    order = np.lexsort((ids, codes))
    big = n + 1
    group = codes[order].astype(INT) * big
    reach = np.maximum.accumulate(group + end[order])
    previous = np.empty(n, dtype=INT)
    previous[0] = -1
    previous[1:] = reach[:-1]
    nested = previous > group + ids[order]
    out = np.ones(n, dtype=bool)
    out[order[nested]] = False
    return out


def _first_parent_sizes(graph: Graph) -> np.ndarray:
    if graph.is_forest:
        return graph.subtree_sizes()
    size = np.ones(graph.num_nodes, dtype=INT)
    parent = graph.parent
    for level in reversed(st.levels(graph.depth)[1:]):
        np.add.at(size, parent[level], size[level])
    return size
