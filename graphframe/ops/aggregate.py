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

from typing import Any, Callable, Dict, List, Sequence, Union

import numpy as np
import pandas as pd

from ..build import level_ids, private_copy
from .. import structure as st
from ..frame import is_missing
from ..graph import Graph

INT = np.int64
MISSING_KEY = "<missing>"

_NAMED = {np.mean: "mean", np.sum: "sum", np.max: "max", np.min: "min", np.median: "median",
          np.std: "std", np.var: "var", sum: "sum", max: "max", min: "min"}


def _agg_name(function: Any) -> Any:
    try:
        return _NAMED.get(function, function)
    except TypeError:  # unhashable (e.g. a dict)
        return function


def drop_index_levels(gf: Any, function: Any = np.mean) -> Any:
    """New GraphFrame indexed by ``node`` only."""
    df = gf.dataframe
    if list(df.index.names) == ["node"]:
        return gf._replace(dataframe=private_copy(df))
    grouped = df.groupby(level="node", sort=True)
    metrics = [c for c in df.columns
               if c in set(gf.exc_metrics) | set(gf.inc_metrics)
               and pd.api.types.is_numeric_dtype(df[c])]
    others = [c for c in df.columns if c not in set(metrics)]
    parts = []
    if metrics:
        parts.append(grouped[metrics].agg(_agg_name(function)))
    if others:
        parts.append(grouped[others].first())
    out = pd.concat(parts, axis=1)[list(df.columns)]
    out.index = out.index.astype(INT)
    return gf._replace(dataframe=out)


def groupby_aggregate(gf: Any, groupby_function: Union[str, Sequence[str], Callable],
                      agg_function: Any) -> Any:
    """New GraphFrame whose nodes are the groups of ``groupby_function``."""
    df = gf.dataframe
    keys, label = _group_keys(df, groupby_function)
    codes, uniques = pd.factorize(keys, sort=True, use_na_sentinel=False)
    names = [MISSING_KEY if is_missing(u) else u for u in _as_labels(uniques)]
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
    agg = _normalise_agg(agg_function, metric_cols)
    out = grouped.agg(agg) if agg else pd.DataFrame(index=grouped.size().index)
    out["name"] = np.asarray(names, dtype=object)[
        st.invert(new_of_group, k)[level_ids(out.index)]]
    exc = [m for m in gf.exc_metrics if m in out.columns]
    inc = [m for m in gf.inc_metrics if m in out.columns]
    return gf._replace(graph=graph, dataframe=out, exc_metrics=exc, inc_metrics=inc,
                       inclusive_of={e: i for e, i in gf.inclusive_of.items()
                                     if e in exc and i in inc})


def _group_keys(df: pd.DataFrame, by: Any):
    if callable(by) and not isinstance(by, str):
        keys = by(df)
        return np.asarray(keys, dtype=object), getattr(by, "__name__", "group")
    columns = [by] if isinstance(by, str) else list(by)
    for c in columns:
        if c not in df.columns:
            raise KeyError(f"groupby_aggregate: no column {c!r}")
    if len(columns) == 1:
        return df[columns[0]].to_numpy(dtype=object), columns[0]
    tuples = np.empty(len(df), dtype=object)
    tuples[:] = list(zip(*(df[c].tolist() for c in columns)))
    return tuples, ", ".join(columns)


def _as_labels(uniques: Any) -> List[Any]:
    return [u.item() if isinstance(u, np.generic) else u for u in list(uniques)]


def _group_of_node(n: int, df: pd.DataFrame, codes: np.ndarray) -> np.ndarray:
    """Group of every node (first row wins); nodes without rows: -1."""
    node = level_ids(df.index)
    group = np.full(n, -1, dtype=INT)
    group[node[::-1]] = codes[::-1]
    return group


def _super_graph(graph: Graph, group_of_node: np.ndarray, names: List[Any], label: Any):
    """Graph over groups; returns it and the group -> new id map."""
    k = len(names)
    owner = st.segment_owner(graph.child_ptr)
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


def _normalise_agg(agg: Any, metrics: List[Any]) -> Dict[Any, Any]:
    if isinstance(agg, dict):
        return {c: _agg_name(f) for c, f in agg.items()}
    return {c: _agg_name(agg) for c in metrics}
