"""Structural graph equality, as Hatchet defines it.

Two graphs are equal when their roots can be paired so that frames and shapes
match, whatever the order of children and whatever the node ids. Each node is
given a canonical label bottom-up (its frame code plus the sorted labels of
the children it discovers; a child already reached by another path counts by
its frame only, as Hatchet's ``dag_equal`` does), then the sorted root labels
are compared. Labels are interned in one table shared by both graphs.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np

from .frame_codes import joint_frame_codes


def graphs_equal(a: Any, b: Any) -> bool:
    """True when ``a`` and ``b`` have the same shape and frames.

    Examples
    --------
    >>> from graphframe import Graph
    >>> Graph.from_lists(("a", "b", "c")) == Graph.from_lists(("a", "c", "b"))
    True
    >>> Graph.from_lists(("a", "b")) == Graph.from_lists(("a", ("b", "c")))
    False
    """
    if a is b:
        return True
    if (a.num_nodes != b.num_nodes or len(a.root_ids) != len(b.root_ids)
            or a.num_edges != b.num_edges):
        return False
    joint = joint_frame_codes(a, b)
    table: Dict[Tuple, int] = {}
    la = _labels(a, joint[:a.num_nodes], table)
    lb = _labels(b, joint[a.num_nodes:], table)
    return sorted(la[a.root_ids].tolist()) == sorted(lb[b.root_ids].tolist())


def _labels(g: Any, codes: np.ndarray, table: Dict[Tuple, int]) -> np.ndarray:
    labels = np.full(g.num_nodes, -1, dtype=np.int64)
    ptr, idx = g.sorted_children()
    first_parent = g.parent
    codes_list = codes.tolist()
    ptr_list, idx_list, fp = ptr.tolist(), idx.tolist(), first_parent.tolist()
    for v in g.postorder().tolist():
        kids = []
        for c in idx_list[ptr_list[v]:ptr_list[v + 1]]:
            if fp[c] == v and labels[c] >= 0:
                kids.append((0, int(labels[c])))
            else:
                kids.append((1, codes_list[c]))
        key = (codes_list[v], tuple(sorted(kids)))
        labels[v] = table.setdefault(key, len(table))
    return labels
