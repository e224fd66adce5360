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

INT = np.int64
MISSING_KEY = "<missing>"

_NAMED = {np.mean: "mean", np.sum: "sum", np.max: "max", np.min: "min", np.median: "median",
          np.std: "std", np.var: "var", sum: "sum", max: "max", min: "min"}


def _aggregate(grouped: Any, function: Any, what: str, shown: Any = None) -> pd.DataFrame:
    """``grouped.agg(function)``; a function pandas cannot apply raises OperationError."""
    try:
        return grouped.agg(function if isinstance(function, dict) else _agg_name(function))
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise OperationError(
            f"{what}: cannot aggregate with {function if shown is None else shown!r} "
            f"({type(exc).__name__}: {exc}); use a function such as np.mean or a pandas "
            "aggregation name such as 'sum', 'mean', 'max'") from exc


def _agg_name(function: Any) -> Any:
    try:
        return _NAMED.get(function, function)
    except TypeError:  # unhashable (e.g. a dict)
        return function


def drop_index_levels(gf: GF, function: Any = np.mean) -> GF:
    """New GraphFrame indexed by ``node`` only."""
    df = gf.dataframe
    if list(df.index.names) == ["node"]:
        _aggregate(pd.DataFrame({"x": [1.0, 2.0]}).groupby(np.zeros(2, dtype=INT)), function,
                   "drop_index_levels")  # the same check as with levels to drop
        return replace(gf, dataframe=private_copy(df))
    # grouped by the int ids (an array), not the node level: pandas' int64 groupby path
    grouped = df.groupby(pd.Index(level_ids(df.index), name="node"), sort=True)
    metrics = [c for c in df.columns
               if c in set(gf.exc_metrics) | set(gf.inc_metrics)
               and pd.api.types.is_numeric_dtype(df[c])]
    others = [c for c in df.columns if c not in set(metrics)]
    parts = []
    if metrics:
        parts.append(_aggregate(grouped[metrics], function, "drop_index_levels"))
    if others:
        parts.append(grouped[others].first())
    out = pd.concat(parts, axis=1)[list(df.columns)]
    out.index = out.index.astype(INT)
    return replace(gf, dataframe=out)


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
        return {c: _agg_name(f) for c, f in agg.items()}
    return {c: _agg_name(agg) for c in metrics}
