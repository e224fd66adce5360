"""add / sub / mul / div between two GraphFrames.

Both operands are unified (matched by call path) and their rows aligned on
the full index ``(node, rank[, thread])`` with integer keys. Per row and
metric:

============================  ======================  ===========================
row present in                default (Hatchet)       ``fill_value=x``
============================  ======================  ===========================
both                          ``left op right``       ``left op right``
left only                     left value unchanged    ``left op x``
right only                    NaN                     ``x op right``
============================  ======================  ===========================

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

import operator
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pandas as pd

from ..build import frame_from_columns, level_ids
from ..errors import GraphMismatchError
from .rows import remap_rows
from .union import MISSING_CODE, node_sides, union_graphs

INT = np.int64

OPS: Dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
}


def arithmetic(left: Any, right: Any, op: str, fill_value: Optional[float] = None) -> Any:
    """``left <op> right`` as a new GraphFrame (see module docs)."""
    func = OPS[op]
    if list(left.dataframe.index.names) != list(right.dataframe.index.names):
        raise GraphMismatchError(
            f"cannot {op} GraphFrames indexed by {list(left.dataframe.index.names)} and "
            f"{list(right.dataframe.index.names)}; drop or add index levels first")
    if left.graph is right.graph:
        graph = left.graph
        ident = np.arange(graph.num_nodes, dtype=INT)
        map_l = map_r = ident
    else:
        graph, map_l, map_r = union_graphs(left.graph, right.graph)
    exc = _merged(left.exc_metrics, right.exc_metrics)
    inc = _merged(left.inc_metrics, right.inc_metrics)
    metrics = exc + [m for m in inc if m not in exc]
    df_l = remap_rows(left.dataframe, map_l, left.exc_metrics + left.inc_metrics)
    df_r = remap_rows(right.dataframe, map_r, right.exc_metrics + right.inc_metrics)
    keys_l, keys_r, decode = _row_keys(df_l, df_r)
    same_rows = len(keys_l) == len(keys_r) and np.array_equal(keys_l, keys_r)
    if same_rows:
        all_keys, pos_l, pos_r = keys_l, slice(None), slice(None)
    else:
        all_keys, pos_l, pos_r = _align(keys_l, keys_r)
    n_rows = len(all_keys)
    in_l = np.zeros(n_rows, dtype=bool)
    in_l[pos_l] = True
    in_r = np.zeros(n_rows, dtype=bool)
    in_r[pos_r] = True
    columns = list(df_l.columns) + [c for c in df_r.columns if c not in df_l.columns]
    data: Dict[Any, Any] = {}
    for col in columns:
        if col == "_missing_node":
            continue
        if col in metrics:
            data[col] = _combine(df_l, df_r, col, pos_l, pos_r, in_l, in_r, n_rows, func, fill_value)
        else:
            data[col] = _attribute(df_l, df_r, col, pos_l, pos_r, in_l, n_rows)
    index = df_l.index if same_rows else decode(all_keys)
    node = level_ids(index)
    side = node_sides(df_l, df_r, graph.num_nodes)
    data["_missing_node"] = MISSING_CODE[side[node]]
    ordered_cols = [c for c in columns if c != "_missing_node"] + ["_missing_node"]
    out_df = frame_from_columns({c: data[c] for c in ordered_cols}, index)
    pairs = dict(right.inclusive_of)
    pairs.update(left.inclusive_of)
    result = left._replace(graph=graph, dataframe=out_df, exc_metrics=exc, inc_metrics=inc,
                           metadata=dict(left.metadata), inclusive_of=pairs)
    if fill_value is not None and op in ("add", "sub") and any(m in pairs for m in exc):
        result = result.update_inclusive_columns()
    return result


def _merged(a: List[Any], b: List[Any]) -> List[Any]:
    return list(a) + [m for m in b if m not in a]


def _row_keys(df_l: pd.DataFrame, df_r: pd.DataFrame):
    """Integer row keys for both sides and a decoder back to an index.

    A key is ``node * S + combined code of the other levels``; codes come
    from the two indexes' own level codes, mapped onto the joint level values.
    """
    names = list(df_l.index.names)
    key_l, key_r = level_ids(df_l.index), level_ids(df_r.index)
    level_values = []
    for name in names[1:]:
        uniques, code_l, code_r = _joint_level_codes(df_l.index, df_r.index, name)
        size = max(len(uniques), 1)
        key_l = key_l * size + code_l
        key_r = key_r * size + code_r
        level_values.append((uniques, size))

    def decode(keys: np.ndarray) -> pd.Index:
        if not level_values:
            return pd.Index(keys, name=names[0])
        codes = []
        rest = keys
        for uniques, size in reversed(level_values):
            codes.append(rest % size)
            rest = rest // size
        node = rest  # sorted, since keys are sorted
        new = np.empty(len(node), dtype=bool)
        new[:1] = True
        np.not_equal(node[1:], node[:-1], out=new[1:])
        codes.append(np.cumsum(new) - 1)
        codes.reverse()
        levels = [node[new]] + [u for u, _ in level_values]
        return pd.MultiIndex(levels=levels, codes=codes, names=names, verify_integrity=False)

    return key_l, key_r, decode


def _joint_level_codes(index_l: pd.Index, index_r: pd.Index, name: str):
    """Joint sorted level values and each side's codes into them."""
    i_l, i_r = index_l.names.index(name), index_r.names.index(name)
    lv_l, lv_r = np.asarray(index_l.levels[i_l]), np.asarray(index_r.levels[i_r])
    uniques = np.unique(np.concatenate([lv_l, lv_r]))
    map_l = np.searchsorted(uniques, lv_l)
    map_r = np.searchsorted(uniques, lv_r)
    return (uniques, map_l[np.asarray(index_l.codes[i_l])].astype(INT),
            map_r[np.asarray(index_r.codes[i_r])].astype(INT))


def _align(keys_l: np.ndarray, keys_r: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted union of two key sets and each side's positions in it."""
    total = len(keys_l) + len(keys_r)
    span = int(max(keys_l.max(initial=-1), keys_r.max(initial=-1))) + 1
    if span <= 4 * total + 1024:
        present = np.zeros(span, dtype=bool)
        present[keys_l] = True
        present[keys_r] = True
        rank = np.cumsum(present) - 1
        return np.flatnonzero(present), rank[keys_l], rank[keys_r]
    all_keys = np.union1d(keys_l, keys_r)
    return all_keys, np.searchsorted(all_keys, keys_l), np.searchsorted(all_keys, keys_r)


def _values(df: pd.DataFrame, col: Any, pos: Any, n_rows: int) -> np.ndarray:
    values = df[col].to_numpy(dtype=np.float64, na_value=np.nan)
    if isinstance(pos, slice):
        return values
    out = np.full(n_rows, np.nan)
    out[pos] = values
    return out


def _combine(df_l, df_r, col, pos_l, pos_r, in_l, in_r, n_rows, func, fill_value):
    with np.errstate(divide="ignore", invalid="ignore"):
        if col in df_l.columns and col in df_r.columns and isinstance(pos_l, slice):
            return func(_values(df_l, col, pos_l, n_rows), _values(df_r, col, pos_r, n_rows))
        has_l = in_l if col in df_l.columns else np.zeros(n_rows, dtype=bool)
        has_r = in_r if col in df_r.columns else np.zeros(n_rows, dtype=bool)
        lv = _values(df_l, col, pos_l, n_rows) if col in df_l.columns else np.full(n_rows, np.nan)
        rv = _values(df_r, col, pos_r, n_rows) if col in df_r.columns else np.full(n_rows, np.nan)
        if fill_value is None:
            out = func(lv, rv)
            only_l = has_l & ~has_r
            out[only_l] = lv[only_l]
            out[~has_l] = np.nan
            return out
        lv[~has_l] = fill_value
        rv[~has_r] = fill_value
        out = func(lv, rv)
        out[~(has_l | has_r)] = np.nan
        return out


def _attribute(df_l, df_r, col, pos_l, pos_r, in_l, n_rows):
    """An attribute column: left value where the left has the row, else right's."""
    if isinstance(pos_l, slice) and col in df_l.columns:
        return df_l[col].array
    src_l = np.full(n_rows, -1, dtype=INT)
    src_r = np.full(n_rows, -1, dtype=INT)
    n_l = len(df_l)
    if col in df_l.columns:
        src_l[pos_l] = np.arange(n_l, dtype=INT)
    if col in df_r.columns:
        src_r[pos_r] = np.arange(len(df_r), dtype=INT)
    left = df_l[col] if col in df_l.columns else pd.Series(np.full(n_l, np.nan))
    right = (df_r[col] if col in df_r.columns else pd.Series(np.full(len(df_r), np.nan)))
    source = np.where(src_l >= 0, src_l, np.where(src_r >= 0, n_l + src_r, -1))
    if isinstance(left.dtype, np.dtype) and isinstance(right.dtype, np.dtype):
        as_object = "O" in (left.dtype.kind, right.dtype.kind)
        both = np.concatenate([left.to_numpy(dtype=object if as_object else None),
                               right.to_numpy(dtype=object if as_object else None)])
        if (source < 0).any():
            if both.dtype.kind in "Ob":
                both = np.append(both.astype(object), None)
            else:
                both = np.append(both.astype(np.float64), np.nan)
        return both[source]  # -1 picks the appended missing value
    both = pd.concat([left.reset_index(drop=True), right.reset_index(drop=True)],
                     ignore_index=True)
    return both.array.take(source, allow_fill=True)
