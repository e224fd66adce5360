"""Inclusive metrics from exclusive ones.

Trees and forests: node ids are in pre-order, so within one depth level the
parents of the level's nodes are non-decreasing; each level (deepest first)
is summed into its parents with one ``np.add.reduceat`` over a
(node x rank/thread) matrix. Cost: O(nodes x combos) plus one numpy call per
level.

Graphs with shared nodes (call graphs, DAGs, cycles) follow Hatchet: a node's
inclusive value is the sum over its *distinct* descendants (itself included),
so a node reached by two paths is counted once. The first-parent forest is
summed like a tree and only reachability towards the shared nodes is tracked
(see :mod:`graphframe.ops.shared_sums`), so mostly-tree graphs stay linear.

In both cases NaN means "no value": sums skip NaN and a cell whose whole
subtree holds no value stays NaN (``sum(min_count=1)``). Missing
(node, rank) rows are treated the same way and are not created.

Integer columns are summed as integers and keep their dtype (int64, uint64),
as in Hatchet, where pandas keeps them; a boolean column sums to an int64 count
(Hatchet: an ``object`` column mixing counts and booleans). Every other numeric
column is summed as float64.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

import numpy as np
import pandas as pd

from ..model.dataframe import private_copy
from ..errors import MetricError, OperationError
from ..model.metrics import exclusive_name, inclusive_name
from .merge_rules import summed
from .rowmatrix import RowLayout
from .shared_sums import SharedSums
from . import subtree_functions as fn
from ..model.fields import GF, replace


def update_inclusive_columns(gf: GF, copy: bool = True) -> GF:
    """New GraphFrame with the inclusive partner of every exclusive metric recomputed.

    ``copy=False`` is for a caller whose ``gf`` holds a frame nobody else
    sees (one it has just built): the result may share its columns.
    """
    if not gf.exc_metrics:
        return replace(gf, dataframe=private_copy(gf.dataframe) if copy else gf.dataframe)
    df = gf.dataframe
    numeric = [m for m in gf.exc_metrics
               if m in df.columns and pd.api.types.is_numeric_dtype(df[m]) and summed(gf, m)]
    targets: Dict[Any, Any] = {m: gf.inclusive_of.get(m, inclusive_name(m)) for m in numeric}
    sums = subgraph_sums(gf.graph, df, list(targets))
    out = private_copy(df) if copy else df.copy(deep=False)
    for (exc, inc), values in zip(targets.items(), sums):
        out[inc] = values
    inc_metrics = list(gf.inc_metrics) + [v for v in targets.values() if v not in gf.inc_metrics]
    pairs = dict(gf.inclusive_of)
    pairs.update(targets)
    return replace(gf, dataframe=out, inc_metrics=inc_metrics, inclusive_of=pairs)


def subgraph_sums(graph: Any, dataframe: Any, columns: Sequence[Any]) -> List[np.ndarray]:
    """For each column, the per-row sum over the row's node and its descendants."""
    layout = RowLayout.of(dataframe, graph.num_nodes)
    shared = None if graph.is_forest or not len(columns) else SharedSums(graph)
    results = []
    for col in columns:
        exact = exact_values(dataframe[col])
        if exact is not None:  # integers: no missing value, exact sums in their dtype
            mat, present = layout.to_exact_matrix(exact), None
        else:
            mat, present = layout.to_matrix(dataframe[col].to_numpy(dtype=np.float64,
                                                                     na_value=np.nan))
        if shared is None:
            _forest_sum(graph, mat)
            if present is not None:
                _forest_sum(graph, present)
        else:
            mat, present = shared(mat, present)
        results.append(layout.from_matrix(mat, present))
    return results


def exact_values(column: pd.Series) -> Any:
    """The values of an integer or boolean column as the integers its sums are made
    of (int64, uint64 for unsigned; booleans count as 0/1), or None for any other column
    (float, nullable extension types with missing values, text).

    Examples
    --------
    >>> exact_values(pd.Series([True, False])).tolist(), exact_values(pd.Series([1.5]))
    ([1, 0], None)
    >>> exact_values(pd.Series([2 ** 63], dtype=np.uint64)).dtype
    dtype('uint64')
    """
    dtype = column.dtype
    if not isinstance(dtype, np.dtype) or dtype.kind not in "iub":
        return None
    return column.to_numpy(dtype=np.uint64 if dtype.kind == "u" else np.int64)


def _forest_sum(graph: Any, mat: np.ndarray) -> None:
    for level, targets, starts in graph.level_plan():
        mat[targets] += np.add.reduceat(mat[level], starts, axis=0)


def generate_exclusive_columns(gf: GF, inc_metrics: Sequence[Any] = None) -> GF:
    """New GraphFrame with exclusive columns derived from inclusive ones.

    ``exc = inc - sum(inc of direct children)`` per row (a child without a
    value counts as 0). ``X (inc)`` gives ``X`` (unless ``X`` is already an
    exclusive metric); any other inclusive ``Y`` gives ``Y (exc)``. When the
    default metric is an inclusive one whose partner is made here, the partner
    becomes the default: a profile read with inclusive metrics only (default
    ``time (inc)``) then shows ``time``, as Hatchet's, whose default is ``time``.
    """
    df = gf.dataframe
    wanted = list(gf.inc_metrics) if inc_metrics is None else list(inc_metrics)
    layout = RowLayout.of(df, gf.graph.num_nodes)
    out = private_copy(df)
    exc_metrics = list(gf.exc_metrics)
    pairs = dict(gf.inclusive_of)
    owner = gf.graph.edge_sources()
    made: Dict[Any, Any] = {}  # inclusive metric -> the exclusive one made from it
    for inc in wanted:
        if inc not in df.columns or not pd.api.types.is_numeric_dtype(df[inc]) \
                or not summed(gf, inc):
            continue
        exc = exclusive_name(inc)
        if exc in exc_metrics:
            continue
        exact = exact_values(df[inc])
        if exact is not None:  # integers stay integers (Hatchet keeps int64)
            mat, present = layout.to_exact_matrix(exact), None
        else:
            mat, present = layout.to_matrix(df[inc].to_numpy(dtype=np.float64,
                                                             na_value=np.nan))
        child_sum = np.zeros_like(mat)
        np.add.at(child_sum, owner, mat[gf.graph.child_idx])
        values = layout.from_matrix(mat - child_sum, present)
        out[exc] = values
        exc_metrics.append(exc)
        pairs[exc] = inc
        made[inc] = exc
    return replace(gf, dataframe=out, exc_metrics=exc_metrics, inclusive_of=pairs,
                   default_metric=made.get(gf.default_metric, gf.default_metric))


def sum_columns(gf: GF, columns: Sequence[Any], out_columns: Sequence[Any] = None,
                function: Any = None, require_forest: bool = False) -> GF:
    """New GraphFrame with ``out_columns`` = ``function`` over each subtree (subgraph).

    ``require_forest`` (``subtree_sum``) refuses graphs with shared nodes and
    applies a callable by Hatchet's tree rule on forests too; otherwise
    (``subgraph_sum``) the tree rule is used on a tree and the distinct
    descendants rule on anything else (see :mod:`graphframe.ops.subtree_functions`).
    """
    what = "subtree_sum" if require_forest else "subgraph_sum"
    columns = [columns] if isinstance(columns, str) else list(columns)
    out_columns = columns if out_columns is None else (
        [out_columns] if isinstance(out_columns, str) else list(out_columns))
    if len(out_columns) != len(columns):
        raise OperationError(f"{what}: out_columns has {len(out_columns)} names for "
                             f"{len(columns)} columns")
    how = fn.reduction_name(function)
    if require_forest and not gf.graph.is_forest:
        raise OperationError("subtree_sum needs a tree or forest; use subgraph_sum for call "
                             "graphs (each shared descendant counted once)")
    df = gf.dataframe
    for col in columns:
        if col not in df.columns:
            raise MetricError(f"{what}: no column {col!r}; the dataframe has "
                              f"{[str(c) for c in df.columns]}")
        if not pd.api.types.is_numeric_dtype(df[col]) or pd.api.types.is_bool_dtype(df[col]):
            raise OperationError(f"{what}: column {col!r} holds {df[col].dtype} values, "
                                 "not numbers; only numeric columns can be summed")
    graph = gf.graph
    tree_rule = graph.is_forest if require_forest else graph.is_tree()
    if how == "sum":
        results = subgraph_sums(graph, df, columns)
    elif how is not None and graph.is_forest:
        results = _forest_results(gf, columns, lambda mat, has: fn.forest_reduce(graph, mat, how))
    elif how is None and tree_rule:
        results = _forest_results(gf, columns, lambda mat, has: fn.tree_rule(
            graph, mat, has, function, what))
    else:
        layout = RowLayout.of(df, graph.num_nodes)
        results = fn.subgraph_rule(graph, df, layout, columns, how or function, what)
    out = private_copy(df)
    for name, values in zip(out_columns, results):
        out[name] = values
    return replace(gf, dataframe=out)


def _forest_results(gf: GF, columns: Sequence[Any], step: Any) -> List[np.ndarray]:
    layout = RowLayout.of(gf.dataframe, gf.graph.num_nodes)
    results = []
    for col in columns:
        mat, has = fn.grid(layout, gf.dataframe[col].to_numpy(dtype=np.float64,
                                                               na_value=np.nan))
        step(mat, has)
        results.append(mat[layout.node, layout.combo])
    return results
