"""GraphFrame's operations: filter, squash, unify, arithmetic and queries.

Mixed into :class:`~graphframe.graphframe.GraphFrame` (which keeps the
operators ``+ - * /``). Each method is thin: it calls a function of ``ops/``
or ``query/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional

from .ops import arithmetic
from .ops import filter as filtering
from .ops import squash as squashing
from .ops import union
from .query import matched_nodes

if TYPE_CHECKING:
    from .graphframe import GraphFrame


class OperationMethods:
    """``filter``, ``squash``, ``unify``, ``add``, ``sub``, ``mul``, ``div``, ``query``."""

    def filter(self, filter_obj: Any, squash: bool = True, update_inc_cols: bool = True,
               num_procs: Any = None, rec_limit: Any = None,
               multi_index_mode: str = "off") -> "GraphFrame":
        """A new GraphFrame with the rows ``filter_obj`` selects.

        Parameters
        ----------
        filter_obj : boolean mask, callable or query
            A boolean mask over the rows (a Series aligned with the dataframe,
            an array or a list; the fast form), a callable called once per
            row as in Hatchet (the row holds the index levels and columns,
            ``row["node"]`` is a Node), or a query (object dialect list,
            string dialect, or a query object; every row of the nodes on a
            matching path is kept; see :meth:`query`).
        squash : bool
            Squash the result (drop nodes without rows), as Hatchet does.
        update_inc_cols : bool
            Recompute inclusive columns when squashing.
        num_procs, rec_limit
            Accepted for Hatchet compatibility and ignored: nothing runs in
            other processes and the recursion limit is never changed.
        multi_index_mode : str
            How queries treat several rows per node (see ``docs/query.md``).

        Returns
        -------
        GraphFrame

        Raises
        ------
        EmptyFilter
            No row is left.
        InvalidFilter
            ``filter_obj`` is not a filter, or the callable failed on a row
            (the row is named, the callable's exception chained).

        Examples
        --------
        >>> import numpy as np
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
        >>> kept = gf.filter(gf.dataframe["name"].isin(["a", "c", "f"]))
        >>> print(kept.tree(render_header=False), end="")
        1.000 a
        ├─ 1.000 c
        └─ 1.000 f
        >>> kept.dataframe.loc[0, "time (inc)"]
        np.float64(3.0)
        >>> gf.filter(lambda row: row["node"].frame["name"] in "abc").dataframe["name"].tolist()
        ['a', 'b', 'c']
        """
        return filtering.filter_rows(self, filter_obj, squash, update_inc_cols, num_procs,
                                     rec_limit, multi_index_mode)

    def squash(self, update_inc_cols: bool = True) -> "GraphFrame":
        """A new GraphFrame whose graph holds exactly the nodes that have rows.

        Kept nodes are rewired to their nearest kept ancestors, siblings with
        equal frames merge (their rows combined by each column's aggregation:
        metrics summed and attributes first by default), ids are renumbered
        in pre-order without gaps.

        Parameters
        ----------
        update_inc_cols : bool
            Recompute inclusive columns afterwards.

        Returns
        -------
        GraphFrame

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("a", ("b", "x", "y"), ("c", "x")))
        >>> part = gf.filter(gf.dataframe["name"].isin(["a", "x", "y"]), squash=False)
        >>> out = part.squash()
        >>> print(out.tree(metric_column=["time", "time (inc)"], render_header=False), end="")
        1.000 4.000 a
        ├─ 2.000 2.000 x
        └─ 1.000 1.000 y
        """
        return squashing.squash(self, update_inc_cols)

    def unify(self, other: "GraphFrame") -> "tuple[GraphFrame, GraphFrame]":
        """Both GraphFrames re-keyed onto the union of their graphs (new objects).

        Nodes are matched by call path; in graphs with shared nodes, children
        with equal frames are matched through every parent. Neither input
        changes (Hatchet mutates both). As in Hatchet, the left result gets
        one row per row of ``other`` whose node has no row on the left
        (metrics NaN, attributes copied) and a ``_missing_node`` column (0
        both, 1 left only, 2 right only) when the node sets differ.

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.

        Returns
        -------
        (GraphFrame, GraphFrame)
            ``self`` and ``other`` on the union graph (one shared Graph).

        Raises
        ------
        GraphMismatchError
            The index levels differ.
        OperationError
            ``other`` is not a GraphFrame.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "io"))
        >>> ua, ub = a.unify(b)
        >>> ua.dataframe[["name", "time", "_missing_node"]]
               name  time  _missing_node
        node
        0      main   1.0              0
        1        io   NaN              2
        2     solve   1.0              1
        >>> ub.dataframe.index.tolist(), ua.graph is ub.graph
        ([0, 1], True)
        """
        return union.unify(self, other)

    def add(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self + other`` on the unified graph, row by row (see ``docs/operations.md``).

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.
        fill_value : float, optional
            Stands for a missing row on one side. Default (Hatchet's values):
            a left-only row keeps its value, a right-only row is NaN. With a
            ``fill_value`` (e.g. 0) added and removed nodes get real values
            and inclusive columns are recomputed.

        Returns
        -------
        GraphFrame
            With ``_missing_node`` (0 both, 1 left only, 2 right only).

        Raises
        ------
        GraphMismatchError
            The index levels differ.
        OperationError
            ``other`` is not a GraphFrame (``gf + 5`` raises TypeError).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "io"))
        >>> (a + b).dataframe[["name", "time", "_missing_node"]]
               name  time  _missing_node
        node
        0      main   2.0              0
        1        io   NaN              2
        2     solve   1.0              1
        >>> a.add(b, fill_value=0).dataframe["time (inc)"].tolist()
        [4.0, 1.0, 1.0]
        """
        return arithmetic.arithmetic(self, other, "add", fill_value)

    def sub(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self - other`` on the unified graph; ``fill_value=0`` gives real deltas.

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.
        fill_value : float, optional
            Stands for a missing row on one side (see :meth:`add`).

        Returns
        -------
        GraphFrame

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> b = GraphFrame.from_lists(("main", "io"))
        >>> diff = b.sub(a, fill_value=0)
        >>> diff.dataframe[["name", "time", "time (inc)", "_missing_node"]]
               name  time  time (inc)  _missing_node
        node
        0      main   0.0         0.0              0
        1        io   1.0         1.0              1
        2     solve  -1.0        -1.0              2
        """
        return arithmetic.arithmetic(self, other, "sub", fill_value)

    def mul(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self * other`` on the unified graph (inclusive columns multiplied row by row).

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.
        fill_value : float, optional
            Stands for a missing row on one side (see :meth:`add`).

        Returns
        -------
        GraphFrame

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> double = a._replace(dataframe=a.dataframe.assign(time=2.0))
        >>> a.mul(double).dataframe["time"].tolist()
        [2.0, 2.0]
        """
        return arithmetic.arithmetic(self, other, "mul", fill_value)

    def div(self, other: "GraphFrame", fill_value: Optional[float] = None) -> "GraphFrame":
        """``self / other`` on the unified graph (inclusive columns divided row by row).

        Parameters
        ----------
        other : GraphFrame
            Indexed by the same levels as ``self``.
        fill_value : float, optional
            Stands for a missing row on one side (see :meth:`add`).

        Returns
        -------
        GraphFrame

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> double = a._replace(dataframe=a.dataframe.assign(time=2.0))
        >>> (a / double).dataframe["time"].tolist()
        [0.5, 0.5]
        """
        return arithmetic.arithmetic(self, other, "div", fill_value)

    def query(self, query: Any, multi_index_mode: str = "off") -> List[Any]:
        """The nodes on any call path matching ``query``, in pre-order.

        ``gf.filter(query)`` keeps the rows of the same nodes. See
        ``docs/query.md`` for both dialects and the differences from Hatchet.

        Parameters
        ----------
        query : list, str or query object
            An object-dialect list (``[{"name": "MPI_.*"}, "*"]``), a
            string-dialect query (``'MATCH (p)->("*") WHERE p."name" =~
            "MPI_.*"'``; keywords upper-case), or a query object
            (``ObjectQuery``, ``StringQuery``, ``QueryMatcher``, compounds).
            A callable predicate in a query is called once per row with the
            row as Hatchet passes it (``row.name`` is the Node).
        multi_index_mode : {"off", "all", "any"}
            For lists and strings on data with rank/thread levels: a node
            satisfies a condition when "any" / "all" of its rows do; "off"
            refuses column conditions there. A query object keeps its own.

        Returns
        -------
        list of Node
            The matched nodes, ascending id (pre-order).

        Raises
        ------
        QuerySyntaxError
            A string query that does not parse (with the position).
        InvalidQueryPath, InvalidQueryFilter
            A malformed query, or a condition that does not fit the data
            (the message names the query node and column).

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("MPI_Send", "ibv_post"), ("solve", "MPI_Recv")))
        >>> [n.frame["name"] for n in gf.query([{"name": "MPI_.*"}, "*"])]
        ['MPI_Send', 'ibv_post', 'MPI_Recv']
        >>> gf.filter('MATCH (p)->(q) WHERE p."name" = "solve"').dataframe["name"].tolist()
        ['solve', 'MPI_Recv']
        """
        ids = matched_nodes(self, query, multi_index_mode=multi_index_mode)
        return [self.graph.node(int(i)) for i in ids]
