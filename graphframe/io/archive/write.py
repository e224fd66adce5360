"""Writing a GraphFrame as a graphframe archive (see :mod:`graphframe.io.archive`)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pyarrow as pa

from ..._version import __version__
from ...kernels import structure as st
from ...model.fields import GraphFrameLike
from ...model.graph import Graph
from ..codec import WriteError, encode_column, encode_names, to_tagged
from .layout import FORMAT_NAME, FORMAT_VERSION, INT, MANIFEST, ZIP_TIME


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
    >>> from graphframe.io.archive import read_parts
    >>> p = save(gf, os.path.join(tempfile.mkdtemp(), "run.gfz"))
    >>> parts = read_parts(p)
    >>> parts["dataframe"].equals(gf.dataframe) and parts["graph"] == gf.graph
    True
    """
    import pyarrow.parquet as pq  # with the first archive written, not with graphframe

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
