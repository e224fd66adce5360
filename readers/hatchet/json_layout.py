"""Hatchet's ``to_json`` layout (``GraphFrame.to_json`` / ``from_json``).

::

    {"graph": [{"<nid>": {"data": {frame}, "children": [nid, ...]}, ...}, ...],
     "dataframe_indices": ["node", "rank", ...],
     "dataframe": [{"node": nid, "rank": 0, "<column>": value, ...}, ...],
     "exclusive_metrics": [...], "inclusive_metrics": [...]}

One dict per root; the first key of each is that root. graphframe writes
optional keys too (``default_metric``, ``metadata``, ``column_order``,
``aggregations`` when declared, and ``graphframe``, which holds exact dtypes, child order and declarations) that
Hatchet ignores. This reader gives Hatchet's meaning of a document;
``GraphFrame.from_json`` and ``graphframe.read`` read graphframe's own
documents exactly (``graphframe/io/json/``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pandas as pd

from ..builder import ProfileBuilder, records_to_frame
from ..common.callgraph import ids_in_edge_order, parents_from_roots
from ..common.jsonfile import as_document
from ..common.source import read_source
from ..errors import ReadError
from ..profile import RawProfile
from ..registry import FormatInfo, looks_like_json


def read_hatchet_json(path: Any) -> RawProfile:
    """Read a file written by ``to_json`` (Hatchet's or ours) with Hatchet's meaning.

    Parameters
    ----------
    path : str, path-like or file-like
        The JSON file, or an open text or binary stream of it.

    Returns
    -------
    RawProfile

    Examples
    --------
    >>> import io, json
    >>> doc = {"graph": [{"0": {"data": {"name": "a", "type": "function"}, "children": []}}],
    ...        "dataframe_indices": ["node"], "dataframe": [{"node": 0, "name": "a", "time": 1.0}],
    ...        "exclusive_metrics": ["time"], "inclusive_metrics": []}
    >>> read_hatchet_json(io.StringIO(json.dumps(doc))).metrics["time"].tolist()
    [1.0]
    """
    data, source = read_source(path)
    return parse_hatchet_json(data, source=source)


def parse_hatchet_json(doc: Any, source: Any = None) -> RawProfile:
    """Decode a ``to_dict``-shaped document: its JSON text (``str``/``bytes``) or
    the dict already loaded.

    Parameters
    ----------
    doc : dict, str or bytes
        The document.
    source : any, optional
        Names the input in errors.

    Returns
    -------
    RawProfile

    Examples
    --------
    >>> doc = {"graph": [{"0": {"data": {"name": "a", "type": "function"},
    ...                         "children": [1]},
    ...                   "1": {"data": {"name": "b", "type": "function"},
    ...                         "children": []}}],
    ...        "dataframe_indices": ["node"],
    ...        "dataframe": [{"node": 0, "name": "a", "time": 1.0},
    ...                      {"node": 1, "name": "b", "time": 2.0}],
    ...        "exclusive_metrics": ["time"], "inclusive_metrics": []}
    >>> parse_hatchet_json(doc).num_nodes
    2
    """
    doc = as_document(doc, source)
    if not isinstance(doc, dict):
        raise ReadError(source, "the document is not a JSON object", position="top level",
                        expected="an object with 'graph' and 'dataframe'")
    for key in ("graph", "dataframe", "dataframe_indices"):
        if key not in doc:
            raise ReadError(source, f"missing key {key!r}", position="top level",
                            expected="the keys of GraphFrame.to_json")
    levels = list(doc["dataframe_indices"])
    if not levels or levels[0] != "node":
        raise ReadError(source, "the first index level is not 'node'",
                        position="dataframe_indices", expected='["node", ...]')
    builder = ProfileBuilder(source, index_levels=levels[1:])
    local = _add_graph(builder, doc["graph"], source)
    records = doc["dataframe"]
    if not isinstance(records, list):
        raise ReadError(source, "'dataframe' is not a list", position="dataframe",
                        expected="a list of row objects")
    table = pd.DataFrame.from_records(records) if records else pd.DataFrame({"node": []})
    for level in levels:
        if level not in table.columns:
            raise ReadError(source, f"rows lack the index level {level!r}",
                            position="dataframe", expected="every index level in each row")
    declared = set(doc.get("exclusive_metrics", [])) | set(doc.get("inclusive_metrics", []))
    values = {}
    for col in table.columns:
        if col in levels:
            continue
        column = table[col]
        if col in declared and column.dtype == object:
            try:  # null (NaN written by to_json) makes pandas keep objects
                column = pd.to_numeric(column.where(column.notna(), np.nan))
            except (TypeError, ValueError) as exc:
                raise ReadError(source, f"metric {col!r} holds a non-number",
                                position="dataframe", expected="numbers or null") from exc
        values[col] = column.to_numpy()
    nodes = [local.get(nid, -2) for nid in table["node"].to_numpy(dtype=np.int64).tolist()]
    if -2 in nodes:
        row = nodes.index(-2)
        raise ReadError(source, f"row {row} refers to node {int(table['node'].iloc[row])}, "
                        "which the graph does not list", position=f"dataframe[{row}]",
                        expected="a node id listed in 'graph'")
    builder.add_rows(np.asarray(nodes, dtype=np.int64), values,
                     **{lv: table[lv].to_numpy(dtype=np.int64) for lv in levels[1:]})
    exc = [m for m in doc.get("exclusive_metrics", []) if m in table.columns]
    inc = [m for m in doc.get("inclusive_metrics", []) if m in table.columns]
    pairs = {m: f"{m} (inc)" for m in exc if f"{m} (inc)" in inc}
    default = doc.get("default_metric")
    if default not in table.columns:
        default = "time" if "time" in table.columns else (exc + inc + [None])[0]
    metadata = dict(doc["metadata"]) if isinstance(doc.get("metadata"), dict) else {
        "format": "hatchet-json"}
    order = doc.get("column_order")
    if not isinstance(order, list):  # Hatchet's documents: the records' column order
        order = [c for c in table.columns if c not in levels]
    aggregations = doc.get("aggregations")
    return builder.build(exc, inc, inclusive_of=pairs, default_metric=default,
                         metadata=metadata,
                         columns=order,
                         aggregations=aggregations if isinstance(aggregations, dict) else None)


def _add_graph(builder: ProfileBuilder, graph: Any, source: Any) -> Dict[int, int]:
    """Add the document's nodes and edges; return each node id's local id."""
    if not isinstance(graph, list):
        raise ReadError(source, "'graph' is not a list", position="graph",
                        expected="a list of per-root node tables")
    frames: Dict[int, dict] = {}
    children: Dict[int, List[int]] = {}
    roots: List[int] = []
    for r, table in enumerate(graph):
        if not isinstance(table, dict) or not table:
            raise ReadError(source, "a root entry is empty or not an object",
                            position=f"graph[{r}]", expected="an object of nodes")
        for i, (key, entry) in enumerate(table.items()):
            try:
                nid = int(key)
                data, kids = entry["data"], [int(c) for c in entry.get("children", [])]
            except (TypeError, ValueError, KeyError) as exc:
                raise ReadError(source, f"malformed node entry {key!r}",
                                position=f"graph[{r}]", expected="{'data': {...}, 'children': [...]}"
                                ) from exc
            if i == 0 and nid not in roots:
                roots.append(nid)
            frames.setdefault(nid, data)
            children.setdefault(nid, kids)
    for nid, kids in children.items():
        for child in kids:
            if child not in frames:
                raise ReadError(source, f"node {nid} lists unknown child {child}",
                                position="graph", expected="children that are listed nodes")
    # first parent = first discovery in a breadth-first walk from the roots (children in
    # listed order), so parent chains end at a root even when the graph has cycles; each
    # node lists its children in the document's order, as Hatchet's from_json keeps them
    nids = list(frames)
    number = {nid: k for k, nid in enumerate(nids)}
    src = np.fromiter((number[nid] for nid, kids in children.items() for _ in kids),
                      dtype=np.int64)
    dst = np.fromiter((number[c] for kids in children.values() for c in kids), dtype=np.int64)
    n = len(nids)
    parent, extra_src, extra_dst, reached = parents_from_roots(
        n, src, dst, [number[r] for r in roots])
    if not reached.all():
        raise ReadError(source, f"node {nids[int(np.flatnonzero(~reached)[0])]} cannot be "
                        "reached from any root", position="graph",
                        expected="every node below a root")
    ids, order = ids_in_edge_order(n, src, dst, parent, extra_src, extra_dst)
    builder.add_nodes(np.where(parent < 0, -1, ids[np.maximum(parent, 0)]),
                      records_to_frame([frames[nid] for nid in nids]), node_ids=ids)
    # (an empty edge table with ``order`` still asks for children in that order)
    builder.add_edges(ids[extra_src], ids[extra_dst], order=order)
    return dict(zip(nids, ids.tolist()))


_FIRST_KEY_GRAPH = re.compile(rb'^\s*\{\s*"graph"\s*:')


def _sniff(path: Path, head: bytes) -> bool:
    if not looks_like_json(head, b"{"):
        return False
    # graphframe and Hatchet write "graph" first; a large graph pushes the
    # other keys far beyond the sniffed bytes
    return bool(_FIRST_KEY_GRAPH.match(head.lstrip(b"\xef\xbb\xbf"))) or (
        b'"graph"' in head and b'"dataframe' in head)


FORMAT = FormatInfo(
    name="hatchet-json",
    read=read_hatchet_json,
    sniff=_sniff,
    description="Hatchet to_json document (graph + dataframe records)",
    suffixes=(".json",),
)
