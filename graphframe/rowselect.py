"""Selecting one dataframe row per node (for a given rank and thread)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .build import level_ids
from .errors import ArgumentError


def node_rows(dataframe: pd.DataFrame, n_nodes: int, rank: int = 0, thread: int = 0) -> np.ndarray:
    """Row position of each node's row at ``rank``/``thread``; -1 where there is none.

    Index levels other than ``node``, ``rank`` and ``thread`` are not
    filtered; the first matching row wins. A ``rank`` (or ``thread``) that
    the index level does not hold raises :class:`ArgumentError` naming the
    values it holds; so does a non-zero one when the index has no such level
    (0, the default, means "the only one").

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(0, 0), (0, 1), (1, 1)], names=["node", "rank"])
    >>> df = pd.DataFrame({"t": [1, 2, 3]}, index=idx)
    >>> node_rows(df, 3, rank=1).tolist()
    [1, 2, -1]
    >>> node_rows(df, 3, rank=7)
    Traceback (most recent call last):
    ...
    graphframe.errors.ArgumentError: rank=7 does not exist; the ranks are 0, 1
    """
    index = dataframe.index
    node = level_ids(index)
    keep = np.ones(len(node), dtype=bool)
    for level, value in (("rank", rank), ("thread", thread)):
        if level in index.names:
            values = np.asarray(index.get_level_values(level))
            match = values == value
            if len(values) and not match.any():
                raise ArgumentError(f"{level}={value!r} does not exist; the {level}s are "
                                    f"{_listing(values)}")
            keep &= match
        elif value != 0:
            raise ArgumentError(f"{level}={value!r} does not exist: the data has no {level} "
                                f"level (index levels: {', '.join(map(str, index.names))})")
    positions = np.flatnonzero(keep)
    rows = np.full(n_nodes, -1, dtype=np.int64)
    # assign in reverse so the first matching row of a node wins
    rows[node[positions[::-1]]] = positions[::-1]
    return rows


def _listing(values: np.ndarray, limit: int = 20) -> str:
    uniq = pd.unique(values)
    try:
        uniq = sorted(uniq.tolist())
    except TypeError:
        uniq = uniq.tolist()
    shown = ", ".join(str(v) for v in uniq[:limit])
    return shown + (f" ... ({len(uniq)} in all)" if len(uniq) > limit else "")
