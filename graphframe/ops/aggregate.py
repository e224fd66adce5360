"""drop_index_levels and groupby_aggregate.

``drop_index_levels(function)`` collapses every non-node index level: metric
columns are aggregated with ``function`` per node, every other column keeps
its first value (attributes are never summed or averaged).

``groupby_aggregate(by, agg)`` groups rows by a column (or several, or a
callable on the dataframe) into "super nodes" ``{"name": key, "type": <by>}``.
Unlike Hatchet, rows are grouped per (key, rank, thread), so the index levels
survive; NaN keys form their own group (named ``"<missing>"``) instead of
crashing; grouping by ``name`` works. An edge ``S(u) -> S(v)`` exists for
every old edge between different groups (self-loops for calls inside a group
are dropped); roots are the groups of the old roots. Inclusive columns are
aggregated like any other metric, as in Hatchet: for a group spanning nested
calls that double counts, so recompute them if you need true inclusive
values.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from ..model.dataframe import level_ids, private_copy
from ..model.text import as_text
from ..kernels import structure as st
from ..errors import MetricError, OperationError
from ..model.frame import is_missing
from ..model.graph import Graph
from ..model.node import Node
from ..model.fields import GF, GraphFrameLike, replace
from .reductions import pandas_agg

INT = np.int64
MISSING_KEY = "<missing>"


def _aggregate(grouped: Any, function: Any, what: str, shown: Any = None) -> pd.DataFrame:
    """``grouped.agg(function)``; a function pandas cannot apply raises OperationError."""
    try:
        return grouped.agg(pandas_agg(function))
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise OperationError(
            f"{what}: cannot aggregate with {function if shown is None else shown!r} "
            f"({type(exc).__name__}: {exc}); use a function such as np.mean or a pandas "
            "aggregation name such as 'sum', 'mean', 'max'") from exc


def drop_index_levels(gf: GF, function: Any = np.mean) -> GF:
    """New GraphFrame indexed by ``node`` only."""
    df = gf.dataframe
    if list(df.index.names) == ["node"]:
        _aggregate(pd.DataFrame({"x": [1.0, 2.0]}).groupby(np.zeros(2, dtype=INT)), function,
                   "drop_index_levels")  # the same check as with levels to drop
        return replace(gf, dataframe=private_copy(df))
    key, first, nodes, in_order = _node_groups(df.index)
    declared = set(gf.exc_metrics) | set(gf.inc_metrics)
    metrics = [c for c in df.columns
               if c in declared and pd.api.types.is_numeric_dtype(df[c])]
    others = [c for c in df.columns if c not in set(metrics)]
    # groups met in key order need no sorting (pandas' sort is a pass over the rows)
    grouped = df.groupby(key, sort=not in_order)
    if not df.columns.is_unique or isinstance(df.columns, pd.MultiIndex):
        parts = []
        if metrics:
            parts.append(_aggregate(grouped[metrics], function, "drop_index_levels"))
        if others:
            parts.append(grouped[others].first())
        out = pd.concat(parts, axis=1).set_axis(nodes)[list(df.columns)]
        return replace(gf, dataframe=out)
    data: Dict[Any, Any] = {}
    if metrics:
        means = _aggregate(grouped[metrics], function, "drop_index_levels")
        data.update((col, _array(means[col])) for col in metrics)
    data.update(first_values(df, others, key, first))
    columns = {col: pd.Series(data[col], index=nodes, dtype=object, copy=False)
               if isinstance(data[col], np.ndarray) and data[col].dtype == object else data[col]
               for col in df.columns}  # object stays object (pandas 3 would infer str)
    return replace(gf, dataframe=pd.DataFrame(columns, index=nodes, columns=df.columns))


def _node_groups(index: pd.MultiIndex) -> Tuple[np.ndarray, np.ndarray, pd.Index, bool]:
    """``(key, first, nodes, in_order)``: an int array grouping the rows by node, groups
    in id order; the first row of each group; the node ids ascending (the result's
    index); whether the rows meet the groups in that order.

    The key is the node level's codes when its values are sorted (small ints:
    pandas factorises them fast). Rows sorted by those codes (as every frame
    built here is) give the first rows and the ids from the codes too.
    """
    level = index.names.index("node")
    codes = np.asarray(index.codes[level])
    values = index.levels[level]
    if not values.is_monotonic_increasing:  # (level values are unique)
        ids = level_ids(index)
        first = _first_rows(ids)
        return ids, first, pd.Index(ids[first], name="node"), False
    if len(codes) and codes[0] >= 0 and bool(np.all(codes[1:] >= codes[:-1])):
        first = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        ids = np.asarray(values, dtype=INT)[codes[first]]
        return codes, first, pd.Index(ids, name="node"), True
    ids = level_ids(index)
    first = _first_rows(ids)
    return codes, first, pd.Index(ids[first], name="node"), False


def _first_rows(ids: np.ndarray) -> np.ndarray:
    """Position of each distinct id's first row, ids ascending."""
    if len(ids) and bool(np.all(ids[1:] >= ids[:-1])):
        return np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    order = np.argsort(ids, kind="stable")
    ordered = ids[order]
    return order[np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]][:len(ids)])]


def first_values(df: pd.DataFrame, columns: List[Any], key: np.ndarray,
                 first: np.ndarray) -> Dict[Any, Any]:
    """``df.groupby(key, sort=True)[column].first()`` of each column, as arrays, faster.

    ``first`` holds each group's first row (groups in ``key``'s sorted
    order). A column is taken at those rows; only a column whose taken value
    is missing somewhere goes through pandas' ``first``, which skips missing
    values. Column names must be unique.

    Examples
    --------
    >>> df = pd.DataFrame({"name": ["a", "a", "b"], "x": [None, 2.0, 3.0]})
    >>> out = first_values(df, ["name", "x"], np.array([0, 0, 1]), np.array([0, 2]))
    >>> out["name"].tolist(), out["x"].tolist()
    (['a', 'b'], [2.0, 3.0])
    """
    data: Dict[Any, Any] = {}
    for col in columns:
        values = df[col]
        if isinstance(values.dtype, np.dtype):
            taken = values.to_numpy()[first]
        else:
            taken = values.array.take(first)
        if pd.isna(taken).any():  # pandas' first skips missing values
            taken = _array(values.groupby(key, sort=True).first())
        data[col] = taken
    return data


def _array(values: pd.Series) -> Any:
    """A Series' data: a numpy array for a numpy dtype, else its extension array."""
    return values.to_numpy() if isinstance(values.dtype, np.dtype) else values.array


def groupby_aggregate(gf: GF, groupby_function: Union[str, Sequence[str], Callable],
                      agg_function: Any) -> GF:
    """New GraphFrame whose nodes are the groups of ``groupby_function``."""
    df = gf.dataframe
    codes, names, label = group_codes(gf, groupby_function)
    k = len(names)
    group_of_node = _group_of_node(gf.graph.num_nodes, df, codes)
    graph, new_of_group = _super_graph(gf.graph, group_of_node, names, label)
    levels = [lv for lv in df.index.names if lv != "node"]
    work = df.reset_index(level=levels) if levels else df.reset_index(drop=True)
    work = work.reset_index(drop=True)
    work["node"] = new_of_group[codes]
    metric_cols = [c for c in df.columns if c in set(gf.exc_metrics) | set(gf.inc_metrics)
                   and pd.api.types.is_numeric_dtype(df[c])]
    grouped = work.groupby(["node", *levels], sort=True)
    agg = _normalise_agg(agg_function, metric_cols, df)
    out = (_aggregate(grouped, agg, "groupby_aggregate", agg_function) if agg
           else pd.DataFrame(index=grouped.size().index))
    out["name"] = as_text(pd.Series(
        object_array(names)[st.invert(new_of_group, k)[level_ids(out.index)]],
        index=out.index, dtype=object))
    exc = [m for m in gf.exc_metrics if m in out.columns]
    inc = [m for m in gf.inc_metrics if m in out.columns]
    return replace(gf, graph=graph, dataframe=out, exc_metrics=exc, inc_metrics=inc,
                       inclusive_of={e: i for e, i in gf.inclusive_of.items()
                                     if e in exc and i in inc})


def group_codes(gf: GraphFrameLike, by: Any) -> Tuple[np.ndarray, List[Any], str]:
    """``(group of each row, group names, label)`` for ``groupby_aggregate``.

    ``by`` is a column, a list of columns (a group per distinct tuple of
    values, named by that tuple) or a callable applied to every index label,
    as pandas' ``groupby`` does: the label is the row's ``Node`` for an index
    of ``node`` only, else the tuple ``(Node, rank, ...)``. Groups are sorted
    by key; a missing key (or part of a key) is named ``"<missing>"``.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("main", "solve", "io"))
    >>> codes, names, label = group_codes(gf, lambda node: node.depth)
    >>> codes.tolist(), names
    ([0, 1, 1], [0, 1])
    """
    df = gf.dataframe
    if callable(by) and not isinstance(by, str):
        codes, names = _factorize(_callable_keys(gf, by))
        return codes, names, getattr(by, "__name__", "group")
    if isinstance(by, str) or not isinstance(by, (list, tuple)):
        columns = [by]
    else:
        columns = list(by)
    if not columns:
        raise OperationError("groupby_aggregate needs at least one column to group by")
    for c in columns:
        if not _has_column(df, c):
            raise MetricError(f"groupby_aggregate: no column {c!r}; the dataframe has "
                              f"{[str(x) for x in df.columns]}")
    parts = [_factorize(df[c]) for c in columns]
    if len(parts) == 1:
        return parts[0][0], parts[0][1], str(columns[0])
    stacked = np.stack([codes for codes, _ in parts], axis=1)
    keys, inverse = np.unique(stacked, axis=0, return_inverse=True)
    names = [tuple(part[1][code] for part, code in zip(parts, row)) for row in keys.tolist()]
    return inverse.reshape(-1).astype(INT), names, ", ".join(str(c) for c in columns)


def _has_column(df: pd.DataFrame, column: Any) -> bool:
    try:
        return column in df.columns
    except TypeError:  # unhashable
        return False


def _callable_keys(gf: GraphFrameLike, by: Callable) -> np.ndarray:
    """``by`` applied to every index label (Nodes in the ``node`` position)."""
    df = gf.dataframe
    graph = gf.graph
    node = level_ids(df.index)
    cache: Dict[int, Node] = {}

    def as_node(i: int) -> Node:
        found = cache.get(i)
        if found is None:
            found = cache[i] = Node(i, graph)
        return found

    if not isinstance(df.index, pd.MultiIndex):
        keys = [by(as_node(i)) for i in node.tolist()]
    else:
        pos = list(df.index.names).index("node")
        keys = []
        for label, i in zip(df.index.tolist(), node.tolist()):
            label = list(label)
            label[pos] = as_node(i)
            keys.append(by(tuple(label)))
    return object_array(keys)


def _factorize(values: Any) -> Tuple[np.ndarray, List[Any]]:
    codes, uniques = pd.factorize(values, sort=True, use_na_sentinel=False)
    names = [MISSING_KEY if is_missing(u) else u for u in _as_labels(uniques)]
    return np.asarray(codes, dtype=INT), names


def _as_labels(uniques: Any) -> List[Any]:
    return [u.item() if isinstance(u, np.generic) else u for u in list(uniques)]


def object_array(values: Sequence[Any]) -> np.ndarray:
    """A 1-D object array of ``values`` (tuples stay elements)."""
    return np.fromiter(values, dtype=object, count=len(values))


def _group_of_node(n: int, df: pd.DataFrame, codes: np.ndarray) -> np.ndarray:
    """Group of every node (first row wins); nodes without rows: -1."""
    node = level_ids(df.index)
    group = np.full(n, -1, dtype=INT)
    group[node[::-1]] = codes[::-1]
    return group


def _super_graph(graph: Graph, group_of_node: np.ndarray, names: List[Any], label: Any):
    """Graph over groups; returns it and the group -> new id map."""
    k = len(names)
    owner = graph.edge_sources()
    gs, gd = group_of_node[owner], group_of_node[graph.child_idx]
    ok = (gs >= 0) & (gd >= 0) & (gs != gd)
    roots = np.unique(group_of_node[graph.root_ids])
    roots = roots[roots >= 0]
    attrs = pd.DataFrame({"name": pd.Series(names, dtype=object),
                          "type": [str(label)] * k})
    reached = st.bfs_parents(k, gs[ok], gd[ok], roots) != -2
    extra_roots = np.flatnonzero(~reached)  # groups only below nodes without rows
    all_roots = np.concatenate([roots, extra_roots])
    new_graph, order = Graph.from_edges(attrs, gs[ok], gd[ok], all_roots)
    return new_graph, st.invert(order, k)


def _normalise_agg(agg: Any, metrics: List[Any], df: pd.DataFrame) -> Dict[Any, Any]:
    if isinstance(agg, dict):
        unknown = [c for c in agg if not _has_column(df, c)]
        if unknown:
            raise MetricError(f"groupby_aggregate: no column {unknown[0]!r} to aggregate")
        return dict(agg)
    return {c: agg for c in metrics}
