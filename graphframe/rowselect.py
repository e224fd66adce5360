"""Selecting one dataframe row per node (for a given rank and thread)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .build import level_ids


def node_rows(dataframe: pd.DataFrame, n_nodes: int, rank: int = 0, thread: int = 0) -> np.ndarray:
    """Row position of each node's row at ``rank``/``thread``; -1 where there is none.

    Index levels other than ``node``, ``rank`` and ``thread`` are not
    filtered; the first matching row wins.

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(0, 0), (0, 1), (1, 1)], names=["node", "rank"])
    >>> node_rows(pd.DataFrame({"t": [1, 2, 3]}, index=idx), 3, rank=1).tolist()
    [1, 2, -1]
    """
    index = dataframe.index
    node = level_ids(index)
    keep = np.ones(len(node), dtype=bool)
    if "rank" in index.names:
        keep &= np.asarray(index.get_level_values("rank")) == rank
    if "thread" in index.names:
        keep &= np.asarray(index.get_level_values("thread")) == thread
    positions = np.flatnonzero(keep)
    rows = np.full(n_nodes, -1, dtype=np.int64)
    # assign in reverse so the first matching row of a node wins
    rows[node[positions[::-1]]] = positions[::-1]
    return rows
