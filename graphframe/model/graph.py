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

Walks (pre/post-order, level plans, child lists in id order) come from the
``graph_traversal`` mixin, ``union`` and the networkx conversion from the
``graph_interop`` mixin.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from graphframe_readers.builder import records_to_frame

from ..kernels import structure as st
from .frame import Frame, is_missing, python_scalar
from .frame_codes import frame_codes
from .equality import graphs_equal
from .interop import GraphInterop
from .lists import parse_lists
from .layout import canonical_layout
from .traversal import GraphTraversal
from .node import HandNode, Node
from .handgraph import (HandSnapshot, bind, hand_depths, has_hand_node, hand_state,
                        refresh_hand, restore_hand)
from .merging import find_merges, merge_nodes
from .rootlist import RootList

INT = np.int64
_COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3


class Graph(GraphTraversal, GraphInterop):
    """Immutable call graph (tree, forest, DAG or cyclic) over integer node ids.

    Build one with :meth:`Graph.build` (arrays), :meth:`Graph.from_lists`
    (nested lists), :meth:`Graph.from_networkx`, or as Hatchet does from
    hand-built nodes: ``Graph(roots)`` walks the linked
    ``Node(Frame(...))`` objects once (``roots`` keeps the given order).

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
                 "_child_idx", "_depth", "_attrs", "_ordered", "_forest", "_root_order",
                 "_cache")

    def __init__(self, roots=None, *, parent=None, parent_ptr=None, parent_idx=None,
                 child_ptr=None, child_idx=None, depth=None, attrs=None, ordered=False,
                 forest=True, root_order=None) -> None:
        if parent is None:  # Hatchet's Graph(roots) over hand-built nodes
            self._init_from_nodes(roots)
            return
        self._root_order = None
        if root_order is not None:
            root_order = np.asarray(root_order, dtype=INT)
            if not np.array_equal(root_order, roots):
                root_order.flags.writeable = False
                self._root_order = root_order
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

    def _init_from_nodes(self, roots: Any) -> None:
        self._adopt(HandSnapshot.take(roots))

    def _adopt(self, snap: "HandSnapshot") -> None:
        """Take the arrays built from a walk of hand-built nodes (``Graph(roots)``,
        or :meth:`enumerate_traverse` after the nodes changed) and bind the nodes."""
        built, order = Graph.from_edges(snap.attrs, snap.src, snap.dst, snap.root_pos)
        for name in Graph.__slots__:
            setattr(self, name, getattr(built, name))
        self._cache = dict(built._cache)
        bind(self, snap, order)

    # -------------------------------------------------------------- pickle
    def __getstate__(self) -> dict:
        """The arrays, the frame table, the root order and the hand-built nodes
        (Python's pickle protocol; the derived caches are rebuilt on demand)."""
        state = {name: getattr(self, name) for name in Graph.__slots__ if name != "_cache"}
        state["hand"] = hand_state(self)
        return state

    def __setstate__(self, state: dict) -> None:
        hand = state.pop("hand", None)
        for name, value in state.items():
            setattr(self, name, value)
        for name in ("_roots", "_parent", "_parent_ptr", "_parent_idx", "_child_ptr",
                     "_child_idx", "_depth", "_root_order"):
            value = getattr(self, name)
            if value is not None:
                value.flags.writeable = False
        self._cache = {}
        if hand is not None:
            restore_hand(self, hand)

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
        keep_root_order: bool = False,
        depth: Optional[np.ndarray] = None,
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
        keep_root_order : bool
            :attr:`roots` lists the roots in input order (as Hatchet's
            readers and ``from_lists`` make them) instead of ascending id.
        depth : array, optional
            Depth of each input node along first parents when the caller
            already has it; used when the graph is a forest.

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
                               sibling_key=sibling_key, codes=codes, child_order=child_order,
                               depth=depth)
        root_order = None
        if keep_root_order:
            root_order = st.invert(lay.order, len(lay.order))[
                np.flatnonzero(np.asarray(parent) < 0)]
        graph = cls(roots=lay.roots, parent=lay.parent, parent_ptr=lay.parent_ptr,
                    parent_idx=lay.parent_idx, child_ptr=lay.child_ptr,
                    child_idx=lay.child_idx, depth=lay.depth, attrs=lay.attrs,
                    ordered=ordered, forest=lay.forest, root_order=root_order)
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
        is_first[cand[st.first_occurrences(dst[cand], n)]] = True
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
        >>> [r.frame["name"] for r in Graph.from_lists(("x", "y"), ("p", "q")).roots]
        ['x', 'p']

        A node object inside the lists (``Node(Frame(...))``) appears once,
        with every parent it is listed under (a DAG):

        >>> shared = Node(Frame(name="shared"))
        >>> dag = Graph.from_lists(("top", ("left", shared), ("right", shared)))
        >>> len(dag), dag.is_tree(), [str(p.frame["name"]) for p in shared.parents]
        (4, False, ['left', 'right'])
        """
        if not all(isinstance(r, (list, tuple)) for r in roots):
            raise ValueError("Graph.from_lists: each root must be a list or tuple")
        if has_hand_node(roots):
            graph = cls([HandNode.from_lists(r) for r in roots])
            graph.enumerate_traverse()
            return graph
        frames, parents = parse_lists(roots)
        graph, _ = cls.build(records_to_frame(frames), parents, keep_root_order=True)
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
    def roots(self) -> List[Any]:
        """The roots, in the order they were given (``from_lists``, a reader's
        order where Hatchet's is deterministic), else ascending id.

        For a graph built by hand (``Graph(roots)``) this is the list of
        hand-built nodes it was given, as in Hatchet: appending to it adds a
        root at the next :meth:`enumerate_traverse`. Elsewhere it is a new list
        of :class:`Node` views that refuses changes (the graph is immutable).

        Examples
        --------
        >>> g = Graph.from_lists(("b", "x"), ("a", "y"))
        >>> [r.frame["name"] for r in g.roots], g.root_ids.tolist()
        (['b', 'a'], [0, 2])
        >>> g.roots.append(g.node(1))
        Traceback (most recent call last):
        ...
        graphframe.errors.ImmutableGraphError: the roots of a graph built from arrays cannot be changed: build a new graph (Graph.from_lists, Graph(roots) over Node(Frame(...)) objects, or graphframe.Graph.build)
        """
        snap = self._cache.get("hand_snapshot")
        if snap is not None:
            return snap.roots
        order = self._roots if self._root_order is None else self._root_order
        return RootList(Node.many(order.tolist(), self))

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
    def node_ordering(self) -> bool:
        """Hatchet's name for :attr:`ordered` (siblings in the source's node order)."""
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

    def frame(self, node: int) -> Frame:
        """The :class:`Frame` of ``node`` (a new object: changing it does not change
        the graph)."""
        return Frame(self.frame_dict(node))

    def frame_dict(self, node: int) -> dict:
        """The frame attributes of ``node`` exactly as stored (no added ``type``)."""
        i = int(node)
        return {k: values[c] for k, codes, values in self._frame_table()
                for c in (int(codes[i]),) if c >= 0}

    def _frame_table(self) -> List[Tuple[Any, np.ndarray, List[Any]]]:
        """Per frame attribute: ``(key, code per node, distinct values)``, a
        negative code where the key is absent; made once (one factorize per
        column), so reading one node's frame costs a few list lookups."""
        table = self._cache.get("frame_table")
        if table is None:
            table = []
            for key in self._attrs.columns:
                codes, uniques = pd.factorize(self._attrs[key], use_na_sentinel=True)
                values = [python_scalar(v) for v in np.asarray(uniques, dtype=object).tolist()]
                missing = [is_missing(v) for v in values]
                if any(missing):  # NaN-like values factorize did not count as missing
                    remap = np.where(missing, -1, np.arange(len(values)))
                    codes = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1)
                table.append((key, codes, values))
            self._cache["frame_table"] = table
        return table

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


    # ---------------------------------------------------------------- misc
    def is_tree(self) -> bool:
        """True for exactly one root and no node with several parents.

        Examples
        --------
        >>> Graph.from_lists(("a", "b")).is_tree(), Graph.from_lists(("a",), ("b",)).is_tree()
        (True, False)
        """
        return self._forest and len(self._roots) == 1

    def copy(self, old_to_new: Optional[dict] = None) -> "Graph":
        """An equal graph (the arrays are immutable and shared).

        Parameters
        ----------
        old_to_new : dict, optional
            Filled, as in Hatchet, with every node of this graph (the
            hand-built objects for a graph built by hand, else :class:`Node`
            views) -> the node of the copy with the same id.

        Examples
        --------
        >>> g = Graph.from_lists(("a", "b"))
        >>> mapping = {}
        >>> h = g.copy(mapping)
        >>> h == g, h is g, h.parent is g.parent
        (True, False, True)
        >>> [(str(old.frame["name"]), new.graph is h) for old, new in mapping.items()]
        [('a', True), ('b', True)]
        """
        graph = Graph(roots=self._roots, parent=self._parent, parent_ptr=self._parent_ptr,
                      parent_idx=self._parent_idx, child_ptr=self._child_ptr,
                      child_idx=self._child_idx, depth=self._depth, attrs=self._attrs,
                      ordered=self._ordered, forest=self._forest,
                      root_order=self._root_order)
        if "codes" in self._cache:
            graph._cache["codes"] = self._cache["codes"]
        if old_to_new is not None:
            ids = list(range(self.num_nodes))
            olds = self._cache.get("hand") or Node.many(ids, self)
            old_to_new.update(zip(olds, Node.many(ids, graph)))
        return graph

    # ------------------------------------------------- Hatchet's in-place graph API
    def enumerate_traverse(self) -> None:
        """Number hand-built nodes as Hatchet does (``_hatchet_nid`` = id, ``_depth``).

        Array node ids are always a pre-order, so for other graphs this does
        nothing. For a graph built by hand (``Graph(roots)``) the nodes are
        walked again first: links, roots or frame attributes changed since the
        graph was built are taken in (the graph's arrays are rebuilt; see
        ``docs/guide/coming-from-hatchet.md`` for when that is refused).

        Examples
        --------
        >>> from graphframe import Frame
        >>> root = Node.from_lists(["a", "c", "b"])
        >>> g = Graph([root])
        >>> g.enumerate_traverse()
        >>> [(c.frame["name"], c._hatchet_nid, c._depth) for c in root.children]
        [('c', 2, 1), ('b', 1, 1)]
        >>> root.children[0].add_child(Node(Frame(name="d")))   # a node added later
        >>> g.enumerate_traverse()
        >>> len(g), root.children[0].children[0]._hatchet_nid
        (4, 3)
        """
        refresh_hand(self)
        hand = self._cache.get("hand")
        if hand is None:
            return
        for node in hand:
            node._hatchet_nid = node._bound_id
        self.enumerate_depth()

    def enumerate_depth(self) -> None:
        """Hatchet's ``enumerate_depth``: set ``_depth`` of hand-built nodes.

        Roots get 0, then a depth-first walk over each node's ``children`` in
        list order gives a node its parent's depth + 1 when first reached. An
        array graph's depths are fixed when it is built (:attr:`depth`, along
        the first discovery in pre-order), so for it this does nothing.

        Examples
        --------
        >>> from graphframe import Frame
        >>> d = Node(Frame(name="d"))
        >>> a = Node.from_lists(["a", d, ["b", d]])
        >>> Graph([a]).enumerate_depth()
        >>> d._depth
        1
        """
        snap = self._cache.get("hand_snapshot")
        if snap is not None:
            hand_depths(snap.roots)

    def find_merges(self) -> dict:
        """Hatchet's ``find_merges``: nodes to merge with an equal-framed sibling.

        Siblings (children of one parent, or roots) with equal frames merge,
        and so, recursively, do equal-framed children of merged nodes. Each
        node of a group that merges maps to the group's survivor (its
        smallest id, the first in pre-order; the survivor maps to itself).
        Computed on the arrays (no per-node walk).

        Examples
        --------
        >>> import pandas as pd
        >>> g, _ = Graph.build(pd.DataFrame({"name": ["a", "x", "y", "x", "z"]}),
        ...                    [-1, 0, 1, 0, 3])
        >>> {str(k.frame["name"]) + str(int(k)): int(v) for k, v in g.find_merges().items()}
        {'x1': 1, 'x3': 1}
        """
        return find_merges(self)

    def merge_nodes(self, merges: dict, old_to_new: Optional[dict] = None) -> "Graph":
        """Hatchet's ``merge_nodes``: a **new** graph where each node of ``merges``
        is merged into its target (parents and children pooled, duplicates once).

        Hatchet changes the graph in place; graphframe's graph is immutable
        (dataframes refer to its ids), so the merged graph is returned and
        ``old_to_new``, if given, is filled with old node -> new node.

        Examples
        --------
        >>> g = Graph.from_lists(("a", ("x", "p"), ("x", "q")))
        >>> merged = g.merge_nodes(g.find_merges())
        >>> [n.frame["name"] for n in merged.traverse()]
        ['a', 'x', 'p', 'q']
        """
        return merge_nodes(self, merges, old_to_new)

    def normalize(self, old_to_new: Optional[dict] = None) -> "Graph":
        """Hatchet's ``normalize`` (:meth:`find_merges` then :meth:`merge_nodes`) as a
        new graph; this one is unchanged.

        Hatchet merges in place and returns the merges; here the merges are
        :meth:`find_merges`' result and ``old_to_new``, if given, is filled
        with old node -> new node.

        Examples
        --------
        >>> g = Graph.from_lists(("a", ("x", "p"), ("x", "q")))
        >>> len(g), len(g.normalize()), g.normalize().is_tree()
        (5, 4, True)
        """
        return merge_nodes(self, find_merges(self), old_to_new)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return graphs_equal(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "tree" if self.is_tree() else ("forest" if self._forest else "graph")
        return f"<Graph {kind}: {self.num_nodes} nodes, {len(self._roots)} roots>"

