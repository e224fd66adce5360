"""Saving and loading GraphFrames: a versioned, columnar archive (never pickle).

:func:`save` (:mod:`.write`) writes it, :func:`read_parts` (:mod:`.read`)
reads it back; this package holds the layout and :func:`is_archive`. Parquet
(``pyarrow.parquet``) is imported when an archive is written or read, not
with graphframe.

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

from ..codec import SaveError, WriteError
from .layout import FORMAT_NAME, FORMAT_VERSION, MANIFEST, SUFFIX, is_archive
from .read import read_manifest, read_parts
from .write import save

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "MANIFEST", "SUFFIX", "SaveError", "WriteError",
           "is_archive", "read_manifest", "read_parts", "save"]
