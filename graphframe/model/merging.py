"""Hatchet's sibling de-duplication on the array graph: ``find_merges`` and ``merge_nodes``.

Hatchet's ``Graph.normalize()`` merges siblings (children of one parent, and
roots) whose frames are equal, pooling their children so that equal-framed
children of merged nodes merge too. Here the classes come from one closure
over all edges (:func:`~graphframe.kernels.congruence.merge_equal_children`,
the same rule squash and union use), and merging contracts the edge arrays
into a new graph: a graph never changes in place (dataframes refer to its ids).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from ..errors import ArgumentError
from ..kernels import structure as st
from ..kernels.congruence import merge_equal_children
from .handnode import HandNode
from .node import Node

INT = np.int64


def merge_classes(graph: Any) -> np.ndarray:
    """Per node, the smallest id of the nodes it merges with (itself when none).

    Examples
    --------
    >>> from graphframe import Graph
    >>> merge_classes(Graph.from_lists(("a", ("x", "p"), ("x", "p")))).tolist()
    [0, 1, 2, 1, 2]
    """
    n = graph.num_nodes
    roots = graph.root_ids
    src = np.concatenate([graph.edge_sources(), np.full(len(roots), n, dtype=INT)])
    dst = np.concatenate([graph.child_idx, roots])
    codes = np.append(np.asarray(graph.frame_codes, dtype=INT), -1)  # n: "a root"
    label = merge_equal_children(np.arange(n + 1, dtype=INT), src, dst, codes,
                                 np.zeros(len(src), dtype=INT))
    return label[:n]


def find_merges(graph: Any) -> Dict[Any, Any]:
    """``{node: survivor}`` for every node that merges (survivors map to themselves)."""
    label = merge_classes(graph)
    size = np.bincount(label, minlength=graph.num_nodes)
    merged = np.flatnonzero(size[label] > 1)
    olds = Node.many(merged.tolist(), graph)
    return dict(zip(olds, Node.many(label[merged].tolist(), graph)))


def merge_nodes(graph: Any, merges: Dict[Any, Any],
                old_to_new: Optional[Dict[Any, Any]] = None) -> Any:
    """A new graph with each key of ``merges`` merged into its value (see
    :meth:`Graph.merge_nodes`)."""
    n = graph.num_nodes
    target = np.arange(n, dtype=INT)
    for old, new in merges.items():
        target[_id(graph, old)] = _id(graph, new)
    for _ in range(n):  # chains (a -> b, b -> c) resolve to their end
        nxt = target[target]
        if np.array_equal(nxt, target):
            break
        target = nxt
    reps = np.unique(target)
    cls = np.searchsorted(reps, target)
    src, dst = cls[graph.edge_sources()], cls[graph.child_idx]
    order = np.lexsort((dst, src))  # Hatchet sorts merged child lists
    roots = np.unique(cls[graph.root_ids])
    built, position = type(graph).from_edges(
        graph._attrs.iloc[reps], src[order], dst[order], roots, ordered=graph.ordered,
        sibling_key=reps if graph.ordered else None,
        codes=np.asarray(graph.frame_codes)[reps])
    if old_to_new is not None:
        new_of_old = st.invert(position, len(reps))[cls]
        olds = graph._cache.get("hand") or Node.many(list(range(n)), graph)
        old_to_new.update(zip(olds, Node.many(new_of_old.tolist(), built)))
    return built


def _id(graph: Any, node: Any) -> int:
    if isinstance(node, HandNode):
        if node._bound_graph is not graph:
            raise ArgumentError(f"{node!r} is not a node of this graph")
        return node._bound_id
    value = int(node)
    if not 0 <= value < graph.num_nodes:
        raise ArgumentError(f"node id {value} is out of range for a graph of "
                            f"{graph.num_nodes} nodes")
    return value
