"""Completing (node x rank/thread) rows for multi-process profiles.

TAU and timemory write one record per timer that ran in a process or thread;
a timer that never ran there has no record. For a multi-process profile every
node gets a row for every observed (rank[, thread]) combination, as Hatchet's
readers produce: the missing rows hold 0 for additive metrics and counts (the
timer really ran 0 times there) and no value (NaN / None) for statistics such
as minima and for attributes.
"""

from __future__ import annotations

from typing import Dict, Iterable, Sequence

import numpy as np
import pandas as pd


def complete_rows(nodes: np.ndarray, levels: Dict[str, np.ndarray],
                  columns: Dict[str, np.ndarray], zero: Iterable[str]) -> tuple:
    """Rows for every (node, level combination) that occurs anywhere.

    Parameters
    ----------
    nodes : array of int
        Node of each existing row.
    levels : dict of str -> array of int
        Index level values of each existing row (``rank``, ``thread``).
    columns : dict of str -> array
        Row values.
    zero : iterable of str
        Columns filled with 0 in added rows (others get NaN or None).

    Returns
    -------
    (nodes, levels, columns) with the added rows appended.

    Examples
    --------
    >>> n, lv, cols = complete_rows(np.array([0, 0, 1]), {"rank": np.array([0, 1, 0])},
    ...                             {"time": np.array([1.0, 2.0, 3.0])}, zero=["time"])
    >>> n.tolist(), lv["rank"].tolist(), cols["time"].tolist()
    ([0, 0, 1, 1], [0, 1, 0, 1], [1.0, 2.0, 3.0, 0.0])
    """
    names = list(levels)
    if not names or not len(nodes):
        return nodes, levels, columns
    combos = pd.MultiIndex.from_arrays([levels[k] for k in names]).unique()
    uniq_nodes = pd.unique(nodes)
    full = pd.MultiIndex.from_product([uniq_nodes, np.arange(len(combos))])
    combo_code = combos.get_indexer(pd.MultiIndex.from_arrays([levels[k] for k in names]))
    have = pd.MultiIndex.from_arrays([nodes, combo_code])
    missing = full[~full.isin(have)]
    if not len(missing):
        return nodes, levels, columns
    add_nodes = missing.get_level_values(0).to_numpy().astype(np.int64)
    add_combo = missing.get_level_values(1).to_numpy()
    out_levels = {}
    for i, k in enumerate(names):
        values = combos.get_level_values(i).to_numpy()[add_combo]
        out_levels[k] = np.concatenate([levels[k], values.astype(levels[k].dtype)])
    zero = set(zero)
    out_cols = {}
    for k, values in columns.items():
        values = np.asarray(values)
        out_cols[k] = np.concatenate([values, _fill(values, len(add_nodes), k in zero)])
    return np.concatenate([nodes, add_nodes]), out_levels, out_cols


def _fill(values: np.ndarray, n: int, zero: bool) -> np.ndarray:
    if values.dtype.kind in "iub":
        return np.zeros(n, dtype=values.dtype) if zero else np.full(n, np.nan)
    if values.dtype.kind == "f":
        return np.zeros(n) if zero else np.full(n, np.nan)
    return np.full(n, 0 if zero else None, dtype=object)


def first_per_node(nodes: np.ndarray, values: Sequence, n_nodes: int) -> np.ndarray:
    """For each node, the first non-missing value among its rows (object array)."""
    out = np.full(n_nodes, None, dtype=object)
    series = pd.Series(list(values), dtype=object)
    ok = series.notna().to_numpy()
    if ok.any():
        first = pd.Series(series[ok].to_numpy(), index=nodes[ok]).groupby(level=0).first()
        out[first.index.to_numpy()] = first.to_numpy()
    return out
