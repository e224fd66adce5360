"""Conversion between graphframe graphs and ``networkx.DiGraph``."""

from __future__ import annotations

from typing import Any, Tuple

import networkx as nx
import numpy as np
import pandas as pd

from readers.builder import records_to_frame

from .errors import GraphMismatchError
from .structure import segment_owner


def to_networkx(graph: Any) -> nx.DiGraph:
    """A DiGraph whose nodes are the ids and whose node data are the frames.

    Examples
    --------
    >>> from graphframe import Graph
    >>> g = Graph.from_lists(("a", "b", "c"))
    >>> nxg = g.to_networkx()
    >>> sorted(nxg.edges()), nxg.nodes[1]["name"]
    ([(0, 1), (0, 2)], 'b')
    """
    out = nx.DiGraph()
    for i, frame in enumerate(graph.frame_dicts()):
        out.add_node(i, **frame)
    owner = segment_owner(graph.child_ptr)
    out.add_edges_from(zip(owner.tolist(), graph.child_idx.tolist()))
    return out


def arrays_from_networkx(nx_graph: nx.DiGraph) -> Tuple[pd.DataFrame, np.ndarray, tuple]:
    """Frame table, first-parent array and extra edges for ``Graph.build``."""
    nodes = list(nx_graph.nodes())
    if not nodes:
        raise GraphMismatchError("the networkx graph has no nodes")
    position = {n: i for i, n in enumerate(nodes)}
    records = []
    for n in nodes:
        data = dict(nx_graph.nodes[n])
        frame = data.pop("frame", None)
        attrs = dict(frame) if frame is not None else data
        if not attrs:
            attrs = {"name": str(n)}
        records.append(attrs)
    roots = [n for n in nodes if nx_graph.in_degree(n) == 0]
    if not roots:
        raise GraphMismatchError("every node of the networkx graph has a predecessor: no root")
    parent = np.full(len(nodes), -1, dtype=np.int64)
    seen = set(roots)
    extra_src, extra_dst = [], []
    for root in roots:  # breadth-first: first discovery gives the first parent
        for u, v in nx.bfs_edges(nx_graph, root):
            if v not in seen:
                seen.add(v)
                parent[position[v]] = position[u]
    if len(seen) != len(nodes):
        missing = next(n for n in nodes if n not in seen)
        raise GraphMismatchError(f"node {missing!r} cannot be reached from any root")
    for u, v in nx_graph.edges():
        if parent[position[v]] != position[u]:
            extra_src.append(position[u])
            extra_dst.append(position[v])
    return records_to_frame(records), parent, (extra_src, extra_dst)
