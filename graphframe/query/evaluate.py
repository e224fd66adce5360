"""Evaluate predicates for every node at once, over whole dataframe columns.

:class:`EvalContext` holds one dataframe (rows keyed by node id) and the node
properties of its graph. ``node_mask(predicate)`` returns a boolean array over
node ids. Column atoms are computed once per row over the whole column:
numeric columns by numpy comparisons; string columns by evaluating the
condition once per *distinct* value (``pandas.factorize``) and gathering the
result by code, so a regex runs once per distinct name, not once per row.
Rows are reduced to nodes with ``multi_index_mode`` ("any": some row holds,
"all": every row holds). Callables are the only per-node path.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
import pandas as pd

from ..build import level_ids
from ..node import Node
from .atoms import Atom, check_mode, node_properties, row_table
from .columns import Columns
from .comparison import compare
from .errors import MultiIndexModeMismatch

_SAMPLE = 8


class EvalContext:
    """Predicate evaluation over one (graph, dataframe) pair.

    Parameters
    ----------
    dataframe : pandas.DataFrame
        Rows indexed by ``node`` (and optionally rank/thread levels).
    node_of_row : numpy.ndarray
        Node id of every row.
    num_nodes : int
        Number of nodes (ids ``0..num_nodes-1``).
    props : callable
        ``props()`` -> ``(depth, node_id, is_leaf)`` arrays over nodes,
        called only when a condition needs them.
    node_view : callable, optional
        ``node_view(i)`` -> the object user callables see as the node.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.query.object_dialect import dict_predicate
    >>> gf = GraphFrame.from_lists(("main", ("MPI_Send", "x"), "MPI_Recv"))
    >>> ctx = EvalContext.for_graph(gf.graph, gf.dataframe)
    >>> ctx.node_mask(dict_predicate({"name": "MPI_.*"})).tolist()
    [False, True, True, False]
    """

    def __init__(self, dataframe: pd.DataFrame, node_of_row: np.ndarray, num_nodes: int,
                 props: Any, node_view: Any = None, multi: Optional[bool] = None) -> None:
        self.df = dataframe
        self.node_of_row = np.asarray(node_of_row, dtype=np.int64)
        self.n = int(num_nodes)
        self._props_fn = props
        self._props = None
        self.node_view = node_view
        self.multi = (dataframe.index.nlevels > 1) if multi is None else multi
        self.columns = Columns(dataframe)
        self._rows: Dict[Atom, np.ndarray] = {}
        self._masks: Dict[int, np.ndarray] = {}
        self._keep: list = []  # predicates whose id() keys _masks stay alive

    @classmethod
    def for_graph(cls, graph: Any, dataframe: pd.DataFrame) -> "EvalContext":
        """Context over a :class:`~graphframe.Graph` and its dataframe."""
        def props():
            leaf = np.diff(graph.child_ptr) == 0
            return graph.depth, np.arange(graph.num_nodes, dtype=np.int64), leaf

        return cls(dataframe, level_ids(dataframe.index), graph.num_nodes, props,
                   lambda i: Node(int(i), graph))

    @classmethod
    def for_row(cls, row: Any) -> "EvalContext":
        """Context over a single row (mapping/Series) or one node's rows (DataFrame)."""
        table, node, multi = row_table(row)
        return cls(table, np.zeros(len(table), dtype=np.int64), 1,
                   lambda: node_properties(node), lambda i: node, multi=multi)

    # ------------------------------------------------------------------ nodes
    def props(self):
        if self._props is None:
            self._props = self._props_fn()
        return self._props

    def node_mask(self, predicate: Any) -> np.ndarray:
        """Boolean array over node ids: which nodes satisfy ``predicate`` (cached)."""
        key = id(predicate)
        if key not in self._masks:
            if hasattr(predicate, "terms"):
                mask = self._dnf_mask(predicate)
            else:
                mask = self._callable_mask(predicate)
            self._masks[key] = mask
            self._keep.append(predicate)
        return self._masks[key]

    def _dnf_mask(self, predicate: Any) -> np.ndarray:
        mode = check_mode(predicate.multi_index_mode)
        out = np.zeros(self.n, dtype=bool)
        row_terms = []
        for term in predicate.terms:
            if any(atom.kind == "column" for atom, _ in term):
                row_terms.append(term)
            else:
                out |= self._and(term, self.n, self._node_literal)
        if row_terms:
            if self.multi and mode == "off":
                raise MultiIndexModeMismatch(
                    "the data has several rows per node (index levels "
                    f"{list(self.df.index.names)}): pass multi_index_mode='any' (some row "
                    "satisfies the condition) or 'all' (every row does)")
            rows = np.zeros(len(self.df), dtype=bool)
            for term in row_terms:
                rows |= self._and(term, len(self.df), self._row_literal)
            out |= self._reduce(rows, mode)
        return out

    @staticmethod
    def _and(term: Any, size: int, literal: Any) -> np.ndarray:
        acc = np.ones(size, dtype=bool)
        for atom, negated in term:
            value = literal(atom)
            acc &= ~value if negated else value
        return acc

    def _node_literal(self, atom: Atom) -> np.ndarray:
        depth, ids, leaf = self.props()
        if atom.kind == "leaf":
            return np.asarray(leaf, dtype=bool)
        values = depth if atom.kind == "depth" else ids
        if atom.op in ("isnan", "isinf", "isnone"):
            return np.zeros(len(values), dtype=bool)
        return compare(np.asarray(values), atom.op, atom.value)

    def _row_literal(self, atom: Atom) -> np.ndarray:
        if atom.kind != "column":
            return self._node_literal(atom)[self.node_of_row]
        if atom not in self._rows:
            self._rows[atom] = self.columns.rows(atom)
        return self._rows[atom]

    def _reduce(self, rows: np.ndarray, mode: str) -> np.ndarray:
        out = np.zeros(self.n, dtype=bool)
        if mode == "all":
            has = np.zeros(self.n, dtype=bool)
            has[self.node_of_row] = True
            out[:] = has
            out[self.node_of_row[~rows]] = False
        else:
            out[self.node_of_row[rows]] = True
        return out

    # -------------------------------------------------------------- callables
    def _callable_mask(self, predicate: Any) -> np.ndarray:
        check_mode(predicate.multi_index_mode)
        func = predicate.func
        out = np.zeros(self.n, dtype=bool)
        if not len(self.df):
            return out
        if self.multi:
            for node, sub in self._with_node_views().groupby(level="node", sort=False):
                out[int(node)] = bool(func(sub))
            return out
        rows = self._vectorised_call(func)
        if rows is None:
            rows = np.fromiter((bool(func(self._row(i))) for i in range(len(self.df))),
                               dtype=bool, count=len(self.df))
        out[self.node_of_row[rows]] = True
        return out

    def _with_node_views(self) -> pd.DataFrame:
        """The table with Node objects in its ``node`` level (Hatchet's rows hold Nodes)."""
        index = self.df.index
        if self.node_view is None or "node" not in index.names:
            return self.df
        level = index.names.index("node")
        values = index.levels[level]
        views = np.empty(len(values), dtype=object)
        views[:] = [self.node_view(v) for v in values.tolist()]
        return self.df.set_axis(index.set_levels(pd.Index(views, dtype=object), level=level))

    def _row(self, i: int) -> pd.Series:
        row = self.df.iloc[i]
        row.name = self.node_view(self.node_of_row[i]) if self.node_view else row.name
        return row

    def _vectorised_call(self, func: Any) -> Optional[np.ndarray]:
        """One call on the whole table, trusted when it agrees with per-row calls."""
        try:
            whole = func(self.df)
        except Exception:  # noqa: BLE001 - the callable is not vectorisable: use rows
            return None
        if not (isinstance(whole, pd.Series) and whole.index.equals(self.df.index)
                and (whole.dtype == bool or str(whole.dtype) == "boolean")):
            return None
        rows = whole.fillna(False).to_numpy(dtype=bool)
        n = len(rows)
        sample = np.unique(np.r_[0, n - 1, np.linspace(0, n - 1, _SAMPLE).astype(np.int64)])
        for i in sample.tolist():
            if bool(func(self._row(i))) != rows[i]:
                return None
        return rows
