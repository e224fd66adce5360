"""Encoding of dataframe columns and metadata for the graphframe archive.

Columns become Arrow arrays plus a small JSON *codec* that says how to
rebuild the exact pandas column (dtype included):

===============  =====================================  ==========================
codec ``kind``   pandas column                           stored as
===============  =====================================  ==========================
``numpy``        numpy dtypes (ints, floats, bool, ...)  the same Arrow type
``extension``    pandas extension dtypes (``str``,       Arrow, rebuilt with the
                 ``string``, ``Int64``, ``boolean``...)  dtype's ``__from_arrow__``
``categorical``  ``category``                            int codes; categories in
                                                         the codec
``object``       object columns of one value type        string / int64 / float64 /
                 (str, int, float, bool), with one       bool with nulls; the null
                 kind of missing value                   kind is in the codec
``json``         any other object column                 one tagged-JSON string per
                                                         value (slow, rare)
===============  =====================================  ==========================

Metadata and column names use *tagged JSON*: plain JSON where it can be, and
``{"$tuple": [...]}``, ``{"$float": "nan"}``, ``{"$scalar": 3, "dtype": "<i8"}``
(numpy scalars), ``{"$items": [[k, v], ...]}``
(dicts with non-string keys or keys starting with ``$``), ``{"$ndarray":
[...], "dtype": ...}``, ``{"$bytes": base64}`` otherwise. Nothing is ever
pickled: a value of any other type cannot be saved and raises
:class:`SaveError` naming where it is.
"""

from __future__ import annotations

import base64
import json
import math
from typing import Any, Dict, List, Tuple

import numpy as np
import pandas as pd
import pyarrow as pa

from ..errors import GraphframeError
from ..model.nodeindex import NodeDtype, node_ids
from ..model.textarray import TextArray, TextDtype


class SaveError(GraphframeError, ValueError):
    """A GraphFrame holds something the archive format cannot store."""


class WriteError(GraphframeError, OSError):
    """An archive could not be written where it was asked to go.

    Raised by ``save`` for a missing folder, a target that is a directory,
    a permission or a full disk; the message names the target path (never
    the temporary file) and the cause is chained. It is also an ``OSError``.
    """


# ------------------------------------------------------------ tagged JSON
def to_tagged(value: Any, where: str = "value") -> Any:
    """A JSON-compatible form of ``value`` that :func:`from_tagged` inverts exactly.

    Examples
    --------
    >>> to_tagged({"ranks": (1, 2), "t": float("nan")})
    {'ranks': {'$tuple': [1, 2]}, 't': {'$float': 'nan'}}
    >>> from_tagged(to_tagged({1: "a"}))
    {1: 'a'}
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        return {"$scalar": to_tagged(value.item(), where), "dtype": value.dtype.str}
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        number = float(value)
        if math.isfinite(number):
            return number
        return {"$float": "nan" if math.isnan(number) else ("inf" if number > 0 else "-inf")}
    if isinstance(value, list):
        return [to_tagged(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, tuple):
        return {"$tuple": [to_tagged(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: to_tagged(v, f"{where}[{k!r}]") for k, v in value.items()}
        return {"$items": [[to_tagged(k, where), to_tagged(v, f"{where}[{k!r}]")]
                           for k, v in value.items()]}
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        return {"$ndarray": to_tagged(value.tolist(), where), "dtype": value.dtype.str}
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode("ascii")}
    raise SaveError(f"{where} holds a {type(value).__name__}, which cannot be saved; "
                    "use None, bool, int, float, str, bytes, lists, tuples, dicts "
                    "or numeric numpy arrays")


def from_tagged(value: Any) -> Any:
    """Inverse of :func:`to_tagged`."""
    if isinstance(value, list):
        return [from_tagged(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$tuple" in value:
        return tuple(from_tagged(v) for v in value["$tuple"])
    if "$scalar" in value:
        return np.dtype(value["dtype"]).type(from_tagged(value["$scalar"]))
    if "$float" in value:
        return float(value["$float"])
    if "$items" in value:
        return {_hashable(from_tagged(k)): from_tagged(v) for k, v in value["$items"]}
    if "$ndarray" in value:
        return np.array(from_tagged(value["$ndarray"]), dtype=np.dtype(value["dtype"]))
    if "$bytes" in value:
        return base64.b64decode(value["$bytes"])
    return {k: from_tagged(v) for k, v in value.items()}


def _hashable(key: Any) -> Any:
    return tuple(key) if isinstance(key, list) else key


# ---------------------------------------------------------------- columns
_OBJECT_TYPES = {"string": pa.large_string(), "integer": pa.int64(),
                 "floating": pa.float64(), "boolean": pa.bool_()}
#: Value types of the ``object`` codec.
OBJECT_TYPES = tuple(_OBJECT_TYPES)


def encode_column(values: Any, where: str) -> Tuple[pa.Array, Dict[str, Any]]:
    """``(arrow array, codec)`` for a pandas Series or Index (see module docs).

    A node level (Node objects over int ids) is stored as its int64 ids.
    """
    dtype = values.dtype
    if isinstance(dtype, NodeDtype):
        values = node_ids(values)
        dtype = values.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        cats = encode_column(pd.Series(dtype.categories), where + " categories")
        codes = np.asarray(values.cat.codes if isinstance(values, pd.Series) else values.codes)
        return pa.array(codes), {"kind": "categorical", "ordered": bool(dtype.ordered),
                                 "categories": to_tagged(dtype.categories.tolist(), where),
                                 "categories_codec": cats[1]}
    if isinstance(dtype, np.dtype) and dtype.kind != "O":
        return pa.array(np.asarray(values)), {"kind": "numpy", "dtype": dtype.str}
    if isinstance(dtype, TextDtype):
        return _encode_text(values.array if isinstance(values, (pd.Series, pd.Index))
                            else values, where)
    if not isinstance(dtype, np.dtype):
        if not hasattr(dtype, "__from_arrow__"):
            raise SaveError(f"{where} has dtype {dtype}, which cannot be saved")
        codec = {"kind": "extension", "dtype": str(dtype), **_string_details(dtype)}
        if isinstance(dtype, pd.StringDtype) and dtype.storage == "python":
            text = np.asarray(values, dtype=object)
            try:
                return text_dictionary(text), codec
            except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeEncodeError):
                pass
        return pa.array(values.array if isinstance(values, pd.Series) else values), codec
    return _encode_object(np.asarray(values, dtype=object), where)


def _encode_text(values: TextArray, where: str) -> Tuple[pa.Array, Dict[str, Any]]:
    """A text column: its codes and dictionary as they are when every value is a string
    (missing values all ``None`` or all NaN); else as an object column. The codec
    says ``"text": True`` so that loading gives a text column again."""
    distinct = values.dictionary
    na = np.asarray(pd.isna(distinct), dtype=bool)
    nulls = {null_kind(v) for v in distinct[na].tolist()}
    present = distinct[~na]
    if len(nulls) <= 1 and (not len(present)
                            or pd.api.types.infer_dtype(present, skipna=False) == "string"):
        try:
            entries = pa.array(np.where(na, "", distinct), type=pa.large_string())
            codes = values.codes
            indices = pa.array(codes, mask=na[codes]) if na.any() else pa.array(codes)
            return (pa.DictionaryArray.from_arrays(indices, entries),
                    {"kind": "object", "type": "string", "null": nulls.pop() if nulls else "None",
                     "text": True})
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeEncodeError):
            pass
    array, codec = _encode_object(np.asarray(values, dtype=object), where)
    return array, {**codec, "text": True}


def _string_details(dtype: Any) -> Dict[str, Any]:
    if isinstance(dtype, pd.StringDtype):
        na = getattr(dtype, "na_value", pd.NA)
        return {"storage": dtype.storage, "na": "nan" if na is not pd.NA else "NA"}
    return {}


def _encode_object(values: np.ndarray, where: str) -> Tuple[pa.Array, Dict[str, Any]]:
    if len(values) and pd.api.types.infer_dtype(values, skipna=False) == "string":
        try:  # text without missing values: the common case, one pass
            return text_dictionary(values), {"kind": "object", "type": "string", "null": "None"}
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeEncodeError):
            pass
    missing = pd.isna(values)
    kinds = {null_kind(v) for v in values[missing].tolist()} if missing.any() else set()
    inferred = pd.api.types.infer_dtype(values, skipna=True)
    if inferred == "empty":
        inferred = "string"
    if inferred in _OBJECT_TYPES and len(kinds) <= 1:
        null = kinds.pop() if kinds else "None"
        clean = values if not missing.any() else np.where(missing, None, values)
        try:
            array = text_dictionary(clean) if inferred == "string" else \
                pa.array(clean, type=_OBJECT_TYPES[inferred], from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError, UnicodeEncodeError):
            pass
        else:
            return array, {"kind": "object", "type": inferred, "null": null}
    text = [json.dumps(to_tagged(v, f"{where} row {i}"), allow_nan=False)
            for i, v in enumerate(values.tolist())]
    return pa.array(text, type=pa.large_string()), {"kind": "json"}


def text_dictionary(values: np.ndarray) -> pa.DictionaryArray:
    """Text (an object array; None/NaN missing) as a dictionary array: each distinct
    string is converted once, and Parquet stores it dictionary-encoded anyway.

    Examples
    --------
    >>> arr = text_dictionary(np.array(["b", "a", None, "b"], dtype=object))
    >>> arr.dictionary.to_pylist(), arr.indices.to_pylist()
    (['b', 'a'], [0, 1, None, 0])
    """
    codes, distinct = pd.factorize(values, use_na_sentinel=True)
    dictionary = pa.array(np.asarray(distinct, dtype=object), type=pa.large_string())
    indices = pa.array(codes.astype(np.int32), mask=codes < 0)
    return pa.DictionaryArray.from_arrays(indices, dictionary)


def null_kind(value: Any) -> str:
    """Which missing value ``value`` is: ``None``, ``pd.NA``, ``pd.NaT`` or NaN."""
    if value is None:
        return "None"
    if value is pd.NA:
        return "NA"
    if value is pd.NaT:
        return "NaT"
    return "nan"


_NULLS = {"None": None, "NA": pd.NA, "NaT": pd.NaT, "nan": float("nan")}
#: Kinds of missing value the ``object`` codec records.
NULL_KINDS = tuple(_NULLS)


def decode_column(column: Any, codec: Dict[str, Any]) -> Any:
    """Array for a DataFrame/Index from a stored Arrow column and its codec.

    Text columns may arrive dictionary-encoded (the loader reads them so):
    ``object`` columns and ``str`` columns with Python storage are then
    built with one string object per distinct value, which is both faster
    than decoding every row and what :func:`graphframe.GraphFrame.from_raw`
    builds (a name repeated over ranks is one object).
    """
    kind = codec["kind"]
    if codec.get("text"):
        return _decode_text(column, {k: v for k, v in codec.items() if k != "text"})
    if pa.types.is_dictionary(column.type):
        if kind == "object" or (kind == "extension" and codec.get("storage") == "python"):
            if not (pa.types.is_string(column.type.value_type)
                    or pa.types.is_large_string(column.type.value_type)):
                raise ValueError(f"the column holds {column.type.value_type} values, "
                                 "not text")
            if kind == "object" and codec["type"] != "string":
                raise ValueError(f"the column holds text, not {codec['type']}")
            values, missing = shared_objects(column)
            if kind == "extension":
                return pd.array(values, dtype=extension_dtype(codec))
            if missing.any():
                values[missing] = _NULLS[codec["null"]]
            return _objects(values)
        column = column.cast(column.type.value_type)
    if kind == "numpy":
        dtype = np.dtype(codec["dtype"])
        values = column.to_numpy() if column.null_count == 0 else column.to_pandas().to_numpy()
        if values.dtype == dtype and values.flags.writeable:
            return values
        return np.array(values, dtype=dtype)  # Arrow's zero-copy views are read-only
    if kind == "extension":
        return extension_dtype(codec).__from_arrow__(column)
    if kind == "categorical":
        codes = np.asarray(column.to_numpy(), dtype=np.int64)
        return pd.Categorical.from_codes(codes, categories=_categories(codec),
                                         ordered=codec["ordered"])
    if kind == "object":
        stored = _OBJECT_TYPES[codec["type"]]
        if not (column.type == stored or (pa.types.is_string(column.type)
                                          and pa.types.is_large_string(stored))):
            raise ValueError(f"the column holds {column.type} values, not {codec['type']}")
        values = column.to_numpy(zero_copy_only=False)
        if column.null_count:
            mask = np.asarray(column.is_null().to_numpy(zero_copy_only=False), dtype=bool)
            out = values.astype(object)
            out[mask] = _NULLS[codec["null"]]
            values = out
        elif values.dtype != object:
            values = values.astype(object)
        return _objects(values)
    if kind == "json":
        out = np.empty(len(column), dtype=object)
        out[:] = [from_tagged(json.loads(v)) for v in column.to_pylist()]
        return _objects(out)
    raise ValueError(f"unknown column codec {kind!r}")


def _decode_text(column: Any, codec: Dict[str, Any]) -> TextArray:
    """A text column saved by :func:`_encode_text`."""
    if not (pa.types.is_dictionary(column.type) and codec["kind"] == "object"
            and codec["type"] == "string"):
        return TextArray.from_values(decode_column(column, codec))
    if not (pa.types.is_string(column.type.value_type)
            or pa.types.is_large_string(column.type.value_type)):
        raise ValueError(f"the column holds {column.type.value_type} values, not text")
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    parts = []
    for chunk in chunks:
        distinct = np.empty(len(chunk.dictionary), dtype=object)
        distinct[:] = chunk.dictionary.to_pylist()
        codes = chunk.indices.fill_null(-1).to_numpy(zero_copy_only=False)
        parts.append(TextArray.from_codes(codes, distinct, missing=_NULLS[codec["null"]]))
    if not parts:
        return TextArray.from_values([])
    return TextArray._concat_same_type(parts)


def shared_objects(column: Any) -> Tuple[np.ndarray, np.ndarray]:
    """``(object array, missing mask)`` of a dictionary-encoded text column; each
    distinct value (per chunk) is one Python string shared by its rows.

    Examples
    --------
    >>> col = pa.array(["a", "b", None, "a"]).dictionary_encode()
    >>> values, missing = shared_objects(col)
    >>> values.tolist(), missing.tolist(), values[0] is values[3]
    (['a', 'b', None, 'a'], [False, False, True, False], True)
    """
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    values, missing = [], []
    for chunk in chunks:
        distinct = np.empty(len(chunk.dictionary), dtype=object)
        distinct[:] = chunk.dictionary.to_pylist()
        codes = chunk.indices.fill_null(0).to_numpy(zero_copy_only=False).astype(np.intp)
        part = distinct[codes] if len(distinct) else np.full(len(chunk), None, dtype=object)
        gap = np.asarray(chunk.is_null().to_numpy(zero_copy_only=False), dtype=bool)
        part[gap] = None
        values.append(part)
        missing.append(gap)
    if not values:
        return np.empty(0, dtype=object), np.zeros(0, dtype=bool)
    return np.concatenate(values), np.concatenate(missing)


def _objects(values: np.ndarray) -> np.ndarray:
    """A numpy object array; callers must keep pandas from re-inferring it (pandas 3
    turns object arrays of strings into ``str`` columns): wrap it in an object Series."""
    return np.asarray(values, dtype=object)


def _categories(codec: Dict[str, Any]) -> pd.Index:
    values = from_tagged(codec["categories"])
    inner = codec["categories_codec"]
    if inner["kind"] == "numpy":
        return pd.Index(np.array(values, dtype=np.dtype(inner["dtype"])))
    if inner["kind"] == "extension":
        return pd.Index(pd.array(values, dtype=extension_dtype(inner)))
    return pd.Index(np.array(values, dtype=object), dtype=object)


def extension_dtype(codec: Dict[str, Any]) -> Any:
    """The pandas extension dtype a codec names (StringDtype storage and NA kind kept)."""
    if "storage" in codec:
        na = np.nan if codec["na"] == "nan" else pd.NA
        try:
            return pd.StringDtype(storage=codec["storage"], na_value=na)
        except TypeError:  # pandas < 2.3 has no na_value argument
            return pd.api.types.pandas_dtype(codec["dtype"])
    return pd.api.types.pandas_dtype(codec["dtype"])


def encode_names(names: List[Any]) -> List[Any]:
    """Column or level names as tagged JSON."""
    return [to_tagged(n, "a column name") for n in names]


def decode_names(names: List[Any]) -> List[Any]:
    """Inverse of :func:`encode_names`."""
    return [from_tagged(n) for n in names]
