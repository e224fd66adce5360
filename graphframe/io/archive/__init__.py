"""Saving and loading GraphFrames: a versioned, columnar archive (never pickle).

File layout (format version 1)
------------------------------
A ZIP archive (members stored uncompressed; the Parquet members compress
themselves) holding, in this order:

``graphframe.json``
    The manifest: ``{"format": "graphframe", "version": 1, "writer": ...}``,
    graph facts (``num_nodes``, ``num_edges``, ``ordered``, ``forest``), the
    metric declarations (``exc_metrics``, ``inc_metrics``, ``inclusive_of``,
    ``default_metric``, ``aggregations``; archives written before
    ``aggregations`` existed lack it and load with none), ``metadata`` and, for each table, its columns: the
    real name (tagged JSON, so any hashable name survives), the Parquet field
    and a codec that rebuilds the exact pandas dtype (see ``persist_codec``).
``nodes.parquet``
    One row per node id ``0..n-1``: ``parent`` (first parent, -1 for roots),
    ``depth``, then every frame attribute as ``frame.<key>`` (null = the key
    is absent from that node's frame).
``edges.parquet``
    Every parent -> child edge once, grouped by parent in the graph's child
    order (``parent``, ``child``), and ``parent_rank``: the edge's position in
    the child's parent list (0 = first parent). Shared nodes (DAGs) and
    cycles are kept exactly.
``metrics.parquet``
    The dataframe: its index levels (``node``, ``rank``, ``thread``...) then
    its columns, one row per dataframe row, in order.

Any Parquet reader can open the three tables (unzip first). Node ids are
stored as they are, so loading gives back the same ids, the same graph
arrays and an equal dataframe. A file whose ``version`` is newer than
:data:`FORMAT_VERSION` is refused with a clear error rather than misread,
and a manifest whose fields have the wrong shape (an edited file) is a
``ReadError`` naming the field (see ``persist_schema``).

Archives are byte-reproducible: members have a fixed timestamp
(1980-01-01), fixed permissions and a fixed order, so saving the same
GraphFrame twice gives identical files.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from readers.errors import ReadError

from ...kernels import structure as st
from ...model.dataframe import make_index
from ..._version import __version__
from ...model.graph import Graph
from ..codec import (SaveError, WriteError, decode_column, encode_column, encode_names,
                     from_tagged, to_tagged)
from .schema import check_fields, check_ids, check_manifest, decode_field
from ...model.fields import GraphFrameLike

FORMAT_NAME = "graphframe"
FORMAT_VERSION = 1
MANIFEST = "graphframe.json"
SUFFIX = ".gfz"
INT = np.int64
_MAGIC = b"PK\x03\x04"

#: Timestamp of every member (the earliest a ZIP file can hold): reproducible bytes.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)

__all__ = ["FORMAT_VERSION", "SaveError", "WriteError", "is_archive", "read_manifest",
           "read_parts", "save"]


def save(gf: GraphFrameLike, path: Any, compression: str = "snappy") -> Path:
    """Write ``gf`` to ``path`` as a graphframe archive; return the path.

    Parameters
    ----------
    gf : GraphFrame
    path : str or path-like
        Conventionally ends in ``.gfz``; the file is replaced atomically.
    compression : str
        Parquet compression (``"snappy"``, ``"zstd"``, ``"gzip"``, ``"none"``).
        Columns other than floating point ones are also dictionary-encoded.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe.examples import example_graphframe
    >>> gf = example_graphframe()
    >>> p = save(gf, os.path.join(tempfile.mkdtemp(), "run.gfz"))
    >>> parts = read_parts(p)
    >>> parts["dataframe"].equals(gf.dataframe) and parts["graph"] == gf.graph
    True
    """
    path = Path(os.fspath(path))
    tables, manifest = _tables(gf)
    if path.is_dir():
        raise WriteError(f"{path}: cannot save the archive there: it is a directory")
    tmp = path.with_name(path.name + ".tmp")
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
            _write_member(zf, MANIFEST, json.dumps(manifest, indent=1, allow_nan=False).encode())
            for member, table in tables:
                buffer = io.BytesIO()
                pq.write_table(table, buffer, compression=compression,
                               use_dictionary=_dictionary_fields(table))
                _write_member(zf, member, buffer.getbuffer())
        os.replace(tmp, path)
    except OSError as exc:
        why = exc.strerror or str(exc)
        if isinstance(exc, FileNotFoundError) and not path.parent.is_dir():
            why = f"the folder {path.parent} does not exist"
        raise WriteError(f"{path}: cannot save the archive: {why}") from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path


def _write_member(zf: zipfile.ZipFile, name: str, data: Any) -> None:
    """A stored member with a fixed timestamp and permissions (reproducible bytes)."""
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.compress_type = zipfile.ZIP_STORED
    info.external_attr = 0o644 << 16
    info.create_system = 3  # Unix, whatever the platform
    zf.writestr(info, data)


def _tables(gf: GraphFrameLike) -> Tuple[List[Tuple[str, pa.Table]], Dict[str, Any]]:
    g = gf.graph
    node_fields, node_columns = ["parent", "depth"], [pa.array(g.parent), pa.array(g.depth)]
    node_desc = []
    for name in g.attrs.columns:
        field = f"frame.{name}"
        array, codec = encode_column(g.attrs[name], f"frame attribute {name!r}")
        node_fields.append(field)
        node_columns.append(array)
        node_desc.append({"name": to_tagged(name, "a frame key"), "field": field,
                          "codec": codec})
    owner = g.edge_sources()
    edges = pa.table({"parent": owner, "child": g.child_idx, "parent_rank": _parent_ranks(g)})
    df = gf.dataframe
    levels = list(df.index.names)
    fields, arrays, index_desc, column_desc = [], [], [], []
    taken = set()
    for i, level in enumerate(levels):
        array, codec = encode_column(df.index.get_level_values(i), f"index level {level!r}")
        field = _field_name(level, "index", i, taken)
        fields.append(field)
        arrays.append(array)
        index_desc.append({"name": to_tagged(level, "an index level name"), "field": field,
                           "codec": codec})
    for i, col in enumerate(df.columns):
        array, codec = encode_column(df.iloc[:, i], f"column {col!r}")
        field = _field_name(col, "column", i, taken)
        fields.append(field)
        arrays.append(array)
        column_desc.append({"name": to_tagged(col, "a column name"), "field": field,
                            "codec": codec})
    manifest = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "writer": f"graphframe {__version__}",
        "graph": {"num_nodes": g.num_nodes, "num_edges": g.num_edges,
                  "ordered": g.ordered, "forest": g.is_forest},
        "nodes": {"columns": node_desc},
        "metrics": {"num_rows": len(df), "index": index_desc, "columns": column_desc,
                    "columns_dtype": df.columns.dtype.str
                    if isinstance(df.columns.dtype, np.dtype) else str(df.columns.dtype)},
        "exc_metrics": encode_names(gf.exc_metrics),
        "inc_metrics": encode_names(gf.inc_metrics),
        "inclusive_of": [[to_tagged(k, "a metric"), to_tagged(v, "a metric")]
                         for k, v in gf.inclusive_of.items()],
        "default_metric": to_tagged(gf.default_metric, "default_metric"),
        "metadata": to_tagged(gf.metadata, "metadata"),
        "aggregations": [[to_tagged(k, "a column name"), v]
                         for k, v in gf.aggregations.items()],
    }
    tables = [("nodes.parquet", pa.table(dict(zip(node_fields, node_columns)))),
              ("edges.parquet", edges),
              ("metrics.parquet", pa.table(dict(zip(fields, arrays))))]
    return tables, manifest


def _dictionary_fields(table: pa.Table) -> List[str]:
    """Fields worth dictionary encoding: everything but floating point values."""
    return [f.name for f in table.schema if not pa.types.is_floating(f.type)]


def _field_name(name: Any, kind: str, i: int, taken: set) -> str:
    field = name if isinstance(name, str) and name and name not in taken else f"{kind}.{i}"
    taken.add(field)
    return field


def _parent_ranks(g: Graph) -> np.ndarray:
    """Position of each child-CSR edge in its child's parent list."""
    m = g.num_edges
    if not m:
        return np.zeros(0, dtype=INT)
    owner = g.edge_sources()
    # key each edge and each parent-list entry by (child, parent)
    n = max(g.num_nodes, 1)
    edge_key = g.child_idx.astype(INT) * n + owner
    pchild = st.segment_owner(g.parent_ptr)
    plist_key = pchild.astype(INT) * n + g.parent_idx
    rank_in_list = np.arange(len(plist_key), dtype=INT) - g.parent_ptr[pchild]
    order = np.argsort(plist_key, kind="stable")
    pos = np.searchsorted(plist_key[order], edge_key)
    return rank_in_list[order[pos]]


# ---------------------------------------------------------------- loading
def is_archive(path: Any) -> bool:
    """True when ``path`` is a file written by :func:`save` (cheap: reads 64 bytes).

    Examples
    --------
    >>> is_archive(__file__)
    False
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return False
    return head[:4] == _MAGIC and MANIFEST.encode() in head


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
        rows = _read_table(zf, "metrics.parquet", path)
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


def _read_table(zf: zipfile.ZipFile, member: str, path: Path) -> pa.Table:
    try:
        data = zf.read(member)
    except KeyError as exc:
        raise ReadError(path, f"the archive has no {member}", position=member) from exc
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ReadError(path, f"{member} is damaged ({exc})", position=member) from exc
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
        text = [f.name for f in parquet.schema_arrow
                if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
        if text:  # text stays dictionary-encoded: decoded once per distinct value
            parquet = pq.ParquetFile(pa.BufferReader(data), read_dictionary=text)
        return parquet.read()
    except (pa.ArrowException, OSError) as exc:
        raise ReadError(path, f"{member} is not a readable Parquet table ({exc})",
                        position=member) from exc


def _decode(table: pa.Table, spec: Dict[str, Any], member: str, path: Path) -> Any:
    """One stored column decoded with its codec; a ReadError naming it if they disagree."""
    try:
        return decode_column(table.column(spec["field"]), spec["codec"])
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
    levels = [_as_index(_decode(rows, d, "metrics.parquet", path)) for d in info["index"]]
    names = [from_tagged(d["name"]) for d in info["index"]]
    if len(levels) == 1:
        index = levels[0].rename(names[0])
    elif all(lv.dtype == np.int64 for lv in levels):
        index = make_index([lv.to_numpy() for lv in levels], names)  # no factorising
    else:
        index = pd.MultiIndex.from_arrays(levels, names=names)
    columns = [from_tagged(d["name"]) for d in info["columns"]]
    data = [_decode(rows, d, "metrics.parquet", path) for d in info["columns"]]
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
