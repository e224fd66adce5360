"""filter: keep dataframe rows by a mask, a per-row callable or a query.

Forms of ``filter_obj``:

* a boolean mask aligned with the dataframe's rows (a boolean Series with the
  same index, or an array of ``len(dataframe)``) - the fast, vectorised form:
  ``gf.filter(gf.dataframe["time"] > 5.0)``;
* a callable on a row (Hatchet's form), called once per row: the row reads
  like the Series Hatchet passes (index levels then columns, Python scalars,
  ``row.name`` the row's position), with ``row["node"]`` a :class:`Node`, so
  ``row["node"].frame["name"]`` works. A light row object answers item and
  attribute access; anything else is answered by a real Series built on
  demand (:mod:`graphframe.query.rows`, the same rows query callables get). An exception from the callable is
  re-raised as :class:`InvalidFilter` naming the row;
* a query (object or string dialect, or a query object): every row of the
  nodes on a matching path is kept (see ``graphframe.query``).

Rows keep their order; nothing runs in other processes and the recursion
limit is never touched (``num_procs`` and ``rec_limit`` are accepted for
Hatchet compatibility and ignored).
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

import numpy as np
import pandas as pd

from ..model.dataframe import level_ids
from ..errors import EmptyFilter, InvalidFilter
from ..model.node import Node
from ..query.rows import Row, RowTable
from ..query import matched_nodes
from ..model.fields import GF, GraphFrameLike, replace
from .squash import squash as squash_graphframe


def filter_rows(gf: GF, filter_obj: Any, squash: bool = True, update_inc_cols: bool = True,
                num_procs: Any = None, rec_limit: Any = None,
                multi_index_mode: str = "off") -> GF:
    """New GraphFrame with the rows ``filter_obj`` selects (squashed by default)."""
    mask = row_mask(gf, filter_obj, multi_index_mode)
    if not mask.any():
        raise EmptyFilter("the filter removed every row")
    # a new frame (not a slice of the input's: no SettingWithCopyWarning on
    # pandas 2 when the user assigns into it)
    out = replace(gf, dataframe=gf.dataframe[mask].copy(deep=False))
    if squash:
        return squash_graphframe(out, update_inc_cols)
    return out


def row_mask(gf: GraphFrameLike, filter_obj: Any, multi_index_mode: str = "off") -> np.ndarray:
    """Boolean array over the dataframe's rows for any accepted filter form."""
    df = gf.dataframe
    if isinstance(filter_obj, (pd.Series, np.ndarray, list)) and _is_bool_mask(filter_obj):
        return _mask_from_sequence(df, filter_obj)
    if _is_query(filter_obj):
        return _query_mask(gf, filter_obj, multi_index_mode)
    if callable(filter_obj):
        return _callable_mask(gf, filter_obj)
    raise InvalidFilter(
        f"cannot filter with a {type(filter_obj).__name__}: use a boolean mask over the rows, "
        "a callable on a row, or a query")


def _is_bool_mask(obj: Any) -> bool:
    if isinstance(obj, list):
        return bool(obj) and all(isinstance(x, (bool, np.bool_)) for x in obj)
    dtype = obj.dtype
    return dtype == bool or str(dtype) == "boolean"


def _mask_from_sequence(df: pd.DataFrame, obj: Any) -> np.ndarray:
    if isinstance(obj, pd.Series):
        if not obj.index.equals(df.index):
            if len(obj) != len(df) or not obj.index.isin(df.index).all():
                raise InvalidFilter("the boolean Series is not aligned with the dataframe's rows")
            obj = obj.reindex(df.index)
        return obj.fillna(False).to_numpy(dtype=bool)
    arr = np.asarray(obj, dtype=bool)
    if arr.shape != (len(df),):
        raise InvalidFilter(f"the mask has shape {arr.shape}; the dataframe has {len(df)} rows")
    return arr


def _callable_mask(gf: GraphFrameLike, func: Any) -> np.ndarray:
    """``func`` called once per row, as Hatchet does (see :mod:`graphframe.query.rows`)."""
    df = gf.dataframe
    table = RowTable(_flat_rows(df, gf.graph), range(len(df)), python_scalars=True)
    answers: list = []
    try:  # map, not a Python loop: one C-level call per row
        answers.extend(map(func, map(Row, repeat(table), range(len(df)))))
    except Exception as exc:  # noqa: BLE001 - the user's callable: say which row
        # extend kept the answers of the rows before the failing one
        raise _row_failure(df, len(answers), exc) from exc
    keep = _as_booleans(answers)
    if keep is not None:
        return keep
    keep = np.zeros(len(answers), dtype=bool)
    for i, answer in enumerate(answers):
        try:
            keep[i] = _truth(answer)
        except Exception as exc:  # noqa: BLE001 - e.g. a Series has no single truth
            raise _row_failure(df, i, exc) from exc
    return keep


def _flat_rows(df: pd.DataFrame, graph: Any) -> pd.DataFrame:
    """Hatchet's rows: ``df.reset_index()`` with Nodes in "node" (one object per node);
    the columns are shared with ``df`` (they are only read)."""
    node_of_row = level_ids(df.index)
    used = np.flatnonzero(np.bincount(node_of_row, minlength=graph.num_nodes))
    views = np.empty(graph.num_nodes, dtype=object)
    views[used] = Node.many(used.tolist(), graph)
    if None in df.index.names:  # pandas names the unnamed levels
        flat = df.reset_index()
        flat["node"] = views[node_of_row]
        return flat
    flat = df.copy(deep=False)
    flat.index = pd.RangeIndex(len(df))
    for k, level in enumerate(df.index.names):
        flat.insert(k, level, views[node_of_row] if level == "node" else
                    df.index.get_level_values(k))
    return flat


def _row_failure(df: pd.DataFrame, i: int, exc: Exception) -> InvalidFilter:
    """The error naming row ``i``, on which the filter callable (or its answer) failed."""
    key = df.index[i] if df.index.nlevels > 1 else (df.index[i],)
    where = ", ".join(f"{lv}={int(v) if isinstance(v, Node) else v}"
                      for lv, v in zip(df.index.names, key))
    return InvalidFilter(
        f"the filter callable failed on row {i} ({where}): {type(exc).__name__}: {exc}. "
        "It is called once per row with the row's values (row[\"time\"] is a number); "
        "for a whole-column condition pass a boolean mask instead, e.g. "
        "gf.filter(gf.dataframe[\"time\"] > 5)")


def _as_booleans(answers: list) -> Any:
    """The answers as one boolean array when each equals True or False (the usual
    answers; their truth is then what :func:`_truth` gives), else None."""
    try:  # Python's True and False (and 0, 1) are one byte each; other answers fail
        flags = bytes(answers)
    except (TypeError, ValueError):
        flags = None
    if flags is not None and not flags.translate(None, b"\x00\x01"):
        return np.frombuffer(flags, dtype=bool).copy()
    try:
        if answers.count(True) + answers.count(False) != len(answers):
            return None
        keep = np.array(answers, dtype=bool)
    except (TypeError, ValueError):  # e.g. a Series answer: no single truth value
        return None
    return keep if keep.shape == (len(answers),) else None


def _truth(result: Any) -> bool:
    """Truth of a callable's answer; a missing value (None, NaN, NA) is False."""
    if result is None or result is pd.NA:
        return False
    if isinstance(result, float) and result != result:
        return False
    return bool(result)


def _is_query(obj: Any) -> bool:
    return isinstance(obj, (str, list, tuple)) or hasattr(obj, "apply") and not callable(obj)


def _query_mask(gf: GraphFrameLike, query: Any, multi_index_mode: str) -> np.ndarray:
    nodes = matched_nodes(gf, query, multi_index_mode=multi_index_mode)
    keep = np.zeros(gf.graph.num_nodes, dtype=bool)
    keep[np.asarray(nodes, dtype=np.int64)] = True
    node_of_row = level_ids(gf.dataframe.index)
    return keep[node_of_row]
