"""Build a Hatchet GraphFrame from a RawProfile, the way Hatchet's readers do.

Benchmarks compare every operation on identical data without going through
a file format: the adapter makes Hatchet ``Node``/``Graph`` objects for the
profile's nodes (extra ``edges`` become extra parents), enumerates the graph
(``enumerate_traverse``: Hatchet's node ids and depths), and builds a
dataframe indexed by ``(node[, rank][, thread])`` with Node objects in the
``node`` level, sorted, with the metric columns and the per-node columns
(``name``, ``file``, ``line``...), as Hatchet's HPCToolkit reader produces.

Hatchet is imported when a function here is called (it is an optional
dependency of the benchmarks, installed with the ``bench`` extra).
"""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pandas as pd

from graphframe_readers import RawProfile
from graphframe_readers.profile import NODE, PARENT


def hatchet_available() -> bool:
    """True when ``import hatchet`` works in this interpreter."""
    import importlib.util

    return importlib.util.find_spec("hatchet") is not None


def to_hatchet(raw: RawProfile) -> Any:
    """A ``hatchet.GraphFrame`` holding the same graph and rows as ``raw``.

    Per-node work is a Python loop here: Hatchet's model is one Python object
    per node, so that is what building it costs.

    Examples
    --------
    >>> from benchmarks.generate import generate
    >>> hgf = to_hatchet(generate(40, ranks=2))     # doctest: +SKIP
    >>> len(hgf.graph), hgf.dataframe.index.names   # doctest: +SKIP
    (40, FrozenList(['node', 'rank']))
    """
    from hatchet import GraphFrame
    from hatchet.frame import Frame
    from hatchet.graph import Graph
    from hatchet.node import Node

    ids = raw.nodes[NODE].to_numpy().astype(np.int64)
    sorter = np.argsort(ids, kind="stable")

    def position(refs: np.ndarray) -> np.ndarray:
        found = sorter[np.searchsorted(ids, refs, sorter=sorter).clip(0, len(ids) - 1)]
        return np.where(refs < 0, -1, found)

    nodes: List[Any] = [Node(Frame(attrs)) for attrs in _frame_dicts(raw)]
    parent = position(raw.nodes[PARENT].to_numpy().astype(np.int64))
    links = [(parent, np.arange(len(ids)))]
    if raw.edges is not None and len(raw.edges):
        links.append((position(raw.edges[PARENT].to_numpy().astype(np.int64)),
                      position(raw.edges["child"].to_numpy().astype(np.int64))))
    for parents, children in links:
        for p, c in zip(parents.tolist(), children.tolist()):
            if p >= 0:
                nodes[p].add_child(nodes[c])
                nodes[c].add_parent(nodes[p])
    roots = [nodes[i] for i in np.flatnonzero(parent < 0).tolist()]
    graph = Graph(roots, node_ordering=bool(raw.ordered))
    graph.enumerate_traverse()

    m = raw.metrics
    levels = list(raw.index_levels)
    row_pos = position(m[NODE].to_numpy().astype(np.int64))
    data = {NODE: np.array(nodes, dtype=object)[row_pos]}
    for level in levels:
        data[level] = m[level].to_numpy()
    for col in m.columns:
        if col not in (NODE, *levels):
            data[col] = m[col].to_numpy()
    node_cols = (raw.node_columns if raw.node_columns is not None
                 else raw.nodes[["name"]])
    for col in node_cols.columns:
        if col not in data:
            data[col] = node_cols[col].to_numpy()[row_pos]
    df = pd.DataFrame(data)
    df.set_index([NODE, *levels], inplace=True)
    df.sort_index(inplace=True)
    return GraphFrame(graph, df, list(raw.exc_metrics), list(raw.inc_metrics),
                      default_metric=raw.default_metric or "time", metadata=dict(raw.metadata))


def _frame_dicts(raw: RawProfile) -> List[dict]:
    """One frame dict per node (missing attributes left out)."""
    cols = list(raw.frame_columns)
    table = raw.nodes[cols]
    records = table.to_dict("records")
    if not table.isna().to_numpy().any():
        return records
    return [{k: v for k, v in r.items() if not _missing(v)} for r in records]


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)
