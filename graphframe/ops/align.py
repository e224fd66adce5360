"""Aligning the rows of two dataframes on a union graph, without re-sorting either.

Unify and arithmetic need both operands' rows keyed by their *new* node ids
(the union graph's) and merged into one sorted row set. Re-keying each frame
first (a full sorted copy of every column, strings included) and combining
afterwards copies every column twice; here each row gets an integer key
``new node * S + code of the other index levels`` in its frame's own order,
the sorted union of the keys is the output's row order, and each column is
written once, straight from the original frame into its output positions
(a scatter). Only when a frame has two rows with the same new key (two of
its nodes have the same call path, so their rows must be merged) do callers
fall back to :func:`graphframe.ops.rows.remap_rows`.

Examples
--------
>>> import numpy as np, pandas as pd
>>> a = pd.DataFrame({"t": [1.0, 2.0]}, index=pd.Index([0, 1], name="node"))
>>> b = pd.DataFrame({"t": [5.0]}, index=pd.Index([0], name="node"))
>>> al = align_frames(a, np.array([2, 0]), b, np.array([1]))
>>> al.all_keys.tolist(), al.pos_l.tolist(), al.pos_r.tolist()
([0, 1, 2], [2, 0], [1])
>>> metric_values(a, "t", al.pos_l, al.n_rows).tolist()
[2.0, nan, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Tuple, Union

import numpy as np
import pandas as pd

from ..model.dataframe import level_ids

INT = np.int64

Positions = Union[np.ndarray, slice]


@dataclass
class Alignment:
    """Where each row of two frames goes in their merged, sorted row set.

    ``pos_l[i]`` is the output row of the left frame's row ``i`` (in the
    frame's own order); ``slice(None)`` when both frames already have exactly
    the output's rows in the output's order. ``node`` is the new node id of
    each output row and ``index`` the output's index.
    """

    all_keys: np.ndarray
    pos_l: Positions
    pos_r: Positions
    decode: Callable[[np.ndarray], pd.Index]

    @property
    def n_rows(self) -> int:
        return len(self.all_keys)

    def presence(self) -> Tuple[np.ndarray, np.ndarray]:
        """Per output row: does the left / the right frame have it."""
        in_l = np.zeros(self.n_rows, dtype=bool)
        in_l[self.pos_l] = True
        in_r = np.zeros(self.n_rows, dtype=bool)
        in_r[self.pos_r] = True
        return in_l, in_r

    def index(self) -> pd.Index:
        return self.decode(self.all_keys)


def align_frames(df_l: pd.DataFrame, map_l: Optional[np.ndarray], df_r: pd.DataFrame,
                 map_r: Optional[np.ndarray]) -> Optional[Alignment]:
    """The :class:`Alignment` of two frames whose node ids map through ``map_l``/``map_r``
    (None: ids unchanged); None when a frame has two rows with the same new key."""
    keys_l, keys_r, decode = row_keys(df_l, df_r, map_l, map_r)
    if (len(keys_l) == len(keys_r) and _strictly_increasing(keys_l)
            and np.array_equal(keys_l, keys_r)):
        return Alignment(keys_l, slice(None), slice(None), decode)
    all_keys, pos_l, pos_r = _union_positions(keys_l, keys_r)
    if not (_distinct(pos_l, len(all_keys)) and _distinct(pos_r, len(all_keys))):
        return None
    return Alignment(all_keys, pos_l, pos_r, decode)


def row_keys(df_l: pd.DataFrame, df_r: pd.DataFrame, map_l: Optional[np.ndarray] = None,
             map_r: Optional[np.ndarray] = None):
    """Integer row keys for both frames (their own row order) and a decoder to an index.

    A key is ``new node * S + combined code of the other levels``; codes come
    from the two indexes' own level codes, mapped onto the joint level values.
    """
    names = list(df_l.index.names)
    key_l, key_r = level_ids(df_l.index), level_ids(df_r.index)
    if map_l is not None:
        key_l = map_l[key_l]
    if map_r is not None:
        key_r = map_r[key_r]
    level_values = []
    for name in names[1:]:
        uniques, code_l, code_r = _joint_level_codes(df_l.index, df_r.index, name)
        size = max(len(uniques), 1)
        key_l = key_l * size + code_l
        key_r = key_r * size + code_r
        level_values.append((uniques, size))

    def decode(keys: np.ndarray) -> pd.Index:
        """The index of sorted, distinct ``keys``."""
        if not level_values:
            return pd.Index(keys, name=names[0])
        codes = []
        rest = keys
        for uniques, size in reversed(level_values):
            codes.append(rest % size)
            rest = rest // size
        node = rest  # sorted, since keys are sorted
        new = np.empty(len(node), dtype=bool)
        new[:1] = True
        np.not_equal(node[1:], node[:-1], out=new[1:])
        codes.append(np.cumsum(new) - 1)
        codes.reverse()
        levels = [node[new]] + [u for u, _ in level_values]
        return pd.MultiIndex(levels=levels, codes=codes, names=names, verify_integrity=False)

    return key_l, key_r, decode


def _joint_level_codes(index_l: pd.Index, index_r: pd.Index, name: str):
    """Joint sorted level values and each side's codes into them."""
    i_l, i_r = index_l.names.index(name), index_r.names.index(name)
    lv_l, lv_r = np.asarray(index_l.levels[i_l]), np.asarray(index_r.levels[i_r])
    uniques = np.unique(np.concatenate([lv_l, lv_r]))
    map_l = np.searchsorted(uniques, lv_l)
    map_r = np.searchsorted(uniques, lv_r)
    return (uniques, map_l[np.asarray(index_l.codes[i_l])].astype(INT),
            map_r[np.asarray(index_r.codes[i_r])].astype(INT))


def _union_positions(keys_l: np.ndarray, keys_r: np.ndarray):
    """Sorted union of two key sets and each key's position in it."""
    total = len(keys_l) + len(keys_r)
    span = int(max(keys_l.max(initial=-1), keys_r.max(initial=-1))) + 1
    if span <= 4 * total + 1024:
        present = np.zeros(span, dtype=bool)
        present[keys_l] = True
        present[keys_r] = True
        rank = np.cumsum(present) - 1
        return np.flatnonzero(present), rank[keys_l], rank[keys_r]
    all_keys = np.union1d(keys_l, keys_r)
    return all_keys, np.searchsorted(all_keys, keys_l), np.searchsorted(all_keys, keys_r)


def _strictly_increasing(keys: np.ndarray) -> bool:
    return len(keys) < 2 or bool(np.all(keys[1:] > keys[:-1]))


def _distinct(pos: np.ndarray, n: int) -> bool:
    seen = np.zeros(n, dtype=bool)
    seen[pos] = True
    return int(np.count_nonzero(seen)) == len(pos)


def metric_values(df: pd.DataFrame, col: Any, pos: Positions, n_rows: int) -> np.ndarray:
    """Column ``col`` of ``df`` as float64 at its output rows (NaN where ``df`` has none).

    With ``pos`` a slice the result may be a view of ``df``'s data: combine it,
    never store it as is.
    """
    values = df[col].to_numpy(dtype=np.float64, na_value=np.nan)
    if isinstance(pos, slice):
        return values
    out = np.full(n_rows, np.nan)
    out[pos] = values
    return out


def attribute_values(df_l: pd.DataFrame, df_r: pd.DataFrame, col: Any, pos_l: Positions,
                     pos_r: Positions, n_rows: int) -> Any:
    """An attribute column: the left value where the left has the row, else the right's
    (missing where neither frame has the column). Always a new array: the result
    never shares memory with either frame."""
    if isinstance(pos_l, slice) and col in df_l.columns:
        series = df_l[col]
        if isinstance(series.dtype, np.dtype):
            return series.to_numpy(copy=True)
        return series.array.copy()
    if col in df_l.columns and col in df_r.columns:
        left, right = df_l[col], df_r[col]
        if isinstance(left.dtype, np.dtype) and left.dtype == right.dtype:
            scattered = _scatter(left.to_numpy(), right.to_numpy(), pos_l, pos_r, n_rows)
            if scattered is not None:
                return scattered
    # each output row's position in left + right (the left's rows written last win);
    # -1 where neither frame has the column's row
    n_l, n_r = len(df_l), len(df_r)
    source = np.full(n_rows, -1, dtype=INT)
    if col in df_r.columns:
        source[pos_r] = np.arange(n_l, n_l + n_r, dtype=INT)
    if col in df_l.columns:
        source[pos_l] = np.arange(n_l, dtype=INT)
    left = df_l[col] if col in df_l.columns else pd.Series(np.full(n_l, np.nan))
    right = df_r[col] if col in df_r.columns else pd.Series(np.full(n_r, np.nan))
    if isinstance(left.dtype, np.dtype) and isinstance(right.dtype, np.dtype):
        as_object = "O" in (left.dtype.kind, right.dtype.kind)
        both = np.concatenate([left.to_numpy(dtype=object if as_object else None),
                               right.to_numpy(dtype=object if as_object else None)])
        if (source < 0).any():
            if both.dtype.kind in "Ob":
                both = np.append(both.astype(object), None)
            else:
                both = np.append(both.astype(np.float64), np.nan)
        return both[source]  # -1 picks the appended missing value
    if left.dtype == right.dtype:  # what concat does for one extension dtype, without Series
        both = type(left.array)._concat_same_type([left.array, right.array])
    else:
        both = pd.concat([left.reset_index(drop=True), right.reset_index(drop=True)],
                         ignore_index=True).array
    if (source < 0).any():
        return both.take(source, allow_fill=True)
    return both.take(source)  # every row has a value: a plain take (no fill to make)


def _scatter(left: np.ndarray, right: np.ndarray, pos_l: np.ndarray, pos_r: np.ndarray,
             n_rows: int) -> Optional[np.ndarray]:
    """:func:`attribute_values` of two arrays of one dtype, each row written once into
    the output (no concatenation of both sides); None when rows that neither side has
    would change the dtype (the general path converts them)."""
    covered = np.zeros(n_rows, dtype=bool)
    covered[pos_l] = True
    only_r = np.flatnonzero(~covered[pos_r])  # right rows the left does not have
    missing = n_rows - len(pos_l) - len(only_r)
    if missing and left.dtype != object and left.dtype != np.float64:
        return None
    out = np.empty(n_rows, dtype=left.dtype)
    out[pos_l] = left
    out[pos_r[only_r]] = right[only_r]
    if missing:
        covered[pos_r[only_r]] = True
        out[~covered] = None if left.dtype == object else np.nan
    return out


def new_node_ids(df: pd.DataFrame, new_of_old: Optional[np.ndarray]) -> np.ndarray:
    """The new node id of each row of ``df`` (its own order)."""
    node = level_ids(df.index)
    return node if new_of_old is None else new_of_old[node]


def columns_of(*frames: pd.DataFrame) -> List[Any]:
    """Columns of the frames in order of first appearance."""
    out: List[Any] = []
    seen = set()
    for df in frames:
        for col in df.columns:
            if col not in seen:
                seen.add(col)
                out.append(col)
    return out
