"""GraphFrame.unify: both GraphFrames re-keyed onto the union of their graphs.

The graph side is :meth:`Graph.union` (nodes matched by call path); the
dataframes are re-keyed with the ``old id -> new id`` arrays it returns.
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
import pandas as pd

from ..build import level_ids
from ..errors import GraphMismatchError
from ..graph import Graph
from .rows import remap_rows, stack_disjoint

INT = np.int64


def union_graphs(a: Graph, b: Graph) -> Tuple[Graph, np.ndarray, np.ndarray]:
    """``(union, new_id_of_a, new_id_of_b)``; see :meth:`Graph.union`."""
    return a.union(b, return_mappings=True)


def unify(left: Any, right: Any) -> Tuple[Any, Any]:
    """Both GraphFrames re-keyed onto their union graph (new objects).

    As in Hatchet, the left result also gets one row per right row whose
    node has no row on the left (metrics NaN, other columns copied) and a
    ``_missing_node`` column (0 both, 1 left only, 2 right only) when the
    two node sets differ. Neither input changes.
    """
    if list(left.dataframe.index.names) != list(right.dataframe.index.names):
        raise GraphMismatchError(
            f"cannot unify GraphFrames indexed by {list(left.dataframe.index.names)} and "
            f"{list(right.dataframe.index.names)}; drop or add index levels first")
    if left.graph is right.graph:
        return left._replace(), right._replace()
    graph, map_l, map_r = union_graphs(left.graph, right.graph)
    df_l = remap_rows(left.dataframe, map_l, left.exc_metrics + left.inc_metrics)
    df_r = remap_rows(right.dataframe, map_r, right.exc_metrics + right.inc_metrics)
    side = node_sides(df_l, df_r, graph.num_nodes)
    present = side[side > 0]
    if (present != 3).any():
        df_l = _append_right_only(df_l, df_r, side, left.exc_metrics + left.inc_metrics)
    return (left._replace(graph=graph, dataframe=df_l),
            right._replace(graph=graph, dataframe=df_r))


def node_sides(df_l: pd.DataFrame, df_r: pd.DataFrame, n: int) -> np.ndarray:
    """Per node: 1 rows on the left only, 2 right only, 3 both, 0 neither."""
    side = np.zeros(n, dtype=np.int8)
    side[level_ids(df_l.index)] |= 1
    side[level_ids(df_r.index)] |= 2
    return side


MISSING_CODE = np.array([0, 1, 2, 0], dtype=np.int64)  # side bits -> _missing_node


def _append_right_only(df_l, df_r, side, metrics) -> pd.DataFrame:
    """Left rows plus the right rows of right-only nodes, sorted, with ``_missing_node``."""
    node_l = level_ids(df_l.index)
    node_r = level_ids(df_r.index)
    extra = df_r[side[node_r] == 2]
    left = df_l.assign(_missing_node=MISSING_CODE[side[node_l]])
    carried = [c for c in df_l.columns if c not in metrics and c in extra.columns]
    right = extra[carried].assign(_missing_node=np.full(len(extra), 2, dtype=INT))
    return stack_disjoint([left, right], list(left.columns))
