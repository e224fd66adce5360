"""Aligning the rows of two dataframes on a union graph, without re-sorting either.

Unify and arithmetic need both operands' rows keyed by their *new* node ids
(the union graph's) and merged into one sorted row set. Re-keying each frame
first (a full sorted copy of every column, strings included) and combining
afterwards copies every column twice; here each row gets an integer key
``new node * S + code of the other index levels`` in its frame's own order,
the sorted union of the keys is the output's row order, and each column is
written once, straight from the original frame into its output positions
(a scatter). Two frames that are full grids (every node on every rank) skip
the keys: :mod:`graphframe.ops.grid` places their rows node block by node
block. Only when a frame has two rows with the same new key (two of its
nodes have the same call path, so their rows must be merged) do callers
fall back to :func:`graphframe.ops.rows.remap_rows`.

Examples
--------
>>> import numpy as np, pandas as pd
>>> a = pd.DataFrame({"t": [1.0, 2.0]}, index=pd.Index([0, 1], name="node"))
>>> b = pd.DataFrame({"t": [5.0]}, index=pd.Index([0], name="node"))
>>> al = align_frames(a, np.array([2, 0]), b, np.array([1]))
>>> al.index().tolist(), al.pos_l.tolist(), al.pos_r.tolist()
([0, 1, 2], [2, 0], [1])
>>> metric_values(a, "t", al.pos_l, al.n_rows).tolist()
[2.0, nan, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Tuple, Union

import numpy as np
import pandas as pd

from ..model.dataframe import code_dtype, level_ids
from ..model.textarray import TextArray, TextDtype
from .grid import grid_alignment

INT = np.int64

Positions = Union[np.ndarray, slice]


@dataclass
class Alignment:
    """Where each row of two frames goes in their merged, sorted row set.

    ``pos_l[i]`` is the output row of the left frame's row ``i`` (in the
    frame's own order); ``slice(None)`` when both frames already have exactly
    the output's rows in the output's order. :meth:`index` makes the
    output's index.
    """

    n_rows: int
    pos_l: Positions
    pos_r: Positions
    make_index: Callable[[], pd.Index]

    def presence(self) -> Tuple[np.ndarray, np.ndarray]:
        """Per output row: does the left / the right frame have it."""
        in_l = np.zeros(self.n_rows, dtype=bool)
        in_l[self.pos_l] = True
        in_r = np.zeros(self.n_rows, dtype=bool)
        in_r[self.pos_r] = True
        return in_l, in_r

    def index(self) -> pd.Index:
        return self.make_index()


def align_frames(df_l: pd.DataFrame, map_l: Optional[np.ndarray], df_r: pd.DataFrame,
                 map_r: Optional[np.ndarray]) -> Optional[Alignment]:
    """The :class:`Alignment` of two frames whose node ids map through ``map_l``/``map_r``
    (None: ids unchanged); None when a frame has two rows with the same new key."""
    grid = grid_alignment(df_l.index, map_l, df_r.index, map_r)
    if grid is not None:  # both frames hold every combination of the other levels per node
        return Alignment(*grid)
    keys_l, keys_r, decode = row_keys(df_l, df_r, map_l, map_r)
    increasing_l = _strictly_increasing(keys_l)
    if len(keys_l) == len(keys_r) and increasing_l and np.array_equal(keys_l, keys_r):
        return Alignment(len(keys_l), slice(None), slice(None), lambda: decode(keys_l))
    all_keys, pos_l, pos_r = _union_positions(keys_l, keys_r)
    # strictly increasing keys are distinct: no need to count their positions
    if not ((increasing_l or _distinct(pos_l, len(all_keys)))
            and (_strictly_increasing(keys_r) or _distinct(pos_r, len(all_keys)))):
        return None
    return Alignment(len(all_keys), pos_l, pos_r, lambda: decode(all_keys))


def row_keys(df_l: pd.DataFrame, df_r: pd.DataFrame, map_l: Optional[np.ndarray] = None,
             map_r: Optional[np.ndarray] = None):
    """Integer row keys for both frames (their own row order) and a decoder to an index.

    A key is ``new node * S + combined code of the other levels``; codes come
    from the two indexes' own level codes, mapped onto the joint level values.
    The node part is worked out per level value and taken once per row.
    """
    names = list(df_l.index.names)
    level_values = []
    codes_l, codes_r = [], []
    for name in names[1:]:
        uniques, code_l, code_r = _joint_level_codes(df_l.index, df_r.index, name)
        level_values.append((uniques, max(len(uniques), 1)))
        codes_l.append(code_l)
        codes_r.append(code_r)
    span = 1
    for _, size in level_values:
        span *= size
    key_l = _node_keys(df_l.index, map_l, span)
    key_r = _node_keys(df_r.index, map_r, span)
    stride = span
    for (_, size), code_l, code_r in zip(level_values, codes_l, codes_r):
        stride //= size  # key = ((node * s1 + c1) * s2 + c2) ... = node * s1 * s2 + c1 * s2 + c2
        # (codes may be int8: multiplied as int64)
        key_l += code_l if stride == 1 else code_l.astype(INT) * stride
        key_r += code_r if stride == 1 else code_r.astype(INT) * stride

    def decode(keys: np.ndarray) -> pd.Index:
        """The index of sorted, distinct ``keys``."""
        if not level_values:
            return pd.Index(keys, name=names[0])
        codes = []
        rest = keys
        for uniques, size in reversed(level_values):
            quotient = rest // size  # (np.divmod is many times slower)
            code = rest - quotient * size
            rest = quotient
            codes.append(code.astype(code_dtype(size), copy=False))
            del code, quotient
        node = rest  # sorted, since keys are sorted
        new = np.empty(len(node), dtype=bool)
        new[:1] = True
        np.not_equal(node[1:], node[:-1], out=new[1:])
        levels = [node[new]] + [u for u, _ in level_values]
        del node, rest
        node_codes = np.cumsum(new, dtype=code_dtype(len(levels[0])))
        node_codes -= 1
        codes.append(node_codes)
        codes.reverse()
        return pd.MultiIndex(levels=levels, codes=codes, names=names, verify_integrity=False)

    return key_l, key_r, decode


def _node_keys(index: pd.Index, new_of_old: Optional[np.ndarray], span: int) -> np.ndarray:
    """``new node id * span`` of every row (a new array when ``span > 1``)."""
    if not isinstance(index, pd.MultiIndex):
        ids = level_ids(index)
        ids = ids if new_of_old is None else new_of_old[ids]
        return ids * span if span > 1 else ids
    i = index.names.index("node")
    values = np.asarray(index.levels[i], dtype=INT)
    if new_of_old is not None:
        values = new_of_old[values]
    return (values * span)[np.asarray(index.codes[i])]


def _joint_level_codes(index_l: pd.Index, index_r: pd.Index, name: str):
    """Joint sorted level values and each side's codes into them."""
    i_l, i_r = index_l.names.index(name), index_r.names.index(name)
    lv_l, lv_r = np.asarray(index_l.levels[i_l]), np.asarray(index_r.levels[i_r])
    own_l, own_r = np.asarray(index_l.codes[i_l]), np.asarray(index_r.codes[i_r])
    if (lv_l.dtype.kind in "iu" and lv_l.dtype == lv_r.dtype and np.array_equal(lv_l, lv_r)
            and _strictly_increasing(lv_l)
            and own_l.min(initial=0) >= 0 and own_r.min(initial=0) >= 0):
        return lv_l.copy(), own_l, own_r  # one sorted level on both sides: codes as they are
    uniques = np.unique(np.concatenate([lv_l, lv_r]))
    map_l = np.searchsorted(uniques, lv_l).astype(INT, copy=False)
    map_r = np.searchsorted(uniques, lv_r).astype(INT, copy=False)
    return uniques, map_l[own_l], map_r[own_r]


def _union_positions(keys_l: np.ndarray, keys_r: np.ndarray):
    """Sorted union of two key sets and each key's position in it."""
    total = len(keys_l) + len(keys_r)
    span = int(max(keys_l.max(initial=-1), keys_r.max(initial=-1))) + 1
    if span <= 4 * total + 1024:
        present = np.zeros(span, dtype=bool)
        present[keys_l] = True
        present[keys_r] = True
        rank = np.cumsum(present)
        rank -= 1
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
    (``pos_l`` and ``pos_r`` together cover every output row, as an
    :class:`Alignment`'s do; missing where the frame with the row lacks the
    column). Always a new array: the result never shares memory with either frame.

    The dtype is what concatenating the two columns gives (a column one frame
    lacks counts as float64 NaN); a missing row makes a numeric result float64
    (NaN) and a boolean or object one object (``None``).
    """
    has_l, has_r = col in df_l.columns, col in df_r.columns
    if isinstance(pos_l, slice) and has_l:
        series = df_l[col]
        if isinstance(series.dtype, np.dtype):
            return series.to_numpy(copy=True)
        return series.array.copy()
    left = df_l[col] if has_l else None
    right = df_r[col] if has_r else None
    dtype_l = left.dtype if has_l else np.dtype(np.float64)
    dtype_r = right.dtype if has_r else np.dtype(np.float64)
    if _scatterable(dtype_l) and _scatterable(dtype_r):
        return _scatter(left, right, pos_l, pos_r, n_rows)
    if isinstance(dtype_l, TextDtype) and isinstance(dtype_r, TextDtype):  # every row covered
        return TextArray.from_parts([(left.array, pos_l), (right.array, pos_r)], n_rows)
    n_l, n_r = len(df_l), len(df_r)
    # one source row per output row: n_l + i is the right's row i, -1 neither
    source = np.full(n_rows, -1, dtype=INT)
    if has_r:
        source[pos_r] = np.arange(n_l, n_l + n_r, dtype=INT)
    if has_l:
        source[pos_l] = np.arange(n_l, dtype=INT)  # after the right's: the left wins
    if left is None:
        left = pd.Series(np.full(n_l, np.nan))
    if right is None:
        right = pd.Series(np.full(n_r, np.nan))
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


def _scatterable(dtype: Any) -> bool:
    return isinstance(dtype, np.dtype) and dtype.kind in "biufcO"


def _scatter(left: Optional[pd.Series], right: Optional[pd.Series], pos_l: Positions,
             pos_r: Positions, n_rows: int) -> np.ndarray:
    """:func:`attribute_values` of numpy columns: each side written once into the output."""
    as_object = any(s is not None and s.dtype.kind == "O" for s in (left, right))
    values = [None if s is None else s.to_numpy(dtype=object if as_object else None)
              for s in (left, right)]
    dtype = np.result_type(*(np.dtype(np.float64) if v is None else v.dtype for v in values))
    missing = np.zeros(0, dtype=INT)
    if values[0] is None or values[1] is None:  # (every output row comes from one side)
        covered = np.zeros(n_rows, dtype=bool)
        for v, pos in zip(values, (pos_l, pos_r)):
            if v is not None:
                covered[pos] = True
        missing = np.flatnonzero(~covered)
        del covered
    if len(missing):
        dtype = np.dtype(object) if dtype.kind in "Ob" else np.dtype(np.float64)
    out = np.empty(n_rows, dtype=dtype)
    if len(missing):
        out[missing] = None if dtype.kind == "O" else np.nan
    if values[1] is not None:
        out[pos_r] = values[1]
    if values[0] is not None:
        out[pos_l] = values[0]  # after the right's: the left wins
    return out


def nodes_with_rows(index: pd.Index, new_of_old: Optional[np.ndarray] = None) -> np.ndarray:
    """The new ids of the nodes that have rows in ``index`` (an id may repeat).

    A MultiIndex gives one id per run of equal node codes, not one per row.

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(3, 0), (3, 1), (5, 0)], names=["node", "rank"])
    >>> nodes_with_rows(idx).tolist(), nodes_with_rows(idx, np.arange(6) * 10).tolist()
    ([3, 5], [30, 50])
    """
    if isinstance(index, pd.MultiIndex):
        i = index.names.index("node")
        codes = np.asarray(index.codes[i])
        runs = codes[np.r_[True, codes[1:] != codes[:-1]]] if len(codes) else codes
        ids = np.asarray(index.levels[i], dtype=INT)[runs]
    else:
        ids = level_ids(index)
    return ids if new_of_old is None else new_of_old[ids]


def per_row(index: pd.Index, per_node: np.ndarray,
            new_of_old: Optional[np.ndarray] = None) -> np.ndarray:
    """``per_node[new id]`` for each row of ``index``: looked up once per node level value,
    then taken by the level's codes.

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(3, 0), (3, 1), (5, 0)], names=["node", "rank"])
    >>> per_row(idx, np.arange(6) * 10).tolist()
    [30, 30, 50]
    """
    if isinstance(index, pd.MultiIndex):
        i = index.names.index("node")
        ids = np.asarray(index.levels[i], dtype=INT)
        codes = np.asarray(index.codes[i])
    else:
        ids, codes = level_ids(index), None
    if new_of_old is not None:
        ids = new_of_old[ids]
    values = per_node[ids]
    return values if codes is None else values[codes]


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
