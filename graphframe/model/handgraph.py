"""``Graph(roots)`` over hand-built nodes: one walk to edge arrays, then the array graph.

The walk follows ``children`` lists (what Hatchet's traversals follow),
iteratively, each node object once (by identity). What it returns is what
:meth:`Graph.from_edges` takes; :func:`bind` then records, on the graph and
on every node, which array id each object became.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pandas as pd

from graphframe_readers.builder import records_to_frame

from ..errors import ArgumentError, GraphMismatchError
from .frame import Frame
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
    snap = HandSnapshot.take(roots)
    return snap.attrs, snap.src, snap.dst, snap.root_pos, snap.nodes


@dataclass
class HandSnapshot:
    """One walk of hand-built nodes: what ``Graph(roots)`` built its arrays from.

    ``roots`` is the list the graph was given (the same list object when it was
    a list, so ``graph.roots.append(node)`` is seen by the next walk, as in
    Hatchet); ``frames`` are the frame attributes as they were, so that
    :meth:`same_as` tells whether the nodes changed since (links, roots or
    frame attributes).

    Examples
    --------
    >>> a = HandNode.from_lists(["a", "b"])
    >>> snap = HandSnapshot.take([a])
    >>> snap.same_as(HandSnapshot.take([a]))
    True
    >>> a.add_child(HandNode(Frame(name="c")))
    >>> snap.same_as(HandSnapshot.take([a]))
    False
    """

    roots: List[Any]
    nodes: List[HandNode]
    src: np.ndarray
    dst: np.ndarray
    root_pos: np.ndarray
    frames: List[dict]

    @property
    def attrs(self) -> pd.DataFrame:
        """The frame attribute table, one row per node (walk order)."""
        return records_to_frame([dict(f) for f in self.frames])

    @classmethod
    def take(cls, roots: Any) -> "HandSnapshot":
        """Walk the nodes reachable from ``roots`` through ``children`` (each object once)."""
        if roots is None or isinstance(roots, (str, bytes)):
            raise ArgumentError(f"Graph(roots) needs a list of nodes, not {roots!r}")
        root_list = roots if isinstance(roots, list) else list(roots)
        for r in root_list:
            if not isinstance(r, HandNode):
                raise ArgumentError(
                    f"Graph(roots): {r!r} is not a hand-built node (Node(Frame(...)))")
        position: Dict[int, int] = {}
        nodes: List[HandNode] = []
        src: List[int] = []
        dst: List[int] = []
        root_pos: List[int] = []
        for r in root_list:
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
                    raise ArgumentError(
                        f"{node!r} has a child that is not a hand-built node: {child!r}")
                p = position.get(id(child))
                if p is None:
                    p = position[id(child)] = len(nodes)
                    nodes.append(child)
                src.append(i)
                dst.append(p)
            i += 1
        return cls(root_list, nodes, np.asarray(src, dtype=INT), np.asarray(dst, dtype=INT),
                   np.asarray(root_pos, dtype=INT), [dict(n.frame.attrs) for n in nodes])

    def same_as(self, other: "HandSnapshot") -> bool:
        """True when both walks found the same objects, links, roots and frames."""
        return (len(self.nodes) == len(other.nodes)
                and all(a is b for a, b in zip(self.nodes, other.nodes))
                and np.array_equal(self.src, other.src) and np.array_equal(self.dst, other.dst)
                and np.array_equal(self.root_pos, other.root_pos)
                and self.frames == other.frames)


def bind(graph: Any, snap: HandSnapshot, order: np.ndarray) -> None:
    """Record on ``graph`` and on each node the array id it became."""
    new_id = np.empty(len(order), dtype=INT)
    new_id[order] = np.arange(len(order), dtype=INT)
    by_id = [snap.nodes[p] for p in order.tolist()]
    for i, node in enumerate(by_id):
        node._bound_graph = graph
        node._bound_id = i
    graph._cache["hand"] = by_id
    graph._cache["hand_ids"] = {id(n): i for i, n in enumerate(by_id)}
    graph._cache["hand_snapshot"] = snap
    root_order = new_id[snap.root_pos]
    root_order.flags.writeable = False
    graph._root_order = root_order


def hand_state(graph: Any) -> Any:
    """What pickling keeps of the hand-built nodes: ``(roots list, nodes by id)``, or None."""
    snap = graph._cache.get("hand_snapshot")
    if snap is None:
        return None
    return snap.roots, graph._cache["hand"]


def restore_hand(graph: Any, state: Any) -> None:
    """Rebind unpickled hand-built nodes to their unpickled graph (see :func:`hand_state`)."""
    roots, by_id = state
    snap = HandSnapshot.take(roots)
    position = {id(n): k for k, n in enumerate(snap.nodes)}
    order = np.asarray([position[id(n)] for n in by_id], dtype=INT)
    root_order = graph._root_order
    bind(graph, snap, order)
    graph._root_order = root_order


def refresh_hand(graph: Any) -> None:
    """Walk a hand-built graph's nodes again; when they changed since ``Graph(roots)``
    (or the last refresh), rebuild the graph's arrays from them.

    Graphs not built from hand-made nodes are left alone. When dataframes were
    already made over the graph (its node level type exists), a change that
    gives an existing node another id would silently re-key their rows, so it
    is refused with :class:`GraphMismatchError`; a change that only adds nodes
    after the existing ones in pre-order is applied.
    """
    snap = graph._cache.get("hand_snapshot")
    if snap is None:
        return
    fresh = HandSnapshot.take(snap.roots)
    if fresh.same_as(snap):
        return
    if "node_array_type" in graph._cache:
        old_ids = dict(graph._cache["hand_ids"])
        trial = type(graph)(fresh.roots)  # a separate graph: nothing rebound yet
        new_ids = trial._cache["hand_ids"]
        for node in graph._cache["hand"]:  # restore the bindings trial took
            node._bound_graph = graph
            node._bound_id = old_ids[id(node)]
        moved = [n for n in graph._cache["hand"]
                 if new_ids.get(id(n)) != old_ids[id(n)]
                 or trial.frame_dict(new_ids[id(n)]) != graph.frame_dict(old_ids[id(n)])]
        if moved:
            raise GraphMismatchError(
                f"the hand-built nodes of this graph changed after a GraphFrame was made "
                f"over it, and the change renumbers or alters existing nodes (first: "
                f"{moved[0]!r}); build a new Graph(roots) and GraphFrame from the "
                f"changed nodes instead")
    keep = graph._cache.get("node_array_type")
    graph._adopt(fresh)
    if keep is not None:
        graph._cache["node_array_type"] = keep


def hand_depths(roots: List[HandNode]) -> None:
    """Hatchet's ``enumerate_depth``: roots get 0; a depth-first walk over ``children``
    in list order gives every other node its parent's depth + 1 at first discovery.

    Examples
    --------
    >>> d = HandNode(Frame(name="d"))
    >>> a = HandNode.from_lists(["a", d, ["b", d]])
    >>> hand_depths([a])
    >>> d._depth
    1
    """
    seen = set()
    for root in roots:
        root._depth = 0
        stack = [(root, iter(root.children))]
        while stack:
            node, kids = stack[-1]
            child = next(kids, None)
            if child is None:
                stack.pop()
                continue
            if id(child) in seen:
                continue
            seen.add(id(child))
            child._depth = node._depth + 1
            stack.append((child, iter(child.children)))


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
