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

from typing import Any, List, Tuple

import networkx as nx
import numpy as np

from ..kernels import structure as st
from ..kernels.paths import nearest_kept_ancestor

INT = np.int64
BLOCK = 4096  # rows per block of the bits x own-sums product


def shared_sums(graph: Any, mat: np.ndarray, present: np.ndarray
                ) -> Tuple[np.ndarray, np.ndarray]:
    """``(sums, counts)``: per node, ``mat`` and ``present`` summed over its distinct
    descendants (see the module docs). Both inputs are (node x combo) matrices."""
    n = graph.num_nodes
    parent = graph.parent
    src = st.segment_owner(graph.child_ptr)
    dst = graph.child_idx
    extra = parent[dst] != src
    e_src, e_dst = src[extra], dst[extra]
    shared = np.unique(e_dst)
    k = len(shared)
    is_shared = np.zeros(n, dtype=bool)
    is_shared[shared] = True
    slot = np.full(n, -1, dtype=INT)
    slot[shared] = np.arange(k, dtype=INT)
    plan = tree_plan(parent, graph.depth)
    free_sum = _free_sums(plan, mat, is_shared)
    free_cnt = _free_sums(plan, present, is_shared)
    owner = np.where(is_shared, np.arange(n, dtype=INT), nearest_kept_ancestor(parent, is_shared))
    reach_x = _shared_closure(k, slot, owner, parent, shared, e_src, e_dst)
    bits = _reach_bits(plan, n, reach_x, shared, slot, is_shared, e_src, e_dst)
    add_free = ~is_shared & ~_reaches_owner(bits, owner, slot)
    own_sum, own_cnt = free_sum[shared], free_cnt[shared]
    out = np.where(add_free[:, None], free_sum, 0.0)
    out_cnt = np.where(add_free[:, None], free_cnt, 0)
    rows = np.flatnonzero(bits.any(axis=1)) if k else np.zeros(0, dtype=INT)
    for start in range(0, len(rows), BLOCK):
        r = rows[start:start + BLOCK]
        reach = np.unpackbits(bits[r], axis=1, count=k).astype(np.float64)
        out[r] += reach @ own_sum
        out_cnt[r] += np.rint(reach @ own_cnt).astype(out_cnt.dtype)
    return out, out_cnt


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
    step = nx.DiGraph()
    step.add_nodes_from(range(k))
    step.add_edges_from(zip(a.tolist(), b.tolist()))
    cond = nx.condensation(step)
    members = cond.graph["mapping"]
    scc_rows: dict = {}
    for x, c in members.items():
        scc_rows.setdefault(c, []).append(x)
    for c in reversed(list(nx.topological_sort(cond))):
        rows = scc_rows[c]
        acc = np.bitwise_or.reduce(reach[rows], axis=0)
        for d in cond.successors(c):
            acc |= reach[scc_rows[d][0]]
        reach[rows] = acc
    return reach


def _reach_bits(plan, n, reach_x, shared, slot, is_shared, e_src, e_dst) -> np.ndarray:
    """``n x k`` packed bits: the shared nodes reachable from every node."""
    bits = np.zeros((n, reach_x.shape[1]), dtype=np.uint8)
    if not len(shared):
        return bits
    bits[shared] = reach_x
    loose = ~is_shared[e_src]  # edges out of shared nodes are in reach_x already
    np.bitwise_or.at(bits, e_src[loose], reach_x[slot[e_dst[loose]]])
    for level, targets, starts in plan:
        bits[targets] |= np.bitwise_or.reduceat(bits[level], starts, axis=0)
    return bits


def _reaches_owner(bits: np.ndarray, owner: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """Per node: is its owner (the nearest shared node above it) reachable from it?"""
    has = owner >= 0
    s = slot[np.maximum(owner, 0)]
    rows = np.arange(len(owner))
    byte = bits[rows, np.maximum(s, 0) >> 3] if bits.shape[1] else np.zeros(len(owner), np.uint8)
    return has & ((byte & (0x80 >> (np.maximum(s, 0) & 7))).astype(bool))
