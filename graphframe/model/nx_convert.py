"""Conversion between graphframe graphs and ``networkx.DiGraph``.

:func:`to_networkx` records the roots (``G.graph["roots"]``) and the
``ordered`` flag (``G.graph["ordered"]``), and adds every node's out-edges in
the graph's child order, so that :func:`from_networkx` gives back the same
graph (ids, child order, flag) even when a root lies on a cycle and so has a
predecessor. networkx is imported when a conversion runs, not with graphframe.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Tuple

import numpy as np
import pandas as pd

from graphframe_readers.builder import records_to_frame

from ..errors import GraphMismatchError

if TYPE_CHECKING:
    import networkx as nx

INT = np.int64


def to_networkx(graph: Any) -> nx.DiGraph:
    """A DiGraph whose nodes are the ids and whose node data are the frames.

    Examples
    --------
    >>> from graphframe import Graph
    >>> g = Graph.from_lists(("a", "b", "c"))
    >>> nxg = g.to_networkx()
    >>> sorted(nxg.edges()), nxg.nodes[1]["name"], nxg.graph["roots"]
    ([(0, 1), (0, 2)], 'b', [0])
    """
    import networkx as nx

    out = nx.DiGraph(roots=graph.root_ids.tolist(), ordered=bool(graph.ordered))
    for i, frame in enumerate(graph.frame_dicts()):
        out.add_node(i, **frame)
    owner = graph.edge_sources()
    out.add_edges_from(zip(owner.tolist(), graph.child_idx.tolist()))
    return out


class NetworkxParts:
    """What :meth:`Graph.build` needs, taken from a DiGraph."""

    def __init__(self, attrs: pd.DataFrame, parent: np.ndarray, extra: Tuple[Any, Any],
                 child_order: Tuple[np.ndarray, np.ndarray], ordered: bool) -> None:
        self.attrs = attrs
        self.parent = parent
        self.extra = extra
        self.child_order = child_order
        self.ordered = ordered


def parts_from_networkx(nx_graph: nx.DiGraph) -> NetworkxParts:
    """Frame table, first parents, extra edges and child order for ``Graph.build``.

    Roots are ``nx_graph.graph["roots"]`` when present, else the nodes
    without predecessors. Node data (or a ``frame`` mapping in it) become the
    frame; a node without data is named ``str(node)``.
    """
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
    roots = _roots(nx_graph, nodes)
    edges = list(nx_graph.edges())
    src = np.fromiter((position[u] for u, _ in edges), dtype=INT, count=len(edges))
    dst = np.fromiter((position[v] for _, v in edges), dtype=INT, count=len(edges))
    parent = np.full(len(nodes), -1, dtype=INT)
    seen = set(roots)
    from networkx import bfs_edges

    for root in roots:  # breadth-first: first discovery gives the first parent
        for u, v in bfs_edges(nx_graph, root):
            if v not in seen:
                seen.add(v)
                parent[position[v]] = position[u]
    if len(seen) != len(nodes):
        missing = next(n for n in nodes if n not in seen)
        raise GraphMismatchError(f"node {missing!r} cannot be reached from any root")
    primary = parent[dst] == src
    key = np.arange(len(edges), dtype=INT)
    primary_key = np.zeros(len(nodes), dtype=INT)
    primary_key[dst[primary]] = key[primary]
    return NetworkxParts(records_to_frame(records), parent, (src[~primary], dst[~primary]),
                         (primary_key, key[~primary]),
                         bool(nx_graph.graph.get("ordered", False)))


def _roots(nx_graph: nx.DiGraph, nodes: List[Any]) -> List[Any]:
    given = nx_graph.graph.get("roots")
    if given is not None:
        roots = list(given)
        unknown = [r for r in roots if r not in nx_graph]
        if unknown or not roots:
            raise GraphMismatchError(
                f"G.graph['roots'] names {unknown[0]!r}, which is not a node" if unknown
                else "G.graph['roots'] is empty")
        return roots
    roots = [n for n in nodes if nx_graph.in_degree(n) == 0]
    if not roots:
        raise GraphMismatchError(
            "every node of the networkx graph has a predecessor: no root (name the roots "
            "in G.graph['roots'])")
    return roots
