"""Thicket's ``to_json`` layout, written and read by an Ensemble.

A JSON object with ``graph`` (a list holding one object: node id -> ``{"data":
frame, "children": [ids], "parents": [ids]}``), ``dataframe_indices``,
``dataframe`` (one record per row: index values then columns), ``metadata``
(records with ``profile``), ``stats`` (records with ``node``),
``inclusive_metrics``, ``exclusive_metrics``, ``profile`` (the profile labels),
``profile_idx_name`` and ``profile_mapping`` (label -> source).

Reading keeps each metric list where it is written: Thicket's own
``from_json`` assigns them the other way round, which we do not copy. NaN is
written as ``null``.
"""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Mapping

import numpy as np
import pandas as pd

from graphframe_readers.errors import ReadError

from ._internal import Graph
from .build import errors_table, profiles_table
from .statsframe import empty_statsframe

INT = np.int64


def to_thicket_json(ens: Any, ensemble: bool = True, metadata: bool = True,
                    stats: bool = True, profile_idx_name: bool = True) -> str:
    """The JSON text of ``ens`` in Thicket's layout (see the module docs).

    Examples
    --------
    >>> from graphframe import Ensemble, GraphFrame
    >>> ens = Ensemble.from_graphframes([GraphFrame.from_lists(("main", "x"))])
    >>> doc = json.loads(to_thicket_json(ens))
    >>> doc["graph"][0]["1"]["data"]["name"], doc["graph"][0]["1"]["parents"]
    ('x', [0])
    >>> doc["dataframe"][1]["time"], doc["dataframe_indices"]
    (1.0, ['node', 'profile'])
    """
    g = ens.graph
    graph = {}
    frames = g.frame_dicts()
    for i in range(g.num_nodes):
        graph[str(i)] = {"data": frames[i],
                         "children": [int(c) for c in g.child_idx[g.child_ptr[i]:g.child_ptr[i + 1]]],
                         "parents": [int(p) for p in g.parent_idx[g.parent_ptr[i]:g.parent_ptr[i + 1]]]}
    doc: Dict[str, Any] = {"graph": [graph]}
    if ensemble:
        doc["dataframe_indices"] = list(ens.dataframe.index.names)
        doc["dataframe"] = _records(ens.dataframe.reset_index())
    if metadata:
        doc["metadata"] = _records(ens.metadata.reset_index())
    if stats:
        doc["stats"] = _records(ens.statsframe.reset_index())
    doc["inclusive_metrics"] = list(ens.inc_metrics)
    doc["exclusive_metrics"] = list(ens.exc_metrics)
    doc["profile"] = [_plain(p) for p in ens.metadata.index]
    if profile_idx_name:   # Thicket 2026's key (2024.2's documents have none)
        doc["profile_idx_name"] = "profile"
    doc["profile_mapping"] = {str(_plain(k)): _plain(v)
                              for k, v in zip(ens.profiles.index, ens.profiles["path"])} \
        if "path" in ens.profiles.columns else {}
    return json.dumps(doc, allow_nan=False)


def _records(df: pd.DataFrame) -> List[Dict[str, Any]]:
    columns = [str(c) for c in df.columns]
    values = [df[c].tolist() for c in df.columns]
    return [{c: _plain(v[i]) for c, v in zip(columns, values)} for i in range(len(df))]


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if value is pd.NA or value is pd.NaT:
        return None
    return value


def thicket_json_parts(doc: Any, source: str = "<thicket json>") -> Dict[str, Any]:
    """The fields of an Ensemble read from Thicket's ``to_json`` output (a string or the
    parsed object): ``Ensemble(**thicket_json_parts(text))``."""
    if isinstance(doc, (str, bytes)):
        try:
            doc = json.loads(doc)
        except ValueError as exc:
            raise ReadError(source, f"not JSON: {exc}", expected="Thicket's to_json text") from exc
    if not isinstance(doc, Mapping) or "graph" not in doc:
        raise ReadError(source, "no 'graph' entry", expected="Thicket's to_json layout")
    graph, new_of = _graph(doc["graph"], source)
    index_names = list(doc.get("dataframe_indices") or ["node", "profile"])
    df = _dataframe(doc.get("dataframe") or [], index_names, new_of, source)
    labels = list(doc.get("profile") or sorted(set(df.index.get_level_values("profile"))))
    meta = pd.DataFrame.from_records(doc.get("metadata") or [{"profile": p} for p in labels])
    meta = meta.set_index("profile").reindex(labels)
    meta = meta.apply(lambda col: col.map(lambda v: tuple(v) if isinstance(v, list) else v))
    mapping = doc.get("profile_mapping") or {}
    profiles = profiles_table([dict(path=mapping.get(str(p)), hash=None, format="thicket-json",
                                    options="{}", nodes=0, rows=0) for p in labels])
    profiles.index = meta.index
    stats = empty_statsframe(graph)
    if doc.get("stats"):
        table = pd.DataFrame.from_records(doc["stats"])
        table["node"] = new_of[table["node"].astype(INT).to_numpy()]
        stats = table.set_index("node").reindex(stats.index)
    return dict(graph=graph, dataframe=df, profiles=profiles, metadata=meta, statsframe=stats,
                exc_metrics=doc.get("exclusive_metrics") or [],
                inc_metrics=doc.get("inclusive_metrics") or [], errors=errors_table([]))


def _graph(graph_doc: Any, source: str):
    if not isinstance(graph_doc, list) or not graph_doc or not isinstance(graph_doc[0], Mapping):
        raise ReadError(source, "'graph' is not a list holding one object",
                        position="graph", expected="[{node id: {data, children, parents}}]")
    nodes = graph_doc[0]
    ids = np.array(sorted(int(k) for k in nodes), dtype=INT)
    pos = {int(k): i for i, k in enumerate(ids)}
    frames, parent = [], np.full(len(ids), -1, dtype=INT)
    for i, k in enumerate(ids):
        entry = nodes[str(k)]
        frames.append(dict(entry.get("data") or {}))
        parents = entry.get("parents") or []
        if parents:
            if int(parents[0]) not in pos:
                raise ReadError(source, f"node {k} names the unknown parent {parents[0]}",
                                position=f"graph[{k}]", expected="the id of another node")
            parent[i] = pos[int(parents[0])]
    attrs = pd.DataFrame.from_records(frames)
    built, order = Graph.build(attrs, parent)
    new_of_pos = np.empty(len(order), dtype=INT)
    new_of_pos[order] = np.arange(len(order), dtype=INT)
    new_of = np.full(int(ids.max()) + 1 if len(ids) else 0, -1, dtype=INT)
    new_of[ids] = new_of_pos
    return built, new_of


def _dataframe(records: List[Mapping[str, Any]], names: List[str], new_of: np.ndarray,
               source: str) -> pd.DataFrame:
    df = pd.DataFrame.from_records(records)
    if not len(df):
        return pd.DataFrame(index=pd.MultiIndex.from_arrays([[], []], names=["node", "profile"]))
    missing = [n for n in names if n not in df.columns]
    if missing:
        raise ReadError(source, f"dataframe records lack the index field {missing[0]!r}",
                        position="dataframe", expected=f"fields {names}")
    df["node"] = new_of[df["node"].astype(INT).to_numpy()]
    for col in df.columns:
        if df[col].dtype == object:
            df[col] = df[col].map(lambda v: tuple(v) if isinstance(v, list) else v)
    return df.set_index(names).sort_index()
