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
from ..kernels.paths import intern_paths, match_paths, representatives, sibling_occurrence

INT = np.int64


@dataclass(frozen=True)
class UnionInputs:
    """Everything ``Graph.build`` needs for the union, plus the path of each old node."""

    attrs: pd.DataFrame
    parent: np.ndarray
    extra: Optional[Tuple[np.ndarray, np.ndarray]]
    ordered: bool
    sibling_key: Optional[np.ndarray]
    codes: np.ndarray
    path: np.ndarray      # path id of every node of a, then of b
    num_paths: int
    depth: Optional[np.ndarray] = None  # depth of every path (forests)


def union_inputs(a: Any, b: Any) -> UnionInputs:
    """Intern both graphs' nodes by call path (see :meth:`Graph.union`).

    Forests: ``b``'s nodes are matched onto ``a``'s, one depth level at a
    time, by ``(parent's match, frame code, occurrence)`` (:func:`_forest_union`).
    Graphs with shared nodes: one ``np.unique`` per depth level over
    ``(parent path, frame code, occurrence)`` seeds the classes, then children
    with equal frames are merged over *every* edge until stable
    (:func:`graphframe.kernels.congruence.merge_equal_children`), so a node
    matched through a second parent is still one node.
    """
    na = a.num_nodes
    attrs = pd.concat([a.attrs, b.attrs], ignore_index=True, sort=False)
    codes = joint_frame_codes(a, b)
    ordered = a.ordered and b.ordered
    if a.is_forest and b.is_forest:
        return _forest_union(a, b, attrs, codes, ordered)
    parent = np.concatenate([a.parent, np.where(b.parent >= 0, b.parent + na, -1)])
    depth = np.concatenate([a.depth, b.depth])
    src = np.concatenate([a.edge_sources(), b.edge_sources() + na])
    dst = np.concatenate([a.child_idx, b.child_idx + na])
    return _general_union(attrs, codes, parent, depth, src, dst, ordered, a.root_ids,
                          b.root_ids + na)


def _forest_union(a: Any, b: Any, attrs: pd.DataFrame, codes: np.ndarray,
                  ordered: bool) -> UnionInputs:
    """The union of two forests: ``b``'s nodes matched onto ``a``'s by call path.

    A node's sibling key is its frame code and its occurrence among the
    siblings with that code, so duplicate siblings pair up one to one. Every
    node of ``a`` is a path of the union, and so is every node of ``b``
    without a match. Paths are numbered so that the children of one node come
    in sibling-key order (the order :meth:`Graph.build` keeps in child lists);
    ``a``'s node represents a path both graphs have.
    """
    na = a.num_nodes
    code_a, code_b = codes[:na], codes[na:]
    occ_a, occ_b = sibling_occurrence(a.parent, code_a), sibling_occurrence(b.parent, code_b)
    spread = int(max(occ_a.max(initial=0), occ_b.max(initial=0))) + 1
    key_a = code_a * spread + occ_a
    key_b = code_b * spread + occ_b
    match = match_paths(a.parent, key_a, b.parent, key_b, b.depth)
    new_b = np.flatnonzero(match < 0)
    # union slots: a's nodes, then b's unmatched nodes
    slot_b = match.copy()
    slot_b[new_b] = na + np.arange(len(new_b), dtype=INT)
    up = b.parent[new_b]
    parent = np.concatenate([a.parent, np.where(up >= 0, slot_b[np.maximum(up, 0)], -1)])
    order = st.sort_keys(np.concatenate([key_a, key_b[new_b]]), parent)
    k = len(order)
    path_of_slot = st.invert(order, k)
    rep = np.concatenate([np.arange(na, dtype=INT), na + new_b])[order]
    up = parent[order]
    merged_parent = np.where(up >= 0, path_of_slot[np.maximum(up, 0)], -1)
    path = np.concatenate([path_of_slot[:na], path_of_slot[slot_b]])
    depth = np.concatenate([a.depth, b.depth[new_b]])[order]
    return UnionInputs(attrs.iloc[rep], merged_parent, None, ordered,
                       rep if ordered else None, codes[rep], path, k, depth)


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
