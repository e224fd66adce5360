"""GraphFrame's metric methods: inclusive/exclusive columns, subtree sums, aggregation.

Mixed into :class:`~graphframe.graphframe.GraphFrame`. Each method is thin: it
calls a function of ``ops/inclusive.py`` or ``ops/aggregate.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np

from .ops import aggregate, inclusive

if TYPE_CHECKING:
    from .graphframe import GraphFrame


class MetricMethods:
    """``update_inclusive_columns``, ``subtree_sum``, ``groupby_aggregate``... for GraphFrame."""

    def update_inclusive_columns(self) -> "GraphFrame":
        """A new GraphFrame whose inclusive columns are recomputed from the exclusive ones.

        Every exclusive metric that is summed when rows merge (see
        :attr:`aggregations`) gets its inclusive partner (``inclusive_of``; by
        default ``X (inc)``, or ``Y`` for ``Y (exc)``), per (node, rank,
        thread) row. Trees and forests are summed level by level; graphs with
        shared nodes count every distinct descendant once (Hatchet's rule).
        NaN and missing rows mean "no value".

        Returns
        -------
        GraphFrame
            A new GraphFrame; ``inc_metrics`` gains any new partner.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> df = gf.dataframe.assign(time=[1.0, 2.0, 3.0, 4.0])
        >>> gf._replace(dataframe=df).update_inclusive_columns().dataframe["time (inc)"].tolist()
        [10.0, 2.0, 7.0, 4.0]
        """
        return inclusive.update_inclusive_columns(self)

    def generate_exclusive_columns(self, inc_metrics: Optional[Sequence[str]] = None
                                   ) -> "GraphFrame":
        """A new GraphFrame with exclusive columns derived from inclusive ones.

        ``exc = inc - sum(inc of direct children)`` per row (a child without
        a value counts as 0). ``X (inc)`` gives ``X`` (unless ``X`` already
        is an exclusive metric); any other inclusive ``Y`` gives ``Y (exc)``.
        Inclusive metrics that are not summed (see :attr:`aggregations`) are
        skipped.

        Parameters
        ----------
        inc_metrics : list of str, optional
            The inclusive metrics to derive from (default: all of them).

        Returns
        -------
        GraphFrame
            A new GraphFrame; ``exc_metrics`` gains the new columns.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> cycles = gf.dataframe.rename(columns={"time (inc)": "cycles"})[["name", "cycles"]]
        >>> inc_only = GraphFrame(gf.graph, cycles, [], ["cycles"])
        >>> inc_only.generate_exclusive_columns().dataframe["cycles (exc)"].tolist()
        [1.0, 1.0, 1.0, 1.0]
        """
        return inclusive.generate_exclusive_columns(self, inc_metrics)

    def subtree_sum(self, columns: Sequence[str], out_columns: Optional[Sequence[str]] = None,
                    function: Any = None) -> "GraphFrame":
        """A new GraphFrame with ``out_columns`` = sums of ``columns`` over each subtree.

        Trees and forests only; see :meth:`subgraph_sum` for call graphs.

        Parameters
        ----------
        columns : list of str
            Numeric columns to sum.
        out_columns : list of str, optional
            Where to write the sums (default: overwrite ``columns`` in the copy).
        function : None, np.sum or "sum"
            Only summation is supported (Hatchet's default).

        Returns
        -------
        GraphFrame

        Raises
        ------
        MetricError
            A column does not exist.
        OperationError
            A column is not numeric, another function is asked for, or the
            graph has shared nodes.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
        >>> gf.subtree_sum(["time"], ["total"]).dataframe["total"].tolist()
        [4.0, 1.0, 2.0, 1.0]
        """
        return inclusive.sum_columns(self, columns, out_columns, function, require_forest=True)

    def subgraph_sum(self, columns: Sequence[str], out_columns: Optional[Sequence[str]] = None,
                     function: Any = None) -> "GraphFrame":
        """Like :meth:`subtree_sum` for any graph: each distinct descendant counted once.

        Parameters
        ----------
        columns : list of str
            Numeric columns to sum.
        out_columns : list of str, optional
            Where to write the sums (default: overwrite ``columns`` in the copy).
        function : None, np.sum or "sum"
            Only summation is supported.

        Returns
        -------
        GraphFrame

        Examples
        --------
        A diamond ``a -> {b, c} -> d``: ``d`` counts once for ``a``.

        >>> import pandas as pd
        >>> from graphframe import Graph, GraphFrame
        >>> g, _ = Graph.build(pd.DataFrame({"name": list("abcd")}), [-1, 0, 0, 1], ([2], [3]))
        >>> df = pd.DataFrame({"time": 1.0, "name": g.attrs["name"].to_numpy()},
        ...                   index=pd.Index(range(4), name="node"))
        >>> out = GraphFrame(g, df, ["time"], []).subgraph_sum(["time"], ["total"])
        >>> dict(zip(out.dataframe["name"], out.dataframe["total"]))
        {'a': 4.0, 'b': 2.0, 'd': 1.0, 'c': 2.0}
        """
        return inclusive.sum_columns(self, columns, out_columns, function)

    def drop_index_levels(self, function: Any = np.mean) -> "GraphFrame":
        """A new GraphFrame indexed by ``node`` only.

        Declared metrics are aggregated over each node's rows with
        ``function``; every other column keeps its first value.

        Parameters
        ----------
        function : callable or str
            Anything pandas' ``agg`` accepts: ``np.mean`` (default),
            ``np.max``, ``"sum"``...

        Returns
        -------
        GraphFrame

        Raises
        ------
        OperationError
            pandas cannot aggregate with ``function``.

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> from graphframe import GraphFrame
        >>> a = GraphFrame.from_lists(("main", "solve"))
        >>> df = pd.concat([a.dataframe.assign(rank=r, time=1.0 + r) for r in range(4)])
        >>> ranks = a._replace(dataframe=df.set_index("rank", append=True).sort_index())
        >>> ranks.drop_index_levels().dataframe["time"].tolist()
        [2.5, 2.5]
        >>> ranks.drop_index_levels(np.max).dataframe["time"].tolist()
        [4.0, 4.0]
        """
        return aggregate.drop_index_levels(self, function)

    def groupby_aggregate(self, groupby_function: Any, agg_function: Any) -> "GraphFrame":
        """A new GraphFrame whose nodes are groups of rows ("super nodes").

        Rows are grouped per key and per (rank, thread), so the index levels
        survive; a super node's frame is ``{"name": key, "type": <by>}``;
        an edge joins two groups when any old edge does; missing keys form
        the group ``"<missing>"``.

        Parameters
        ----------
        groupby_function : str, list of str or callable
            A column, several columns (keys are tuples) or, as in pandas, a
            callable applied to every index label (the row's Node, or the
            tuple ``(Node, rank, ...)``).
        agg_function : str, callable or dict
            How declared metrics are aggregated (pandas' ``agg``); a dict
            maps columns to functions. Other columns are dropped, except
            the new ``name``.

        Returns
        -------
        GraphFrame

        Raises
        ------
        MetricError
            A column to group by or to aggregate does not exist.
        OperationError
            pandas cannot aggregate with ``agg_function``.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", ("solve", "dot"), "io"))
        >>> df = gf.dataframe.assign(module=["app", "libc", "blas", "blas"])
        >>> out = gf._replace(dataframe=df).groupby_aggregate("module", "sum")
        >>> out.dataframe[["name", "time"]]
              name  time
        node
        0      app   1.0
        1     blas   2.0
        2     libc   1.0
        >>> [c.frame["name"] for c in out.graph.roots[0].children]
        ['blas', 'libc']
        """
        return aggregate.groupby_aggregate(self, groupby_function, agg_function)
