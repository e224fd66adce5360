"""Hand-built nodes: Hatchet's mutable ``Node(Frame(...), parent=, hnid=, depth=)``.

Hatchet code and Hatchet-based tools build graphs by linking Python objects
(``add_child``, ``add_parent``, ``Node.from_lists``) and then wrap the roots
in ``Graph(roots)``. A :class:`HandNode` is such an object: its ``parents``
and ``children`` are plain lists the caller edits, ``_hatchet_nid`` and
``_depth`` are writable. ``Graph(roots)`` walks these objects once and builds
the array graph every operation works on; it then *binds* each hand node to
its array id, so the node finds its rows (``df.loc[node]``), equals the
array :class:`~graphframe.model.node.Node` of the same id and hashes like it.

Walks here are iterative (no recursion limit) and visit each node once.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from ..errors import ArgumentError, MultiplePathError
from .frame import Frame


def traversal_order(node: Any) -> Tuple[Any, int]:
    """Sort key of Hatchet's traversals: children by frame (ties: creation identity).

    Examples
    --------
    >>> a, b = HandNode(Frame(name="b")), HandNode(Frame(name="a"))
    >>> [str(n.frame["name"]) for n in sorted([a, b], key=traversal_order)]
    ['a', 'b']
    """
    return (node.frame, id(node))


def node_traversal_order(node: Any) -> int:
    """Sort key of the "node order" traversals: children by ``_hatchet_nid``.

    Examples
    --------
    >>> a, b = HandNode(Frame(name="a"), hnid=5), HandNode(Frame(name="b"), hnid=2)
    >>> [n.frame["name"] for n in sorted([a, b], key=node_traversal_order)]
    ['b', 'a']
    """
    return node._hatchet_nid


class HandNode:
    """A mutable graph node built by hand (what ``Node(Frame(...), ...)`` makes).

    Parameters
    ----------
    frame_obj : Frame
    parent : HandNode, optional
        Appended to :attr:`parents` (the parent's children are not changed,
        as in Hatchet).
    hnid, depth : int
        Initial ``_hatchet_nid`` and ``_depth`` (Hatchet's ``-1``: not numbered).

    Examples
    --------
    >>> from graphframe import Node, Frame
    >>> main = Node(Frame(name="main"), parent=None, hnid=-1, depth=-1)
    >>> solve = Node(Frame(name="solve"), parent=main)
    >>> main.add_child(solve)
    >>> [str(c.frame["name"]) for c in main.children], solve.parents[0] is main
    (['solve'], True)
    >>> isinstance(main, Node), main._hatchet_nid
    (True, -1)
    """

    __slots__ = ("frame", "parents", "children", "_hatchet_nid", "_depth", "_bound_graph",
                 "_bound_id", "__weakref__")

    def __init__(self, frame_obj: Frame, parent: Optional["HandNode"] = None, hnid: int = -1,
                 depth: int = -1) -> None:
        if not isinstance(frame_obj, Frame):
            raise ArgumentError(f"a hand-built Node needs a Frame, not {frame_obj!r}")
        self.frame = frame_obj
        self._hatchet_nid = hnid
        self._depth = depth
        self.parents: List[Any] = []
        self.children: List[Any] = []
        self._bound_graph: Any = None
        self._bound_id = -1
        if parent is not None:
            self.add_parent(parent)

    # ------------------------------------------------------------- pickle
    def __getstate__(self) -> dict:
        # the graph binding is left out: a pickled Graph rebinds its nodes when it
        # loads (a node whose state named its graph could load before the graph
        # had its arrays)
        return {name: getattr(self, name) for name in HandNode.__slots__
                if name not in ("_bound_graph", "__weakref__")}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._bound_graph = None

    # ------------------------------------------------------------- links
    def add_parent(self, node: "HandNode") -> None:
        """Append ``node`` to this node's parents."""
        self.parents.append(_checked(node))

    def add_child(self, node: "HandNode") -> None:
        """Append ``node`` to this node's children."""
        self.children.append(_checked(node))

    def copy(self) -> "HandNode":
        """A new node with an equal (not the same) frame, no links and no id.

        Examples
        --------
        >>> n = HandNode(Frame(name="a"), hnid=3)
        >>> c = n.copy()
        >>> c.frame == n.frame, c.frame is n.frame, c.children, c._hatchet_nid
        (True, False, [], -1)
        """
        return HandNode(self.frame.copy())

    @property
    def depth(self) -> int:
        """``_depth``."""
        return self._depth

    @property
    def graph(self) -> Any:
        """The :class:`Graph` this node was last built into (None before)."""
        return self._bound_graph

    # ------------------------------------------------------------- paths
    def paths(self) -> List[Tuple["HandNode", ...]]:
        """Every path from a root (a node without parents) to this node.

        One tuple per path, ordered by the parents lists; a parent already on
        the path is skipped (cycles).

        Examples
        --------
        >>> a = HandNode.from_lists(["a", ["b", "d"], "c"])
        >>> d = a.children[0].children[0]
        >>> d.add_parent(a.children[1])
        >>> [[n.frame["name"] for n in p] for p in d.paths()]
        [['a', 'b', 'd'], ['a', 'c', 'd']]
        """
        found: List[Tuple[HandNode, ...]] = []
        stack: List[Tuple[HandNode, Tuple[HandNode, ...]]] = [(self, (self,))]
        while stack:
            node, tail = stack.pop()
            if not node.parents:
                found.append(tail)
                continue
            on_path = {id(n) for n in tail}
            for parent in reversed(node.parents):
                if id(parent) not in on_path:
                    stack.append((parent, (parent,) + tail))
        return found

    def path(self, attrs: Any = None) -> Tuple["HandNode", ...]:
        """The single path to this node; :class:`MultiplePathError` if several."""
        paths = self.paths()
        if len(paths) > 1:
            raise MultiplePathError(f"node {self.frame} has {len(paths)} paths")
        return paths[0]

    # -------------------------------------------------------- traversals
    def traverse(self, order: str = "pre", attrs: Any = None,
                 visited: Optional[Dict[int, int]] = None) -> Iterator[Any]:
        """Depth-first walk from this node, children sorted by frame.

        Each node is yielded once; ``visited`` (keyed by ``id(node)``) counts
        how often each node was reached. With ``attrs`` yield frame values.

        Examples
        --------
        >>> a = HandNode.from_lists(["a", ["c", "d"], "b"])
        >>> [n.frame["name"] for n in a.traverse()]
        ['a', 'b', 'c', 'd']
        >>> list(a.traverse(order="post", attrs="name"))
        ['b', 'd', 'c', 'a']
        """
        return walk([self], order, attrs, visited, traversal_order)

    def node_order_traverse(self, order: str = "pre", attrs: Any = None,
                            visited: Optional[Dict[int, int]] = None) -> Iterator[Any]:
        """:meth:`traverse` with children sorted by ``_hatchet_nid`` (Caliper's node order)."""
        return walk([self], order, attrs, visited, node_traversal_order)

    def dag_equal(self, other: Any) -> bool:
        """True when the graphs below ``self`` and ``other`` have equal frames and shape.

        Examples
        --------
        >>> HandNode.from_lists(["a", "b", "c"]).dag_equal(HandNode.from_lists(["a", "c", "b"]))
        True
        """
        return dag_equal(self, other)

    @classmethod
    def from_lists(cls, lists: Any) -> "HandNode":
        """Linked nodes from nested lists (Hatchet's ``Node.from_lists``).

        The first element of a list is the node (a name, a dict of frame
        attributes, a :class:`Frame` or a node object: the same object in
        two places makes a DAG), the others its children.

        Examples
        --------
        >>> shared = HandNode(Frame(name="d"))
        >>> a = HandNode.from_lists(["a", ["b", shared], ["c", shared]])
        >>> [p.frame["name"] for p in shared.parents]
        ['b', 'c']
        """
        root = _as_node(lists[0] if isinstance(lists, (list, tuple)) and lists else lists)
        stack = [(lists, root)]
        while stack:
            item, node = stack.pop()
            if not isinstance(item, (list, tuple)):
                continue
            made = []
            for kid in item[1:]:
                child = _as_node(kid[0] if isinstance(kid, (list, tuple)) and kid else kid)
                child.add_parent(node)
                node.add_child(child)
                made.append((kid, child))
            stack.extend(reversed(made))
        return root

    # ------------------------------------------------- identity and order
    def _key(self) -> int:
        return self._bound_id if self._bound_graph is not None else self._hatchet_nid

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: object) -> bool:
        # by id, as nodes read from frames compare (Hatchet: by _hatchet_nid), so a
        # node also finds its counterpart in graphs derived from its graph
        if isinstance(other, HandNode):
            return self._key() == other._key()
        if isinstance(other, int) and not isinstance(other, bool):  # ids and array Nodes
            return self._key() == int(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __lt__(self, other: Any) -> bool:
        return self._hatchet_nid < other._hatchet_nid

    def __gt__(self, other: Any) -> bool:
        return self._hatchet_nid > other._hatchet_nid

    def __le__(self, other: Any) -> bool:
        return self._hatchet_nid <= other._hatchet_nid

    def __ge__(self, other: Any) -> bool:
        return self._hatchet_nid >= other._hatchet_nid

    def __str__(self) -> str:
        return str(self.frame)

    def __repr__(self) -> str:
        items = ", ".join(f"{k!r}: {v!r}" for k, v in self.frame.tuple_repr)
        return "Node({" + items + "})"


def _identity(node: Any) -> Any:
    """What tells two node objects apart: the object for hand-built nodes, (graph, id)
    for array node views (a new view object each time)."""
    graph = getattr(node, "_graph", None)
    if graph is not None and not isinstance(node, HandNode):
        return (id(graph), int(node))
    return id(node)


def dag_equal(a: Any, b: Any) -> bool:
    """Hatchet's ``dag_equal``: same frames and shape below ``a`` and ``b``.

    Children are paired after sorting by frame; a node reached again must be
    reached again on both sides at the same point. Works for hand-built nodes
    and array nodes alike (and a mix).

    Examples
    --------
    >>> dag_equal(HandNode.from_lists(["a", "b"]), HandNode.from_lists(["a", "c"]))
    False
    """
    seen_a: Dict[Any, int] = {}
    seen_b: Dict[Any, int] = {}
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        kids_x, kids_y = list(x.children), list(y.children)
        if x.frame != y.frame or len(kids_x) != len(kids_y):
            return False
        kx, ky = _identity(x), _identity(y)
        ix, iy = seen_a.get(kx), seen_b.get(ky)
        if ix is not None or iy is not None:
            if ix != iy:
                return False
            continue
        seen_a[kx] = seen_b[ky] = len(seen_a)
        kids_x.sort(key=lambda n: (n.frame, _tie(n)))
        kids_y.sort(key=lambda n: (n.frame, _tie(n)))
        stack.extend(zip(kids_x, kids_y))
    return True


def _tie(node: Any) -> Any:
    key = _identity(node)
    return key[1] if isinstance(key, tuple) else key


def _checked(node: Any) -> Any:
    if not isinstance(node, HandNode):
        raise ArgumentError(f"can only link hand-built nodes (Node(Frame(...))), not {node!r}")
    return node


def _as_node(item: Any) -> HandNode:
    if isinstance(item, HandNode):
        return item
    if isinstance(item, str):
        return HandNode(Frame(name=item))
    if isinstance(item, Frame):
        return HandNode(item)
    if isinstance(item, dict):
        return HandNode(Frame(item))
    raise ArgumentError(f"Node.from_lists: {item!r} is not a name, dict, Frame, node or list")


def walk(roots: List[Any], order: str, attrs: Any, visited: Optional[Dict[int, int]],
         key: Callable[[Any], Any]) -> Iterator[Any]:
    """Depth-first walk over hand nodes from ``roots`` (already in visiting order).

    Children are visited sorted by ``key``; a node reached again is counted
    in ``visited`` (keyed by ``id``) but not walked again.
    """
    if order not in ("pre", "post"):
        raise ValueError("order must be one of 'pre' or 'post'")
    counts: Dict[int, int] = {} if visited is None else visited
    stack: List[Tuple[Any, bool]] = [(r, False) for r in reversed(roots)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            yield node if attrs is None else node.frame.values(attrs)
            continue
        k = id(node)
        if k in counts:
            counts[k] += 1
            continue
        counts[k] = 1
        if order == "pre":
            yield node if attrs is None else node.frame.values(attrs)
        else:
            stack.append((node, True))
        for child in sorted(node.children, key=key, reverse=True):
            stack.append((child, False))
