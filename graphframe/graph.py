"""Graph: an immutable call graph stored in integer arrays.

Node ids are ``0..n-1`` and always in **pre-order**: a depth-first walk from
the roots that visits siblings in frame order (Hatchet's order) or, for
sources whose order is meaningful (``ordered=True``, e.g. Caliper's node
order), in source order; a node reached by several paths gets its id on
first discovery. Consequences used everywhere: ``range(n)`` is the pre-order,
every node's id is larger than its first parent's, and in a tree the subtree
of ``v`` is the id range ``v .. v + size - 1``.

Structure lives in numpy arrays: ``parent`` (first parent, ``-1`` for roots),
CSR parent lists (``parent_ptr``/``parent_idx``, first parent first) and CSR
child lists (``child_ptr``/``child_idx``, in the source's order), ``depth``
(along first discovery) and ``attrs``, the frame attribute table (one row per
node; a missing value means the key is absent from that frame).
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from readers.builder import records_to_frame

from . import graph_nx
from . import structure as st
from .frame import Frame, is_missing, python_scalar
from .frame_codes import frame_codes
from .graph_equality import graphs_equal
from .node import Node
from .graph_inputs import parse_lists, union_inputs
from .graph_layout import canonical_layout

INT = np.int64
_COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3


class Graph:
    """Immutable call graph (tree, forest, DAG or cyclic) over integer node ids.

    Build one with :meth:`Graph.build` (arrays), :meth:`Graph.from_lists`
    (nested lists) or :meth:`Graph.from_networkx`.

    Examples
    --------
    >>> g = Graph.from_lists(("a", ("b", "c", "d"), ("e", "f")))
    >>> [n.frame["name"] for n in g.traverse()]
    ['a', 'b', 'c', 'd', 'e', 'f']
    >>> g.depth.tolist()
    [0, 1, 2, 2, 1, 2]
    >>> [n.frame["name"] for n in g.traverse(order="post")]
    ['c', 'd', 'b', 'f', 'e', 'a']
    """

    __slots__ = ("_roots", "_parent", "_parent_ptr", "_parent_idx", "_child_ptr",
                 "_child_idx", "_depth", "_attrs", "_ordered", "_forest", "_cache")

    def __init__(self, *, roots, parent, parent_ptr, parent_idx, child_ptr, child_idx,
                 depth, attrs, ordered, forest) -> None:
        self._roots = roots
        self._parent = parent
        self._parent_ptr = parent_ptr
        self._parent_idx = parent_idx
        self._child_ptr = child_ptr
        self._child_idx = child_idx
        self._depth = depth
        self._attrs = attrs
        self._ordered = bool(ordered)
        self._forest = bool(forest)
        self._cache: dict = {}
        for arr in (roots, parent, parent_ptr, parent_idx, child_ptr, child_idx, depth):
            arr.flags.writeable = False

    # ------------------------------------------------------------ building
    @classmethod
    def build(
        cls,
        attrs: pd.DataFrame,
        parent: Sequence[int],
        extra_edges: Optional[Tuple[Sequence[int], Sequence[int]]] = None,
        *,
        ordered: bool = False,
        sibling_key: Optional[np.ndarray] = None,
        codes: Optional[np.ndarray] = None,
        child_order: Optional[Tuple[np.ndarray, np.ndarray]] = None,
    ) -> Tuple["Graph", np.ndarray]:
        """Build a graph from row positions; return it and ``order``.

        Parameters
        ----------
        attrs : pandas.DataFrame
            Frame attribute table, one row per node (input positions).
        parent : array of int
            First parent of each node (input position, ``-1`` for a root).
            Parent chains must end at a root.
        extra_edges : (array, array), optional
            Further ``(parent, child)`` edges for nodes with several parents.
        ordered : bool
            Visit siblings in input order instead of frame order.
        sibling_key : array, optional
            Explicit sibling sort key per input position (overrides both).
        codes : array, optional
            Frame codes of the input rows when the caller already has them
            (equal codes <=> equal frames, ordered like the frames); saves
            recomputing them.
        child_order : (array, array), optional
            A key per first-parent edge (indexed by child position; roots
            ignored) and per extra edge: each node's child list is sorted by
            it. Without it, child lists hold the first-parent edges in input
            order, then the extra edges in input order.

        Returns
        -------
        graph : Graph
        order : numpy.ndarray
            ``order[new_id]`` = input position of that node.

        Examples
        --------
        >>> attrs = pd.DataFrame({"name": ["a", "b", "x", "c", "y"]})
        >>> g, order = Graph.build(attrs, [-1, 0, 1, 0, 3], ([3], [2]),
        ...                        child_order=([0, 1, 2, 3, 5], [4]))
        >>> [[n.frame["name"] for n in g.node(i).children] for i in range(len(g))]
        [['b', 'c'], ['x'], [], ['x', 'y'], []]
        >>> [g.frame(int(c))["name"] for c in g.child_idx[g.child_ptr[3]:g.child_ptr[4]]]
        ['x', 'y']
        """
        lay = canonical_layout(attrs, parent, extra_edges, ordered=ordered,
                               sibling_key=sibling_key, codes=codes, child_order=child_order)
        graph = cls(roots=lay.roots, parent=lay.parent, parent_ptr=lay.parent_ptr,
                    parent_idx=lay.parent_idx, child_ptr=lay.child_ptr,
                    child_idx=lay.child_idx, depth=lay.depth, attrs=lay.attrs,
                    ordered=ordered, forest=lay.forest)
        if lay.codes is not None:
            graph._cache["codes"] = lay.codes
        return graph, lay.order

    @classmethod
    def from_edges(
        cls,
        attrs: pd.DataFrame,
        src: Sequence[int],
        dst: Sequence[int],
        roots: Sequence[int],
        *,
        ordered: bool = False,
        sibling_key: Optional[np.ndarray] = None,
        codes: Optional[np.ndarray] = None,
    ) -> Tuple["Graph", np.ndarray]:
        """Build a graph from an edge list and explicit roots (input positions).

        Every node must be reachable from ``roots``; first parents are found
        breadth-first (vectorised per level). Returns ``(graph, order)`` like
        :meth:`build`.

        Examples
        --------
        >>> attrs = pd.DataFrame({"name": ["a", "b", "c"]})
        >>> g, _ = Graph.from_edges(attrs, [0, 1, 2], [1, 2, 1], [0])
        >>> g.is_forest, [p.frame["name"] for p in g.node(1).parents]
        (False, ['a', 'c'])
        """
        n = len(attrs)
        src = np.asarray(src, dtype=INT)
        dst = np.asarray(dst, dtype=INT)
        first = st.bfs_parents(n, src, dst, np.asarray(roots, dtype=INT))
        unreached = np.flatnonzero(first == -2)
        if len(unreached):
            raise ValueError(f"node at position {unreached[0]} cannot be reached from the roots")
        primary = first[dst] == src
        # an edge is "extra" unless it is the first-parent edge of its child
        is_first = np.zeros(len(src), dtype=bool)
        cand = np.flatnonzero(primary)
        _, pick = np.unique(dst[cand], return_index=True)
        is_first[cand[pick]] = True
        extra = (src[~is_first], dst[~is_first])
        return cls.build(attrs, first.clip(min=-1), extra, ordered=ordered,
                         sibling_key=sibling_key, codes=codes)

    @classmethod
    def from_lists(cls, *roots: Any) -> "Graph":
        """Build a graph from nested lists, as Hatchet's ``Graph.from_lists``.

        Each argument is a list or tuple whose first element names the node
        (a string, a dict of frame attributes or a :class:`Frame`) and whose
        other elements are children: a name (a leaf) or a nested list/tuple.

        Examples
        --------
        >>> Graph.from_lists(("a", "b", ("c", "d"))).num_nodes
        4
        """
        frames, parents = parse_lists(roots)
        graph, _ = cls.build(records_to_frame(frames), parents)
        return graph

    # ---------------------------------------------------------- properties
    @property
    def num_nodes(self) -> int:
        """Number of nodes."""
        return len(self._parent)

    def __len__(self) -> int:
        return len(self._parent)

    @property
    def root_ids(self) -> np.ndarray:
        """Ids of the roots, ascending."""
        return self._roots

    @property
    def roots(self) -> List["Node"]:
        """The roots as :class:`Node` views."""
        return [Node(int(r), self) for r in self._roots]

    @property
    def parent(self) -> np.ndarray:
        """First parent of every node (-1 for roots)."""
        return self._parent

    @property
    def parent_ptr(self) -> np.ndarray:
        """CSR offsets into :attr:`parent_idx`."""
        return self._parent_ptr

    @property
    def parent_idx(self) -> np.ndarray:
        """All parents of every node, first parent first."""
        return self._parent_idx

    @property
    def child_ptr(self) -> np.ndarray:
        """CSR offsets into :attr:`child_idx`."""
        return self._child_ptr

    @property
    def child_idx(self) -> np.ndarray:
        """Children of every node, in the source's order."""
        return self._child_idx

    @property
    def depth(self) -> np.ndarray:
        """Depth of every node (along its first discovery)."""
        return self._depth

    @property
    def attrs(self) -> pd.DataFrame:
        """Frame attribute table, one row per node (a missing value: key absent).

        A copy: changing it never changes the graph (with pandas' copy-on-write
        it costs nothing until it is written to).

        Examples
        --------
        >>> g = Graph.from_lists(("a", "b"))
        >>> table = g.attrs
        >>> table.loc[0, "name"] = "changed"
        >>> g.attrs["name"].tolist()
        ['a', 'b']
        """
        return self._attrs.copy(deep=not _COPY_ON_WRITE)

    def attr_names(self) -> Tuple[Any, ...]:
        """The frame attribute keys (columns of :attr:`attrs`), without copying the table.

        Examples
        --------
        >>> Graph.from_lists(("a", "b")).attr_names()
        ('name', 'type')
        """
        return tuple(self._attrs.columns)

    def attr_values(self, key: Any) -> np.ndarray:
        """One frame attribute of every node, as a new object array (None where absent).

        Examples
        --------
        >>> Graph.from_lists(("a", "b")).attr_values("name").tolist()
        ['a', 'b']
        """
        values = self._attrs[key].to_numpy(dtype=object)
        return np.where(pd.isna(values), None, values)

    @property
    def ordered(self) -> bool:
        """True when siblings follow the source's order, not frame order."""
        return self._ordered

    @property
    def is_forest(self) -> bool:
        """True when no node has more than one parent (a tree or a forest)."""
        return self._forest

    @property
    def num_edges(self) -> int:
        """Number of parent -> child edges."""
        return len(self._child_idx)

    @property
    def frame_codes(self) -> np.ndarray:
        """Interned frame per node: equal codes <=> equal frames, ordered."""
        if "codes" not in self._cache:
            self._cache["codes"] = frame_codes(self._attrs)
        return self._cache["codes"]

    def sorted_children(self) -> Tuple[np.ndarray, np.ndarray]:
        """CSR child lists with each node's children in ascending id order."""
        if "sorted_children" not in self._cache:
            owner = st.segment_owner(self._child_ptr)
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

    def frame(self, node: int) -> Frame:
        """The :class:`Frame` of ``node``."""
        row = self._attrs.iloc[int(node)]
        return Frame({k: python_scalar(v) for k, v in row.items() if not is_missing(v)})

    def frame_dict(self, node: int) -> dict:
        """The frame attributes of ``node`` exactly as stored (no added ``type``)."""
        row = self._attrs.iloc[int(node)]
        return {k: python_scalar(v) for k, v in row.items() if not is_missing(v)}

    def frame_dicts(self) -> List[dict]:
        """Every node's frame attributes as stored (column-wise, cached)."""
        if "frame_dicts" not in self._cache:
            columns = []
            for name in self._attrs.columns:
                values = [python_scalar(v) for v in self._attrs[name].tolist()]
                columns.append((name, values))
            dicts: List[dict] = [{} for _ in range(self.num_nodes)]
            for name, values in columns:
                for d, v in zip(dicts, values):
                    if not is_missing(v):
                        d[name] = v
            self._cache["frame_dicts"] = dicts
        return [dict(d) for d in self._cache["frame_dicts"]]

    def node(self, node: int) -> "Node":
        """A :class:`Node` view of ``node``."""
        if not 0 <= int(node) < self.num_nodes:
            raise IndexError(f"node id {node} is out of range for a graph of {self.num_nodes} nodes")
        return Node(int(node), self)

    __getitem__ = node

    # ----------------------------------------------------------- traversal
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

    def enumerate_traverse(self) -> None:
        """Kept for Hatchet compatibility: ids are always in pre-order already.

        Examples
        --------
        >>> g = Graph.from_lists(("a", "b"))
        >>> g.enumerate_traverse() is None
        True
        """

    # --------------------------------------------------------------- union
    def union(self, other: "Graph", return_mappings: bool = False) -> Any:
        """The union of two graphs, matching nodes by call path.

        Nodes of both graphs are interned together by call path (frame
        sequence from a root along first parents), one ``np.unique`` per depth
        level over ``(parent path, frame code, occurrence)``; the occurrence
        keeps duplicate siblings of one graph distinct and pairs them one to
        one with the other graph's (Hatchet's sorted merge does the same).
        Every other edge (second parents, recursion) is carried over. The
        result is renumbered like every graph; for two ``ordered`` graphs the
        left graph's order comes first, then the right graph's new nodes in
        the order they are first seen. With ``return_mappings`` also return
        ``old id -> new id`` arrays for both graphs.

        Examples
        --------
        >>> a = Graph.from_lists(("a", "b", ("c", "x")))
        >>> b = Graph.from_lists(("a", "c", ("d", "y")))
        >>> u, ma, mb = a.union(b, return_mappings=True)
        >>> [n.frame["name"] for n in u.traverse()]
        ['a', 'b', 'c', 'x', 'd', 'y']
        >>> ma.tolist(), mb.tolist()
        ([0, 1, 2, 3], [0, 2, 4, 5])
        """
        parts = union_inputs(self, other)
        graph, order = Graph.build(parts.attrs, parts.parent, parts.extra, ordered=parts.ordered,
                                   sibling_key=parts.sibling_key, codes=parts.codes)
        na, k, path = self.num_nodes, parts.num_paths, parts.path
        if not return_mappings:
            return graph
        new_of_path = st.invert(order, k)
        return graph, new_of_path[path[:na]], new_of_path[path[na:]]

    # ---------------------------------------------------------------- misc
    def is_tree(self) -> bool:
        """True for exactly one root and no node with several parents.

        Examples
        --------
        >>> Graph.from_lists(("a", "b")).is_tree(), Graph.from_lists(("a",), ("b",)).is_tree()
        (True, False)
        """
        return self._forest and len(self._roots) == 1

    def copy(self) -> "Graph":
        """An equal graph (the arrays are immutable and shared).

        Examples
        --------
        >>> g = Graph.from_lists(("a", "b"))
        >>> h = g.copy()
        >>> h == g, h is g, h.parent is g.parent
        (True, False, True)
        """
        return Graph(roots=self._roots, parent=self._parent, parent_ptr=self._parent_ptr,
                     parent_idx=self._parent_idx, child_ptr=self._child_ptr,
                     child_idx=self._child_idx, depth=self._depth, attrs=self._attrs,
                     ordered=self._ordered, forest=self._forest)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return graphs_equal(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "tree" if self.is_tree() else ("forest" if self._forest else "graph")
        return f"<Graph {kind}: {self.num_nodes} nodes, {len(self._roots)} roots>"

    def to_networkx(self):
        """A ``networkx.DiGraph`` with frame attributes as node data.

        ``G.graph["roots"]`` lists the roots and ``G.graph["ordered"]`` the
        flag; each node's out-edges follow the graph's child order.

        Examples
        --------
        >>> g = Graph.from_lists(("main", ("solve", "mpi"), "io"))
        >>> nxg = g.to_networkx()
        >>> nxg.graph["roots"], [nxg.nodes[c]["name"] for c in nxg.successors(0)]
        ([0], ['solve', 'io'])
        """
        return graph_nx.to_networkx(self)

    @classmethod
    def from_networkx(cls, nx_graph) -> "Graph":
        """Build a graph from a ``networkx.DiGraph`` (see :meth:`to_networkx`).

        Node data become frame attributes; roots are ``G.graph["roots"]`` when
        present (so a root on a cycle is kept), else the nodes without
        predecessors. Node ids follow graphframe's pre-order numbering; child
        order follows the out-edge order, and ``G.graph["ordered"]`` sets
        :attr:`ordered`. ``from_networkx(g.to_networkx())`` is ``g`` again,
        with the same ids.

        Examples
        --------
        >>> import networkx as nx
        >>> nxg = nx.DiGraph([("main", "solve"), ("solve", "main")], roots=["main"])
        >>> g = Graph.from_networkx(nxg)
        >>> [n.frame["name"] for n in g.roots], [p.frame["name"] for p in g.roots[0].parents]
        (['main'], ['solve'])
        """
        parts = graph_nx.parts_from_networkx(nx_graph)
        graph, _ = cls.build(parts.attrs, parts.parent, parts.extra, ordered=parts.ordered,
                             child_order=parts.child_order)
        return graph
