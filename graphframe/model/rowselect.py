"""Selecting one dataframe row per node (for a given rank and thread)."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import pandas as pd

from .dataframe import level_ids, plain_values
from ..errors import ArgumentError


def node_rows(dataframe: pd.DataFrame, n_nodes: int, rank: Optional[int] = 0,
              thread: Optional[int] = 0, absent_level: str = "ignore") -> np.ndarray:
    """Row position of each node's row at ``rank``/``thread``; -1 where there is none.

    Index levels other than ``node``, ``rank`` and ``thread`` are not
    filtered; the first matching row wins. ``None`` means the lowest value
    the level holds (so a file of rank 1 alone shows rank 1). A ``rank`` (or
    ``thread``) that the level does not hold raises :class:`ArgumentError`
    naming the values it holds. When the index has no such level, the value
    is ignored (``absent_level="ignore"``: Hatchet's ``tree``, ``to_dot``,
    ``to_flamegraph`` and ``to_literal`` print the profile's only rows), or a
    non-zero one raises :class:`ArgumentError` (``absent_level="error"``).

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(0, 1), (0, 2), (1, 2)], names=["node", "rank"])
    >>> df = pd.DataFrame({"t": [1, 2, 3]}, index=idx)
    >>> node_rows(df, 3, rank=2).tolist(), node_rows(df, 3, rank=None).tolist()
    ([1, 2, -1], [0, -1, -1])
    >>> node_rows(df, 3, rank=7)
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: rank=7 does not exist; the ranks are 1, 2
    >>> node_rows(df, 3, rank=2, thread=4).tolist()
    [1, 2, -1]
    """
    index = dataframe.index
    if absent_level == "error":
        require_levels(index, rank=rank, thread=thread)
    node = level_ids(index)
    keep = np.ones(len(node), dtype=bool)
    for level, value in (("rank", rank), ("thread", thread)):
        if level not in index.names:
            continue
        if not len(index):
            continue
        if value is None:
            value = level_value(index, level, None)
        match = _matches(index, level, value)
        if not match.any():
            raise ArgumentError(f"{level}={value!r} does not exist; the {level}s are "
                                f"{_listing(_used_values(index, level))}")
        keep &= match
    positions = np.flatnonzero(keep)
    rows = np.full(n_nodes, -1, dtype=np.int64)
    # assign in reverse so the first matching row of a node wins
    rows[node[positions[::-1]]] = positions[::-1]
    return rows


def require_levels(index: pd.Index, **values: Optional[Any]) -> None:
    """Raise :class:`ArgumentError` for a value other than 0 or None given for a
    level (``rank=``, ``thread=``) that ``index`` does not have.

    Examples
    --------
    >>> require_levels(pd.Index([0, 1], name="node"), rank=0, thread=None)
    >>> require_levels(pd.Index([0, 1], name="node"), thread=2)
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: thread=2 does not exist: the data has no thread level (index levels: node)
    """
    for level, value in values.items():
        if level not in index.names and value not in (None, 0):
            raise ArgumentError(f"{level}={value!r} does not exist: the data has no {level} "
                                f"level (index levels: {', '.join(map(str, index.names))})")


def level_value(index: pd.Index, level: str, value: Optional[Any]) -> Optional[Any]:
    """The value :func:`node_rows` uses for ``level``: ``value``, or for None the
    lowest one the level holds (None when the index has no such level or no rows).

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(0, 3), (0, 1)], names=["node", "rank"])
    >>> level_value(idx, "rank", None), level_value(idx, "rank", 3), level_value(idx, "thread", None)
    (1, 3, None)
    """
    if value is not None or level not in index.names:
        return value
    uniq = _used_values(index, level)
    if not len(uniq):
        return None
    try:
        return sorted(uniq.tolist())[0]
    except TypeError:
        return uniq.tolist()[0]


def _used_values(index: pd.Index, level: str) -> np.ndarray:
    """The distinct values ``level`` holds, in first-level order (by its codes: no
    per-row values are made)."""
    if isinstance(index, pd.MultiIndex):
        i = index.names.index(level)
        codes = np.asarray(index.codes[i])
        counts = np.bincount(codes[codes >= 0], minlength=len(index.levels[i])) \
            if (codes >= 0).any() else np.zeros(len(index.levels[i]), dtype=np.int64)
        return plain_values(index.levels[i])[counts > 0]
    return pd.unique(plain_values(index.get_level_values(level)))


def _matches(index: pd.Index, level: str, value: Any) -> np.ndarray:
    """Per row: does ``level`` hold ``value`` (compared by code for a MultiIndex)."""
    if isinstance(index, pd.MultiIndex):
        i = index.names.index(level)
        try:
            code = index.levels[i].get_loc(value)
        except (KeyError, TypeError):
            return np.zeros(len(index), dtype=bool)
        if not isinstance(code, (int, np.integer)):  # duplicate level values: compare values
            return plain_values(index.get_level_values(level)) == value
        return np.asarray(index.codes[i]) == code
    return plain_values(index.get_level_values(level)) == value


def _listing(values: np.ndarray, limit: int = 20) -> str:
    uniq = pd.unique(values)
    try:
        uniq = sorted(uniq.tolist())
    except TypeError:
        uniq = uniq.tolist()
    shown = ", ".join(str(v) for v in uniq[:limit])
    return shown + (f" ... ({len(uniq)} in all)" if len(uniq) > limit else "")
