"""Exports to Hatchet's literal and JSON layouts (both readable back losslessly)."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from .frame import python_scalar
from .rowselect import node_rows

NID_KEY = "_hatchet_nid"


def to_literal(gf: Any, name: str = "name", rank: int = 0, thread: int = 0,
               cat_columns: Sequence[str] = (), include_nid: Optional[bool] = None
               ) -> List[Dict[str, Any]]:
    """Hatchet's literal: a list of root dicts ``{frame, metrics, children}``.

    Children keep the order of the source. A node with several parents is
    written once, with its children, at its first occurrence; every other
    occurrence is a reference (frame and metrics, no children) and all
    nodes carry ``metrics["_hatchet_nid"]`` so :meth:`GraphFrame.from_literal`
    rebuilds the same graph. ``include_nid`` forces the ids on (True) or off
    (False); by default they are written only for graphs that need them.
    A ``name`` key is written only when the display name differs from the
    frame's ``name`` (e.g. HPCToolkit loops, whose frames have no name).
    For multi-rank data the ``(rank, thread)`` row of each node is exported.
    Unlike Hatchet, NaN metric values stay NaN (Hatchet writes 0.0).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> lit = [{"frame": {"name": "a"}, "metrics": {"time": 1.0},
    ...         "children": [{"frame": {"name": "b"}, "metrics": {"time": 2.0}}]}]
    >>> to_literal(GraphFrame.from_literal(lit)) == lit
    True
    """
    graph = gf.graph
    df = gf.dataframe
    metrics = [c for c in df.columns if c in set(gf.exc_metrics) | set(gf.inc_metrics)]
    rows = node_rows(df, graph.num_nodes, rank=rank, thread=thread)
    has_row = rows >= 0
    metric_values = {m: _per_node(df[m], rows, has_row) for m in metrics}
    names = _per_node(df[name], rows, has_row) if name in df.columns else [None] * graph.num_nodes
    cats = [c for c in cat_columns if c in df.columns]
    cat_values = {c: _per_node(df[c], rows, has_row) for c in cats}
    with_nid = (not graph.is_forest) if include_nid is None else include_nid
    frames = graph.frame_dicts()

    def node_dict(v: int) -> Dict[str, Any]:
        frame = dict(frames[v])
        entry: Dict[str, Any] = {}
        if names[v] is not None and names[v] != frame.get("name"):
            entry["name"] = names[v]
        entry["frame"] = frame
        values = {m: metric_values[m][v] for m in metrics if has_row[v]}
        if with_nid:
            values[NID_KEY] = v
        entry["metrics"] = values
        if cats:
            entry["attributes"] = {c: cat_values[c][v] for c in cats}
        return entry

    ptr, kids = graph.child_ptr.tolist(), graph.child_idx.tolist()
    expanded = np.zeros(graph.num_nodes, dtype=bool)
    result: List[Dict[str, Any]] = []
    stack = [(int(r), result) for r in reversed(graph.root_ids.tolist())]
    while stack:
        v, siblings = stack.pop()
        entry = node_dict(v)
        siblings.append(entry)
        if expanded[v]:
            continue
        expanded[v] = True
        children = kids[ptr[v]:ptr[v + 1]]
        if children:
            entry["children"] = []
            for c in reversed(children):
                stack.append((c, entry["children"]))
    return result


def _per_node(column: pd.Series, rows: np.ndarray, has_row: np.ndarray) -> List[Any]:
    values = column.to_numpy()
    picked = values[np.maximum(rows, 0)] if len(values) else np.empty(len(rows), dtype=object)
    out = [python_scalar(x) for x in picked.tolist()]
    return [x if ok else None for x, ok in zip(out, has_row.tolist())]


def to_dict(gf: Any) -> Dict[str, Any]:
    """Hatchet's ``to_dict`` layout, plus ``default_metric``, ``metadata``, ``column_order``
    (and ``aggregations`` when the GraphFrame declares any).

    One ``{id: {"data": frame, "children": [ids]}}`` table per root (a node
    reachable from two roots is listed under both), the index level names,
    one record per dataframe row, and the metric lists.
    """
    graph = gf.graph
    ptr, kids = graph.child_ptr.tolist(), graph.child_idx.tolist()
    tables = []
    frames = graph.frame_dicts()
    for root in graph.root_ids.tolist():
        table: Dict[int, Any] = {}
        stack = [root]
        while stack:
            v = stack.pop()
            if v in table:
                continue
            children = kids[ptr[v]:ptr[v + 1]]
            table[v] = {"data": frames[v], "children": list(children)}
            stack.extend(reversed(children))
        # keep pre-order (ids ascending) with the root first
        tables.append({k: table[k] for k in [root] + sorted(set(table) - {root})})
    flat = gf.dataframe.reset_index()
    names = [str(c) if not isinstance(c, str) else c for c in flat.columns]
    columns = [_json_values(flat[c]) for c in flat.columns]
    records = [dict(zip(names, row)) for row in zip(*columns)]
    out = {
        "graph": tables,
        "dataframe_indices": list(gf.dataframe.index.names),
        "dataframe": records,
        "inclusive_metrics": list(gf.inc_metrics),
        "exclusive_metrics": list(gf.exc_metrics),
        "default_metric": gf.default_metric,
        "metadata": gf.metadata,
        "column_order": [c for c in gf.dataframe.columns],
    }
    if gf.aggregations:  # only when declared: Hatchet's layout otherwise
        out["aggregations"] = {str(c): k for c, k in gf.aggregations.items()}
    return out


def _json_values(column: pd.Series) -> List[Any]:
    values = column.tolist()
    return [None if isinstance(v, float) and math.isnan(v) else
            (None if v is pd.NA or v is pd.NaT else python_scalar(v)) for v in values]


def to_json(gf: Any) -> str:
    """:func:`to_dict` as JSON text; NaN is written as ``null``, infinities as ``Infinity``."""
    return json.dumps(to_dict(gf), default=_json_default)


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return str(value)
