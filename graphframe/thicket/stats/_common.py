"""What every ``graphframe.thicket.stats`` function shares: checking columns, running the
one-pass statistics core over a Thicket's rows and writing statsframe columns.

A Thicket's statistics group its rows by ``node`` over every other index level
(profiles, and ranks/threads when present), as Thicket's ``groupby("node")``
does. Missing rows and NaN are "no value" (skipped, as pandas' aggregations
skip them); a node with no value gets NaN.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from ...errors import ArgumentError, MetricError
from ...ensemble.stats import thicket_column
from ...ensemble._internal import LevelPlan, group_arrays, plain_values


def check_columns(tk: Any, columns: Any, what: str = "columns") -> List[Any]:
    """``columns`` as a list of existing numeric performance-data columns."""
    if columns is None or (isinstance(columns, (list, tuple)) and not len(columns)
                           and not isinstance(columns, tuple)):
        raise ArgumentError(f"give {what}=[...]; the numeric columns are "
                            f"{', '.join(map(str, tk.performance_cols))}")
    if isinstance(columns, (str, tuple)):
        columns = [columns]
    columns = list(columns)
    for c in columns:
        if c not in tk.dataframe.columns:
            raise MetricError(f"no column {c!r} in the performance data; the numeric columns "
                              f"are {', '.join(map(str, tk.performance_cols))}")
    dtypes = _dtypes(tk.dataframe, columns)
    for c, dtype in zip(columns, dtypes):
        if not pd.api.types.is_numeric_dtype(dtype):
            raise MetricError(f"column {c!r} holds {dtype} values, not numbers")
    return columns


def _dtypes(df: pd.DataFrame, columns: List[Any]) -> List[Any]:
    """The dtype of each column (one lookup in ``df.dtypes`` per call, not a Series each)."""
    dtypes = df.dtypes
    out = []
    for c in columns:
        found = dtypes[c]
        out.append(found.iloc[0] if isinstance(found, pd.Series) else found)
    return out


def over_levels(tk: Any) -> List[Any]:
    """Every index level but ``node``: the samples of a node."""
    return [n for n in tk.dataframe.index.names if n != "node"]


def plan(tk: Any) -> LevelPlan:
    """The (node, samples) plan of the Thicket's rows, reused while ``tk.dataframe.index``
    is the same object (pandas indexes are immutable; assigning a new dataframe or index
    gives a new plan)."""
    index = tk.dataframe.index
    holder = getattr(tk, "_state", None)   # a Thicket keeps it with its private state
    holder = holder if holder is not None else tk
    cached = holder.__dict__.get("_stats_plan")
    if cached is not None and cached[0] is index:
        return cached[1]
    found = LevelPlan.of(index, over_levels(tk))
    holder.__dict__["_stats_plan"] = (index, found)
    return found


def statsframe_rows(tk: Any, p: LevelPlan) -> Optional[np.ndarray]:
    """Position in the plan's groups of each statsframe row (-1: the node has no row), or
    None when both list the same nodes in the same order (the usual case)."""
    frame_index = tk.statsframe.dataframe.index
    holder = getattr(tk, "_state", None)   # a Thicket keeps it with its private state
    holder = holder if holder is not None else tk
    cached = holder.__dict__.get("_stats_rows")
    if cached is not None and cached[0] is frame_index and cached[1] is p:
        return cached[2]
    same = (len(frame_index) == p.n_groups
            and np.array_equal(plain_values(frame_index), plain_values(p.index)))
    rows = None if same else p.index.get_indexer(frame_index).astype(np.int64)
    holder.__dict__["_stats_rows"] = (frame_index, p, rows)
    return rows


def node_stats(tk: Any, columns: Sequence[Any], stats: Sequence[str],
               percentiles: Sequence[float] = (), ddof: int = 1) -> Dict[Any, np.ndarray]:
    """Per-node statistics under Thicket's column names (``<c>_mean``,
    ``<c>_percentiles_25``...): arrays with one value per statsframe row, NaN (count 0)
    for nodes without rows. One pass over each column with a reused plan."""
    p = plan(tk)
    rows = statsframe_rows(tk, p)
    out: Dict[Any, np.ndarray] = {}
    for c in columns:
        column = values(tk, c)
        parts = group_arrays(p, column, stats, percentiles, ddof)
        if "mean" in parts:   # Thicket's means are pandas' (compensated sums)
            parts["mean"] = compensated_mean(p.group, column, p.n_groups)
        for key, arr in parts.items():
            if rows is not None:
                full = np.zeros(len(rows), dtype=arr.dtype) if key == "count" \
                    else np.full(len(rows), np.nan)
                full[rows >= 0] = arr[rows[rows >= 0]]
                arr = full
            out[thicket_column(c, key)] = arr
    return out


def compensated_mean(group: np.ndarray, column: np.ndarray, n_groups: int) -> np.ndarray:
    """Each group's mean as pandas' ``groupby(...).mean()`` computes it, bit for bit: a
    Kahan-compensated sum of the group's values in row order (NaN skipped), divided by
    their count; NaN for a group without values.

    numpy's pairwise row sums can differ from it in the last bit, which shows in
    Thicket's printed tables (``0.922819`` for ``0.922818``); the compensated sum is also
    the more accurate. One vectorised step per sample (the k-th value of every group
    at once), not one per row.

    Examples
    --------
    >>> v = np.array([0.1, 0.2, 0.3, np.nan, 1.0])
    >>> compensated_mean(np.array([0, 0, 0, 1, 1]), v, 3).tolist()
    [0.19999999999999998, 1.0, nan]
    """
    keep = ~np.isnan(column)
    g, v = np.asarray(group, dtype=np.int64)[keep], column[keep]
    order = np.argsort(g, kind="stable")           # each group's rows in row order
    g, v = g[order], v[order]
    count = np.bincount(g, minlength=n_groups)
    starts = np.zeros(n_groups + 1, dtype=np.int64)
    np.cumsum(count, out=starts[1:])
    rank = np.arange(len(g), dtype=np.int64) - starts[g]   # k: the group's k-th value
    by_rank = np.argsort(rank, kind="stable")
    bounds = np.searchsorted(rank[by_rank], np.arange(int(rank.max(initial=-1)) + 2))
    total = np.zeros(n_groups)
    carry = np.zeros(n_groups)
    with np.errstate(all="ignore"):
        for k in range(len(bounds) - 1):
            rows = by_rank[bounds[k]:bounds[k + 1]]
            at = g[rows]
            y = v[rows] - carry[at]
            t = total[at] + y
            lost = (t - total[at]) - y
            carry[at] = np.where(np.isnan(lost), 0.0, lost)   # infinities: no carry
            total[at] = t
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def write(tk: Any, source: Any, columns: Dict[Any, Any]) -> List[Any]:
    """Write ``columns`` (name -> values on the statsframe's index) into the statsframe and
    register them as exclusive (``source`` is exclusive) or inclusive metrics, as Thicket."""
    frame = tk.statsframe.dataframe
    for name, values in columns.items():
        put(frame, name, values)
        register(tk, source, name)
    return list(columns)


def sort_joined_columns(tk: Any) -> None:
    """A column-joined statsframe's columns in sorted order, as Thicket keeps them (run
    once a public statistic has written its columns)."""
    frame = tk.statsframe.dataframe
    if not isinstance(frame.columns, pd.MultiIndex):
        return
    try:
        order = list(frame.columns.sort_values())
    except TypeError:   # headers of several types: by their text
        order = sorted(frame.columns, key=lambda c: tuple(map(str, c)))
    if order != list(frame.columns):
        tk.statsframe.dataframe = frame[order]


def key(frame: pd.DataFrame, name: Any) -> Any:
    """The statsframe column of ``name``: a column-joined Thicket's statsframe has two
    column levels, where a plain name ``"x"`` is the column ``("x", "")`` (as in Thicket)."""
    if isinstance(frame.columns, pd.MultiIndex) and not isinstance(name, tuple):
        return (name,) + ("",) * (frame.columns.nlevels - 1)
    return name


def put(frame: pd.DataFrame, name: Any, values: Any) -> None:
    """``frame[name] = values`` with :func:`key`'s naming."""
    frame[key(frame, name)] = values


def register(tk: Any, source: Any, name: Any) -> None:
    sf = tk.statsframe
    target = sf.exc_metrics if source in tk.exc_metrics else sf.inc_metrics
    if name not in target:
        target.append(name)


def node_positions(tk: Any) -> np.ndarray:
    """Each row's position in the statsframe's node index."""
    nodes = tk.dataframe.index.get_level_values("node")
    return tk.statsframe.dataframe.index.get_indexer(nodes)


def values(tk: Any, column: Any) -> np.ndarray:
    """The column's values as float64 (NaN for missing), read-only: not to be written to.

    A float64 column is returned without building a Series (building one with the
    Thicket's MultiIndex costs more than the statistics of a thousand profiles)."""
    df = tk.dataframe
    loc = df.columns.get_loc(column)
    getter = getattr(df, "_get_column_array", None)   # pandas >= 2.0; else the public path
    if isinstance(loc, (int, np.integer)) and getter is not None:
        arr = getter(int(loc))
        if isinstance(arr, np.ndarray) and arr.dtype == np.float64:
            return arr
        return pd.array(arr).to_numpy(dtype=np.float64, na_value=np.nan)
    return df[column].to_numpy(dtype=np.float64, na_value=np.nan)


def scipy_stats() -> Any:
    """``scipy.stats`` (the optional ``stats`` extra), or an ArgumentError saying so."""
    try:
        import scipy.stats
    except ImportError as err:   # optional dependency
        raise ArgumentError("this statistic needs SciPy: pip install 'graphframe[stats]'") \
            from err
    return scipy.stats
