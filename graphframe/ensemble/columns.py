"""Concatenating one column over many profiles, and building integer MultiIndexes.

Numbers stay numpy arrays (a profile without the column contributes NaN, so
integers become floats only when some profile lacks them); text and other
objects hold one Python object per distinct value over all profiles (shared by
the rows that hold it, ``None`` where missing): text as a text column, as
every text column of a GraphFrame (:mod:`graphframe.model.text`), other
objects as an object array.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np
import pandas as pd

from ._internal import TextArray
from .tables import Coded

INT = np.int64


def concat_column(pieces: Sequence[Any], rows: Sequence[int],
                  order: Optional[np.ndarray] = None) -> Any:
    """One column from per-profile pieces (array, :class:`Coded` or None), rows in ``order``.

    Examples
    --------
    >>> concat_column([np.array([1, 2]), None], [2, 1]).tolist()
    [1.0, 2.0, nan]
    >>> concat_column([Coded(np.array([0, 0]), np.array(["a"], dtype=object)),
    ...                Coded(np.array([0]), np.array(["b"], dtype=object))], [2, 1]).tolist()
    ['a', 'a', 'b']
    >>> concat_column([Coded(np.array([0]), np.array(["a"], dtype=object)), None], [1, 1]).tolist()
    ['a', None]
    """
    if any(isinstance(p, Coded) for p in pieces) or \
            any(p is not None and np.asarray(p).dtype == object for p in pieces):
        return _shared_objects([_as_coded(p) for p in pieces], rows, order)
    present = [p for p in pieces if p is not None]
    if len(present) == len(pieces):
        dtype = np.result_type(*[p.dtype for p in present]) if present else np.float64
        out = np.concatenate([np.asarray(p, dtype=dtype) for p in present]) if present \
            else np.zeros(0, dtype=np.float64)
    else:
        out = np.concatenate([np.asarray(p, dtype=np.float64) if p is not None
                              else np.full(r, np.nan) for p, r in zip(pieces, rows)])
    return out if order is None else out[order]


def _as_coded(piece: Any) -> Optional[Coded]:
    if piece is None or isinstance(piece, Coded):
        return piece
    codes, uniques = pd.factorize(pd.Series(piece), use_na_sentinel=True)
    values = np.empty(len(uniques), dtype=object)
    values[:] = list(uniques)
    return Coded(codes.astype(np.int32), values)


def _shared_objects(pieces: List[Optional[Coded]], rows: Sequence[int],
                    order: Optional[np.ndarray]) -> np.ndarray:
    present = [p for p in pieces if p is not None]
    all_uniques = np.concatenate([p.uniques for p in present]) if present \
        else np.zeros(0, dtype=object)
    glob_codes, glob_uniques = pd.factorize(pd.Series(all_uniques, dtype=object),
                                            use_na_sentinel=True)
    out = []
    start = 0
    for p, r in zip(pieces, rows):
        if p is None:
            out.append(np.full(r, -1, dtype=np.int32))
            continue
        table = np.append(glob_codes[start:start + len(p.uniques)], -1).astype(np.int32)
        out.append(table[p.codes])
        start += len(p.uniques)
    codes = np.concatenate(out) if out else np.zeros(0, dtype=np.int32)
    if order is not None:
        codes = codes[order]
    distinct = np.empty(len(glob_uniques), dtype=object)
    distinct[:] = list(glob_uniques)
    if pd.api.types.infer_dtype(distinct, skipna=True) in ("string", "empty"):
        return TextArray.from_codes(codes, distinct, missing=None, distinct_known=True)
    table = np.append(distinct, None)  # the last entry: code -1, missing
    return table[codes]


def index_from_arrays(arrays: Sequence[np.ndarray], names: Sequence[str]) -> pd.MultiIndex:
    """A MultiIndex from integer arrays, built from level values and codes directly.

    Examples
    --------
    >>> index_from_arrays([np.array([0, 0, 2]), np.array([1, 0, 1])], ["node", "profile"]).tolist()
    [(0, 1), (0, 0), (2, 1)]
    """
    levels, codes = [], []
    for arr in arrays:
        arr = np.asarray(arr)
        if arr.dtype.kind not in "iu":
            arr = arr.astype(INT)
        if not len(arr):
            levels.append(np.zeros(0, dtype=INT))
            codes.append(np.zeros(0, dtype=np.int32))
            continue
        lo, hi = int(arr.min()), int(arr.max())
        if hi - lo <= 4 * len(arr) + 1024:
            present = np.zeros(hi - lo + 1, dtype=bool)
            shifted = arr - arr.dtype.type(lo) if lo else arr
            present[shifted] = True
            table = (np.cumsum(present) - 1).astype(np.int32)
            levels.append(np.flatnonzero(present).astype(INT) + lo)
            codes.append(table[shifted])
            del shifted
        else:
            uniq, inverse = np.unique(arr, return_inverse=True)
            levels.append(uniq)
            codes.append(inverse.reshape(-1))
    return pd.MultiIndex(levels=levels, codes=codes, names=list(names), verify_integrity=False)
