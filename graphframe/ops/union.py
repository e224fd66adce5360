"""GraphFrame.unify: both GraphFrames re-keyed onto the union of their graphs.

The graph side is :meth:`Graph.union` (nodes matched by call path); the
dataframes are re-keyed with the ``old id -> new id`` arrays it returns.
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
import pandas as pd

from ..model.dataframe import frame_from_columns, level_ids, private_copy
from ..errors import GraphMismatchError, OperationError
from ..model.graph import Graph
from .align import align_frames, attribute_values, metric_values, nodes_with_rows, per_row
from .merge_rules import combined_aggregations, merge_rules
from .rows import remap_rows, stack_disjoint
from ..model.fields import GF, GraphFrameLike, replace

INT = np.int64


def union_graphs(a: Graph, b: Graph) -> Tuple[Graph, np.ndarray, np.ndarray]:
    """``(union, new_id_of_a, new_id_of_b)``; see :meth:`Graph.union`."""
    return a.union(b, return_mappings=True)


def unify(left: GF, right: GF, copy: bool = True) -> Tuple[GF, GF]:
    """Both GraphFrames re-keyed onto their union graph (new objects).

    As in Hatchet, the left result also gets one row per right row whose
    node has no row on the left (metrics NaN, other columns copied) and a
    ``_missing_node`` column (0 both, 1 left only, 2 right only) when the
    two node sets differ. Neither input changes. When both already hold the
    same Graph object the inputs are returned themselves if ``copy`` is
    False (what the in-place ``GraphFrame.unify`` wants: nothing to do),
    else new objects with private copies of their frames.
    """
    check_operand(left, right, "unify")
    if list(left.dataframe.index.names) != list(right.dataframe.index.names):
        raise GraphMismatchError(
            f"cannot unify GraphFrames indexed by {list(left.dataframe.index.names)} and "
            f"{list(right.dataframe.index.names)}; drop or add index levels first")
    if left.graph is right.graph:
        if not copy:
            return left, right
        return (replace(left, dataframe=private_copy(left.dataframe)),
                replace(right, dataframe=private_copy(right.dataframe)))
    graph, map_l, map_r = union_graphs(left.graph, right.graph)
    metrics_l = left.exc_metrics + left.inc_metrics
    rules_l = merge_rules(left)
    df_r = remap_rows(right.dataframe, map_r, merge_rules(right))
    side = np.zeros(graph.num_nodes, dtype=np.int8)
    side[nodes_with_rows(left.dataframe.index, map_l)] |= 1
    side[nodes_with_rows(right.dataframe.index, map_r)] |= 2
    present = side[side > 0]
    extra = (right.dataframe[per_row(right.dataframe.index, side == 2, map_r)]
             if (present == 2).any() else None)
    if not (present != 3).any():
        df_l = remap_rows(left.dataframe, map_l, rules_l)
    elif extra is None:  # left-only nodes, no right-only ones: no rows to add
        df_l = _append_right_only(remap_rows(left.dataframe, map_l, rules_l), df_r, side,
                                  metrics_l)
    else:
        df_l = _with_right_only_rows(left.dataframe, map_l, extra, map_r, side, metrics_l)
        if df_l is None:  # the left has nodes with equal call paths: merge their rows first
            df_l = remap_rows(left.dataframe, map_l, rules_l)
            df_l = _append_right_only(df_l, df_r, side, metrics_l)
    return (replace(left, graph=graph, dataframe=df_l,
                          aggregations=combined_aggregations(left, right)),
            replace(right, graph=graph, dataframe=df_r))


def check_operand(left: GraphFrameLike, right: GraphFrameLike, what: str) -> None:
    """``right`` must be a GraphFrame (of ``left``'s class)."""
    if not isinstance(right, type(left)):
        raise OperationError(f"{what} needs a GraphFrame as the other operand, not "
                             f"{type(right).__name__}")


def _with_right_only_rows(df_l: pd.DataFrame, map_l: np.ndarray, extra: pd.DataFrame,
                          map_r: np.ndarray, side: np.ndarray, metrics) -> Optional[pd.DataFrame]:
    """The left frame re-keyed, plus the ``extra`` rows (right-only nodes), sorted, with
    ``_missing_node``: every column written once, straight from the inputs.

    Metrics are NaN on the extra rows; other columns take the right's value
    there (NaN where the right lacks the column). None when the left frame
    has two rows with the same new key (see :mod:`graphframe.ops.align`).
    """
    al = align_frames(df_l, map_l, extra, map_r)
    if al is None:
        return None
    data = {}
    for col in df_l.columns:
        if col == "_missing_node":
            data[col] = None  # keeps its place; filled below
        elif col in metrics:
            values = metric_values(df_l, col, al.pos_l, al.n_rows)
            data[col] = values.copy() if isinstance(al.pos_l, slice) else values
        else:
            data[col] = attribute_values(df_l, extra, col, al.pos_l, al.pos_r, al.n_rows)
    index = al.index()
    data["_missing_node"] = per_row(index, MISSING_CODE[side])
    return frame_from_columns(data, index)


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
