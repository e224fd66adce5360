"""Exports to Hatchet's literal and JSON layouts (both readable back losslessly).

``to_dict``/``to_json`` write Hatchet's layout plus one key Hatchet ignores,
``"graphframe"``, holding what Hatchet's layout cannot say: the graph's
``ordered`` flag, the metric declarations, the exact dtype of every column
(see :mod:`graphframe.io.json.columns`), the real (possibly non-string) column
names and the metadata as tagged JSON. :mod:`graphframe.io.json.document` reads it
back exactly. Literals are written as JSON text by :func:`literal_json`, an
iterative encoder (``json.dumps`` recurses once per nesting level).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from graphframe_readers.hatchet import DECLARATIONS_KEY, literal_declarations

from ...model.dataframe import index_arrays
from ...model.frame import python_scalar
from .columns import column_codec, encode_json_column, json_default
from ..codec import to_tagged
from ...model.rowselect import node_rows
from ...model.fields import GraphFrameLike
from ...errors import MetricError

NID_KEY = "_hatchet_nid"
#: The ``metadata["format"]`` of a GraphFrame read from a Hatchet JSON document (without
#: graphframe's key): :func:`to_dict` writes it back in Hatchet's layout alone.
HATCHET_LAYOUT = "hatchet-json"
#: Version of the ``"graphframe"`` key written by :func:`to_dict`.
JSON_VERSION = 1


def to_literal(gf: GraphFrameLike, name: str = "name", rank: Optional[int] = None,
               thread: Optional[int] = None,
               cat_columns: Sequence[str] = (), include_nid: Optional[bool] = None
               ) -> List[Dict[str, Any]]:
    """Hatchet's literal: a list of root dicts ``{name, frame, metrics, attributes, children}``.

    Each node dict has Hatchet's keys in Hatchet's order: ``name`` (the value of
    the column ``name`` names; the frame's name where the node has no row),
    ``frame``, ``metrics`` (the declared metrics, then ``_hatchet_nid``),
    ``attributes`` (the ``cat_columns`` the dataframe has, sorted by name; ``{}``
    without them) and, for a node with children at its first occurrence,
    ``children``. Children keep the order of the source. A node with several
    parents is written once, with its children, at its first occurrence; every
    other occurrence is a reference (no children) with the same
    ``_hatchet_nid``, so :meth:`GraphFrame.from_literal` rebuilds the same graph.
    The ids written are graphframe's node ids (a pre-order); a literal read with
    other ids is written back renumbered. ``include_nid=False`` leaves the ids
    out (a graph with shared nodes then reads back as a tree). For multi-rank
    data the ``(rank, thread)`` row of each node is exported (default: the lowest
    rank and thread the data has). Values keep their column's type (an int64
    column gives Python ints); unlike Hatchet, NaN metric values stay NaN
    (Hatchet writes 0.0) and metrics keep the column order (Hatchet sorts them).
    When the metric declarations differ from what a reader derives from the
    names (``(inc)`` means inclusive, ``time`` is the default), or the graph is
    ``ordered``, the first root carries them under a ``"graphframe"`` key
    (Hatchet ignores it).

    Raises
    ------
    MetricError
        ``name`` is not a column (the default ``"name"`` falls back to the frames'
        names instead).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> lit = [{"frame": {"name": "a"}, "metrics": {"time": 1.0},
    ...         "children": [{"frame": {"name": "b"}, "metrics": {"time": 2}}]}]
    >>> out = to_literal(GraphFrame.from_literal(lit))
    >>> out[0]
    {'name': 'a', 'frame': {'name': 'a', 'type': 'None'}, 'metrics': {'time': 1.0, '_hatchet_nid': 0}, 'attributes': {}, 'children': [{'name': 'b', 'frame': {'name': 'b', 'type': 'None'}, 'metrics': {'time': 2.0, '_hatchet_nid': 1}, 'attributes': {}}]}
    >>> GraphFrame.from_literal(out).dataframe.equals(GraphFrame.from_literal(lit).dataframe)
    True
    """
    graph = gf.graph
    df = gf.dataframe
    declared = set(gf.exc_metrics) | set(gf.inc_metrics)
    metrics = [c for c in df.columns if c in declared]
    rows = node_rows(df, graph.num_nodes, rank=rank, thread=thread)
    has_row = rows >= 0
    metric_values = {m: _per_node(df[m], rows, has_row) for m in metrics}
    if name in df.columns:
        names = _per_node(df[name], rows, has_row)
    elif name == "name":
        names = [None] * graph.num_nodes
    else:
        raise MetricError(f"to_literal: name={name!r} is not a column; the dataframe has "
                          f"{[str(c) for c in df.columns]}")
    cats = [c for c in cat_columns if c in df.columns]
    if all(isinstance(c, str) for c in cats):
        cats = sorted(cats)  # Hatchet's order
    cat_values = {c: _per_node(df[c], rows, has_row) for c in cats}
    with_nid = True if include_nid is None else include_nid
    frames = graph.frame_dicts()
    has = has_row.tolist()

    def node_dict(v: int) -> Dict[str, Any]:
        frame = frames[v]
        shown = names[v]
        if shown is None or (isinstance(shown, float) and shown != shown):
            shown = frame.get("name")
        values = {m: metric_values[m][v] for m in metrics} if has[v] else {}
        if with_nid:
            values[NID_KEY] = v
        return {"name": shown, "frame": {**frame, "type": frame.get("type", "None")},
                "metrics": values,
                "attributes": {c: cat_values[c][v] for c in cats}}

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
    declarations = _literal_declarations(gf, metrics)
    if declarations is not None and result:
        result[0] = {**result[0], DECLARATIONS_KEY: declarations}
    return result


def _literal_declarations(gf: GraphFrameLike, metrics: List[Any]) -> Optional[Dict[str, Any]]:
    """The declarations to write, or None when the names already say them."""
    if not all(isinstance(m, str) for m in metrics):
        return None  # a literal's metric keys are strings
    ours = {"exc_metrics": [m for m in metrics if m in gf.exc_metrics],
            "inc_metrics": [m for m in metrics if m in gf.inc_metrics],
            "inclusive_of": {k: v for k, v in gf.inclusive_of.items()
                             if k in metrics and v in metrics},
            "default_metric": gf.default_metric if gf.default_metric in metrics else None}
    derived = literal_declarations(metrics)
    if ours["default_metric"] is None:
        ours["default_metric"] = derived["default_metric"]
    if gf.graph.ordered:  # siblings and roots in source order, not frame order
        ours["ordered"] = True
    return None if ours == derived else ours


def _per_node(column: pd.Series, rows: np.ndarray, has_row: np.ndarray) -> List[Any]:
    values = column.to_numpy()
    picked = values[np.maximum(rows, 0)] if len(values) else np.empty(len(rows), dtype=object)
    out = [python_scalar(x) for x in picked.tolist()]
    return [x if ok else None for x, ok in zip(out, has_row.tolist())]


# ---------------------------------------------------------------- literal text
def to_literal_json(gf: GraphFrameLike, name: str = "name", rank: Optional[int] = None,
                    thread: Optional[int] = None, cat_columns: Sequence[str] = (),
                    include_nid: Optional[bool] = None) -> str:
    """:func:`to_literal` as JSON text (:func:`literal_json`): ``convert``'s literal format.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> to_literal_json(GraphFrame.from_lists(("main",)))[:40]
    '[{"name": "main", "frame": {"name": "mai'
    """
    return literal_json(to_literal(gf, name=name, rank=rank, thread=thread,
                                   cat_columns=cat_columns, include_nid=include_nid))


def literal_json(literal: Any) -> str:
    """JSON text of a literal (or any JSON-able nesting) at any depth.

    ``json.dumps`` recurses once per level and fails beyond a few hundred
    levels of nested children; this encoder walks the structure with an
    explicit stack and hands flat containers (a frame, a metrics dict) to
    :mod:`json` whole. The text equals ``json.dumps(literal)`` (NaN written
    as ``NaN``; numpy scalars as numbers).

    Examples
    --------
    >>> node = {"frame": {"name": "leaf"}, "metrics": {"time": 1.0}}
    >>> for i in range(5000):
    ...     node = {"frame": {"name": f"f{i}"}, "metrics": {"time": 1.0}, "children": [node]}
    >>> text = literal_json([node])
    >>> text[:60]
    '[{"frame": {"name": "f4999"}, "metrics": {"time": 1.0}, "chi'
    >>> literal_json({"a": [1, 2.5, None, {"b": []}], "c": {}}) == json.dumps(
    ...     {"a": [1, 2.5, None, {"b": []}], "c": {}})
    True
    """
    encode = json.JSONEncoder(default=json_default).encode
    nested = (dict, list, tuple)
    out: List[str] = []
    # the stack holds text to emit (str) and containers still to open
    stack: List[Any] = [literal if isinstance(literal, nested) else encode(literal)]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            values = v.values()
            if not any(isinstance(x, nested) for x in values):
                out.append(encode(v))
                continue
            out.append("{")
            stack.append("}")
            items = list(v.items())
            for i in range(len(items) - 1, -1, -1):
                key, value = items[i]
                stack.append(value if isinstance(value, nested) else encode(value))
                stack.append((", " if i else "") + encode(key if isinstance(key, str)
                                                          else str(key)) + ": ")
        elif isinstance(v, (list, tuple)):
            if not any(isinstance(x, nested) for x in v):
                out.append(encode(v))
                continue
            out.append("[")
            stack.append("]")
            for i in range(len(v) - 1, -1, -1):
                value = v[i]
                stack.append(value if isinstance(value, nested) else encode(value))
                if i:
                    stack.append(", ")
    return "".join(out)


# ------------------------------------------------------------------ to_dict
def to_dict(gf: GraphFrameLike) -> Dict[str, Any]:
    """Hatchet's ``to_dict`` layout plus ``default_metric``, ``metadata``,
    ``column_order`` and the ``"graphframe"`` key (see the module docs);
    ``aggregations`` too when the GraphFrame declares any.

    One ``{id: {"data": frame, "children": [ids]}}`` table per root (a node
    reachable from two roots is listed under both), the index level names,
    one record per dataframe row, and the metric lists. Children are listed
    in the graph's child order.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> d = to_dict(GraphFrame.from_lists(("a", "b")))
    >>> d["graph"], d["dataframe"][1]
    ([{0: {'data': {'name': 'a', 'type': 'None'}, 'children': [1]}, 1: {'data': {'name': 'b', 'type': 'None'}, 'children': []}}], {'node': 1, 'time': 1.0, 'name': 'b', 'time (inc)': 1.0})
    >>> d["graphframe"]["columns"][0]
    {'name': 'time', 'key': 'time', 'codec': {'kind': 'numpy', 'dtype': '<f8'}}
    """
    graph = gf.graph
    df = gf.dataframe
    tables = graph_tables(graph)
    level_names = list(df.index.names)
    level_keys = [str(n) for n in level_names]
    keys = record_keys(list(df.columns), set(level_keys))
    index_codecs, index_values = [], []
    for i, values in enumerate(index_arrays(df.index)):
        plain, codec = encode_json_column(pd.Series(values), f"index level {level_names[i]!r}")
        index_codecs.append(codec)
        index_values.append(plain)
    column_specs, column_values = [], []
    for col, key in zip(df.columns, keys):
        plain, codec = encode_json_column(df[col], f"column {col!r}")
        column_specs.append({"name": to_tagged(col, "a column name"), "key": key,
                             "codec": codec})
        column_values.append(plain)
    records = [dict(zip(level_keys + keys, row)) for row in zip(*index_values, *column_values)]
    out = {"graph": tables, "dataframe_indices": level_keys, "dataframe": records}
    out.update(document_tail(gf, keys, level_names, index_codecs, column_specs))
    return out


def graph_tables(graph: Any) -> List[Dict[int, Any]]:
    """``to_dict``'s ``"graph"``: one ``{id: {"data", "children"}}`` table per root.

    Examples
    --------
    >>> from graphframe.model.graph import Graph
    >>> graph_tables(Graph.from_lists(("a", "b")))[0][1]
    {'data': {'name': 'b', 'type': 'None'}, 'children': []}
    """
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
    return tables


def document_tail(gf: GraphFrameLike, keys: List[str], level_names: List[Any],
                  index_codecs: List[Dict[str, Any]],
                  column_specs: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The keys of ``to_dict`` after ``"dataframe"``, in order (shared with the streamed
    writer, :mod:`graphframe.io.json.stream`)."""
    graph, df = gf.graph, gf.dataframe
    if (gf.metadata or {}).get("format") == HATCHET_LAYOUT:
        # read from Hatchet's own JSON: written back in Hatchet's layout, key for key (as
        # Hatchet's to_json writes it; reading it back gives what reading the source gave)
        return {"inclusive_metrics": [str(m) for m in gf.inc_metrics],
                "exclusive_metrics": [str(m) for m in gf.exc_metrics]}
    out = {
        "inclusive_metrics": [str(m) for m in gf.inc_metrics],
        "exclusive_metrics": [str(m) for m in gf.exc_metrics],
        "default_metric": gf.default_metric,
        "metadata": _plain_json(gf.metadata),
        "column_order": list(keys),
        "graphframe": {
            "version": JSON_VERSION,
            "ordered": graph.ordered,
            "exc_metrics": to_tagged(list(gf.exc_metrics), "exc_metrics"),
            "inc_metrics": to_tagged(list(gf.inc_metrics), "inc_metrics"),
            "inclusive_of": to_tagged(dict(gf.inclusive_of), "inclusive_of"),
            "default_metric": to_tagged(gf.default_metric, "default_metric"),
            "metadata": to_tagged(gf.metadata, "metadata"),
            "index": [{"name": to_tagged(n, "an index level name"), "codec": c}
                      for n, c in zip(level_names, index_codecs)],
            "columns": column_specs,
            "columns_dtype": "object" if df.columns.dtype == object else str(df.columns.dtype),
            "frames": _frame_specs(graph),
            "aggregations": to_tagged(dict(gf.aggregations), "aggregations"),
        },
    }
    if gf.aggregations:  # only when declared: Hatchet's layout otherwise
        out["aggregations"] = {str(c): k for c, k in gf.aggregations.items()}
    return out


def _frame_specs(graph: Any) -> List[Dict[str, Any]]:
    specs = []
    for key in graph.attrs.columns:
        codec = column_codec(graph.attrs[key], f"frame attribute {key!r}")
        specs.append({"name": to_tagged(key, "a frame key"), "codec": codec})
    return specs


def record_keys(columns: List[Any], taken: set) -> List[str]:
    """A distinct record key per column: its name, as text when it is not a string."""
    keys = []
    used = set(taken)
    for col in columns:
        key = col if isinstance(col, str) else str(col)
        base, i = key, 1
        while key in used:
            key = f"{base} ({i})"
            i += 1
        used.add(key)
        keys.append(key)
    return keys


def _plain_json(value: Any) -> Any:
    """Metadata as plain JSON for other tools (the exact copy is in the "graphframe" key)."""
    return json.loads(json.dumps(value, default=json_default, skipkeys=True))


def to_json(gf: GraphFrameLike) -> str:
    """:func:`to_dict` as JSON text; NaN is written as ``null``, infinities as ``Infinity``.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> text = to_json(GraphFrame.from_lists(("a", "b")))
    >>> text[:50]
    '{"graph": [{"0": {"data": {"name": "a", "type": "N'
    """
    return json.dumps(to_dict(gf), default=json_default)

