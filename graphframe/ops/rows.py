"""Re-keying dataframe rows after the graph changed (one vectorised indexer).

When an operation maps old node ids to new ones, every row gets its new id,
rows are sorted by (node, other levels) and rows that now share a key are
merged, each column by its rule (:mod:`graphframe.ops.merge_rules`): by
default declared metrics are summed (``min_count=1``: all-NaN stays NaN) and
every other column keeps its first value (Hatchet's rule; attributes such as
names, files and line numbers are never summed); a column declared ``"min"``,
``"max"`` or ``"mean"`` combines that way (missing values skipped).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Sequence, Union

import numpy as np
import pandas as pd

from ..model.dataframe import (frame_from_columns, index_arrays, level_ids, make_index, sort_rows,
                               take_rows)

INT = np.int64


Rules = Union[Mapping[Any, str], Sequence[Any]]


def as_rules(rules: Rules) -> Dict[Any, str]:
    """``{column: kind}``; a plain sequence names the summed metrics (others: first)."""
    if isinstance(rules, Mapping):
        return dict(rules)
    return {c: "sum" for c in rules}


def remap_rows(df: pd.DataFrame, new_of_old: np.ndarray, rules: Rules,
               keep: np.ndarray = None) -> pd.DataFrame:
    """Rows of ``df`` with node ids mapped through ``new_of_old``, sorted, merged.

    ``rules`` maps columns to how they merge (``"sum"``, ``"min"``, ``"max"``,
    ``"mean"``, ``"first"``; unlisted: first), or lists the summed metrics.
    ``keep`` optionally selects rows first (a boolean mask over rows).
    """
    rules = as_rules(rules)
    if keep is not None:
        df = df[keep]
    fast = _permute_node_runs(df, new_of_old)
    if fast is not None:
        order, index = fast
        return frame_from_columns(take_rows(df, order), index)
    levels = index_arrays(df.index)
    levels[0] = new_of_old[levels[0].astype(INT)]
    if (levels[0] < 0).any():
        raise ValueError("remap_rows: a kept row maps to no node")
    order = sort_rows([lv.astype(INT) if lv.dtype.kind in "iub" else pd.factorize(lv, sort=True)[0]
                       for lv in levels])
    if order is not None:
        levels = [lv[order] for lv in levels]
    names = list(df.index.names)
    starts = _group_starts(levels)
    if starts is not None:
        merged = _merge_sorted_groups(df, order, starts, levels, names, rules)
        if merged is not None:
            return merged
    index = (make_index(levels, names) if _all_int(levels)
             else pd.MultiIndex.from_arrays(levels, names=names))
    if order is None:  # a lazy (copy-on-write) copy: never shares writable data with df
        out = df.set_axis(index, axis=0)
    else:
        out = frame_from_columns(take_rows(df, order), index)
    if starts is not None:
        out = merge_duplicate_rows(out, rules)
    return out


def _group_starts(levels: List[np.ndarray]):
    """First row of each run of equal keys in sorted ``levels``; None if all keys differ."""
    n = len(levels[0])
    if n < 2:
        return None
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for lv in levels:
        new[1:] |= lv[1:] != lv[:-1]
    if new.all():
        return None
    return np.flatnonzero(new)


def _merge_sorted_groups(df: pd.DataFrame, order, starts: np.ndarray, levels: List[np.ndarray],
                         names: List[Any], rules: Mapping[Any, str]):
    """Rows with equal keys merged without a pandas groupby (keys already sorted by
    ``order``): numeric columns combined per run with ``reduceat`` (missing values
    skipped; all-missing stays NaN), other columns keep the first value of each
    run. None when a column needs pandas' general rules (extension or boolean
    metrics, missing attribute values, min/max of text)."""
    first = starts if order is None else order[starts]
    data = {}
    for col in df.columns:
        series = df[col]
        kind = rules.get(col, "first")
        if kind != "first" and pd.api.types.is_numeric_dtype(series.dtype):
            if not (isinstance(series.dtype, np.dtype) and series.dtype.kind in "fiu"):
                return None
            values = series.to_numpy()
            data[col] = _reduce_runs(values if order is None else values[order], starts, kind)
        elif kind in ("min", "max"):
            return None  # min/max of text: pandas' rules
        else:
            if bool(series.isna().any()):
                return None  # pandas' first() skips missing values: keep its exact rule
            data[col] = (series.to_numpy()[first] if isinstance(series.dtype, np.dtype)
                         else series.array.take(first))
    index = make_index([lv[starts] for lv in levels], names) if _all_int(levels) \
        else pd.MultiIndex.from_arrays([lv[starts] for lv in levels], names=names)
    return frame_from_columns(data, index)


def _reduce_runs(values: np.ndarray, starts: np.ndarray, kind: str) -> np.ndarray:
    """Combine each run of ``values`` (runs begin at ``starts``) as pandas' groupby
    would: ``sum`` (min_count=1), ``min``, ``max``, ``mean``, skipping NaN."""
    if values.dtype.kind == "f":
        missing = np.isnan(values)
        if kind in ("min", "max"):  # fmin/fmax skip NaN; an all-NaN run stays NaN
            return (np.fmin if kind == "min" else np.fmax).reduceat(values, starts)
        if not missing.any():  # nothing to skip: every run counts all its values
            total = np.add.reduceat(values, starts)
            if kind == "mean":
                total = (total / np.diff(np.r_[starts, len(values)])).astype(values.dtype,
                                                                           copy=False)
            return total
        counts = np.add.reduceat(~missing, starts)
        total = np.add.reduceat(np.where(missing, 0.0, values), starts)
        if kind == "mean":
            with np.errstate(invalid="ignore", divide="ignore"):
                total = (total / counts).astype(values.dtype, copy=False)
        total[counts == 0] = np.nan
        return total
    if kind in ("min", "max"):
        return (np.minimum if kind == "min" else np.maximum).reduceat(values, starts)
    wide = np.uint64 if values.dtype.kind == "u" else np.int64
    total = np.add.reduceat(values.astype(wide, copy=False), starts)
    if kind == "mean":
        return total / np.diff(np.r_[starts, len(values)])
    return total.astype(values.dtype, copy=False)  # summed in 64 bits, kept in the column's type


def _permute_node_runs(df: pd.DataFrame, new_of_old: np.ndarray):
    """Fast path: rows sorted by (node, ...) whose nodes map one-to-one.

    Each node's rows form a run; the runs are reordered by new node id (a
    sort over nodes, not rows) and the other index levels keep their codes.
    Returns ``(row order, new index)`` (order None: the rows keep theirs) or None
    when rows are not sorted or two nodes map to the same new node (rows must
    then be merged).
    """
    index = df.index
    if not len(index) or not isinstance(index, pd.MultiIndex) or not index.is_monotonic_increasing:
        if isinstance(index, pd.MultiIndex) or not len(index):
            return None
        node = np.asarray(index, dtype=INT)
        new = new_of_old[node]
        order = np.argsort(new, kind="stable")
        sorted_new = new[order]
        if (sorted_new < 0).any() or (sorted_new[1:] == sorted_new[:-1]).any():
            return None
        return order, pd.Index(sorted_new, name=index.name)
    codes0 = np.asarray(index.codes[0], dtype=INT)
    level0 = np.asarray(index.levels[0], dtype=INT)
    n_rows = len(codes0)
    starts = np.flatnonzero(np.r_[True, codes0[1:] != codes0[:-1]])
    run_new = new_of_old[level0[codes0[starts]]]
    if len(level0) == len(starts) and run_new[0] >= 0 and \
            bool(np.all(run_new[1:] > run_new[:-1])):
        # the runs keep their order (every level value used): only the level values change
        new_index = pd.MultiIndex(levels=[run_new] + list(index.levels[1:]),
                                  codes=list(index.codes), names=list(index.names),
                                  verify_integrity=False)
        return None, new_index
    perm = np.argsort(run_new, kind="stable")
    sorted_new = run_new[perm]
    if (sorted_new < 0).any() or (sorted_new[1:] == sorted_new[:-1]).any():
        return None
    lengths = np.diff(np.r_[starts, n_rows])[perm]
    offsets = np.cumsum(lengths) - lengths
    order = np.repeat(starts[perm] - offsets, lengths) + np.arange(n_rows, dtype=INT)
    codes = [np.repeat(np.arange(len(perm), dtype=INT), lengths)]
    codes += [np.asarray(c)[order] for c in index.codes[1:]]
    new_index = pd.MultiIndex(levels=[sorted_new] + list(index.levels[1:]), codes=codes,
                              names=list(index.names), verify_integrity=False)
    return order, new_index


def merge_node_runs(node: np.ndarray) -> np.ndarray:
    """Row order that sorts ``node`` when it is a concatenation of sorted blocks
    whose node sets are disjoint (each node's rows are one contiguous run).

    Sorting happens over runs (about one per node), not over rows.
    """
    n_rows = len(node)
    if not n_rows:
        return np.zeros(0, dtype=INT)
    starts = np.flatnonzero(np.r_[True, node[1:] != node[:-1]])
    perm = np.argsort(node[starts], kind="stable")
    lengths = np.diff(np.r_[starts, n_rows])[perm]
    offsets = np.cumsum(lengths) - lengths
    return np.repeat(starts[perm] - offsets, lengths) + np.arange(n_rows, dtype=INT)


def stack_disjoint(parts: Sequence[pd.DataFrame], columns: Sequence[Any]) -> pd.DataFrame:
    """Rows of several frames, each sorted by (node, ...), with disjoint node sets.

    ``columns`` lists the output columns; a column a part lacks is NaN there.
    The result is sorted by (node, ...) by reordering node runs (no row sort)
    and its index is assembled from level codes.
    """
    names = list(parts[0].index.names)
    node = np.concatenate([level_ids(part.index) for part in parts])
    order = merge_node_runs(node)
    node = node[order]
    new = np.empty(len(node), dtype=bool)
    new[:1] = True
    np.not_equal(node[1:], node[:-1], out=new[1:])
    levels = [node[new]]
    codes = [np.cumsum(new) - 1]
    for i in range(1, len(names)):
        vals = [np.asarray(part.index.levels[i]) for part in parts]
        uniq = np.unique(np.concatenate(vals))
        joint = np.concatenate([np.searchsorted(uniq, v)[np.asarray(part.index.codes[i])]
                                for v, part in zip(vals, parts)])
        levels.append(uniq)
        codes.append(joint[order])
    index = (pd.MultiIndex(levels=levels, codes=codes, names=names, verify_integrity=False)
             if len(names) > 1 else pd.Index(node, name=names[0]))
    data = {}
    for col in columns:
        pieces = [part[col].reset_index(drop=True) if col in part.columns
                  else pd.Series(np.full(len(part), np.nan)) for part in parts]
        data[col] = pd.concat(pieces, ignore_index=True).array.take(order)
    return frame_from_columns(data, index)


def _all_int(levels: List[np.ndarray]) -> bool:
    return all(np.asarray(lv).dtype.kind in "iu" for lv in levels)


def merge_duplicate_rows(df: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """Group rows with equal index; each column combined by its rule (pandas' groupby).

    ``sum`` is ``sum(min_count=1)`` (all-NaN stays NaN) and applies to numeric
    columns only (a declared metric holding text keeps its first value);
    ``min``, ``max``, ``mean`` skip missing values; everything else is ``first``.
    """
    rules = as_rules(rules)
    names = list(df.index.names)
    grouped = df.groupby(level=names, sort=True)
    by_kind: Dict[str, List[Any]] = {}
    for col in df.columns:
        kind = rules.get(col, "first")
        if kind in ("sum", "mean") and not pd.api.types.is_numeric_dtype(df[col]):
            kind = "first"
        by_kind.setdefault(kind, []).append(col)
    parts = []
    for kind, cols in by_kind.items():
        part = grouped[cols]
        if kind == "sum":
            parts.append(part.sum(min_count=1))
        else:
            parts.append(getattr(part, kind)())
    merged = pd.concat(parts, axis=1) if len(parts) > 1 else parts[0]
    return merged[list(df.columns)]
