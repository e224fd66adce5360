"""Reading a graphframe archive back (see :mod:`graphframe.io.archive`)."""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pandas as pd
import pyarrow as pa

from graphframe_readers.errors import ReadError

from ..._version import __version__
from ...model.dataframe import make_index
from ...model.graph import Graph
from ..codec import decode_column, from_tagged
from .layout import FORMAT_NAME, FORMAT_VERSION, INT, MANIFEST, is_archive
from .schema import check_fields, check_ids, check_manifest, decode_field


def read_manifest(path: Any) -> Dict[str, Any]:
    """The manifest (``graphframe.json``) of an archive, checked like :func:`read_parts`.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe import GraphFrame
    >>> p = GraphFrame.from_lists(("a", "b")).save(os.path.join(tempfile.mkdtemp(), "x.gfz"))
    >>> m = read_manifest(p)
    >>> m["format"], m["version"], m["graph"]["num_nodes"]
    ('graphframe', 1, 2)
    """
    path = Path(os.fspath(path))
    if not path.exists():
        raise ReadError(path, "no such file or directory")
    with _open_zip(path) as zf:
        return _manifest(zf, path)


def read_parts(path: Any) -> Dict[str, Any]:
    """The GraphFrame fields stored in a file written by :func:`save`.

    ``graphframe.load(path)`` is ``GraphFrame(**read_parts(path))``. Raises
    :class:`~graphframe.ReadError` naming the file for anything that is not
    a complete archive of a supported version.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe import GraphFrame
    >>> p = GraphFrame.from_lists(("a", "b")).save(os.path.join(tempfile.mkdtemp(), "x.gfz"))
    >>> sorted(read_parts(p))
    ['aggregations', 'dataframe', 'default_metric', 'exc_metrics', 'graph', 'inc_metrics', 'inclusive_of', 'metadata']
    """
    path = Path(os.fspath(path))
    if not path.exists():
        raise ReadError(path, "no such file or directory")
    zf = _open_zip(path)
    with zf:
        manifest = _manifest(zf, path)
        nodes = _read_table(zf, "nodes.parquet", path)
        edges = _read_table(zf, "edges.parquet", path)
        rows = _read_table(zf, "metrics.parquet", path, lazy=True)
    check_fields(manifest["nodes"]["columns"], nodes, "nodes", "nodes.parquet", path)
    for key in ("index", "columns"):
        check_fields(manifest["metrics"][key], rows, f"metrics.{key}", "metrics.parquet", path)
    try:
        graph = _graph(manifest, nodes, edges, path)
        dataframe = _dataframe(manifest, rows, path)
        check_ids(dataframe, graph.num_nodes)
    except (KeyError, ValueError, TypeError, IndexError, pa.ArrowException) as exc:
        if isinstance(exc, ReadError):
            raise
        raise ReadError(path, f"the archive is inconsistent ({type(exc).__name__}: {exc})",
                        expected="a file written by GraphFrame.save") from exc
    pa.default_memory_pool().release_unused()  # Arrow's allocator keeps freed pages else
    parts = dict(graph=graph, dataframe=dataframe,
                 exc_metrics=decode_field(manifest["exc_metrics"], "exc_metrics", path),
                 inc_metrics=decode_field(manifest["inc_metrics"], "inc_metrics", path),
                 default_metric=decode_field(manifest["default_metric"], "default_metric",
                                             path),
                 metadata=decode_field(manifest["metadata"], "metadata", path),
                 inclusive_of={decode_field(k, "inclusive_of", path):
                               decode_field(v, "inclusive_of", path)
                               for k, v in manifest["inclusive_of"]},
                 aggregations={decode_field(k, "aggregations", path): v  # absent from
                               for k, v in manifest.get("aggregations", [])})  # older archives
    return parts


def _open_zip(path: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        damaged = is_archive(path)
        raise ReadError(path, "the archive is truncated or damaged" if damaged
                        else "not a graphframe archive",
                        expected="a complete file written by GraphFrame.save") from exc


def _manifest(zf: zipfile.ZipFile, path: Path) -> Dict[str, Any]:
    try:
        manifest = json.loads(zf.read(MANIFEST))
    except KeyError as exc:
        raise ReadError(path, f"the archive has no {MANIFEST}",
                        expected="a file written by GraphFrame.save") from exc
    except (ValueError, zipfile.BadZipFile, OSError) as exc:
        raise ReadError(path, f"{MANIFEST} cannot be read ({exc})", position=MANIFEST) from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise ReadError(path, "not a graphframe archive", position=MANIFEST,
                        expected='"format": "graphframe"')
    version = manifest.get("version")
    if not isinstance(version, int) or version < 1:
        raise ReadError(path, f"invalid format version {version!r}", position=MANIFEST,
                        expected="a positive integer")
    if version > FORMAT_VERSION:
        raise ReadError(path, f"written with archive format version {version} "
                        f"({manifest.get('writer', 'a newer graphframe')}), but this "
                        f"graphframe {__version__} reads versions up to {FORMAT_VERSION}",
                        position=MANIFEST, expected="upgrade graphframe to load this file")
    check_manifest(manifest, path)
    return manifest


class _LazyTable:
    """A Parquet file's columns read one at a time (the dataframe's table: each column
    is decoded and released before the next is read, so the whole table never sits in
    memory beside the decoded frame)."""

    def __init__(self, parquet: Any, member: str, path: Path) -> None:
        self.parquet, self.member, self.path = parquet, member, path
        self.column_names = list(parquet.schema_arrow.names)
        self.num_rows = parquet.metadata.num_rows

    def column(self, name: str) -> Any:
        try:
            return self.parquet.read(columns=[name], use_threads=True).column(0)
        except (pa.ArrowException, OSError) as exc:
            raise ReadError(self.path, f"{self.member} is not a readable Parquet table "
                            f"({exc})", position=self.member) from exc

    def drop_columns(self, names: List[str]) -> "_LazyTable":
        pa.default_memory_pool().release_unused()
        return self


def _read_table(zf: zipfile.ZipFile, member: str, path: Path, lazy: bool = False) -> Any:
    try:
        data = zf.read(member)
    except KeyError as exc:
        raise ReadError(path, f"the archive has no {member}", position=member) from exc
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ReadError(path, f"{member} is damaged ({exc})", position=member) from exc
    import pyarrow.parquet as pq  # with the first archive read, not with graphframe

    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
        text = [f.name for f in parquet.schema_arrow
                if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
        if text:  # text stays dictionary-encoded: decoded once per distinct value
            parquet = pq.ParquetFile(pa.BufferReader(data), read_dictionary=text)
        return _LazyTable(parquet, member, path) if lazy else parquet.read()
    except (pa.ArrowException, OSError) as exc:
        raise ReadError(path, f"{member} is not a readable Parquet table ({exc})",
                        position=member) from exc


def _decode(table: pa.Table, spec: Dict[str, Any], member: str, path: Path) -> Any:
    """One stored column decoded with its codec; a ReadError naming it if they disagree."""
    column = table.column(spec["field"])
    try:
        return decode_column(column, spec["codec"])
    except (KeyError, ValueError, TypeError, IndexError, AttributeError, OverflowError,
            pa.ArrowException) as exc:
        raise ReadError(path, f"column {spec['field']!r} does not match its codec "
                        f"{spec['codec']} ({type(exc).__name__}: {exc})", position=member,
                        expected="the column GraphFrame.save wrote") from exc


def _graph(manifest: Dict[str, Any], nodes: pa.Table, edges: pa.Table, path: Path) -> Graph:
    info = manifest["graph"]
    n, m = int(info["num_nodes"]), int(info["num_edges"])
    parent = _ints(nodes, "parent")
    depth = _ints(nodes, "depth")
    src, dst, prank = _ints(edges, "parent"), _ints(edges, "child"), _ints(edges, "parent_rank")
    if len(parent) != n or len(src) != m:
        raise ValueError(f"expected {n} nodes and {m} edges, found {len(parent)} and {len(src)}")
    if n and (parent.min() < -1 or parent.max() >= n):
        raise ValueError("a parent id is out of range")
    if m and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= n):
        raise ValueError("an edge refers to a node id out of range")
    if m and (src[1:] < src[:-1]).any():
        raise ValueError("edges are not grouped by parent")
    child_ptr = np.zeros(n + 1, dtype=INT)
    np.cumsum(np.bincount(src, minlength=n), out=child_ptr[1:])
    by_child = np.lexsort((prank, dst))
    parent_ptr = np.zeros(n + 1, dtype=INT)
    np.cumsum(np.bincount(dst, minlength=n), out=parent_ptr[1:])
    parent_idx = src[by_child].astype(INT)
    has_parent = np.flatnonzero(parent >= 0)
    if (np.diff(parent_ptr)[has_parent] < 1).any() or \
            (parent_idx[parent_ptr[has_parent]] != parent[has_parent]).any():
        raise ValueError("the parent column disagrees with the edges")
    specs = manifest["nodes"]["columns"]
    attrs = _frame([_decode(nodes, c, "nodes.parquet", path) for c in specs],
                   [from_tagged(c["name"]) for c in specs], pd.RangeIndex(n),
                   object_names=False)
    return Graph(roots=np.flatnonzero(parent < 0).astype(INT), parent=parent,
                 parent_ptr=parent_ptr, parent_idx=parent_idx,
                 child_ptr=child_ptr, child_idx=dst.astype(INT), depth=depth,
                 attrs=attrs, ordered=bool(info["ordered"]), forest=bool(info["forest"]))


def _ints(table: pa.Table, field: str) -> np.ndarray:
    column = table.column(field)
    if column.null_count:
        raise ValueError(f"column {field!r} has missing values")
    return np.ascontiguousarray(column.to_numpy(), dtype=INT)


def _dataframe(manifest: Dict[str, Any], rows: pa.Table, path: Path) -> pd.DataFrame:
    info = manifest["metrics"]
    if rows.num_rows != int(info["num_rows"]):
        raise ValueError(f"expected {info['num_rows']} dataframe rows, found {rows.num_rows}")
    decoded = [_decode(rows, d, "metrics.parquet", path) for d in info["index"]]
    names = [from_tagged(d["name"]) for d in info["index"]]
    rows = rows.drop_columns([d["field"] for d in info["index"]])  # free as we go
    if len(decoded) > 1 and all(isinstance(v, np.ndarray) and v.dtype == np.int64
                                for v in decoded):
        index = make_index(decoded, names)  # codes straight from the arrays, no copies
        levels: List[pd.Index] = []
    else:
        levels = [_as_index(v) for v in decoded]
    del decoded
    if len(levels) == 1:
        index = levels[0].rename(names[0])
    elif levels:
        index = pd.MultiIndex.from_arrays(levels, names=names)
    columns = [from_tagged(d["name"]) for d in info["columns"]]
    data = []
    for d in info["columns"]:  # each stored column is released once decoded
        data.append(_decode(rows, d, "metrics.parquet", path))
        rows = rows.drop_columns([d["field"]])
    return _frame(data, columns, index, object_names=info.get("columns_dtype") == "|O")


def _as_index(values: Any) -> pd.Index:
    if _is_object(values):
        return pd.Index(np.asarray(values, dtype=object), dtype=object)
    return pd.Index(values)


def _is_object(values: Any) -> bool:
    return getattr(values, "dtype", None) == np.dtype(object)


def _frame(data: List[Any], names: List[Any], index: pd.Index,
           object_names: bool) -> pd.DataFrame:
    """A DataFrame from decoded columns; object columns stay object (pandas 3 would infer)."""
    prepared = {i: (pd.Series(np.asarray(v, dtype=object), index=index, dtype=object,
                              copy=False) if _is_object(v) else v)
                for i, v in enumerate(data)}
    df = pd.DataFrame(prepared, index=index, copy=False)
    df.columns = pd.Index(names, dtype=object) if object_names else pd.Index(names)
    return df
