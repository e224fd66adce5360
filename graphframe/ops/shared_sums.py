"""Inclusive sums on graphs with shared nodes: every distinct descendant counted once.

Hatchet's rule for call graphs and DAGs: the inclusive value of ``v`` is the
sum over the *distinct* nodes reachable from ``v`` (itself included), so a
node reached by two paths counts once; cycles are fine.

The graph's first parents form a spanning forest ``T`` (node ids are its
pre-order). Call ``X`` the *shared* nodes, the targets of the other edges,
and ``k = |X|``. Any path leaves ``T`` only through an edge into ``X``, so

* a node ``w`` is reachable from ``v`` iff ``w`` is in ``v``'s subtree of
  ``T`` or ``owner(w)`` (the nearest node of ``X`` on ``w``'s first-parent
  chain, ``w`` included) is reachable from ``v``;
* the subtree of ``T`` splits into *regions*: ``own(x)``, the nodes whose
  owner is ``x``, and for ``v`` outside ``X`` the *free* part ``free(v)``
  below ``v`` before any node of ``X``.

Hence ``inc(v) = free(v) + sum of own(x) over the nodes x of X reachable from
v`` (``free(v)`` is left out for ``v`` in ``X``, and when ``v`` reaches its
own owner through a cycle, since ``own`` already holds it). The free and own
sums are one level-wise pass over ``T``, exactly like a tree. Reachability is
only needed *towards X*: a ``k``-bit set per node, built from a closure over
the small graph on ``X`` (its strongly connected components, so cycles work)
and one bottom-up OR pass over ``T``. The sums are then one product of those
bits with the ``k`` own sums. Cost: O(n x combos) for the tree passes, n x k
bits, and n x k x combos multiply-adds only for the nodes that reach a shared
node. With few shared nodes (mostly-tree data) that is linear; with k close to
n (small call graphs) it is the classic O(n^2 / 8) bytes.

Examples
--------
A diamond ``a -> {b, c} -> d`` with unit values: ``d`` counts once for ``a``.

>>> from graphframe import Graph
>>> import pandas as pd
>>> g, _ = Graph.build(pd.DataFrame({"name": list("abcd")}), [-1, 0, 0, 1], ([2], [3]))
>>> out, _ = shared_sums(g, np.ones((4, 1)), np.ones((4, 1), dtype=np.int64))
>>> dict(zip(g.attrs["name"], out[:, 0].tolist()))
{'a': 4.0, 'b': 2.0, 'd': 1.0, 'c': 2.0}
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from ..kernels import structure as st
from ..kernels.components import condensation, sink_levels
from ..kernels.paths import nearest_marked

INT = np.int64
BLOCK = 4096  # rows per block of the bits x own-sums product


def shared_sums(graph: Any, mat: np.ndarray, present: Optional[np.ndarray] = None
                ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """``(sums, counts)``: per node, ``mat`` and ``present`` summed over its distinct
    descendants (see the module docs). Both inputs are (node x combo) matrices;
    without ``present`` (every cell has a value) no counts are computed."""
    return SharedSums(graph)(mat, present)


class SharedSums:
    """What the sums over distinct descendants need of a graph, computed once for all
    the columns summed over it (see the module docs)."""

    def __init__(self, graph: Any) -> None:
        n = graph.num_nodes
        parent = graph.parent
        src = graph.edge_sources()
        dst = graph.child_idx
        extra = parent[dst] != src
        e_src, e_dst = src[extra], dst[extra]
        self.shared = shared = np.unique(e_dst)
        self.k = k = len(shared)
        self.is_shared = is_shared = np.zeros(n, dtype=bool)
        is_shared[shared] = True
        slot = np.full(n, -1, dtype=INT)
        slot[shared] = np.arange(k, dtype=INT)
        self.plan = tree_plan(parent, graph.depth)
        self.rows = rows = _reaching(parent, shared, e_src)
        owner = np.full(n, -1, dtype=INT)  # wanted for the rows and the steps between regions
        asked = np.unique(np.concatenate([rows, e_src, np.maximum(parent[shared], 0)]))
        owner[asked] = nearest_marked(parent, is_shared, asked)
        reach_x = _shared_closure(k, slot, owner, parent, shared, e_src, e_dst)
        self.bits = _reach_bits(parent, graph.depth, rows, reach_x, shared, slot, is_shared,
                                e_src, e_dst)
        self.add_free = ~is_shared
        self.add_free[rows] &= ~_reaches_owner(rows, self.bits, owner, slot)

    def __call__(self, mat: np.ndarray, present: Optional[np.ndarray] = None
                 ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        out = self._sum(mat, mat.dtype if mat.dtype.kind in "iu" else np.float64)
        return out, None if present is None else self._sum(present, present.dtype)

    def _sum(self, values: np.ndarray, dtype: Any) -> np.ndarray:
        free = _free_sums(self.plan, values, self.is_shared)
        own = free[self.shared].astype(np.float64)
        out = np.where(self.add_free[:, None], free, 0).astype(dtype, copy=False)
        for start in range(0, len(self.rows), BLOCK):
            block = slice(start, start + BLOCK)
            reach = np.unpackbits(self.bits[block], axis=1, count=self.k).astype(np.float64)
            total = reach @ own
            out[self.rows[block]] += total if dtype == np.float64 else \
                np.rint(total).astype(dtype)
        return out


def tree_plan(parent: np.ndarray, depth: np.ndarray) -> List[Tuple[np.ndarray, np.ndarray,
                                                                    np.ndarray]]:
    """Bottom-up plan over the first-parent forest: ``(nodes, parents, starts)`` per
    level, deepest first, for ``np.add.reduceat`` (see :meth:`Graph.level_plan`)."""
    plan = []
    for level in reversed(st.levels(depth)[1:]):
        par = parent[level]
        if len(par) > 1 and not bool(np.all(par[1:] >= par[:-1])):
            keep = np.argsort(par, kind="stable")
            level, par = level[keep], par[keep]
        starts = np.flatnonzero(np.r_[True, par[1:] != par[:-1]])
        plan.append((level, par[starts], starts))
    return plan


def _free_sums(plan, mat: np.ndarray, is_shared: np.ndarray) -> np.ndarray:
    """Tree sums in which shared nodes do not pass their sums up to their first parent."""
    out = mat.astype(np.result_type(mat.dtype, np.int64), copy=True)
    for level, targets, starts in plan:
        values = out[level]
        cut = is_shared[level]
        if cut.any():
            values = values.copy()
            values[cut] = 0
        out[targets] += np.add.reduceat(values, starts, axis=0)
    return out


def _shared_closure(k: int, slot, owner, parent, shared, e_src, e_dst) -> np.ndarray:
    """``k x k`` packed bits: row ``x`` marks the shared nodes reachable from ``x``
    (itself included), from the graph of direct steps between shared nodes."""
    n_bytes = (k + 7) // 8
    reach = np.zeros((k, n_bytes), dtype=np.uint8)
    if not k:
        return reach
    ids = np.arange(k, dtype=INT)
    reach[ids, ids >> 3] = (0x80 >> (ids & 7)).astype(np.uint8)
    # direct steps: a shared node's first-parent chain reaches its owner's region,
    # and an extra edge leaves the region of the source's owner
    up = parent[shared]
    tree_from = np.where(up >= 0, owner[np.maximum(up, 0)], -1)
    step_src = np.concatenate([tree_from, owner[e_src]])
    step_dst = np.concatenate([shared, e_dst])
    ok = step_src >= 0
    a, b = slot[step_src[ok]], slot[step_dst[ok]]
    comp, k_comp, ca, cb = condensation(k, a, b)
    comp_reach = np.zeros((k_comp, n_bytes), dtype=np.uint8)
    np.bitwise_or.at(comp_reach, comp, reach)  # a component reaches all its members
    for level in sink_levels(k_comp, ca, cb):  # successors' rows are complete first
        out = np.isin(ca, level)
        np.bitwise_or.at(comp_reach, ca[out], comp_reach[cb[out]])
    return comp_reach[comp]


def _reaching(parent: np.ndarray, shared: np.ndarray, e_src: np.ndarray) -> np.ndarray:
    """The nodes that reach a shared node, ascending: the first-parent ancestors (and
    selves) of the shared nodes and of the sources of extra edges. With few shared
    nodes this stays small."""
    mark = np.zeros(len(parent), dtype=bool)
    frontier = np.unique(np.concatenate([shared, e_src]))
    while len(frontier):  # one step up per round, each node once
        mark[frontier] = True
        up = parent[frontier]
        up = up[up >= 0]
        frontier = np.unique(up[~mark[up]])
    return np.flatnonzero(mark)


def _reach_bits(parent: np.ndarray, depth: np.ndarray, rows: np.ndarray, reach_x: np.ndarray,
                shared: np.ndarray, slot: np.ndarray, is_shared: np.ndarray,
                e_src: np.ndarray, e_dst: np.ndarray) -> np.ndarray:
    """Per row (see :func:`_reaching`), the packed bits of the shared nodes it reaches."""
    bits = np.zeros((len(rows), reach_x.shape[1]), dtype=np.uint8)
    if not len(shared):
        return bits
    row_of = np.full(len(parent), -1, dtype=INT)
    row_of[rows] = np.arange(len(rows), dtype=INT)
    bits[row_of[shared]] = reach_x
    loose = ~is_shared[e_src]  # edges out of shared nodes are in reach_x already
    np.bitwise_or.at(bits, row_of[e_src[loose]], reach_x[slot[e_dst[loose]]])
    up_row = np.where(parent[rows] >= 0, row_of[np.maximum(parent[rows], 0)], -1)
    for level in reversed(st.levels(depth[rows])[1:]):  # deepest first, into parents
        level = level[up_row[level] >= 0]
        np.bitwise_or.at(bits, up_row[level], bits[level])
    return bits


def _reaches_owner(rows: np.ndarray, bits: np.ndarray, owner: np.ndarray,
                   slot: np.ndarray) -> np.ndarray:
    """Per row: is its owner (the nearest shared node above it) reachable from it?"""
    own = owner[rows]
    has = own >= 0
    s = np.maximum(slot[np.maximum(own, 0)], 0)
    if not bits.shape[1]:
        return np.zeros(len(rows), dtype=bool)
    byte = bits[np.arange(len(rows)), s >> 3]
    return has & ((byte & (0x80 >> (s & 7))).astype(bool))
