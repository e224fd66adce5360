"""Evaluate predicates for every node at once, over whole dataframe columns.

:class:`EvalContext` holds one dataframe (rows keyed by node id) and the node
properties of its graph. ``node_mask(predicate)`` returns a boolean array over
node ids. Column atoms are computed once per row over the whole column:
numeric columns by numpy comparisons; string columns by evaluating the
condition once per *distinct* value (``pandas.factorize``) and gathering the
result by code, so a regex runs once per distinct name, not once per row.
Rows are reduced to nodes with ``multi_index_mode`` ("any": some row holds,
"all": every row holds). Callables are the only per-row path: called once per
row with a cheap Series-like row (``rows.Row``), or once per node with the
node's rows when there are rank/thread levels, exactly what Hatchet passes;
a function marked with ``vectorised`` is called once on the whole table.

Errors found while evaluating a predicate start with the predicate's label
(which query node) and, for column conditions, the column; string-dialect
conditions point at their place in the query text.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
import pandas as pd

from ..model.dataframe import level_ids
from ..model.node import Node
from .atoms import Atom, check_mode, node_properties, row_table
from .columns import Columns
from .comparison import compare
from .errors import (InvalidQueryFilter, MultiIndexModeMismatch, QueryConditionError,
                     QuerySyntaxError, with_context)
from .rows import RowTable, as_bool_rows


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
    multi : bool, optional
        Several rows per node (default: the index has more than one level).
    strict : bool
        A condition on a column the dataframe lacks is an ``InvalidQueryFilter``
        (True, over a whole frame) or false (one row given to a predicate, as in Hatchet).

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
                 props: Any, node_view: Any = None, multi: Optional[bool] = None,
                 strict: bool = True) -> None:
        self.df = dataframe
        self.node_of_row = np.asarray(node_of_row, dtype=np.int64)
        self.n = int(num_nodes)
        self._props_fn = props
        self._props = None
        self.node_view = node_view
        self.multi = (dataframe.index.nlevels > 1) if multi is None else multi
        self.columns = Columns(dataframe, strict)
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
                   lambda: node_properties(node), lambda i: node, multi=multi, strict=False)

    # ------------------------------------------------------------------ nodes
    def props(self):
        if self._props is None:
            self._props = self._props_fn()
        return self._props

    def node_mask(self, predicate: Any) -> np.ndarray:
        """Boolean array over node ids: which nodes satisfy ``predicate`` (cached)."""
        key = id(predicate)
        if key not in self._masks:
            try:
                if hasattr(predicate, "terms"):
                    mask = self._dnf_mask(predicate)
                else:
                    mask = self._callable_mask(predicate)
            except InvalidQueryFilter as exc:
                raise with_context(exc, getattr(predicate, "label", None)) from exc
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
            try:
                self._rows[atom] = self.columns.rows(atom)
            except QuerySyntaxError as exc:  # a comparison string of the object dialect
                raise with_context(exc, f"column {atom.key!r}") from exc
            except InvalidQueryFilter as exc:
                if atom.source is None:
                    raise
                text, position = atom.source
                raise QueryConditionError(str(exc), text, position) from exc
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
        mode = check_mode(predicate.multi_index_mode)
        func = predicate.func
        out = np.zeros(self.n, dtype=bool)
        if not len(self.df):
            return out
        if predicate.is_vectorised:
            if self.multi and mode == "off":
                raise MultiIndexModeMismatch(
                    "the data has several rows per node: pass multi_index_mode='any' or 'all' "
                    "to say how a vectorised predicate's rows combine")
            try:
                result = func(self.df)
            except Exception as exc:  # noqa: BLE001 - a user function failed: say where
                raise self._failure(func, exc, _UNSET, None) from exc
            rows = as_bool_rows(result, self.df)
            return self._reduce(rows, mode)
        if self.multi:
            for node, sub in self._with_node_views().groupby(level="node", sort=False):
                out[int(node)] = self._truth(func, sub, node)
            return out
        out[self.node_of_row[self._per_row(func)]] = True
        return out

    def _per_row(self, func: Any) -> np.ndarray:
        """Row positions where ``func(row)`` is true; one call per row (the hot loop)."""
        table = RowTable(self.df, self.node_of_row.tolist(), self.node_view)
        row = table.row
        hits = []
        i, result = -1, _UNSET
        try:
            for i in range(len(self.df)):
                result = _UNSET
                result = func(row(i))
                if result:
                    hits.append(i)
        except Exception as exc:  # noqa: BLE001 - a user function failed: say where
            raise self._failure(func, exc, result, self.node_of_row[i]) from exc
        return np.array(hits, dtype=np.int64)

    def _truth(self, func: Any, arg: Any, node: Any) -> bool:
        """``bool(func(arg))``, errors naming ``node`` (None: the whole table)."""
        result = _UNSET
        try:
            result = func(arg)
            return bool(result)
        except Exception as exc:  # noqa: BLE001 - a user function failed: say where
            raise self._failure(func, exc, result, node) from exc

    def _failure(self, func: Any, exc: Exception, result: Any, node: Any) -> InvalidQueryFilter:
        if result is _UNSET:
            return InvalidQueryFilter(f"the predicate {_name(func)} raised "
                                      f"{type(exc).__name__}: {exc}{self._on(node)}")
        return InvalidQueryFilter(
            f"the predicate {_name(func)} returned a {type(result).__name__} whose truth "
            f"value is undefined ({exc}); return True or False{self._on(node)}")

    def _on(self, node: Any) -> str:
        """`` on node 3 (MPI_Send)``; '' when the call was on the whole table."""
        if node is None:
            return ""
        node = int(node)
        view = self.node_view(node) if self.node_view is not None else None
        frame = getattr(view, "frame", None)
        name = frame.get("name") if frame is not None else None
        return f" on node {node}" + (f" ({name})" if name is not None else "")

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


_UNSET = object()


def _name(func: Any) -> str:
    name = getattr(func, "__name__", None) or type(func).__name__
    return repr(name) if name != "<lambda>" else "<lambda>"
