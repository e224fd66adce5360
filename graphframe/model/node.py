"""Node: a user-facing view of one graph node (an ``int`` that knows its graph).

Algorithms work on integer ids; a Node exists so that Hatchet-style code
(``node.frame["name"]``, ``node.children``, ``df.loc[node]``) keeps working.
It compares and hashes like its id.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any, Iterator, List, Optional, Tuple

from ..errors import ArgumentError, MultiplePathError
from .frame import Frame
from ..errors import ImmutableGraphError
from .handnode import HandNode, dag_equal, node_traversal_order, traversal_order

__all__ = ["Node", "HandNode", "traversal_order", "node_traversal_order"]


class _NodeType(type):
    """``isinstance(x, Node)`` is also true for hand-built nodes (:class:`HandNode`)."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return type.__instancecheck__(cls, obj) or (cls is Node and isinstance(obj, HandNode))


class Node(int, metaclass=_NodeType):
    """A node id bound to its graph.

    Examples
    --------
    >>> from graphframe import Graph
    >>> g = Graph.from_lists(("main", ("solve", "mpi"), "io"))
    >>> solve = g.roots[0].children[0]
    >>> solve, solve.frame["name"], solve.depth
    (Node({'name': 'solve', 'type': 'None'}), 'solve', 1)
    >>> [n.frame["name"] for n in solve.path()]
    ['main', 'solve']
    >>> int(solve), solve == 2
    (2, True)

    ``Node(Frame(...), parent=None, hnid=-1, depth=-1)`` (a Frame first) makes
    a mutable hand-built node instead, as in Hatchet (see :class:`HandNode`):

    >>> from graphframe import Frame
    >>> root = Node(Frame(name="main"), parent=None, hnid=-1, depth=-1)
    >>> type(root).__name__, isinstance(root, Node)
    ('HandNode', True)
    """

    def __new__(cls, node_id: Any, graph: Any = None, hnid: int = -1, depth: int = -1,
                *, parent: Any = None) -> Any:
        if type(node_id) is not int and isinstance(node_id, Frame):  # ids: no ABC check
            return HandNode(node_id, parent=graph if parent is None else parent,
                            hnid=hnid, depth=depth)
        if graph is None:
            raise ArgumentError("Node(id, graph) needs its graph; Node(Frame(...)) makes a "
                                "hand-built node")
        obj = super().__new__(cls, node_id)
        obj._graph = graph
        return obj

    @classmethod
    def many(cls, ids: List[int], graph: Any) -> List["Node"]:
        """``[Node(i, graph) for i in ids]`` for plain int ids, made without the
        constructor's checks (one Node per row of a large table, say).

        Examples
        --------
        >>> from graphframe import Graph
        >>> g = Graph.from_lists(("main", "solve"))
        >>> [n.frame["name"] for n in Node.many([1, 0], g)]
        ['solve', 'main']
        """
        out = list(map(int.__new__, repeat(cls, len(ids)), ids))
        for node in out:
            node._graph = graph
        return out

    def __reduce__(self):
        # pickled with its graph (one copy per pickle, shared by all its nodes)
        return (Node, (int(self), self._graph))

    @property
    def graph(self):
        """The graph this node belongs to."""
        return self._graph

    @property
    def frame(self):
        """The node's :class:`Frame`."""
        return self._graph.frame(int(self))

    @property
    def _hatchet_nid(self) -> int:
        """Hatchet's node id: the id (read-only, see :meth:`add_child`)."""
        return int(self)

    @_hatchet_nid.setter
    def _hatchet_nid(self, value: Any) -> None:
        _immutable("set _hatchet_nid of", self)

    @property
    def depth(self) -> int:
        """Depth along the node's first discovery (roots: 0)."""
        return int(self._graph.depth[int(self)])

    @property
    def _depth(self) -> int:
        """Hatchet's name for :attr:`depth` (read-only)."""
        return int(self._graph.depth[int(self)])

    @_depth.setter
    def _depth(self, value: Any) -> None:
        _immutable("set _depth of", self)

    @property
    def parents(self) -> List["Node"]:
        """All parents, first parent first.

        Examples
        --------
        >>> from graphframe import Graph
        >>> g = Graph.from_lists(("main", "solve"))
        >>> g.node(1).parents, g.node(0).parents
        ([Node({'name': 'main', 'type': 'None'})], [])
        """
        return [Node(p, self._graph) for p in self._graph.parents_of(int(self)).tolist()]

    @parents.setter
    def parents(self, value: Any) -> None:
        _immutable("set the parents of", self)

    @property
    def children(self) -> List["Node"]:
        """Children in the source's order, as Hatchet's ``children`` list (the order
        they were listed in ``from_lists``, a literal or a file; traversals and
        printing visit them by ascending id, Hatchet's frame order).

        Examples
        --------
        >>> from graphframe import Graph
        >>> g = Graph.from_lists(("main", "solve", "io"))
        >>> [c.frame["name"] for c in g.node(0).children]
        ['solve', 'io']
        >>> [n.frame["name"] for n in g.traverse()]
        ['main', 'io', 'solve']
        """
        g = self._graph
        i = int(self)
        return Node.many(g.child_idx[g.child_ptr[i]:g.child_ptr[i + 1]].tolist(), g)

    @children.setter
    def children(self, value: Any) -> None:
        _immutable("set the children of", self)

    # ------------------------------------------------ Hatchet's mutators: refused
    def add_child(self, node: Any) -> None:
        """Refused: a node read from a frame or a graph belongs to an immutable graph.

        Dataframes and other graphs refer to the graph's node ids, so it never
        changes. Build the graph by hand instead (``Node(Frame(...))`` objects,
        ``add_child``, then ``Graph(roots)``), or make a new one
        (``Graph.from_lists``, ``GraphFrame.from_literal``).

        Examples
        --------
        >>> from graphframe import Graph, Frame
        >>> g = Graph.from_lists(("main", "solve"))
        >>> g.node(0).add_child(Node(Frame(name="io")))
        Traceback (most recent call last):
        ...
        graphframe.errors.ImmutableGraphError: cannot add a child to node 0 {'name': 'main', 'type': 'None'}: it belongs to a graph built from arrays, which never changes (dataframes refer to its node ids); build the graph by hand (Node(Frame(...)) objects, add_child, then Graph(roots)) or make a new one (Graph.from_lists, GraphFrame.from_literal)
        """
        _immutable("add a child to", self)

    def add_parent(self, node: Any) -> None:
        """Refused, as :meth:`add_child`."""
        _immutable("add a parent to", self)

    def copy(self) -> HandNode:
        """A new hand-built node with this node's frame (a copy), no links and no
        id, as Hatchet's ``Node.copy``.

        Examples
        --------
        >>> from graphframe import Graph
        >>> n = Graph.from_lists(("main", "solve")).node(1)
        >>> c = n.copy()
        >>> c.frame == n.frame, c.children, c.parents, c._hatchet_nid, c._depth
        (True, [], [], -1, -1)
        """
        return HandNode(self.frame)

    def dag_equal(self, other: Any) -> bool:
        """True when the graphs below ``self`` and ``other`` (array or hand-built
        nodes) have equal frames and shape (Hatchet's ``dag_equal``).

        Examples
        --------
        >>> from graphframe import Graph
        >>> a = Graph.from_lists(("m", ("s", "x"), "t")).node(0)
        >>> b = Node.from_lists(["m", "t", ["s", "x"]])
        >>> a.dag_equal(b), a.dag_equal(a.children[0])
        (True, False)
        """
        return dag_equal(self, other)

    def paths(self) -> List[Tuple["Node", ...]]:
        """Every path from a root to this node, as tuples of Nodes.

        A path never repeats a node, so cycles do not make it endless; the
        number of paths can grow exponentially on DAGs.

        Examples
        --------
        >>> from graphframe import Graph
        >>> import pandas as pd
        >>> g, _ = Graph.build(pd.DataFrame({"name": ["a", "b", "c", "d"]}),
        ...                    [-1, 0, 0, 1], ([2], [3]))  # d under b and c
        >>> d = g.node(2)  # ids are a pre-order: a b d c
        >>> [[n.frame["name"] for n in p] for p in d.paths()]
        [['a', 'b', 'd'], ['a', 'c', 'd']]
        """
        g = self._graph
        roots = set(g.root_ids.tolist())
        ptr, idx = g.parent_ptr, g.parent_idx
        found: List[List[int]] = []
        # depth-first walk upwards with backtracking: `path` is the current
        # node-to-ancestor chain, `on_path` prevents revisiting (cycles)
        start = int(self)
        path = [start]
        on_path = {start}
        cursor = [int(ptr[start])]
        while path:
            head = path[-1]
            if head in roots and cursor[-1] == int(ptr[head]):
                found.append(path[::-1])
                cursor[-1] = int(ptr[head + 1])  # a root ends the path
            if cursor[-1] < int(ptr[head + 1]):
                p = int(idx[cursor[-1]])
                cursor[-1] += 1
                if p not in on_path:
                    path.append(p)
                    on_path.add(p)
                    cursor.append(int(ptr[p]))
            else:
                on_path.discard(path.pop())
                cursor.pop()
        found.sort()
        return [tuple(Node(i, g) for i in p) for p in found]

    def path(self) -> Tuple["Node", ...]:
        """The single root-to-node path; :class:`MultiplePathError` if several.

        Examples
        --------
        >>> from graphframe import Graph
        >>> import pandas as pd
        >>> g = Graph.from_lists(("main", ("solve", "mpi")))
        >>> [n.frame["name"] for n in g.node(2).path()]
        ['main', 'solve', 'mpi']
        >>> d, _ = Graph.build(pd.DataFrame({"name": ["a", "b", "c", "d"]}),
        ...                    [-1, 0, 0, 1], ([2], [3]))
        >>> d.node(2).path()
        Traceback (most recent call last):
        ...
        graphframe.errors.MultiplePathError: node 2 {'name': 'd', 'type': 'None'} has 2 paths: a -> b -> d; a -> c -> d
        """
        paths = self.paths()
        if len(paths) != 1:
            shown = "; ".join(" -> ".join(n.frame.get("name", str(n.frame)) for n in p)
                              for p in paths[:10])
            more = f" (and {len(paths) - 10} more)" if len(paths) > 10 else ""
            raise MultiplePathError(
                f"node {int(self)} {self.frame} has {len(paths)} paths: {shown}{more}")
        return paths[0]

    def traverse(self, order: str = "pre", attrs: Any = None,
                 visited: Optional[dict] = None) -> Iterator[Any]:
        """Depth-first walk of the nodes below (and including) this one.

        Each node is yielded once; children in ascending id order. With
        ``attrs`` yield frame values instead of nodes.

        Examples
        --------
        >>> from graphframe import Graph
        >>> g = Graph.from_lists(("main", ("solve", "mpi"), "io"))
        >>> list(g.node(2).traverse(attrs="name"))
        ['solve', 'mpi']
        >>> [n.frame["name"] for n in g.node(0).traverse(order="post")]
        ['io', 'mpi', 'solve', 'main']
        """
        if order not in ("pre", "post"):
            raise ValueError("order must be 'pre' or 'post'")
        g = self._graph
        ptr, idx = g.sorted_children()
        seen = set()
        out: List[int] = []
        start = int(self)
        seen.add(start)
        stack = [(start, int(ptr[start]))]
        if order == "pre":
            out.append(start)
        while stack:
            v, i = stack[-1]
            if i < ptr[v + 1]:
                stack[-1] = (v, i + 1)
                c = int(idx[i])
                if c not in seen:
                    seen.add(c)
                    if order == "pre":
                        out.append(c)
                    stack.append((c, int(ptr[c])))
            else:
                stack.pop()
                if order == "post":
                    out.append(v)
        for i in out:
            if visited is not None:
                visited[i] = visited.get(i, 0) + 1
            yield g.frame(i).values(attrs) if attrs is not None else Node(i, g)

    def node_order_traverse(self, order: str = "pre", attrs: Any = None,
                            visited: Optional[dict] = None) -> Iterator[Any]:
        """:meth:`traverse` in "node order": an array node's ``_hatchet_nid`` is its id,
        and :meth:`traverse` already visits children in id order.

        Examples
        --------
        >>> from graphframe import Graph
        >>> g = Graph.from_lists(("main", "b", "a"))
        >>> list(g.node(0).node_order_traverse(attrs="name"))
        ['main', 'a', 'b']
        """
        return self.traverse(order, attrs, visited)

    @staticmethod
    def from_lists(lists: Any) -> HandNode:
        """Hand-built linked nodes from nested lists (Hatchet's ``Node.from_lists``).

        Examples
        --------
        >>> root = Node.from_lists(["a", ["b", "c"], "d"])
        >>> [n.frame["name"] for n in root.traverse()]
        ['a', 'b', 'c', 'd']
        """
        return HandNode.from_lists(lists)

    def __str__(self) -> str:
        return str(self.frame)

    def __repr__(self) -> str:
        items = ", ".join(f"{k!r}: {v!r}" for k, v in self.frame.tuple_repr)
        return "Node({" + items + "})"


def _immutable(action: str, node: Node) -> None:
    raise ImmutableGraphError(
        f"cannot {action} node {int(node)} {node.frame}: it belongs to a graph built from "
        f"arrays, which never changes (dataframes refer to its node ids); build the graph "
        f"by hand (Node(Frame(...)) objects, add_child, then Graph(roots)) or make a new "
        f"one (Graph.from_lists, GraphFrame.from_literal)")
