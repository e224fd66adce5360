"""Turning a RawProfile into the parts of a GraphFrame (the one place it happens)."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

import numpy as np
import pandas as pd

from readers import RawProfile
from readers.profile import NODE, PARENT

from . import structure as st
from .graph import Graph

INT = np.int64


def parts_from_raw(raw: RawProfile) -> Dict[str, Any]:
    """Graph, dataframe and metric declarations built from ``raw``.

    Node ids are renumbered into graphframe's pre-order; the dataframe is
    indexed by ``node`` (then the profile's index levels) and sorted.
    """
    raw.validate()
    ids = raw.nodes[NODE].to_numpy().astype(INT, copy=False)
    lookup = _IdLookup(ids)
    parent = lookup(raw.nodes[PARENT].to_numpy().astype(INT, copy=False))
    extra = None
    if raw.edges is not None and len(raw.edges):
        extra = (lookup(raw.edges[PARENT].to_numpy()), lookup(raw.edges["child"].to_numpy()))
    attrs = raw.nodes[list(raw.frame_columns)]
    graph, order = Graph.build(attrs, parent, extra, ordered=raw.ordered)
    new_id = st.invert(order, len(order))
    dataframe = _dataframe(raw, lookup, new_id)
    return dict(
        graph=graph,
        dataframe=dataframe,
        exc_metrics=list(raw.exc_metrics),
        inc_metrics=list(raw.inc_metrics),
        default_metric=raw.default_metric,
        metadata=dict(raw.metadata),
        inclusive_of=dict(raw.inclusive_of),
    )


class _IdLookup:
    """Maps reader-local ids to row positions (-1 stays -1)."""

    def __init__(self, ids: np.ndarray) -> None:
        self.identity = np.array_equal(ids, np.arange(len(ids)))
        if not self.identity:
            self.order = np.argsort(ids, kind="stable")
            self.sorted = ids[self.order]

    def __call__(self, refs: np.ndarray) -> np.ndarray:
        refs = np.asarray(refs, dtype=INT)
        if self.identity:
            return refs.copy()
        pos = self.order[np.searchsorted(self.sorted, np.maximum(refs, self.sorted[0]))]
        return np.where(refs < 0, -1, pos)


def _dataframe(raw: RawProfile, lookup: _IdLookup, new_id: np.ndarray) -> pd.DataFrame:
    m = raw.metrics
    levels = list(raw.index_levels)
    row_pos = lookup(m[NODE].to_numpy())
    node = new_id[row_pos]
    level_values = [m[lv].to_numpy().astype(INT, copy=False) for lv in levels]
    order = sort_rows([node, *level_values])
    columns: Dict[str, Any] = {}
    for col in m.columns:
        if col == NODE or col in levels:
            continue
        columns[col] = _take(m[col], order)
    node_sorted = node if order is None else node[order]
    pos_sorted = row_pos if order is None else row_pos[order]
    for col, values in _node_columns(raw).items():
        if col not in columns:
            columns[col] = _take(values, pos_sorted)
    index = make_index([node_sorted] + [v if order is None else v[order] for v in level_values],
                       [NODE] + levels)
    frame = pd.DataFrame(columns, index=index)
    return frame[_column_order(raw, list(frame.columns))]


def _node_columns(raw: RawProfile) -> Dict[str, pd.Series]:
    if raw.node_columns is not None:
        return {c: raw.node_columns[c].reset_index(drop=True) for c in raw.node_columns.columns}
    return {"name": raw.nodes["name"].reset_index(drop=True)}


def _take(values: pd.Series, positions) -> Any:
    if positions is None:
        return values.to_numpy() if not isinstance(values.dtype, pd.CategoricalDtype) else values.array
    if isinstance(values.dtype, np.dtype) and values.dtype.kind in "biufc":
        return values.to_numpy()[positions]
    return values.take(positions).array


def _column_order(raw: RawProfile, present: List[str]) -> List[str]:
    if raw.columns:
        first = [c for c in raw.columns if c in present]
    else:
        first = [c for c in raw.metric_columns if c in present]
    return first + [c for c in present if c not in first]


def sort_rows(keys: Sequence[np.ndarray]):
    """Row order sorting by ``keys`` (first key primary); None if already sorted.

    Uses a counting placement when the combined key space is small (no
    comparison sort) and a stable ``lexsort`` otherwise.
    """
    n = len(keys[0])
    if n == 0:
        return None
    combined = None
    span = 1
    codes = []
    for k in keys:
        lo, hi = int(k.min()), int(k.max())
        codes.append(k - lo)
        span *= hi - lo + 1
    if span < 1 << 62:
        combined = codes[0].astype(INT)
        for k, c in zip(keys[1:], codes[1:]):
            combined = combined * (int(k.max()) - int(k.min()) + 1) + c
        if n < 2 or bool(np.all(combined[1:] >= combined[:-1])):
            return None
        if span <= 4 * n + 1024:
            counts = np.bincount(combined, minlength=span)
            if counts.max() <= 1:
                rank = np.cumsum(counts) - 1
                order = np.empty(n, dtype=INT)
                order[rank[combined]] = np.arange(n, dtype=INT)
                return order
        return np.argsort(combined, kind="stable")
    return np.lexsort(list(reversed(list(keys))))


def make_index(arrays: Sequence[np.ndarray], names: Sequence[str]) -> pd.Index:
    """An Index (one level) or MultiIndex built from integer arrays."""
    if len(arrays) == 1:
        return pd.Index(np.asarray(arrays[0], dtype=INT), name=names[0])
    level_values, codes = [], []
    for arr in arrays:
        arr = np.asarray(arr, dtype=INT)
        uniq = np.unique(arr)
        lo = int(uniq[0]) if len(uniq) else 0
        if len(uniq) and int(uniq[-1]) - lo < 4 * len(arr) + 1024:
            table = np.full(int(uniq[-1]) - lo + 1, -1, dtype=INT)
            table[uniq - lo] = np.arange(len(uniq))
            code = table[arr - lo]
        else:
            code = np.searchsorted(uniq, arr)
        level_values.append(uniq)
        codes.append(code)
    return pd.MultiIndex(levels=level_values, codes=codes, names=list(names),
                         verify_integrity=False)
