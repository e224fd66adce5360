"""Exact dtypes for columns written as plain JSON values (``to_json``/``from_json``).

``to_json`` writes every cell as a plain JSON value, so that Hatchet (and any
JSON tool) reads the rows as before. What plain JSON loses (uint64 becomes
int64, a tuple a list, an object column of bools a bool column, ``str``
becomes object...) is kept in a small *codec* per column:

===============  ==============================================================
``kind``         rebuilt from the plain values as
===============  ==============================================================
``numpy``        ``numpy.array(values, dtype)`` (null -> NaN/NaT)
``extension``    ``pandas.array(values, dtype)`` (``str``, ``string``,
                 ``Int64``, ``boolean``...; StringDtype storage and NA kept)
``categorical``  ``pandas.Categorical`` with the stored categories and order
``object``       an object array; nulls become the codec's null kind
===============  ==============================================================

:func:`encode_json_column` checks that the codec rebuilds the column exactly;
when it cannot (tuples, mixed null kinds, ...), the codec also carries the
exact values as tagged JSON (``values``). A value that even tagged JSON cannot
hold raises :class:`~graphframe.io.codec.SaveError` naming the column.
"""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Tuple

import numpy as np
import pandas as pd

from ...model.frame import python_scalar
from ..codec import extension_dtype, from_tagged, null_kind, to_tagged

_NULLS = {"None": None, "NA": pd.NA, "NaT": pd.NaT, "nan": float("nan")}


def plain_values(values: Any) -> List[Any]:
    """Cells as plain Python values for JSON (NaN and pandas' missing values -> None).

    Examples
    --------
    >>> plain_values(pd.Series([1.5, float("nan"), 2.0]))
    [1.5, None, 2.0]
    """
    out = []
    for v in list(values):
        if v is None or v is pd.NA or v is pd.NaT:
            out.append(None)
        elif isinstance(v, (float, np.floating)) and math.isnan(v):
            out.append(None)
        else:
            out.append(python_scalar(v))
    return out


def json_default(value: Any) -> Any:
    """``json.dumps`` fallback: numpy scalars as numbers, anything else as its text."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return str(value)


def encode_json_column(values: Any, where: str) -> Tuple[List[Any], Dict[str, Any]]:
    """``(plain JSON values, codec)`` for a Series or Index; see the module docs.

    Examples
    --------
    >>> plain, codec = encode_json_column(pd.Series([1, 2], dtype="uint64"), "c")
    >>> plain, codec
    ([1, 2], {'kind': 'numpy', 'dtype': '<u8'})
    >>> plain, codec = encode_json_column(pd.Series([(1, 2), ("a",)]), "calls")
    >>> plain, codec["values"]
    ([(1, 2), ('a',)], [{'$tuple': [1, 2]}, {'$tuple': ['a']}])
    >>> decode_json_column([[1, 2], ["a"]], codec).tolist()
    [(1, 2), ('a',)]
    """
    series = values if isinstance(values, pd.Series) else pd.Series(values)
    plain = plain_values(series)
    codec = _codec(series)
    if not _plain_is_exact(series, codec):
        as_json = json.loads(json.dumps(plain, default=json_default))
        try:
            exact = _same_column(decode_json_column(as_json, codec), series)
        except (TypeError, ValueError):
            exact = False
        if not exact:
            codec["values"] = to_tagged(list(series), where)
    return plain, codec


def column_codec(values: Any, where: str) -> Dict[str, Any]:
    """The codec :func:`encode_json_column` gives, without a plain copy of the column.

    A categorical column is checked on its categories (every cell is one of
    them, or missing); another column that plain JSON may not rebuild is
    checked whole, as :func:`encode_json_column` does.

    Examples
    --------
    >>> column_codec(pd.Series(["a", "b", "a"], dtype="category"), "c")["kind"]
    'categorical'
    >>> column_codec(pd.Series([1.5]), "c")
    {'kind': 'numpy', 'dtype': '<f8'}
    """
    series = values if isinstance(values, pd.Series) else pd.Series(values)
    codec = _codec(series)
    if _plain_is_exact(series, codec):
        return codec
    if isinstance(series.dtype, pd.CategoricalDtype) and len(series) > len(series.dtype.categories) + 1:
        probe = pd.Series(pd.Categorical(list(series.dtype.categories) +
                                         ([None] if series.isna().any() else []),
                                         dtype=series.dtype))
        _, probe_codec = encode_json_column(probe, where)
        if "values" not in probe_codec:
            return codec
    return encode_json_column(series, where)[1]


def decode_json_column(values: List[Any], codec: Dict[str, Any]) -> Any:
    """The column array a codec describes, from plain JSON ``values``."""
    if "values" in codec:
        values = from_tagged(codec["values"])
    kind = codec["kind"]
    if kind == "numpy":
        dtype = np.dtype(codec["dtype"])
        if dtype.kind in "fc":
            values = [np.nan if v is None else v for v in values]
        elif dtype.kind in "mM":
            values = [np.datetime64("NaT") if v is None else v for v in values]
        return np.array(values, dtype=dtype)
    if kind == "extension":
        return pd.array(values, dtype=extension_dtype(codec))
    if kind == "categorical":
        categories = pd.Index(decode_json_column(from_tagged(codec["categories"]),
                                                 codec["categories_codec"]))
        return pd.Categorical(values, categories=categories, ordered=codec["ordered"])
    if kind == "object":
        out = np.empty(len(values), dtype=object)
        null = _NULLS[codec.get("null", "None")]
        out[:] = [null if v is None else v for v in values]
        return out
    raise ValueError(f"unknown column codec {kind!r}")


def object_series(values: Any, index: Any = None) -> Any:
    """Column data that pandas keeps as it is (pandas 3 would turn objects into ``str``)."""
    if isinstance(values, np.ndarray) and values.dtype == object:
        return pd.Series(values, index=index, dtype=object, copy=False)
    return values


# ------------------------------------------------------------------ helpers
def _codec(series: pd.Series) -> Dict[str, Any]:
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        cats = pd.Series(dtype.categories)
        plain, inner = encode_json_column(cats, "categories")
        return {"kind": "categorical", "ordered": bool(dtype.ordered),
                "categories": to_tagged(list(cats), "categories"), "categories_codec": inner}
    if isinstance(dtype, np.dtype) and dtype.kind != "O":
        return {"kind": "numpy", "dtype": dtype.str}
    if not isinstance(dtype, np.dtype):
        codec = {"kind": "extension", "dtype": str(dtype)}
        if isinstance(dtype, pd.StringDtype):
            na = getattr(dtype, "na_value", pd.NA)
            codec.update(storage=dtype.storage, na="nan" if na is not pd.NA else "NA")
        return codec
    missing = pd.isna(series.to_numpy(dtype=object))
    kinds = {null_kind(v) for v in series[missing].tolist()} if missing.any() else set()
    return {"kind": "object", "null": kinds.pop() if len(kinds) == 1 else "None"}


def _plain_is_exact(series: pd.Series, codec: Dict[str, Any]) -> bool:
    """True when the codec certainly rebuilds the column from plain JSON values."""
    kind = codec["kind"]
    if kind == "numpy":
        return np.dtype(codec["dtype"]).kind in "biuf"
    if kind == "extension":
        return isinstance(series.dtype, pd.StringDtype)
    if kind == "object":
        values = series.to_numpy(dtype=object)
        missing = pd.isna(values)
        nulls = {null_kind(v) for v in values[missing].tolist()} if missing.any() else set()
        return len(nulls) <= 1 and pd.api.types.infer_dtype(values, skipna=True) in (
            "string", "empty")
    return False


def _same_column(decoded: Any, series: pd.Series) -> bool:
    back = pd.Series(decoded, dtype=series.dtype) if not isinstance(decoded, np.ndarray) \
        or decoded.dtype != object else pd.Series(decoded, dtype=object)
    if back.dtype != series.dtype or len(back) != len(series):
        return False
    if series.dtype == object:
        return all(_same(a, b) for a, b in zip(back.tolist(), series.tolist()))
    return bool(back.reset_index(drop=True).equals(series.reset_index(drop=True)))


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False
