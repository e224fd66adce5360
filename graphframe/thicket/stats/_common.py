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
        parts = group_arrays(p, values(tk, c), stats, percentiles, ddof)
        for key, arr in parts.items():
            if rows is not None:
                full = np.zeros(len(rows), dtype=arr.dtype) if key == "count" \
                    else np.full(len(rows), np.nan)
                full[rows >= 0] = arr[rows[rows >= 0]]
                arr = full
            out[thicket_column(c, key)] = arr
    return out


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
