"""The union of two graphs: both graphs' nodes interned together by call path.

:func:`union_inputs` prepares the arrays :meth:`Graph.build` needs for the
union (``Graph.union`` calls it); it never imports ``Graph``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Tuple

import numpy as np
import pandas as pd

from ..kernels import structure as st
from .frame_codes import joint_frame_codes
from ..kernels.congruence import edge_occurrence, merge_equal_children
from ..kernels.paths import intern_paths, representatives

INT = np.int64


@dataclass(frozen=True)
class UnionInputs:
    """Everything ``Graph.build`` needs for the union, plus the path of each old node."""

    attrs: pd.DataFrame
    parent: np.ndarray
    extra: Tuple[np.ndarray, np.ndarray]
    ordered: bool
    sibling_key: Optional[np.ndarray]
    codes: np.ndarray
    path: np.ndarray      # path id of every node of a, then of b
    num_paths: int


def union_inputs(a: Any, b: Any) -> UnionInputs:
    """Intern both graphs' nodes by call path (see :meth:`Graph.union`).

    Forests: one ``np.unique`` per depth level over ``(parent path, frame
    code, occurrence)``. Graphs with shared nodes: the same interning seeds
    the classes, then children with equal frames are merged over *every*
    edge until stable (:func:`graphframe.kernels.congruence.merge_equal_children`),
    so a node matched through a second parent is still one node.
    """
    na, nb = a.num_nodes, b.num_nodes
    attrs = pd.concat([a.attrs, b.attrs], ignore_index=True, sort=False)
    codes = joint_frame_codes(a, b)
    parent = np.concatenate([a.parent, np.where(b.parent >= 0, b.parent + na, -1)])
    depth = np.concatenate([a.depth, b.depth])
    siblings = np.where(parent >= 0, parent, np.repeat([-1, -2], [na, nb]))
    src = np.concatenate([a.edge_sources(), b.edge_sources() + na])
    dst = np.concatenate([a.child_idx, b.child_idx + na])
    ordered = a.ordered and b.ordered
    if a.is_forest and b.is_forest:
        path, k = intern_paths(parent, codes, depth, occurrence=True,
                               order_key=np.arange(na + nb, dtype=INT), sibling_group=siblings)
        rep = representatives(path, k)  # left nodes come first: they represent shared paths
        merged_parent = np.where(parent[rep] >= 0, path[np.maximum(parent[rep], 0)], -1)
        return UnionInputs(attrs.iloc[rep], merged_parent, (path[src], path[dst]), ordered,
                           rep if ordered else None, codes[rep], path, k)
    return _general_union(attrs, codes, parent, depth, src, dst, ordered, a.root_ids,
                          b.root_ids + na)


def _general_union(attrs, codes, parent, depth, src, dst, ordered, roots_a, roots_b):
    """Union classes of graphs with shared nodes or cycles (see :func:`union_inputs`).

    The roots of each graph hang below a virtual node (one per graph, both in
    one class), so roots with equal frames merge like any other children,
    including a root that also has a parent (a recursion back to it).
    """
    n = len(parent)
    roots = np.concatenate([roots_a, roots_b])
    all_src = np.concatenate([src, np.repeat([n, n + 1], [len(roots_a), len(roots_b)])])
    all_dst = np.concatenate([dst, roots])
    all_codes = np.append(codes, [0, 0])
    edge_rank = edge_occurrence(all_src, all_dst, all_codes)
    rank = np.zeros(n, dtype=INT)
    first_edge = np.r_[parent[dst] == src, parent[roots] < 0]
    rank[all_dst[first_edge]] = edge_rank[first_edge]
    seed, k = intern_paths(parent, codes, depth, rank=rank)
    label = np.append(representatives(seed, k)[seed], [n, n])
    label = merge_equal_children(label, all_src, all_dst, all_codes, edge_rank)[:n]
    rep, path = np.unique(label, return_inverse=True)
    path = path.reshape(-1).astype(INT)
    k = len(rep)
    csrc, cdst = path[src], path[dst]
    first = st.bfs_parents(k, csrc, cdst, np.unique(path[roots])).clip(min=-1)
    return UnionInputs(attrs.iloc[rep], first, (csrc, cdst), ordered,
                       rep if ordered else None, codes[rep], path, k)
