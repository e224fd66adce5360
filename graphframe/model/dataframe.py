"""Dataframe and index helpers shared by the model, operations and I/O.

Index levels as integer arrays (:func:`level_ids`, :func:`index_arrays`),
indexes built from integer arrays without factorising (:func:`make_index`),
row orders (:func:`sort_rows`), and new frames from column data that never
write into another object's arrays (:func:`frame_from_columns`,
:func:`column_data`, :func:`private_copy`, :func:`with_columns`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from graphframe_readers.profile import NODE
from pandas.core.arrays import IntegerArray  # private: see model/nodeindex.py

from .nodeindex import NodeArray

INT = np.int64


def level_ids(index: pd.Index, name: str = NODE) -> np.ndarray:
    """Values of one index level as an int64 array, fast (level values taken by codes).

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(3, 0), (3, 1), (5, 0)], names=["node", "rank"])
    >>> level_ids(idx).tolist()
    [3, 3, 5]
    """
    if isinstance(index, pd.MultiIndex):
        i = index.names.index(name)
        return np.asarray(index.levels[i], dtype=INT)[np.asarray(index.codes[i])]
    if index.name != name:
        raise KeyError(f"the index has no level {name!r}")
    return np.asarray(index, dtype=INT)


def node_id_range(index: pd.Index, name: str = NODE) -> Tuple[int, int]:
    """Smallest and largest value of one (non-empty) index level, without materialising it.

    For a MultiIndex whose level values are sorted (as every index built
    here is), the extremes are the values at the extreme codes.

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([(3, 0), (3, 1), (5, 0)], names=["node", "rank"])
    >>> node_id_range(idx)
    (3, 5)
    """
    if isinstance(index, pd.MultiIndex):
        i = index.names.index(name)
        values = plain_values(index.levels[i])
        codes = np.asarray(index.codes[i])
        if values.dtype.kind in "iu" and len(values) and bool(np.all(values[1:] > values[:-1])):
            lo, hi = int(codes.min()), int(codes.max())
            if lo >= 0:
                return int(values[lo]), int(values[hi])
    values = level_ids(index, name)
    return int(values.min()), int(values.max())


def plain_values(values: Any) -> np.ndarray:
    """``np.asarray(values)``, except that a node level (Index, Series or array) gives
    its int64 ids: ``np.asarray`` of a node level makes Node objects (what users
    print), which array code must not pay for.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> index = GraphFrame.from_lists(("main", "solve")).dataframe.index
    >>> np.asarray(index).dtype, plain_values(index).tolist()
    (dtype('O'), [0, 1])
    """
    array = getattr(values, "array", values)
    if isinstance(array, NodeArray):
        if not array._mask.any():
            return array._data
        return IntegerArray(array._data, array._mask).to_numpy()
    return np.asarray(values)


def index_arrays(index: pd.Index) -> List[np.ndarray]:
    """Each index level as a plain array (via level codes: no Index objects)."""
    if isinstance(index, pd.MultiIndex):
        out = []
        for level, codes in zip(index.levels, index.codes):
            values = plain_values(level)
            codes = np.asarray(codes)
            taken = values[codes]
            if (codes < 0).any():  # missing labels
                taken = np.where(codes < 0, None, taken.astype(object))
            out.append(taken)
        return out
    return [plain_values(index)]


def take_rows(df: pd.DataFrame, order: Optional[np.ndarray]) -> Dict[Any, Any]:
    """Column data of ``df`` in row ``order`` (None: as is, see :func:`column_data`),
    without the index; pass it to :func:`frame_from_columns`."""
    out: Dict[Any, Any] = {}
    for col in df.columns:
        series = df[col]
        if order is None:
            out[col] = column_data(series)
        elif isinstance(series.dtype, np.dtype):
            out[col] = series.to_numpy()[order]
        else:
            out[col] = series.array.take(order)
    return out


COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3


def private_copy(df: pd.DataFrame) -> pd.DataFrame:
    """A copy that changes to it can never reach ``df``.

    With copy-on-write (pandas 3) that is a shallow copy: data is copied only
    when one side is modified. On pandas 2 it is a deep copy.
    """
    return df.copy(deep=not COPY_ON_WRITE)


def with_columns(df: pd.DataFrame, changes: Dict[int, Any]) -> pd.DataFrame:
    """``df`` with the columns at the given positions replaced (a shallow copy), or
    ``df`` itself when there is nothing to replace; ``df`` is never written into.

    Examples
    --------
    >>> df = pd.DataFrame({"a": [1, 2], "b": [3, 4]})
    >>> out = with_columns(df, {1: np.array([5.0, 6.0])})
    >>> out["b"].tolist(), df["b"].tolist(), with_columns(df, {}) is df
    ([5.0, 6.0], [3, 4], True)
    """
    if not changes:
        return df
    out = df.copy(deep=False)
    for position, values in changes.items():
        out.isetitem(position, values)
    return out


def frame_from_columns(columns: Dict[Any, Any], index: pd.Index) -> pd.DataFrame:
    """A DataFrame from column arrays (or Series from :func:`column_data`) and an index.

    Arrays are not copied where pandas allows; a Series is given ``index``
    (never aligned on its own index) and, with copy-on-write, shared lazily.
    Object arrays stay object columns (pandas 3 would make text ``str``).
    """
    data = {k: v.set_axis(index) if isinstance(v, pd.Series) else
            pd.Series(v, index=index, dtype=object, copy=False) if _is_objects(v) else v
            for k, v in columns.items()}
    return pd.DataFrame(data, index=index, copy=False)


def _is_objects(values: Any) -> bool:
    """An object array (numpy or pandas' wrapper of one): pandas 3 would infer ``str``
    from it, where the library keeps text as object (:mod:`graphframe.model.text`)."""
    if isinstance(values, pd.arrays.NumpyExtensionArray):  # (pandas 2: StringArray is one)
        return getattr(values.dtype, "numpy_dtype", None) == object
    return isinstance(values, np.ndarray) and values.dtype == object


def column_data(values: pd.Series, shared: bool = True) -> Any:
    """A column's data for a new frame: writable, and never writable through ``values``.

    With copy-on-write (pandas 3) the Series itself is returned, so the new
    frame shares it lazily: the first write copies while ``values``' frame is
    alive and happens in place once it is gone. On pandas 2 the array is
    copied when ``shared`` (someone else holds ``values``). Arrays that are
    read-only at the source (e.g. ``np.frombuffer`` views a reader made) are
    copied in any case, since nobody could ever write to them.

    Examples
    --------
    >>> src = pd.Series(np.frombuffer(np.arange(3.0).tobytes()))
    >>> df = frame_from_columns({"t": column_data(src)}, pd.RangeIndex(3))
    >>> df.loc[0, "t"] = 5.0
    >>> df["t"].tolist(), src.tolist()
    ([5.0, 1.0, 2.0], [0.0, 1.0, 2.0])
    """
    if isinstance(values.dtype, np.dtype):
        base = np.asarray(values.array)
        if not base.flags.writeable:
            return base.copy()
        if COPY_ON_WRITE:
            return values
        return base.copy() if shared else base
    if COPY_ON_WRITE:
        return values
    return values.array.copy() if shared else values.array


def sort_rows(keys: Sequence[np.ndarray]):
    """Row order sorting by ``keys`` (first key primary); None if already sorted.

    Uses a counting placement when the combined key space is small (no
    comparison sort) and a stable ``lexsort`` otherwise.
    """
    n = len(keys[0])
    if n == 0:
        return None
    bounds = [(int(k.min()), int(k.max())) for k in keys]
    span = 1
    for lo, hi in bounds:
        span *= hi - lo + 1
    if span >= 1 << 62:
        return np.lexsort(list(reversed(list(keys))))
    # row-sized arrays are made and freed one at a time (16 M rows: 122 MiB each)
    combined = _combined_key(keys, bounds)
    if n < 2 or bool(np.all(combined[1:] >= combined[:-1])):
        return None
    if span <= 4 * n + 1024:
        counts = np.bincount(combined, minlength=span)
        if counts.max() <= 1:
            np.cumsum(counts, out=counts)
            counts -= 1
            rank = counts[combined]
            del counts, combined
            order = np.empty(n, dtype=INT)
            order[rank] = np.arange(n, dtype=INT)
            return order
        del counts
    return np.argsort(combined, kind="stable")


def _combined_key(keys: Sequence[np.ndarray], bounds) -> np.ndarray:
    """One int64 key per row ordering as ``keys`` do (first key primary), built in place."""
    combined = keys[0].astype(INT)  # a copy: the loop writes into it
    combined -= bounds[0][0]
    for k, (lo, hi) in zip(keys[1:], bounds[1:]):
        combined *= hi - lo + 1
        combined += k
        combined -= lo
    return combined


def make_index(arrays: Sequence[np.ndarray], names: Sequence[str]) -> pd.Index:
    """An Index (one level) or MultiIndex built from integer arrays.

    Builds level values and codes directly (no factorisation): sorted arrays
    are deduplicated in one pass, small-range arrays with a presence table.
    """
    if len(arrays) == 1:
        return pd.Index(np.asarray(arrays[0], dtype=INT), name=names[0])
    level_values, codes = [], []
    for arr in arrays:
        uniq, code = int_codes(np.asarray(arr, dtype=INT))
        level_values.append(uniq)
        codes.append(code)
    return pd.MultiIndex(levels=level_values, codes=codes, names=list(names),
                         verify_integrity=False)


def int_codes(arr: np.ndarray):
    """``(sorted unique values, code of each element)`` for an integer array.

    Codes come in the integer type pandas keeps for that many values
    (:func:`code_dtype`), so a MultiIndex takes them without a converted copy.

    Examples
    --------
    >>> uniq, codes = int_codes(np.array([3, 3, 7, 9]))
    >>> uniq.tolist(), codes.tolist(), codes.dtype.name
    ([3, 7, 9], [0, 0, 1, 2], 'int8')
    """
    if not len(arr):
        return arr[:0], arr[:0]
    if len(arr) > 1 and bool(np.all(arr[1:] >= arr[:-1])):
        new = np.empty(len(arr), dtype=bool)
        new[0] = True
        np.not_equal(arr[1:], arr[:-1], out=new[1:])
        uniq = arr[new]
        codes = np.cumsum(new, dtype=code_dtype(len(uniq)))
        codes -= 1
        return uniq, codes
    lo, hi = int(arr.min()), int(arr.max())
    if hi - lo < 4 * len(arr) + 1024:
        present = np.zeros(hi - lo + 1, dtype=bool)
        shifted = arr - lo if lo else arr
        present[shifted] = True
        uniq = np.flatnonzero(present) + lo
        table = (np.cumsum(present) - 1).astype(code_dtype(len(uniq)))
        return uniq, table[shifted]
    uniq, inverse = np.unique(arr, return_inverse=True)
    return uniq, inverse.reshape(-1).astype(code_dtype(len(uniq)), copy=False)


def code_dtype(count: int) -> np.dtype:
    """The integer type pandas stores the codes of ``count`` level values in.

    Examples
    --------
    >>> code_dtype(16).name, code_dtype(1_000_000).name
    ('int8', 'int32')
    """
    for dtype in (np.int8, np.int16, np.int32):
        if count < np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)
