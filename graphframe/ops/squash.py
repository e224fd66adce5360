"""squash: keep only nodes that have rows, rewire, merge equal siblings.

Semantics (Hatchet's): a kept node's new parents are its nearest kept
ancestors along every path (an edge ``P -> K`` exists iff some old path goes
from kept ``P`` to kept ``K`` through removed nodes only); a kept node
reachable from a root through removed nodes only becomes a root (a kept old
root stays one). Then siblings with equal frames merge, recursively (their
children are pooled), and their rows merge by each column's aggregation
(:mod:`graphframe.ops.merge_rules`; by default metrics summed, other columns
first value). Node ids are renumbered in pre-order (no gaps, unlike Hatchet).

Everything is done with arrays: nearest kept ancestors by pointer jumping,
sibling merging by interning call paths one depth level at a time. Graphs
with shared nodes (call graphs, DAGs) take the same steps along first
parents, add the edges that reach a kept node through removed nodes with
several parents, and finish the merging over every edge (the congruence
closure of :mod:`graphframe.kernels.congruence`), so one extra edge in a
large tree costs about what the tree costs.
"""

from __future__ import annotations

from typing import Tuple

import numpy as np

from ..model.dataframe import level_ids
from ..kernels import structure as st
from ..model.graph import Graph
from ..kernels.congruence import merge_equal_children
from ..kernels.paths import intern_paths, nearest_kept_ancestor, representatives
from .inclusive import update_inclusive_columns
from .merge_rules import merge_rules
from .rows import remap_rows
from ..model.fields import GF, replace

INT = np.int64


def squash(gf: GF, update_inc_cols: bool = True) -> GF:
    """New GraphFrame whose graph holds exactly the nodes with rows."""
    graph = gf.graph
    node_of_row = level_ids(gf.dataframe.index)
    kept = np.zeros(graph.num_nodes, dtype=bool)
    kept[node_of_row] = True
    new_graph, new_of_old = squash_graph(graph, kept)
    df = remap_rows(gf.dataframe, new_of_old, merge_rules(gf))
    out = replace(gf, graph=new_graph, dataframe=df)
    # remap_rows' frame is new and never shares writable data: no second copy
    return update_inclusive_columns(out, copy=False) if update_inc_cols else out


def squash_graph(graph: Graph, kept: np.ndarray) -> Tuple[Graph, np.ndarray]:
    """The squashed graph and the old -> new id map (-1 for removed nodes)."""
    if graph.is_forest:
        return _squash_forest(graph, kept)
    return _squash_general(graph, kept)


def _squash_forest(graph: Graph, kept: np.ndarray) -> Tuple[Graph, np.ndarray]:
    kept_ids = np.flatnonzero(kept)
    sub_index = np.full(graph.num_nodes, -1, dtype=INT)
    sub_index[kept_ids] = np.arange(len(kept_ids), dtype=INT)
    nka = nearest_kept_ancestor(graph.parent, kept)[kept_ids]
    sub_parent = np.where(nka >= 0, sub_index[np.maximum(nka, 0)], -1)
    sub_depth = st.forest_depth(sub_parent)
    codes = graph.frame_codes[kept_ids]
    path, k = intern_paths(sub_parent, codes, sub_depth)
    rep = representatives(path, k)
    merged_parent = np.where(sub_parent[rep] >= 0, path[np.maximum(sub_parent[rep], 0)], -1)
    old_rep = kept_ids[rep]
    new_graph, order = Graph.build(graph.attrs.iloc[old_rep], merged_parent,
                                   ordered=graph.ordered,
                                   sibling_key=old_rep if graph.ordered else None,
                                   codes=graph.frame_codes[old_rep])
    new_of_path = st.invert(order, k)
    new_of_old = np.full(graph.num_nodes, -1, dtype=INT)
    new_of_old[kept_ids] = new_of_path[path]
    return new_graph, new_of_old


# ---------------------------------------------------------------- general graphs
def _squash_general(graph: Graph, kept: np.ndarray) -> Tuple[Graph, np.ndarray]:
    """Graphs with shared nodes: the same steps as forests, plus the extra edges.

    Kept nodes are numbered ``0..m-1`` and ``m`` stands for "a root". Every
    kept node's first-parent chain gives one new parent, its nearest kept
    ancestor, and those form a spanning forest of the new graph; interning
    call paths along it merges most equal siblings at once. The other new
    edges come from the old edges whose parent was removed (:class:`_Upward`);
    merging equal children over every new edge then finishes the job
    (:func:`~graphframe.kernels.congruence.merge_equal_children`).
    """
    kept_ids = np.flatnonzero(kept)
    m = len(kept_ids)
    compact = np.full(graph.num_nodes, -1, dtype=INT)
    compact[kept_ids] = np.arange(m, dtype=INT)
    up = _Upward(graph, kept, compact)
    src, dst = _new_edges(graph, kept, compact, up)
    codes = graph.frame_codes[kept_ids]
    sub_parent = np.where(up.top[kept_ids] < m, up.top[kept_ids], -1)
    path, k = intern_paths(sub_parent, codes, st.forest_depth(sub_parent))
    label = np.append(representatives(path, k)[path], m)
    seeded = src == np.where(sub_parent >= 0, sub_parent, m)[dst]
    start = np.flatnonzero(np.isin(label[src], label[src[~seeded]]))
    label = merge_equal_children(label, src, dst, np.append(codes, 0),
                                 np.zeros(len(src), dtype=INT), start=start)[:m]
    is_rep = label == np.arange(m, dtype=INT)  # a class is labelled by its smallest member
    rep = np.flatnonzero(is_rep)
    cls = (np.cumsum(is_rep) - 1)[label]
    root_pos = np.unique(cls[dst[src == m]])
    inner = src < m  # edges listed by (child, parent), as the merge of their groups
    old_rep = kept_ids[rep]
    new_graph, order = Graph.from_edges(graph.attrs.iloc[old_rep], cls[src[inner]],
                                        cls[dst[inner]], root_pos, ordered=graph.ordered,
                                        sibling_key=old_rep if graph.ordered else None,
                                        codes=graph.frame_codes[old_rep])
    new_of_old = np.full(graph.num_nodes, -1, dtype=INT)
    new_of_old[kept_ids] = st.invert(order, len(rep))[cls]
    return new_graph, new_of_old


def _new_edges(graph: Graph, kept: np.ndarray, compact: np.ndarray, up: "_Upward"
               ) -> Tuple[np.ndarray, np.ndarray]:
    """Every edge of the squashed graph once, in compact ids, sorted by (child, parent).

    An old edge ``p -> c`` into a kept ``c`` gives ``p -> c`` when ``p`` is
    kept and ``a -> c`` for every ``a`` :class:`_Upward` finds above ``p``
    otherwise; an old root that is kept stays a root (parent ``m``). Every
    kept node's first-parent edge gives its nearest kept ancestor (``top``),
    listed in child order; the few others are sorted in.
    """
    m = up.m
    kept_ids = np.flatnonzero(kept)
    into_kept = kept[up.dst]
    other = into_kept & ~up.first_edge  # not first-parent edges
    p, c = up.src[other], compact[up.dst[other]]
    a = np.where(kept[p], compact[p], up.top[p])
    removed = np.flatnonzero(into_kept & ~kept[up.src])
    via, above = up.sets_of(up.src[removed])
    cyclic = graph.root_ids[kept[graph.root_ids] & (up.top[graph.root_ids] < m)]
    width = m + 1
    key = np.concatenate([np.arange(m, dtype=INT) * width + up.top[kept_ids],
                          c * width + a, compact[up.dst[removed[via]]] * width + above,
                          compact[cyclic] * width + m])
    key = np.sort(key, kind="stable")  # sorted but for the few extra edges: one pass
    key = key[np.r_[True, key[1:] != key[:-1]]] if len(key) else key
    return key % width, key // width


class _Upward:
    """The kept nodes (or root ``m``) reached upwards from removed nodes through removed ones.

    From a removed node ``p`` the walk up along first parents reaches
    ``top[p]`` (its nearest kept ancestor, or ``m``); on the way it passes
    removed nodes with other parents too (``S``: the removed targets of extra
    edges, and removed roots that have a parent), and from each of those the
    walk continues through every other parent (and reaches "a root" at such a
    root). So the set of ``p`` is ``{top[p]} | A(s)``, ``s`` the first node of
    ``S`` on ``p``'s chain, and ``A`` over ``S`` is the least solution of:
    ``A(s)`` holds each other parent ``q`` of ``s`` (kept) or ``top[q]`` and
    ``A`` of ``q``'s first node of ``S`` (removed), and ``A`` of the next node
    of ``S`` up the chain. One pointer jumping over the graph finds, for
    every node, the nearest ancestor that is kept or in ``S``; the rest works
    on ``S`` alone (:func:`_closure`).
    """

    def __init__(self, graph: Graph, kept: np.ndarray, compact: np.ndarray) -> None:
        n = graph.num_nodes
        parent = graph.parent
        self.src = src = graph.edge_sources()
        self.dst = dst = graph.child_idx
        self.first_edge = parent[dst] == src
        self.m = m = int(kept.sum())
        extra = ~self.first_edge & ~kept[dst]
        roots = graph.root_ids
        cyclic_roots = roots[(parent[roots] >= 0) & ~kept[roots]]
        shared = np.union1d(dst[extra], cyclic_roots)  # a root reached from elsewhere
        is_shared = np.zeros(n, dtype=bool)
        is_shared[shared] = True
        stop = nearest_kept_ancestor(parent, kept | is_shared)
        nka = stop.copy()  # through shared stops up to the nearest kept ancestor
        via_shared = np.flatnonzero((stop >= 0) & is_shared[np.maximum(stop, 0)])
        x = stop[via_shared]
        while len(x):
            more = (x >= 0) & is_shared[np.maximum(x, 0)]
            if not more.any():
                break
            x = np.where(more, stop[np.maximum(x, 0)], x)
        nka[via_shared] = x
        self.top = np.where(nka >= 0, compact[np.maximum(nka, 0)], m)
        self.slot = slot = np.full(n, -1, dtype=INT)
        slot[shared] = np.arange(len(shared), dtype=INT)
        self.kept, self.stop = kept, stop
        q, s = src[extra], slot[dst[extra]]
        base_s = np.concatenate([s[kept[q]], s[~kept[q]], slot[cyclic_roots]])
        base_a = np.concatenate([compact[q[kept[q]]], self.top[q[~kept[q]]],
                                 np.full(len(cyclic_roots), m, dtype=INT)])
        up = np.maximum(parent[shared], 0)
        chain = (parent[shared] >= 0) & (self.first(up) >= 0)
        removed_q = self.first(q) >= 0
        dep_s = np.concatenate([s[removed_q], slot[shared[chain]]])
        dep_t = np.concatenate([self.first(q[removed_q]), self.first(up[chain])])
        self.sets = _closure(len(shared), base_s, base_a, dep_s, dep_t, m)

    def first(self, nodes: np.ndarray) -> np.ndarray:
        """Slot of each node's first node of ``S`` on its chain (itself included); -1 if
        there is none before a kept node, or the node is kept."""
        own = self.slot[nodes]
        stop = self.stop[nodes]
        above = np.where(own >= 0, own, np.where(stop >= 0, self.slot[np.maximum(stop, 0)], -1))
        return np.where(self.kept[nodes], -1, above)

    def sets_of(self, nodes: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """``A`` of each node's first node of ``S``: ``(position in nodes, member)`` pairs."""
        fs = self.first(nodes)
        has = np.flatnonzero(fs >= 0)
        pick, values = _expand(self.sets, fs[has])
        return has[pick], values


def _closure(k: int, base_s: np.ndarray, base_a: np.ndarray, dep_s: np.ndarray,
             dep_t: np.ndarray, m: int) -> Tuple[np.ndarray, np.ndarray]:
    """Least sets ``A(s) >= base(s) | A(t)`` for every dependency ``s >= t``, as CSR."""
    width = m + 1
    known = np.unique(base_s * width + base_a)
    delta = known
    by_t = np.argsort(dep_t, kind="stable")
    t_ptr = np.zeros(k + 1, dtype=INT)
    np.cumsum(np.bincount(dep_t, minlength=k), out=t_ptr[1:])
    while len(delta) and len(dep_t):
        pick, values = _expand((t_ptr, dep_s[by_t]), delta // width)
        fresh = np.unique(values * width + (delta % width)[pick])
        fresh = fresh[~np.isin(fresh, known, assume_unique=True)]
        known = np.union1d(known, fresh)
        delta = fresh
    ptr = np.zeros(k + 1, dtype=INT)
    np.cumsum(np.bincount(known // width, minlength=k), out=ptr[1:])
    return ptr, known % width


def _expand(csr: Tuple[np.ndarray, np.ndarray], keys: np.ndarray
            ) -> Tuple[np.ndarray, np.ndarray]:
    """For each of ``keys`` (its position ``i``), every value listed under it:
    ``(i repeated, values)``."""
    ptr, values = csr
    counts = ptr[keys + 1] - ptr[keys]
    total = int(counts.sum())
    starts = np.repeat(ptr[keys] - np.cumsum(counts) + counts, counts)
    return (np.repeat(np.arange(len(keys), dtype=INT), counts),
            values[starts + np.arange(total, dtype=INT)])
