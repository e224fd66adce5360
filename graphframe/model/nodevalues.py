"""One value per node from a (node, rank, thread) dataframe column.

Exports and diffs need a single number per node. Either one row is picked
(``rank``/``thread``, Hatchet's rule) or all rows of a node are reduced with
``aggregate`` (``"sum"``, ``"mean"``, ``"min"``, ``"max"``). NaN means "no
value": it is skipped by the reductions, and a node whose rows are all NaN
(or that has no row) gets NaN.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pandas as pd

from .dataframe import level_ids
from ..errors import MetricError
from .rowselect import node_rows
from .fields import metric_columns

AGGREGATES = ("sum", "mean", "min", "max")


def check_metric(gf: Any, metric: Any, what: str = "metric") -> Any:
    """``metric`` (default: ``gf.default_metric``) after checking it is a numeric column.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> check_metric(GraphFrame.from_lists(("a", "b")), None)
    'time'
    """
    if metric is None:
        metric = gf.default_metric
    if metric not in gf.dataframe.columns:
        raise MetricError(
            f"{what}={metric!r} does not exist in the dataframe; available metrics: "
            f"{', '.join(map(str, metric_columns(gf))) or 'none'}")
    if not pd.api.types.is_numeric_dtype(gf.dataframe[metric]):
        raise MetricError(f"{what}={metric!r} is not numeric")
    return metric


def node_values(gf: Any, column: Any, rank: Optional[int] = None, thread: Optional[int] = None,
                aggregate: Optional[str] = None) -> np.ndarray:
    """Float value per node of ``column``: the ``rank``/``thread`` row or an aggregate.

    Parameters
    ----------
    gf : GraphFrame
    column : str
        A numeric dataframe column.
    rank, thread : int, optional
        Row picked per node when ``aggregate`` is None (levels the index
        does not have are ignored).
        Default: the lowest the data has (a file of rank 1 alone shows rank 1).
    aggregate : {"sum", "mean", "min", "max"}, optional
        Reduce all rows of each node instead, skipping NaN.

    Returns
    -------
    numpy.ndarray
        One float per node; NaN where a node has no value.

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> gf = example_graphframe()
    >>> names = display_names(gf)
    >>> bcast = names.index("MPI_Bcast")
    >>> float(node_values(gf, "time", rank=1)[bcast])
    0.03
    >>> float(node_values(gf, "time", aggregate="max")[bcast])
    0.05
    """
    return node_value_table(gf, [column], rank, thread, aggregate)[column]


def node_value_table(gf: Any, columns: List[Any], rank: Optional[int] = None, thread: Optional[int] = None,
                     aggregate: Optional[str] = None,
                     absent_level: str = "ignore") -> Dict[Any, np.ndarray]:
    """:func:`node_values` for several columns (the row lookup is shared).

    ``absent_level``: what a ``rank``/``thread`` for a level the index lacks
    does (:func:`~graphframe.model.rowselect.node_rows`).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> table = node_value_table(GraphFrame.from_lists(("a", "b")), ["time", "time (inc)"])
    >>> table["time (inc)"].tolist()
    [2.0, 1.0]
    """
    df = gf.dataframe
    n = gf.graph.num_nodes
    if aggregate is None:
        rows = node_rows(df, n, rank=rank, thread=thread, absent_level=absent_level)
        has = rows >= 0
        out = {}
        for col in columns:
            values = df[col].to_numpy(dtype=np.float64, na_value=np.nan)
            picked = values[np.maximum(rows, 0)] if len(values) else np.full(n, np.nan)
            out[col] = np.where(has, picked, np.nan)
        return out
    if aggregate not in AGGREGATES:
        raise ValueError(f"unknown aggregate {aggregate!r}; choose one of {', '.join(AGGREGATES)}")
    node = level_ids(df.index)
    return {col: _reduce(node, df[col].to_numpy(dtype=np.float64, na_value=np.nan), n, aggregate)
            for col in columns}


def _reduce(node: np.ndarray, values: np.ndarray, n: int, how: str) -> np.ndarray:
    valid = ~np.isnan(values)
    node, values = node[valid], values[valid]
    count = np.bincount(node, minlength=n)
    if how in ("sum", "mean"):
        total = np.bincount(node, weights=values, minlength=n)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = total / count if how == "mean" else total
    else:
        out = np.full(n, np.inf if how == "min" else -np.inf)
        (np.minimum if how == "min" else np.maximum).at(out, node, values)
    out = out.astype(np.float64, copy=False)
    out[count == 0] = np.nan
    return out


def first_row_objects(gf: Any, column: Any) -> Tuple[np.ndarray, np.ndarray]:
    """``(value of each node's first row as objects, has_row mask)`` for any column."""
    df = gf.dataframe
    n = gf.graph.num_nodes
    node = level_ids(df.index)
    first = np.full(n, -1, dtype=np.int64)
    positions = np.arange(len(node), dtype=np.int64)
    first[node[::-1]] = positions[::-1]
    has = first >= 0
    out = np.empty(n, dtype=object)
    if has.any():
        # pick the rows first, then convert: one object per node, not per row
        out[has] = df[column].array.take(first[has]).to_numpy(dtype=object)
    return out, has


def display_name_array(gf: Any, name_column: str = "name") -> np.ndarray:
    """Per-node label as an object array of str (see :func:`display_names`)."""
    n = gf.graph.num_nodes
    if name_column in gf.dataframe.columns:
        names, has = first_row_objects(gf, name_column)
        missing = ~has | pd.isna(names)
    else:
        names, missing = np.empty(n, dtype=object), np.ones(n, dtype=bool)
    if missing.any():
        attrs = gf.graph.attrs
        if "name" in attrs.columns:
            fallback = attrs["name"].to_numpy(dtype=object)
            names[missing] = fallback[missing]
            missing = pd.isna(names)
        names[missing] = ""
    if pd.api.types.infer_dtype(names, skipna=False) != "string":
        names = np.array([x if type(x) is str else str(x) for x in names.tolist()] or [],
                         dtype=object)
    return names


def display_names(gf: Any, name_column: str = "name") -> List[str]:
    """Per-node label: the ``name_column`` value of its first row, else the frame's name.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> display_names(GraphFrame.from_lists(("main", "solve")))
    ['main', 'solve']
    """
    return display_name_array(gf, name_column).tolist()
