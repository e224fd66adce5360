"""Text columns in pandas' own string types, built at the least cost.

pandas 3 (and pandas 2 with ``future.infer_string``) makes every text column
``str``, stored by pyarrow when it is installed. Letting pandas infer that
type from Python strings goes through pyarrow's pandas layer: the first time,
that imports ``pyarrow.pandas_compat`` and compiles its version parser, about
3-4 ms, which is most of the cost of reading a small trace. The readers
build text with the functions here instead, which give the same pandas types:

- :data:`INFER_STRING`: whether pandas makes text columns ``str`` (asked of
  the ``"str"`` type alias, without building an array);
- :func:`text_column`: strings (and None) as ``str`` with Python storage, so a
  profile's table refers to the decoded strings instead of copying them;
- :func:`string_index`: distinct names (categories) as the ``Index`` pandas
  would infer, the pyarrow buffers written directly;
- :func:`categorical`: codes into such names as a ``Categorical``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, Sequence, Tuple

import numpy as np
import pandas as pd

#: pandas 3 (or pandas 2 with ``future.infer_string``) makes text columns ``str``
INFER_STRING = isinstance(pd.api.types.pandas_dtype("str"), pd.StringDtype)

#: the ``str`` type pandas infers for text (None when it infers ``object``)
_INFERRED = pd.api.types.pandas_dtype("str") if INFER_STRING else None


def text_column(values: Any) -> Any:
    """An object array of strings (and None) as pandas' ``str`` dtype with Python storage.

    The readers intern their texts (one object per distinct value), so the
    column holds 8-byte references, as the GraphFrame's dataframe does. Left
    to itself, pandas 3 would copy every text into pyarrow storage, which the
    GraphFrame build then converts back. Other arrays, and every array when
    pandas infers ``object`` for text (:data:`INFER_STRING` false), are
    returned unchanged.

    Examples
    --------
    >>> out = text_column(np.array(["main", None, "main"], dtype=object))
    >>> out[0], pd.isna(out[1])
    ('main', True)
    >>> text_column(np.array([1, 2])).dtype
    dtype('int64')
    """
    if not INFER_STRING or not isinstance(values, np.ndarray) or values.dtype != object \
            or not len(values) or pd.api.types.infer_dtype(values, skipna=True) != "string":
        return values
    return pd.array(values, dtype=pd.StringDtype("python", na_value=np.nan))


def string_index(names: Sequence[str]) -> pd.Index:
    """``pd.Index(names)`` for distinct strings, without pyarrow's pandas layer.

    Equal to what pandas infers (same values and dtype). With pyarrow
    storage the UTF-8 bytes and offsets are handed to pyarrow as buffers; a
    name that is not valid Unicode text (a lone surrogate) falls back to
    pandas' own inference, which reports it.

    Examples
    --------
    >>> idx = string_index(["main", "solve", "é"])
    >>> idx.equals(pd.Index(["main", "solve", "é"])), idx.dtype == pd.Index(["a"]).dtype
    (True, True)
    """
    if _INFERRED is None or getattr(_INFERRED, "storage", None) != "pyarrow":
        return pd.Index(list(names))
    from .arrow_values import texts  # (pyarrow: loaded with the first text column)

    try:
        if not all(isinstance(name, str) for name in names):
            raise AttributeError
        array = texts(names)
    except (UnicodeEncodeError, AttributeError):
        return pd.Index(list(names))
    try:  # the array type pandas' inference makes (pd.array would cast the array again)
        values = pd.arrays.ArrowStringArray(array, dtype=_INFERRED)
    except TypeError:  # a pandas whose ArrowStringArray takes no dtype
        values = pd.array(array, dtype=_INFERRED)
    return pd.Index(values, copy=False)


def categorical(codes: np.ndarray, names: Sequence[str]) -> pd.Categorical:
    """Codes (-1 for missing) into distinct ``names`` as a Categorical, codes not checked.

    The categories are :func:`string_index` of the names: what
    ``pd.Categorical.from_codes(codes, categories=names)`` gives, at a fraction of
    its first call's cost.

    Examples
    --------
    >>> c = categorical(np.array([1, 0, -1], dtype=np.int8), ["ENTER", "LEAVE"])
    >>> list(c.astype(object)), list(c.categories)
    (['LEAVE', 'ENTER', nan], ['ENTER', 'LEAVE'])
    """
    dtype = _constant_dtype(names) if isinstance(names, tuple) else \
        pd.CategoricalDtype(string_index(names))
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)


@lru_cache(maxsize=64)
def _constant_dtype(names: Tuple[str, ...]) -> pd.CategoricalDtype:
    """The categorical type of a constant tuple of names (made once: types are immutable)."""
    return pd.CategoricalDtype(string_index(names))


def frame(columns: Dict[str, Any], index: Any = None) -> pd.DataFrame:
    """``pd.DataFrame(columns, index=index, copy=False)`` with its column labels built by
    :func:`string_index` (pandas would infer them through pyarrow's pandas layer).

    Examples
    --------
    >>> df = frame({"time": np.array([1, 2]), "name": np.array(["a", "b"], dtype=object)})
    >>> df.columns.equals(pd.DataFrame({"time": [1], "name": ["a"]}).columns), len(df)
    (True, 2)
    """
    out = pd.DataFrame(dict(enumerate(columns.values())), index=index,
                       copy=False)  # RangeIndex labels
    out.columns = _labels(tuple(columns)).copy()  # (its own Index: a name set on it stays)
    return out


@lru_cache(maxsize=256)
def _labels(names: Tuple[str, ...]) -> pd.Index:
    """Column labels (a table's labels repeat from read to read: built once)."""
    return string_index(names)
