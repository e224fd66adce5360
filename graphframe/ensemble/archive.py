"""Saving and loading Ensembles: a versioned, columnar, byte-reproducible archive (no pickle).

File layout (``format: graphframe-ensemble``, version 1): a ZIP archive
(members stored, fixed timestamps and order) holding

``ensemble.json``
    The manifest: format, version, writer, the metric declarations and, for
    every table below, its index name and columns (real names as tagged JSON,
    with the codec that rebuilds each exact pandas dtype).
``perfdata.gfz``
    The union graph and the performance data as a graphframe archive
    (:meth:`graphframe.GraphFrame.save`; the ``profile`` level is an index
    level like ``rank``).
``profiles.parquet``, ``metadata.parquet``, ``statsframe.parquet``, ``errors.parquet``
    The other tables, index first (column ``__index__``).
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from graphframe_readers.errors import ReadError

from .._version import __version__
from ..errors import GraphframeError
from ._internal import (GraphFrame, decode_column, encode_column, frame_from_columns, from_tagged,
                        to_tagged)

FORMAT = "graphframe-ensemble"
VERSION = 1
MANIFEST = "ensemble.json"
PERFDATA = "perfdata.gfz"
TABLES = ("profiles", "metadata", "statsframe", "errors")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
INDEX = "__index__"


class EnsembleSaveError(GraphframeError, OSError):
    """The archive could not be written (unwritable place, unsavable value)."""


def save(ens: Any, path: Any, compression: str = "snappy") -> Path:
    """Write ``ens`` to ``path`` (see the module docs); return the path."""
    path = Path(os.fspath(path))
    gf = GraphFrame(ens.graph, ens.dataframe, ens.exc_metrics, ens.inc_metrics,
                    ens.default_metric, inclusive_of=ens.inclusive_of,
                    aggregations=ens.aggregations)
    manifest: Dict[str, Any] = dict(
        format=FORMAT, version=VERSION, writer=f"graphframe {__version__}",
        exc_metrics=to_tagged(ens.exc_metrics), inc_metrics=to_tagged(ens.inc_metrics),
        default_metric=to_tagged(ens.default_metric),
        inclusive_of=to_tagged(ens.inclusive_of), aggregations=to_tagged(ens.aggregations),
        tables={})
    members: List[Tuple[str, bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        gf.save(os.path.join(tmp, PERFDATA), compression=compression)
        members.append((PERFDATA, Path(tmp, PERFDATA).read_bytes()))
    for name in TABLES:
        table, spec = _encode_table(getattr(ens, name), name)
        buffer = io.BytesIO()
        pq.write_table(table, buffer, compression=compression)
        members.append((f"{name}.parquet", buffer.getvalue()))
        manifest["tables"][name] = spec
    tmp_path = path.with_name(path.name + ".tmp")
    try:
        with zipfile.ZipFile(tmp_path, "w", compression=zipfile.ZIP_STORED,
                             allowZip64=True) as zf:
            _member(zf, MANIFEST, json.dumps(manifest, indent=1, allow_nan=False).encode())
            for name, data in members:
                _member(zf, name, data)
        os.replace(tmp_path, path)
    except OSError as exc:
        raise EnsembleSaveError(f"{path}: cannot save the archive: "
                                f"{exc.strerror or exc}") from exc
    finally:
        if tmp_path.exists():
            tmp_path.unlink()
    return path


def _member(zf: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.compress_type = zipfile.ZIP_STORED
    info.external_attr = 0o644 << 16
    zf.writestr(info, data)


def _encode_table(df: pd.DataFrame, name: str) -> Tuple[pa.Table, Dict[str, Any]]:
    arrays, fields, columns = [], [], []
    index_array, index_codec = encode_column(df.index, f"{name} index")
    arrays.append(index_array)
    fields.append(INDEX)
    for i, col in enumerate(df.columns):
        array, codec = encode_column(df[col], f"{name} column {col!r}")
        arrays.append(array)
        fields.append(f"c{i}")
        columns.append(dict(name=to_tagged(col), field=f"c{i}", codec=codec))
    spec = dict(index_name=to_tagged(df.index.name), index_codec=index_codec, columns=columns,
                rows=len(df))
    return pa.table(arrays, names=fields), spec


def load(path: Any) -> Dict[str, Any]:
    """The fields of the Ensemble saved at ``path`` (keywords for ``Ensemble``)."""
    path = Path(os.fspath(path))
    try:
        zf = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        raise ReadError(path, f"not an ensemble archive ({exc})",
                        expected="a file written by Ensemble.save") from exc
    with zf:
        manifest = _manifest(zf, path)
        with tempfile.TemporaryDirectory() as tmp:
            member = os.path.join(tmp, PERFDATA)
            with open(member, "wb") as fh:
                fh.write(_read(zf, PERFDATA, path))
            gf = GraphFrame.load(member)
        tables = {}
        for name in TABLES:
            spec = manifest["tables"].get(name)
            if spec is None:
                raise ReadError(path, f"the manifest does not describe {name}",
                                position=MANIFEST, expected=f"tables.{name}")
            table = pq.read_table(io.BytesIO(_read(zf, f"{name}.parquet", path)))
            tables[name] = _decode_table(table, spec, name, path)
    return dict(graph=gf.graph, dataframe=gf.dataframe,
                exc_metrics=from_tagged(manifest["exc_metrics"]),
                inc_metrics=from_tagged(manifest["inc_metrics"]),
                default_metric=from_tagged(manifest["default_metric"]),
                inclusive_of=from_tagged(manifest["inclusive_of"]),
                aggregations=from_tagged(manifest["aggregations"]), **tables)


def _read(zf: zipfile.ZipFile, member: str, path: Path) -> bytes:
    try:
        return zf.read(member)
    except KeyError as exc:
        raise ReadError(path, f"the archive has no member {member}",
                        expected="a complete ensemble archive") from exc


def _manifest(zf: zipfile.ZipFile, path: Path) -> Dict[str, Any]:
    try:
        manifest = json.loads(_read(zf, MANIFEST, path))
    except ValueError as exc:
        raise ReadError(path, f"the manifest is not JSON: {exc}", position=MANIFEST) from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ReadError(path, "the manifest does not describe an ensemble archive",
                        position=MANIFEST, expected=f'"format": "{FORMAT}"')
    version = manifest.get("version")
    if not isinstance(version, int) or version > VERSION or version < 1:
        raise ReadError(path, f"archive version {version!r} is not supported",
                        position=MANIFEST, expected=f"version 1..{VERSION}")
    for key in ("exc_metrics", "inc_metrics", "default_metric", "inclusive_of",
                "aggregations", "tables"):
        if key not in manifest:
            raise ReadError(path, f"the manifest has no {key!r}", position=MANIFEST)
    return manifest


def _decode_table(table: pa.Table, spec: Dict[str, Any], name: str, path: Path) -> pd.DataFrame:
    try:
        index = pd.Index(decode_column(table.column(INDEX).combine_chunks(),
                                       spec["index_codec"]),
                         name=from_tagged(spec["index_name"]))
        data = {}
        names = []
        for col in spec["columns"]:
            key = from_tagged(col["name"])
            names.append(key)
            data[key] = decode_column(table.column(col["field"]).combine_chunks(), col["codec"])
    except (KeyError, ValueError, TypeError) as exc:
        raise ReadError(path, f"the {name} table does not match its description: {exc}",
                        position=f"{name}.parquet", expected="the columns the manifest lists"
                        ) from exc
    return frame_from_columns(data, index) if names else pd.DataFrame(index=index)
