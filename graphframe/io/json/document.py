"""Reading graphframe's ``to_json`` documents back exactly.

A document written by :func:`graphframe.io.json.export.to_dict` carries a
``"graphframe"`` key (format version :data:`~graphframe.io.json.export.JSON_VERSION`)
beside Hatchet's layout. :func:`parts_from_doc` rebuilds from it the same
node ids, child order, ``ordered`` flag, frame attribute table, dataframe
(values, dtypes, index, column names and order), metric declarations and
metadata. Documents without that key (Hatchet's own ``to_json``) are read by
:mod:`graphframe_readers.hatchet.json_layout` instead.

Node ids are kept: they are a pre-order, so building the graph with siblings
visited in id order numbers them again identically. A document whose ids are
not a pre-order (edited by hand) is renumbered like any input (siblings by
frame, or in listed order for ``ordered`` graphs), and its rows follow.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np
import pandas as pd

from graphframe_readers.errors import ReadError

from ...kernels import structure as st
from ...model.dataframe import frame_from_columns, make_index
from .export import JSON_VERSION
from ...model.graph import Graph
from .columns import decode_json_column, object_series
from ..codec import from_tagged

INT = np.int64


def parts_from_doc(doc: Any, source: Any = None) -> Optional[Dict[str, Any]]:
    """GraphFrame fields from a ``to_dict`` document, or None without our key.

    Raises :class:`ReadError` when the ``"graphframe"`` key is from a newer
    version or does not agree with the rest of the document.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> gf = GraphFrame.from_lists(("a", "c", "b"))
    >>> parts = parts_from_doc(gf.to_dict())
    >>> parts["graph"] == gf.graph and parts["dataframe"].equals(gf.dataframe)
    True
    >>> parts_from_doc({"graph": [], "dataframe": []}) is None
    True
    """
    ext = doc.get("graphframe") if isinstance(doc, Mapping) else None
    if not isinstance(ext, Mapping) or "version" not in ext:
        return None
    version = ext["version"]
    if not isinstance(version, int) or version > JSON_VERSION:
        raise ReadError(source, f"written with graphframe JSON version {version!r}, but this "
                        f"graphframe reads versions up to {JSON_VERSION}",
                        position="graphframe.version", expected="upgrade graphframe")
    try:
        graph, new_id = _graph(doc["graph"], ext)
        dataframe = _dataframe(doc, ext, new_id)
        return dict(
            graph=graph, dataframe=dataframe,
            exc_metrics=list(from_tagged(ext["exc_metrics"])),
            inc_metrics=list(from_tagged(ext["inc_metrics"])),
            default_metric=from_tagged(ext["default_metric"]),
            metadata=dict(from_tagged(ext["metadata"])),
            inclusive_of=dict(from_tagged(ext["inclusive_of"])),
            aggregations=dict(from_tagged(ext.get("aggregations", {}))))
    except ReadError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise ReadError(source, f"the document does not agree with its 'graphframe' key "
                        f"({type(exc).__name__}: {exc})", position="graphframe",
                        expected="a document written by GraphFrame.to_json") from exc


def _graph(tables: List[Mapping[Any, Any]], ext: Mapping[str, Any]
           ) -> Tuple[Graph, Optional[np.ndarray]]:
    frames: Dict[int, Mapping[str, Any]] = {}
    children: Dict[int, List[int]] = {}
    roots: List[int] = []
    for table in tables:
        for i, (key, entry) in enumerate(table.items()):
            nid = int(key)
            if i == 0 and nid not in roots:
                roots.append(nid)  # each table starts with its root
            if nid not in frames:
                frames[nid] = entry["data"]
                children[nid] = [int(c) for c in entry["children"]]
    n = len(frames)
    if sorted(frames) != list(range(n)):
        raise ValueError(f"node ids are not 0..{n - 1}")
    counts = np.array([len(children[v]) for v in range(n)], dtype=INT)
    src = np.repeat(np.arange(n, dtype=INT), counts)
    dst = np.fromiter((c for v in range(n) for c in children[v]), dtype=INT, count=int(counts.sum()))
    if len(dst) and (dst.min() < 0 or dst.max() >= n):
        raise ValueError("a child id is not a listed node")
    # ids are a pre-order: a node's first parent is its parent with the largest smaller id
    parent = np.full(n, -1, dtype=INT)
    earlier = src < dst
    np.maximum.at(parent, dst[earlier], src[earlier])
    preorder = np.flatnonzero(parent < 0).tolist() == sorted(roots)
    if not preorder:  # edited by hand: find first parents, renumber as usual
        parent = st.bfs_parents(n, src, dst, np.asarray(roots, dtype=INT))
        if (parent == -2).any():
            raise ValueError(f"node {int(np.flatnonzero(parent == -2)[0])} cannot be reached "
                             "from a root")
    candidates = np.flatnonzero(parent[dst] == src)
    _, once = np.unique(dst[candidates], return_index=True)  # one first-parent edge per child
    primary = np.zeros(len(src), dtype=bool)
    primary[candidates[once]] = True
    key = np.arange(len(src), dtype=INT)
    primary_key = np.zeros(n, dtype=INT)
    primary_key[dst[primary]] = key[primary]
    extra = ~primary
    attrs = _attrs(frames, n, ext["frames"])
    graph, order = Graph.build(attrs, parent, (src[extra], dst[extra]),
                               ordered=bool(ext["ordered"]),
                               sibling_key=np.arange(n, dtype=INT) if preorder else None,
                               child_order=(primary_key, key[extra]))
    if len(order) != n:
        raise ValueError("a node cannot be reached from a root")
    same = np.array_equal(order, np.arange(n))
    return graph, None if same else st.invert(order, n)


def _attrs(frames: Dict[int, Mapping[str, Any]], n: int, specs: List[Any]) -> pd.DataFrame:
    columns = {}
    for i, spec in enumerate(specs):
        name = from_tagged(spec["name"])
        key = name if isinstance(name, str) else str(name)
        values = [frames[v].get(key) for v in range(n)]
        columns[i] = object_series(decode_json_column(values, spec["codec"]), pd.RangeIndex(n))
    attrs = pd.DataFrame(columns, index=pd.RangeIndex(n), copy=False)
    attrs.columns = [from_tagged(s["name"]) for s in specs]
    return attrs


def _dataframe(doc: Mapping[str, Any], ext: Mapping[str, Any],
               new_id: Optional[np.ndarray]) -> pd.DataFrame:
    records = doc["dataframe"]
    level_keys = list(doc["dataframe_indices"])
    specs = ext["index"]
    if len(level_keys) != len(specs):
        raise ValueError("dataframe_indices and the index codecs differ in length")
    levels = [decode_json_column([r[k] for r in records], s["codec"])
              for k, s in zip(level_keys, specs)]
    names = [from_tagged(s["name"]) for s in specs]
    if new_id is not None:
        levels[0] = new_id[np.asarray(levels[0], dtype=INT)]
    if len(levels) == 1:
        index = pd.Index(object_series(levels[0]), name=names[0])
    elif all(getattr(lv, "dtype", None) == INT for lv in levels):
        index = make_index(levels, names)
    else:
        index = pd.MultiIndex.from_arrays([object_series(lv) for lv in levels], names=names)
    data = {}
    for i, spec in enumerate(ext["columns"]):
        key = spec["key"]
        data[i] = object_series(decode_json_column([r[key] for r in records],
                                                   spec["codec"]), index)
    df = frame_from_columns(data, index)
    column_names = [from_tagged(s["name"]) for s in ext["columns"]]
    df.columns = pd.Index(column_names, dtype=object) if \
        ext.get("columns_dtype") == "object" else pd.Index(column_names)
    if new_id is not None:
        df = df.sort_index(kind="stable")
    return df
