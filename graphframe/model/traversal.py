"""Graph's walks: child/parent lists in id order, pre- and post-order, level plans.

Mixed into :class:`~graphframe.model.graph.Graph`; reads its arrays and caches its
results in the graph's ``_cache`` (a graph never changes). The array
algorithms themselves are in :mod:`graphframe.kernels.structure`.
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Tuple

import numpy as np

from ..kernels import structure as st
from .node import Node
from .handnode import node_traversal_order, walk
from ..kernels.structure import INT


class GraphTraversal:
    """``sorted_children``, ``postorder``, ``level_plan``, ``traverse``... for Graph."""

    __slots__ = ()

    def edge_sources(self) -> np.ndarray:
        """The parent of every entry of :attr:`child_idx` (so edge ``i`` is
        ``edge_sources()[i] -> child_idx[i]``); read-only, cached.

        Examples
        --------
        >>> from graphframe import Graph
        >>> Graph.from_lists(("a", ("b", "c"), "d")).edge_sources().tolist()
        [0, 0, 1]
        """
        if "edge_sources" not in self._cache:
            owner = st.segment_owner(self._child_ptr)
            owner.flags.writeable = False
            self._cache["edge_sources"] = owner
        return self._cache["edge_sources"]

    def sorted_children(self) -> Tuple[np.ndarray, np.ndarray]:
        """CSR child lists with each node's children in ascending id order."""
        if "sorted_children" not in self._cache:
            owner = self.edge_sources()
            idx = self._child_idx[np.lexsort((self._child_idx, owner))]
            idx.flags.writeable = False
            self._cache["sorted_children"] = (self._child_ptr, idx)
        return self._cache["sorted_children"]

    def children_of(self, node: int) -> np.ndarray:
        """Children of ``node`` in ascending id order."""
        ptr, idx = self.sorted_children()
        return idx[ptr[node]:ptr[node + 1]]

    def parents_of(self, node: int) -> np.ndarray:
        """Parents of ``node``, first parent first."""
        return self._parent_idx[self._parent_ptr[node]:self._parent_ptr[node + 1]]

    def preorder(self) -> np.ndarray:
        """Ids in pre-order (``0..n-1`` by construction)."""
        return np.arange(self.num_nodes, dtype=INT)

    def postorder(self) -> np.ndarray:
        """Ids in post-order: each node after the children it discovers."""
        if "post" not in self._cache:
            if self._forest:
                size = self.subtree_sizes()
                position = np.arange(self.num_nodes) - self._depth + size - 1
                post = st.invert(position, self.num_nodes)
            else:
                ptr, idx = self.sorted_children()
                post = st.general_postorder(self.num_nodes, self._roots, ptr, idx)
            post.flags.writeable = False
            self._cache["post"] = post
        return self._cache["post"]

    def level_plan(self) -> List[Tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Bottom-up summation plan for forests (deepest level first).

        One ``(nodes, parents, starts)`` triple per depth level below the
        roots: ``nodes`` ascending, ``starts`` the offsets where their parent
        changes (parents of one level are non-decreasing in pre-order) and
        ``parents`` the distinct parents, so ``x[parents] +=
        np.add.reduceat(x[nodes], starts)`` adds a level into its parents.
        """
        if not self._forest:
            raise ValueError("the level plan is defined for trees and forests only")
        if "plan" not in self._cache:
            plan = []
            for level in reversed(st.levels(self._depth)[1:]):
                par = self._parent[level]
                starts = np.flatnonzero(np.r_[True, par[1:] != par[:-1]])
                plan.append((level, par[starts], starts))
            self._cache["plan"] = plan
        return self._cache["plan"]

    def subtree_sizes(self) -> np.ndarray:
        """Number of nodes in each node's subtree (forests only)."""
        if not self._forest:
            raise ValueError("subtree sizes are defined for trees and forests only")
        if "size" not in self._cache:
            size = np.ones(self.num_nodes, dtype=INT)
            for level, targets, starts in self.level_plan():
                size[targets] += np.add.reduceat(size[level], starts)
            self._cache["size"] = size
        return self._cache["size"]

    def traverse(self, order: str = "pre", attrs: Any = None,
                 visited: Optional[dict] = None) -> Iterator[Any]:
        """Yield every node once, in pre- or post-order (Hatchet's ``traverse``).

        With ``attrs`` (a key or list of keys) yield frame values instead of
        nodes. ``visited``, if given, is filled with ``{node id: 1}``.

        Examples
        --------
        >>> from graphframe import Graph
        >>> g = Graph.from_lists(("a", ("b", "c"), "d"))
        >>> [n.frame["name"] for n in g.traverse(order="post")]
        ['c', 'b', 'd', 'a']
        >>> list(g.traverse(attrs="name"))
        ['a', 'b', 'c', 'd']
        """
        if order == "pre":
            ids = self.preorder()
        elif order == "post":
            ids = self.postorder()
        else:
            raise ValueError("order must be 'pre' or 'post'")
        for i in ids.tolist():
            if visited is not None:
                visited[i] = visited.get(i, 0) + 1
            yield self.frame(i).values(attrs) if attrs is not None else Node(i, self)

    def node_order_traverse(self, order: str = "pre", attrs: Any = None,
                            visited: Optional[dict] = None) -> Iterator[Any]:
        """Walk with children (and roots) in "node order": by ``_hatchet_nid``.

        For a graph built from hand-made nodes (``Graph(roots)``) that is each
        node's current ``_hatchet_nid`` (Caliper's "Node order"); elsewhere a
        node's ``_hatchet_nid`` is its id, which :meth:`traverse` follows.

        Examples
        --------
        >>> from graphframe import Graph, Node, Frame
        >>> top = Node(Frame(name="top"), hnid=0)
        >>> for i, name in ((1, "zeta"), (2, "alpha")):
        ...     top.add_child(Node(Frame(name=name), parent=top, hnid=i))
        >>> g = Graph([top])
        >>> list(g.node_order_traverse(attrs="name")), list(g.traverse(attrs="name"))
        (['top', 'zeta', 'alpha'], ['top', 'alpha', 'zeta'])
        """
        hand = self._cache.get("hand")
        if hand is None:
            yield from self.traverse(order, attrs, visited)
            return
        if order not in ("pre", "post"):
            raise ValueError("order must be 'pre' or 'post'")
        ids = self._cache["hand_ids"]
        roots = sorted((hand[i] for i in self._roots.tolist()), key=node_traversal_order)
        for node in walk(roots, order, None, None, node_traversal_order):
            i = ids[id(node)]
            if visited is not None:
                visited[i] = visited.get(i, 0) + 1
            yield self.frame(i).values(attrs) if attrs is not None else Node(i, self)
