"""add / sub / mul / div between two GraphFrames.

Both operands are unified (matched by call path) and their rows aligned on
the full index ``(node, rank[, thread])`` with integer keys. Per row and
metric:

============================  ======================  ===========================
row present in                default (Hatchet)       ``fill_value=x``
============================  ======================  ===========================
both                          ``left op right`` (1)   ``left op right``
left only                     left value unchanged    ``left op x``
right only                    NaN                     ``x op right``
============================  ======================  ===========================

(1) Where ``left op right`` is NaN (a value missing on the right, ``0 / 0``) the
left value stays, as in Hatchet (its ``DataFrame.update`` never writes NaN).

A metric that only one operand has is treated as missing on the other side
(Hatchet raises KeyError). Non-metric columns take the left value, or the
right one for right-only rows. ``_missing_node`` says where each node came
from (0 both, 1 left only, 2 right only); it is always present.

Inclusive columns: by default they are combined element-wise like every
other metric, which is exactly Hatchet's result. With ``fill_value`` and
``add``/``sub``, inclusive metrics are recomputed from the exclusive results
instead (a sum of differences is the difference of sums, so added and
removed nodes are accounted for in their ancestors even when the operands'
own inclusive columns were missing or stale). ``mul``/``div`` always combine
inclusive columns element-wise (a ratio of sums is not a sum of ratios).
Metric lists are merged (left's first) and column order is kept.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np

from ..model.dataframe import frame_from_columns
from ..errors import GraphMismatchError
from .align import (align_frames, attribute_values, columns_of, metric_values, nodes_with_rows,
                    per_row)
from .inclusive import update_inclusive_columns
from .merge_rules import combined_aggregations, merge_rules
from .rows import remap_rows
from .union import MISSING_CODE, check_operand, union_graphs
from ..model.fields import GF, replace

INT = np.int64

OPS: Dict[str, np.ufunc] = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
}


def arithmetic(left: GF, right: GF, op: str, fill_value: Optional[float] = None) -> GF:
    """``left <op> right`` as a new GraphFrame (see module docs)."""
    func = OPS[op]
    check_operand(left, right, op)
    if list(left.dataframe.index.names) != list(right.dataframe.index.names):
        raise GraphMismatchError(
            f"cannot {op} GraphFrames indexed by {list(left.dataframe.index.names)} and "
            f"{list(right.dataframe.index.names)}; drop or add index levels first")
    if left.graph is right.graph:
        graph, map_l, map_r = left.graph, None, None
    else:
        graph, map_l, map_r = union_graphs(left.graph, right.graph)
    exc = _merged(left.exc_metrics, right.exc_metrics)
    inc = _merged(left.inc_metrics, right.inc_metrics)
    metrics = exc + [m for m in inc if m not in exc]
    df_l, df_r = left.dataframe, right.dataframe
    al = align_frames(df_l, map_l, df_r, map_r)
    if al is None:  # a side has nodes with equal call paths: merge their rows first
        ident = np.arange(graph.num_nodes, dtype=np.int64)
        df_l = remap_rows(df_l, ident if map_l is None else map_l, merge_rules(left))
        df_r = remap_rows(df_r, ident if map_r is None else map_r, merge_rules(right))
        map_l = map_r = None
        al = align_frames(df_l, None, df_r, None)
    pos_l, pos_r, n_rows = al.pos_l, al.pos_r, al.n_rows
    presence = al.presence() if fill_value is not None else None
    columns = [c for c in columns_of(df_l, df_r) if c != "_missing_node"]
    data: Dict[Any, Any] = {}
    same_graph = left.graph is right.graph
    for col in columns:
        if col not in metrics:
            data[col] = attribute_values(df_l, df_r, col, pos_l, pos_r, n_rows)
            continue
        exact = _exact_combine(df_l, df_r, col, pos_l, pos_r, func) if same_graph else None
        if exact is not None:
            data[col] = exact
        elif fill_value is None:
            data[col] = _combine(df_l, df_r, col, al, func)
        else:
            data[col] = _combine_filled(df_l, df_r, col, al, presence, func, fill_value)
    index = al.index()
    side = np.zeros(graph.num_nodes, dtype=np.int8)
    side[nodes_with_rows(df_l.index, map_l)] |= 1
    side[nodes_with_rows(df_r.index, map_r)] |= 2
    data["_missing_node"] = per_row(index, MISSING_CODE[side])
    out_df = frame_from_columns(data, index)
    pairs = dict(right.inclusive_of)
    pairs.update(left.inclusive_of)
    result = replace(left, graph=graph, dataframe=out_df, exc_metrics=exc, inc_metrics=inc,
                           metadata=dict(left.metadata), inclusive_of=pairs,
                           aggregations=combined_aggregations(left, right))
    if fill_value is not None and op in ("add", "sub") and any(m in pairs for m in exc):
        result = update_inclusive_columns(result)
    return result


def _merged(a: List[Any], b: List[Any]) -> List[Any]:
    return list(a) + [m for m in b if m not in a]


def _combine(df_l, df_r, col, al, func) -> np.ndarray:
    """One metric, Hatchet's way: ``left <op> right`` where both have the row, the left
    value where only the left has it, NaN where the left has none. A NaN result keeps
    the left value (a value missing on the right, ``0 / 0``): Hatchet writes the
    results with ``DataFrame.update``, which never writes NaN."""
    has_l, has_r = col in df_l.columns, col in df_r.columns
    with np.errstate(divide="ignore", invalid="ignore"):
        if has_l and has_r and isinstance(al.pos_l, slice):
            left = metric_values(df_l, col, al.pos_l, al.n_rows)
            return _keep_left_where_nan(func(left, metric_values(df_r, col, al.pos_r,
                                                                 al.n_rows)), left)
        out = _own_values(df_l, col, al.pos_l, al.n_rows)  # NaN where the left has no value
        if has_l and has_r:  # combined at the right's rows (one output row each)
            left = out[al.pos_r]
            out[al.pos_r] = _keep_left_where_nan(
                func(left, df_r[col].to_numpy(dtype=np.float64, na_value=np.nan)), left)
        return out


def _keep_left_where_nan(result: np.ndarray, left: np.ndarray) -> np.ndarray:
    """``result`` with the left operand's value wherever it is NaN (Hatchet's ``update``).

    ``result`` is the caller's own new array: it is changed in place.

    Examples
    --------
    >>> _keep_left_where_nan(np.array([np.nan, 2.0, np.nan]),
    ...                      np.array([0.0, 1.0, np.nan])).tolist()
    [0.0, 2.0, nan]
    """
    if result.dtype.kind != "f":
        return result
    nan = np.isnan(result)
    if nan.any():
        nan &= ~np.isnan(left)  # (a NaN on the left stays NaN either way)
        result[nan] = left[nan]
    return result


def _combine_filled(df_l, df_r, col, al, presence, func, fill_value) -> np.ndarray:
    """One metric with ``fill_value`` standing for a row one side lacks (NaN where
    neither side has a value)."""
    in_l, in_r = presence
    pos_l, pos_r, n_rows = al.pos_l, al.pos_r, al.n_rows
    with np.errstate(divide="ignore", invalid="ignore"):
        if col in df_l.columns and col in df_r.columns and isinstance(pos_l, slice):
            return func(metric_values(df_l, col, pos_l, n_rows),
                        metric_values(df_r, col, pos_r, n_rows))
        has_l = in_l if col in df_l.columns else np.zeros(n_rows, dtype=bool)
        has_r = in_r if col in df_r.columns else np.zeros(n_rows, dtype=bool)
        lv = _own_values(df_l, col, pos_l, n_rows)
        rv = _own_values(df_r, col, pos_r, n_rows)
        lv[~has_l] = fill_value
        rv[~has_r] = fill_value
        out = func(lv, rv)
        out[~(has_l | has_r)] = np.nan
        return out


def _exact_combine(df_l, df_r, col, pos_l, pos_r, func) -> Optional[np.ndarray]:
    """Integer columns of two operands on one graph with the same rows, as Hatchet
    keeps them (its ``update`` of the left frame: pandas keeps int64): ``+ - *`` in the
    columns' integer dtype, ``/`` as integers when every quotient is a whole number,
    else float64. None for anything else (float, booleans, rows on one side only).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"n": [7, 6]})
    >>> _exact_combine(df, df, "n", slice(None), slice(None), np.multiply).tolist()
    [49, 36]
    >>> _exact_combine(df, pd.DataFrame({"n": [7, 4]}), "n", slice(None), slice(None),
    ...                np.true_divide).tolist()
    [1.0, 1.5]
    """
    if not (isinstance(pos_l, slice) and isinstance(pos_r, slice)
            and col in df_l.columns and col in df_r.columns):
        return None
    lv, rv = df_l[col], df_r[col]
    if not all(isinstance(v.dtype, np.dtype) and v.dtype.kind in "iu" for v in (lv, rv)):
        return None
    a, b = lv.to_numpy()[pos_l], rv.to_numpy()[pos_r]
    with np.errstate(all="ignore"):
        out = _keep_left_where_nan(func(a, b), a) if func is np.true_divide else func(a, b)
    if out.dtype.kind == "f" and len(out) and np.isfinite(out).all() and \
            bool((out == np.round(out)).all()):
        out = out.astype(lv.dtype)
    return out


def _own_values(df, col, pos, n_rows) -> np.ndarray:
    """:func:`metric_values` as an array this module may write into (NaN: no column)."""
    if col not in df.columns:
        return np.full(n_rows, np.nan)
    values = metric_values(df, col, pos, n_rows)
    return values.copy() if isinstance(pos, slice) else values
