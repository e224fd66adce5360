"""Strongly connected components and the order of their condensation.

There is one implementation of strongly connected components in the project,
:func:`graphframe_readers.common.callgraph.strongly_connected` (iterative Tarjan): readers need
it to find the roots of call graphs and cannot import graphframe, so
graphframe uses theirs. This module adds what the operations need on top:
the condensation's edges and its levels (components grouped so that every
edge leaves a later level for an earlier one), vectorised per level.
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np

from graphframe_readers.common.callgraph import strongly_connected

INT = np.int64

__all__ = ["condensation", "sink_levels", "strongly_connected"]


def condensation(n: int, src: np.ndarray, dst: np.ndarray
                 ) -> Tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """``(component of each node, number of components, edge sources, edge targets)``.

    The edges are those between different components, each once.

    Examples
    --------
    >>> comp, k, a, b = condensation(4, np.array([0, 1, 1, 2]), np.array([1, 0, 2, 3]))
    >>> comp.tolist(), k, a.tolist(), b.tolist()
    ([0, 0, 1, 2], 3, [0, 1], [1, 2])
    """
    src = np.asarray(src, dtype=INT)
    dst = np.asarray(dst, dtype=INT)
    comp = strongly_connected(n, src, dst)
    k = int(comp.max()) + 1 if n else 0
    a, b = comp[src], comp[dst]
    between = a != b
    key = np.unique(a[between] * max(k, 1) + b[between])
    return comp, k, key // max(k, 1), key % max(k, 1)


def sink_levels(k: int, src: np.ndarray, dst: np.ndarray) -> List[np.ndarray]:
    """Nodes of a DAG grouped by height: sinks first, then nodes whose successors are
    all in earlier groups (so a pass over the groups sees successors first).

    Raises ValueError when the graph has a cycle.

    Examples
    --------
    >>> [g.tolist() for g in sink_levels(4, np.array([0, 0, 1]), np.array([1, 2, 3]))]
    [[2, 3], [1], [0]]
    """
    src = np.asarray(src, dtype=INT)
    dst = np.asarray(dst, dtype=INT)
    pending = np.bincount(src, minlength=k)  # successors not placed yet
    order = np.argsort(dst, kind="stable")   # edges grouped by target
    ptr = np.zeros(k + 1, dtype=INT)
    np.cumsum(np.bincount(dst, minlength=k), out=ptr[1:])
    levels = []
    frontier = np.flatnonzero(pending == 0)
    placed = 0
    while len(frontier):
        levels.append(frontier)
        placed += len(frontier)
        counts = ptr[frontier + 1] - ptr[frontier]
        starts = np.repeat(ptr[frontier] - np.cumsum(counts) + counts, counts)
        preds = src[order[starts + np.arange(int(counts.sum()), dtype=INT)]]
        np.subtract.at(pending, preds, 1)
        done = np.unique(preds)
        frontier = done[pending[done] == 0]
    if placed != k:
        raise ValueError("the graph has a cycle")
    return levels
