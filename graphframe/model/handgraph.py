"""``Graph(roots)`` over hand-built nodes: one walk to edge arrays, then the array graph.

The walk follows ``children`` lists (what Hatchet's traversals follow),
iteratively, each node object once (by identity). What it returns is what
:meth:`Graph.from_edges` takes; :func:`bind` then records, on the graph and
on every node, which array id each object became.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pandas as pd

from graphframe_readers.builder import records_to_frame

from ..errors import ArgumentError
from .handnode import HandNode

INT = np.int64


def hand_graph_parts(roots: Sequence[Any]) -> Tuple[pd.DataFrame, np.ndarray, np.ndarray,
                                                     np.ndarray, List[HandNode]]:
    """``(attrs, edge sources, edge targets, root positions, nodes by position)``;
    positions are breadth-first discovery order.

    Examples
    --------
    >>> a = HandNode.from_lists(["a", ["b", "c"], "d"])
    >>> attrs, src, dst, roots, nodes = hand_graph_parts([a])
    >>> attrs["name"].tolist(), src.tolist(), dst.tolist(), roots.tolist()
    (['a', 'b', 'd', 'c'], [0, 0, 1], [1, 2, 3], [0])
    """
    if roots is None or isinstance(roots, (str, bytes)):
        raise ArgumentError(f"Graph(roots) needs a list of nodes, not {roots!r}")
    roots = list(roots)
    for r in roots:
        if not isinstance(r, HandNode):
            raise ArgumentError(f"Graph(roots): {r!r} is not a hand-built node (Node(Frame(...)))")
    position: Dict[int, int] = {}
    nodes: List[HandNode] = []
    src: List[int] = []
    dst: List[int] = []
    root_pos: List[int] = []
    for r in roots:
        if id(r) not in position:
            position[id(r)] = len(nodes)
            nodes.append(r)
        if position[id(r)] not in root_pos:
            root_pos.append(position[id(r)])
    i = 0
    while i < len(nodes):  # breadth-first over a growing list: each object once
        node = nodes[i]
        for child in node.children:
            if not isinstance(child, HandNode):
                raise ArgumentError(f"{node!r} has a child that is not a hand-built node: {child!r}")
            p = position.get(id(child))
            if p is None:
                p = position[id(child)] = len(nodes)
                nodes.append(child)
            src.append(i)
            dst.append(p)
        i += 1
    attrs = records_to_frame([dict(n.frame.attrs) for n in nodes])
    return (attrs, np.asarray(src, dtype=INT), np.asarray(dst, dtype=INT),
            np.asarray(root_pos, dtype=INT), nodes)


def bind(graph: Any, nodes: List[HandNode], order: np.ndarray, root_pos: np.ndarray) -> None:
    """Record on ``graph`` (``_cache``) and on each node the array id it became."""
    new_id = np.empty(len(order), dtype=INT)
    new_id[order] = np.arange(len(order), dtype=INT)
    by_id = [nodes[p] for p in order.tolist()]
    for i, node in enumerate(by_id):
        node._bound_graph = graph
        node._bound_id = i
    graph._cache["hand"] = by_id
    graph._cache["hand_ids"] = {id(n): i for i, n in enumerate(by_id)}
    graph._cache["root_order"] = new_id[root_pos]


def enumerate_hand(graph: Any) -> None:
    """Hatchet's ``enumerate_traverse`` on the hand nodes: ``_hatchet_nid`` = array id,
    ``_depth`` = depth."""
    hand = graph._cache.get("hand")
    if hand is None:
        return
    for node, depth in zip(hand, graph.depth.tolist()):
        node._hatchet_nid = node._bound_id
        node._depth = depth


def has_hand_node(lists: Any) -> bool:
    """True when nested lists hold a hand-built node object anywhere.

    Examples
    --------
    >>> has_hand_node([("a", "b")]), has_hand_node([("a", HandNode.from_lists("b"))])
    (False, True)
    """
    stack = list(lists)
    while stack:
        item = stack.pop()
        if isinstance(item, HandNode):
            return True
        if isinstance(item, (list, tuple)):
            stack.extend(item)
    return False
