"""Graph's union with another graph and its conversion to and from networkx.

Mixed into :class:`~graphframe.model.graph.Graph`. Each method is thin: the call-path
interning of a union is in :mod:`graphframe.model.union`, the networkx
conversion in :mod:`graphframe.model.nx_convert`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..kernels import structure as st
from . import nx_convert
from .union import union_inputs

G = TypeVar("G", bound="GraphInterop")


class GraphInterop:
    """``union``, ``to_networkx`` and ``from_networkx`` for Graph."""

    __slots__ = ()

    def union(self: G, other: G, return_mappings: bool = False) -> Any:
        """The union of two graphs, matching nodes by call path.

        Nodes of both graphs are interned together by call path (frame
        sequence from a root along first parents), one depth level at a time
        by ``(parent's path, frame code, occurrence)``; the occurrence keeps
        duplicate siblings of one graph distinct and pairs them one to one
        with the other graph's (Hatchet's sorted merge does the same).
        Every other edge (second parents, recursion) is carried over. The
        result is renumbered like every graph; for two ``ordered`` graphs the
        left graph's order comes first, then the right graph's new nodes in
        the order they are first seen. With ``return_mappings`` also return
        ``old id -> new id`` arrays for both graphs.

        Examples
        --------
        >>> from graphframe import Graph
        >>> a = Graph.from_lists(("a", "b", ("c", "x")))
        >>> b = Graph.from_lists(("a", "c", ("d", "y")))
        >>> u, ma, mb = a.union(b, return_mappings=True)
        >>> [n.frame["name"] for n in u.traverse()]
        ['a', 'b', 'c', 'x', 'd', 'y']
        >>> ma.tolist(), mb.tolist()
        ([0, 1, 2, 3], [0, 2, 4, 5])
        """
        parts = union_inputs(self, other)
        graph, order = type(self).build(parts.attrs, parts.parent, parts.extra,
                                        ordered=parts.ordered, sibling_key=parts.sibling_key,
                                        codes=parts.codes, depth=parts.depth)
        na, k, path = self.num_nodes, parts.num_paths, parts.path
        if not return_mappings:
            return graph
        new_of_path = st.invert(order, k)
        return graph, new_of_path[path[:na]], new_of_path[path[na:]]

    def to_networkx(self):
        """A ``networkx.DiGraph`` with frame attributes as node data.

        ``G.graph["roots"]`` lists the roots and ``G.graph["ordered"]`` the
        flag; each node's out-edges follow the graph's child order.

        Examples
        --------
        >>> from graphframe import Graph
        >>> g = Graph.from_lists(("main", ("solve", "mpi"), "io"))
        >>> nxg = g.to_networkx()
        >>> nxg.graph["roots"], [nxg.nodes[c]["name"] for c in nxg.successors(0)]
        ([0], ['solve', 'io'])
        """
        return nx_convert.to_networkx(self)

    @classmethod
    def from_networkx(cls: "type[G]", nx_graph: Any) -> G:
        """Build a graph from a ``networkx.DiGraph`` (see :meth:`to_networkx`).

        Node data become frame attributes; roots are ``G.graph["roots"]`` when
        present (so a root on a cycle is kept), else the nodes without
        predecessors. Node ids follow graphframe's pre-order numbering; child
        order follows the out-edge order, and ``G.graph["ordered"]`` sets
        :attr:`ordered`. ``from_networkx(g.to_networkx())`` is ``g`` again,
        with the same ids.

        Examples
        --------
        >>> from graphframe import Graph
        >>> import networkx as nx
        >>> nxg = nx.DiGraph([("main", "solve"), ("solve", "main")], roots=["main"])
        >>> g = Graph.from_networkx(nxg)
        >>> [n.frame["name"] for n in g.roots], [p.frame["name"] for p in g.roots[0].parents]
        (['main'], ['solve'])
        """
        parts = nx_convert.parts_from_networkx(nx_graph)
        graph, _ = cls.build(parts.attrs, parts.parent, parts.extra, ordered=parts.ordered,
                             child_order=parts.child_order)
        return graph
