"""Checking an archive's manifest (``graphframe.json``) before anything is decoded.

A manifest is written by :func:`graphframe.io.archive.save`, but a file can be
edited or damaged by hand. :func:`check_manifest` walks every field that
loading reads and raises :class:`~graphframe.ReadError` naming the archive,
the field (``metrics.columns[2].codec.dtype``) and what was expected, so no
bare ``TypeError``/``AttributeError``/``KeyError`` escapes from a bad file.
Fields the reader does not know are ignored (later versions may add some).
"""

from __future__ import annotations

import binascii
from typing import Any, Callable, Dict, List

import numpy as np
import pandas as pd
import pyarrow as pa

from graphframe_readers.errors import ReadError

from ..codec import NULL_KINDS, OBJECT_TYPES, extension_dtype, from_tagged

MANIFEST = "graphframe.json"
CODEC_KINDS = ("numpy", "extension", "categorical", "object", "json")
#: numpy dtype kinds a ``numpy`` codec may name (no object: those use other codecs).
NUMPY_KINDS = "biufcmM"


class ManifestProblem(Exception):
    """Internal: a field of the manifest is wrong (turned into a ReadError)."""

    def __init__(self, field: str, problem: str, expected: str) -> None:
        super().__init__(field, problem, expected)
        self.field, self.problem, self.expected = field, problem, expected


def check_manifest(manifest: Dict[str, Any], path: Any) -> None:
    """Raise :class:`ReadError` unless every field loading reads has the right shape.

    ``format`` and ``version`` are checked by the caller first.

    Examples
    --------
    >>> check_manifest({"format": "graphframe", "version": 1, "metadata": "x"}, "x.gfz")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: x.gfz: graphframe.json: field 'graph' is missing (expected an object)
    """
    try:
        _check(manifest)
    except ManifestProblem as bad:
        raise ReadError(path, f"field {bad.field!r} {bad.problem}", position=MANIFEST,
                        expected=bad.expected) from None


def decode_field(value: Any, field: str, path: Any) -> Any:
    """:func:`from_tagged` of a manifest value, a ReadError naming ``field`` if malformed."""
    try:
        return _tagged(value, field)
    except ManifestProblem as bad:
        raise ReadError(path, f"field {bad.field!r} {bad.problem}", position=MANIFEST,
                        expected=bad.expected) from None


def check_fields(specs: List[Dict[str, Any]], table: pa.Table, field: str, member: str,
                 path: Any) -> None:
    """Every column a manifest describes exists in its Parquet table."""
    names = set(table.column_names)
    for i, spec in enumerate(specs):
        if spec["field"] not in names:
            raise ReadError(path, f"field '{field}[{i}].field' names the column "
                            f"{spec['field']!r}, which {member} does not have",
                            position=MANIFEST, expected=f"one of {sorted(names)}")


def check_ids(dataframe: Any, n: int) -> None:
    """The dataframe's ``node`` level holds ids of the graph (ValueError otherwise)."""
    if len(dataframe):
        index = dataframe.index
        # a MultiIndex's level values (every one is used): no row-sized copy of the ids
        ids = np.asarray(index.levels[0] if isinstance(index, pd.MultiIndex) else index)
        if ids.dtype.kind not in "iu":
            raise ValueError(f"the first index level holds {ids.dtype} values, not node ids")
        if ids.min() < 0 or ids.max() >= n:
            raise ValueError(f"the dataframe refers to node ids outside 0..{n - 1}")


# ------------------------------------------------------------------ checks
def _check(m: Dict[str, Any]) -> None:
    graph = _get(m, "graph", dict, "", "an object")
    for key in ("num_nodes", "num_edges"):
        _count(_get(graph, key, int, "graph.", "a whole number"), f"graph.{key}")
    for key in ("ordered", "forest"):
        _get(graph, key, bool, "graph.", "true or false")
    nodes = _get(m, "nodes", dict, "", "an object")
    _columns(_get(nodes, "columns", list, "nodes.", "a list of column descriptions"),
             "nodes.columns")
    metrics = _get(m, "metrics", dict, "", "an object")
    _count(_get(metrics, "num_rows", int, "metrics.", "a whole number"), "metrics.num_rows")
    index = _get(metrics, "index", list, "metrics.", "a list of column descriptions")
    if not index:
        raise ManifestProblem("metrics.index", "is empty", "at least the 'node' level")
    _columns(index, "metrics.index")
    _columns(_get(metrics, "columns", list, "metrics.", "a list of column descriptions"),
             "metrics.columns")
    if "columns_dtype" in metrics and not isinstance(metrics["columns_dtype"], str):
        raise ManifestProblem("metrics.columns_dtype", "is not a string", "a dtype name")
    for key in ("exc_metrics", "inc_metrics"):
        for i, name in enumerate(_get(m, key, list, "", "a list of metric names")):
            _hashable(_tagged(name, f"{key}[{i}]"), f"{key}[{i}]")
    for i, pair in enumerate(_get(m, "inclusive_of", list, "", "a list of [exclusive, "
                                                                "inclusive] pairs")):
        where = f"inclusive_of[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise ManifestProblem(where, "is not a pair", "[exclusive name, inclusive name]")
        for k, name in enumerate(pair):
            _hashable(_tagged(name, f"{where}[{k}]"), f"{where}[{k}]")
    if not isinstance(m.get("aggregations", []), list):  # optional: absent from older files
        raise ManifestProblem("aggregations", f"is {_what(m['aggregations'])}",
                              "a list of [column, aggregation] pairs")
    for i, pair in enumerate(m.get("aggregations", [])):
        where = f"aggregations[{i}]"
        if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[1], str):
            raise ManifestProblem(where, f"is {_what(pair)}", "[column name, aggregation name]")
        _hashable(_tagged(pair[0], f"{where}[0]"), f"{where}[0]")
    if "default_metric" not in m:
        raise ManifestProblem("default_metric", "is missing", "a metric name or null")
    _hashable(_tagged(m["default_metric"], "default_metric"), "default_metric")
    if "metadata" not in m:
        raise ManifestProblem("metadata", "is missing", "an object")
    if not isinstance(_tagged(m["metadata"], "metadata"), dict):
        raise ManifestProblem("metadata", f"is {_what(m['metadata'])}", "an object")


def _get(obj: Dict[str, Any], key: str, kind: type, prefix: str, expected: str) -> Any:
    if key not in obj:
        raise ManifestProblem(prefix + key, "is missing", expected)
    value = obj[key]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise ManifestProblem(prefix + key, f"is {_what(value)}", expected)
    return value


def _count(value: int, field: str) -> None:
    if value < 0:
        raise ManifestProblem(field, f"is {value}", "0 or more")


def _columns(specs: List[Any], field: str) -> None:
    for i, spec in enumerate(specs):
        where = f"{field}[{i}]"
        if not isinstance(spec, dict):
            raise ManifestProblem(where, f"is {_what(spec)}",
                                  'an object with "name", "field" and "codec"')
        if "name" not in spec:
            raise ManifestProblem(f"{where}.name", "is missing", "a column name")
        _hashable(_tagged(spec["name"], f"{where}.name"), f"{where}.name")
        _get(spec, "field", str, f"{where}.", "the name of a Parquet column")
        codec(_get(spec, "codec", dict, f"{where}.", "an object"), f"{where}.codec")


def codec(c: Dict[str, Any], field: str) -> None:
    """Check one column codec (see :mod:`graphframe.io.codec`)."""
    kind = c.get("kind")
    if kind not in CODEC_KINDS:
        raise ManifestProblem(f"{field}.kind", f"is {_what(kind)}",
                              "one of " + ", ".join(CODEC_KINDS))
    if kind == "numpy":
        dtype = _get(c, "dtype", str, f"{field}.", "a numpy dtype such as '<f8'")
        _parse(np.dtype, dtype, f"{field}.dtype", "a numpy dtype such as '<f8'")
        if np.dtype(dtype).kind not in NUMPY_KINDS:
            raise ManifestProblem(f"{field}.dtype", f"is {dtype!r}",
                                  "a numeric, boolean or datetime numpy dtype")
    elif kind == "extension":
        _get(c, "dtype", str, f"{field}.", "a pandas dtype such as 'Int64'")
        if "storage" in c:
            _get(c, "storage", str, f"{field}.", "'python' or 'pyarrow'")
            if c.get("na") not in ("nan", "NA"):
                raise ManifestProblem(f"{field}.na", f"is {_what(c.get('na'))}",
                                      "'nan' or 'NA'")
        _parse(lambda _: extension_dtype(c), c["dtype"], f"{field}.dtype",
               "a pandas extension dtype such as 'Int64' or 'str'")
    elif kind == "categorical":
        _get(c, "ordered", bool, f"{field}.", "true or false")
        if "categories" not in c:
            raise ManifestProblem(f"{field}.categories", "is missing", "a list")
        if not isinstance(_tagged(c["categories"], f"{field}.categories"), list):
            raise ManifestProblem(f"{field}.categories", f"is {_what(c['categories'])}",
                                  "a list")
        inner = _get(c, "categories_codec", dict, f"{field}.", "an object")
        codec(inner, f"{field}.categories_codec")
    elif kind == "object":
        if c.get("type") not in OBJECT_TYPES:
            raise ManifestProblem(f"{field}.type", f"is {_what(c.get('type'))}",
                                  "one of " + ", ".join(OBJECT_TYPES))
        if c.get("null") not in NULL_KINDS:
            raise ManifestProblem(f"{field}.null", f"is {_what(c.get('null'))}",
                                  "one of " + ", ".join(NULL_KINDS))


def _parse(parse: Callable[[Any], Any], value: Any, field: str, expected: str) -> None:
    try:
        parse(value)
    except (TypeError, ValueError, AttributeError, KeyError, ImportError) as exc:
        raise ManifestProblem(field, f"is {value!r}, which cannot be used ({exc})",
                              expected) from None


def _tagged(value: Any, field: str) -> Any:
    try:
        return from_tagged(value)
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError,
            binascii.Error) as exc:
        raise ManifestProblem(field, f"holds a malformed tagged value ({type(exc).__name__}: "
                                     f"{exc})", "tagged JSON as GraphFrame.save writes it"
                              ) from None


def _hashable(value: Any, field: str) -> None:
    try:
        hash(value)
    except TypeError:
        raise ManifestProblem(field, f"is {_what(value)}", "a name (a string, number or "
                                                            "tuple)") from None


def _what(value: Any) -> str:
    if value is None:
        return "null"
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(value).__name__} {text}"
