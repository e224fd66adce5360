"""``thicket.helpers``: the helpers Thicket's code and tests call, on graphframe's tables.

Examples
--------
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> tk = th.Thicket.from_graphframes([GraphFrame.from_lists(("main", "a"))])
>>> _are_synced(tk.graph, tk.dataframe)
True
>>> _new_statsframe_df(tk.dataframe)["name"].tolist()
['main', 'a']
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, List, Sequence, Set

import numpy as np
import pandas as pd


__all__ = ["_are_synced", "_get_perf_columns", "_new_statsframe_df", "_powerset_from_tuple",
           "_resolve_missing_indicies"]


def _are_synced(graph: Any, df: pd.DataFrame) -> bool:
    """Whether every node of ``graph`` has a row in ``df`` (Thicket compares object
    identities; graphframe's nodes are their ids)."""
    have = np.unique(df.index.get_level_values("node").to_numpy(dtype=np.int64))
    return bool(np.isin(np.arange(graph.num_nodes, dtype=np.int64), have).all())


def _new_statsframe_df(df: pd.DataFrame, multiindex: bool = False) -> pd.DataFrame:
    """An empty statsframe for ``df``'s nodes: indexed by ``node``, holding ``name``
    (``("name", "")`` with ``multiindex``)."""
    nodes = df.index.get_level_values("node")
    first = {int(n): n for n in nodes.unique()}
    ids = sorted(first)
    out = pd.DataFrame({"name": [first[i].frame.get("name") for i in ids]},
                       index=pd.Index(ids, name="node", dtype="int64"))  # ids: node values
                                                                        # once in a frame
    if multiindex:
        out.columns = pd.MultiIndex.from_tuples([("name", "")])
    return out


def _get_perf_columns(df: pd.DataFrame) -> List[Any]:
    """The numeric columns of ``df`` except ``nid``, as Thicket's statistics take them."""
    numeric = df.select_dtypes(include=["int32", "int64", "float32", "float64"]).columns
    if df.columns.nlevels == 1:
        return [c for c in numeric if c != "nid"]
    return [c for c in numeric if "nid" not in c]


def _resolve_missing_indicies(th_list: Sequence[Any]) -> None:
    """Give every Thicket the index levels any of them has (value 0), in place."""
    levels: List[Any] = []
    for tk in th_list:
        levels += [n for n in tk.dataframe.index.names if n not in levels]
    for tk in th_list:
        for level in levels:
            if level not in tk.dataframe.index.names:
                print(f"Resolving '{level}' in thicket: ({id(tk)})")
                tk.dataframe = tk.dataframe.assign(**{level: 0}).set_index(level, append=True)


def _powerset_from_tuple(tup: Sequence[Any]) -> Set[Any]:
    """Every non-empty sub-tuple of ``tup`` (a 1-tuple as its element), and the empty tuple.

    Examples
    --------
    >>> sorted(_powerset_from_tuple((1, 2)), key=repr)
    [(), (1, 2), 1, 2]
    """
    out: Set[Any] = {()}
    for k in range(1, len(tup) + 1):
        for combo in combinations(tup, k):
            out.add(combo[0] if k == 1 else combo)
    return out
