"""Inclusive metrics from exclusive ones.

Trees and forests: node ids are in pre-order, so within one depth level the
parents of the level's nodes are non-decreasing; each level (deepest first)
is summed into its parents with one ``np.add.reduceat`` over a
(node x rank/thread) matrix. Cost: O(nodes x combos) plus one numpy call per
level.

Graphs with shared nodes (call graphs, DAGs, cycles) follow Hatchet: a node's
inclusive value is the sum over its *distinct* descendants (itself included),
so a node reached by two paths is counted once. Reachability is computed on
the condensation of the graph (strongly connected components, so cycles are
fine) as packed bitsets, then applied to the matrix in blocks.

In both cases NaN means "no value": sums skip NaN and a cell whose whole
subtree holds no value stays NaN (``sum(min_count=1)``). Missing
(node, rank) rows are treated the same way and are not created.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

import networkx as nx
import numpy as np

from .. import structure as st
from ..metrics import inclusive_name
from .rowmatrix import RowLayout


def update_inclusive_columns(gf: Any) -> Any:
    """New GraphFrame with the inclusive partner of every exclusive metric recomputed."""
    if not gf.exc_metrics:
        return gf._replace()
    df = gf.dataframe
    numeric = [m for m in gf.exc_metrics
               if m in df.columns and np.issubdtype(df[m].dtype, np.number)]
    targets: Dict[Any, Any] = {m: gf.inclusive_of.get(m, inclusive_name(m)) for m in numeric}
    sums = subgraph_sums(gf.graph, df, list(targets))
    out = df.copy()
    for (exc, inc), values in zip(targets.items(), sums):
        out[inc] = values
    inc_metrics = list(gf.inc_metrics) + [v for v in targets.values() if v not in gf.inc_metrics]
    pairs = dict(gf.inclusive_of)
    pairs.update(targets)
    return gf._replace(dataframe=out, inc_metrics=inc_metrics, inclusive_of=pairs)


def subgraph_sums(graph: Any, dataframe: Any, columns: Sequence[Any]) -> List[np.ndarray]:
    """For each column, the per-row sum over the row's node and its descendants."""
    layout = RowLayout.of(dataframe, graph.num_nodes)
    results = []
    for col in columns:
        mat, present = layout.to_matrix(dataframe[col].to_numpy(dtype=np.float64, na_value=np.nan))
        if graph.is_forest:
            _forest_sum(graph, mat)
            _forest_sum(graph, present)
        else:
            mat, present = _reach_sum(graph, mat, present)
        results.append(layout.from_matrix(mat, present))
    return results


def _forest_sum(graph: Any, mat: np.ndarray) -> None:
    parent = graph.parent
    for level in reversed(st.levels(graph.depth)[1:]):
        par = parent[level]
        starts = np.flatnonzero(np.r_[True, par[1:] != par[:-1]])
        mat[par[starts]] += np.add.reduceat(mat[level], starts, axis=0)


def reach_bitsets(graph: Any) -> np.ndarray:
    """Packed reachability: row ``v`` has bit ``u`` set iff ``u`` is reachable from ``v``."""
    n = graph.num_nodes
    nxg = nx.DiGraph()
    nxg.add_nodes_from(range(n))
    owner = st.segment_owner(graph.child_ptr)
    nxg.add_edges_from(zip(owner.tolist(), graph.child_idx.tolist()))
    cond = nx.condensation(nxg)
    scc_of = np.array([cond.graph["mapping"][v] for v in range(n)], dtype=np.int64)
    n_bytes = (n + 7) // 8
    reach = np.zeros((cond.number_of_nodes(), n_bytes), dtype=np.uint8)
    ids = np.arange(n)
    np.bitwise_or.at(reach, (scc_of, ids >> 3), (0x80 >> (ids & 7)).astype(np.uint8))
    for s in reversed(list(nx.topological_sort(cond))):
        for t in cond.successors(s):
            reach[s] |= reach[t]
    return reach[scc_of]


def _reach_sum(graph: Any, mat: np.ndarray, present: np.ndarray, block: int = 2048):
    n = graph.num_nodes
    reach = reach_bitsets(graph)
    out = np.empty_like(mat)
    out_present = np.empty_like(present)
    for start in range(0, n, block):
        rows = np.unpackbits(reach[start:start + block], axis=1, count=n).astype(np.float64)
        out[start:start + block] = rows @ mat
        out_present[start:start + block] = (rows @ present).astype(np.int64)
    return out, out_present
