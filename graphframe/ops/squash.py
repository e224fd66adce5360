"""squash: keep only nodes that have rows, rewire, merge equal siblings.

Semantics (Hatchet's): a kept node's new parents are its nearest kept
ancestors along every path (an edge ``P -> K`` exists iff some old path goes
from kept ``P`` to kept ``K`` through removed nodes only); a kept node
reachable from a root through removed nodes only becomes a root (a kept old
root stays one). Then siblings with equal frames merge, recursively (their
children are pooled), and their rows merge by each column's aggregation
(:mod:`graphframe.ops.merge_rules`; by default metrics summed, other columns
first value). Node ids are renumbered in pre-order (no gaps, unlike Hatchet).

Forests are handled with arrays only: nearest kept ancestors by pointer
jumping, sibling merging by interning call paths one depth level at a time.
Graphs with shared nodes (call graphs) use set-based rewiring over the (small)
graph.
"""

from __future__ import annotations

from typing import Dict, List, Set, Tuple

import numpy as np

from ..model.dataframe import level_ids
from ..kernels import structure as st
from ..model.graph import Graph
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
    return update_inclusive_columns(out) if update_inc_cols else out


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
ROOT = -1  # marker: reachable from a root through removed nodes only


def _squash_general(graph: Graph, kept: np.ndarray) -> Tuple[Graph, np.ndarray]:
    n = graph.num_nodes
    parents = [graph.parents_of(v).tolist() for v in range(n)]
    is_root = np.zeros(n, dtype=bool)
    is_root[graph.root_ids] = True
    upward = _removed_closure(parents, kept, is_root)
    new_parents: Dict[int, Set[int]] = {}
    roots: List[int] = []
    for v in np.flatnonzero(kept).tolist():
        found: Set[int] = set()
        for p in parents[v]:
            found |= {p} if kept[p] else upward[p]
        if is_root[v] or ROOT in found:
            roots.append(v)
        new_parents[v] = found - {ROOT}
    group = _merge_equal_siblings(graph.frame_codes, new_parents, roots)
    return _graph_from_groups(graph, kept, group, new_parents, roots)


def _removed_closure(parents, kept, is_root) -> Dict[int, Set[int]]:
    """For each removed node, its nearest kept ancestors (ROOT if a root is reached)."""
    removed = np.flatnonzero(~kept).tolist()
    upward: Dict[int, Set[int]] = {v: ({ROOT} if is_root[v] else set()) for v in removed}
    changed = True
    while changed:  # fixpoint: terminates on cycles of removed nodes
        changed = False
        for v in removed:
            acc = upward[v]
            before = len(acc)
            for p in parents[v]:
                acc |= {p} if kept[p] else upward[p]
            if len(acc) != before:
                changed = True
    return upward


def _merge_equal_siblings(codes, new_parents, roots) -> Dict[int, int]:
    """Union-find: siblings (and roots) with equal frames merge until stable."""
    rep = {v: v for v in new_parents}

    def find(v: int) -> int:
        while rep[v] != v:
            rep[v] = rep[rep[v]]
            v = rep[v]
        return v

    changed = True
    while changed:
        changed = False
        buckets: Dict[Tuple[int, int], int] = {}
        for v in roots:
            key = (ROOT, int(codes[v]))
            other = buckets.setdefault(key, find(v))
            if find(v) != find(other):
                rep[find(v)] = find(other)
                changed = True
        for v, ps in new_parents.items():
            for p in ps:
                key = (find(p), int(codes[v]))
                other = buckets.setdefault(key, find(v))
                a, b = find(v), find(other)
                if a != b:
                    rep[max(a, b)] = min(a, b)
                    changed = True
    return {v: find(v) for v in new_parents}


def _graph_from_groups(graph, kept, group, new_parents, roots) -> Tuple[Graph, np.ndarray]:
    reps = sorted(set(group.values()))
    position = {r: i for i, r in enumerate(reps)}
    src, dst = [], []
    for v, ps in sorted(new_parents.items()):
        for p in sorted(ps):
            src.append(position[group[p]])
            dst.append(position[group[v]])
    root_pos = sorted({position[group[r]] for r in roots})
    attrs = graph.attrs.iloc[reps]
    new_graph, order = Graph.from_edges(attrs, src, dst, root_pos, ordered=graph.ordered,
                                        sibling_key=np.asarray(reps) if graph.ordered else None,
                                        codes=graph.frame_codes[reps])
    new_of_pos = st.invert(order, len(reps))
    new_of_old = np.full(graph.num_nodes, -1, dtype=INT)
    for v, r in group.items():
        new_of_old[v] = new_of_pos[position[r]]
    return new_graph, new_of_old
