"""Write a RawProfile as Hatchet's literal JSON (nested ``frame/metrics/children`` dicts).

The literal format has no rank or thread: one process's values are written
(by default the first rank and thread). Nodes appear in pre-order with
siblings in node-table order; ``attributes`` carries the per-node columns
other than ``name`` (``file``, ``line``...), which graphframe reads back as
columns and Hatchet ignores. Trees and forests only: the generator never
makes shared nodes, and a literal of a DAG needs ``_hatchet_nid`` references.

The text is assembled with array operations on per-node string pieces and
written in blocks, so a million nodes take seconds and bounded extra memory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Optional, Union

import numpy as np
import pandas as pd

from ...profile import NODE, PARENT, RawProfile

#: File suffix for ``python -m benchmarks.generate``.
SUFFIX = ".literal.json"
BLOCK = 100_000


def write_literal(raw: RawProfile, path: Union[str, Path], rank: Optional[int] = None,
                  thread: Optional[int] = None, attributes: bool = True) -> Path:
    """Write ``raw`` to ``path`` as a literal; return the path.

    ``rank``/``thread`` choose the process written (default: the smallest
    of each level present).

    Examples
    --------
    >>> import os, tempfile, graphframe_readers
    >>> b = graphframe_readers.ProfileBuilder("demo", index_levels=("rank",))
    >>> ids = b.add_nodes([-1, 0, 0], {"name": ["main", "solve", "io"]},
    ...                   columns={"file": ["a.c", "b.c", "c.c"]})
    >>> b.add_rows([0, 1, 2, 0, 1, 2], {"time": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]},
    ...            rank=[0, 0, 0, 1, 1, 1])
    >>> p = write_literal(b.build(["time"]), os.path.join(tempfile.mkdtemp(), "g.json"))
    >>> raw = graphframe_readers.read(p)
    >>> raw.nodes["name"].tolist(), raw.metrics["time"].tolist(), raw.node_columns["file"].tolist()
    (['main', 'solve', 'io'], [1.0, 2.0, 3.0], ['a.c', 'b.c', 'c.c'])
    """
    if raw.edges is not None and len(raw.edges):
        raise ValueError("write_literal writes trees and forests; this profile has shared nodes")
    path = Path(path)
    ids = raw.nodes[NODE].to_numpy().astype(np.int64)
    sorter = np.argsort(ids, kind="stable")

    def position(refs: np.ndarray) -> np.ndarray:
        found = sorter[np.searchsorted(ids, refs, sorter=sorter).clip(0, len(ids) - 1)]
        return np.where(refs < 0, -1, found)

    parent = position(raw.nodes[PARENT].to_numpy().astype(np.int64))
    depth = _forest_depth(parent)
    order = _forest_preorder(parent, depth)
    pieces = _node_heads(raw, position, rank, thread, attributes)
    has_kids = np.bincount(parent[parent >= 0], minlength=len(ids)) > 0
    tails = _tails(depth[order], has_kids[order])
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        out.write("[")
        for start in range(0, len(order), BLOCK):
            block = order[start:start + BLOCK]
            out.write("".join((pieces[block] + tails[start:start + BLOCK]).tolist()))
        out.write("]\n")
    tmp.replace(path)
    return path


def _forest_depth(parent: np.ndarray) -> np.ndarray:
    """Depth of every node of a forest (pointer jumping: O(n log depth))."""
    depth = (parent >= 0).astype(np.int64)
    ancestor = parent.copy()
    active = np.flatnonzero(ancestor >= 0)
    while len(active):
        depth[active] += depth[ancestor[active]]
        ancestor[active] = ancestor[ancestor[active]]
        active = active[ancestor[active] >= 0]
    return depth


def _forest_preorder(parent: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Nodes in pre-order, siblings (and roots) in node-table order.

    Vectorised per depth level: subtree sizes bottom-up, then each node's
    position is its parent's plus one plus the sizes of the siblings before it.
    """
    n = len(parent)
    by_depth = np.argsort(depth, kind="stable")
    levels = np.split(by_depth, np.cumsum(np.bincount(depth, minlength=1))[:-1])
    size = np.ones(n, dtype=np.int64)
    for level in reversed(levels[1:]):
        np.add.at(size, parent[level], size[level])
    siblings = np.argsort(parent, kind="stable")  # grouped by parent, table order inside
    sizes = size[siblings]
    before = np.cumsum(sizes) - sizes
    first = np.ones(n, dtype=bool)
    first[1:] = parent[siblings][1:] != parent[siblings][:-1]
    group_start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    offset = np.empty(n, dtype=np.int64)
    offset[siblings] = before - before[group_start]
    position = np.empty(n, dtype=np.int64)
    for level in levels:
        has_parent = parent[level] >= 0
        position[level] = np.where(has_parent, position[np.maximum(parent[level], 0)] + 1, 0) \
            + offset[level]
    order = np.empty(n, dtype=np.int64)
    order[position] = np.arange(n, dtype=np.int64)
    return order


def _node_heads(raw: RawProfile, position, rank, thread, attributes: bool) -> np.ndarray:
    """Per node: ``{"frame": {...}, "metrics": {...}[, "name": ..][, "attributes": {...}]``."""
    n = raw.num_nodes
    frame = _json_object({c: raw.nodes[c] for c in raw.frame_columns}, n)
    values = _process_values(raw, position, rank, thread)
    metrics = _json_object(values, n, numeric=True)
    head = _obj('{"frame": ') + frame + ', "metrics": ' + metrics
    display = raw.display_names().to_numpy(dtype=object)
    frame_name = (raw.nodes["name"].to_numpy(dtype=object) if "name" in raw.nodes.columns
                  else np.full(n, None, dtype=object))
    differs = pd.Series(display).ne(pd.Series(frame_name)).to_numpy()
    if differs.any():
        head = head + np.where(differs, ', "name": ' + _encode(pd.Series(display)), "")
    if attributes and raw.node_columns is not None:
        cols = {c: raw.node_columns[c] for c in raw.node_columns.columns if c != "name"}
        if cols:
            head = head + ', "attributes": ' + _json_object(cols, n)
    return head


def _process_values(raw: RawProfile, position, rank, thread) -> Dict[str, Any]:
    """Declared metrics of one process, aligned with the node table (NaN if absent)."""
    m = raw.metrics
    mask = np.ones(len(m), dtype=bool)
    for level, wanted in (("rank", rank), ("thread", thread)):
        if level in raw.index_levels:
            col = m[level].to_numpy()
            mask &= col == (col.min() if wanted is None else wanted)
    for level in raw.index_levels:
        if level not in ("rank", "thread"):
            col = m[level].to_numpy()
            mask &= col == col.min()
    rows = m[mask]
    pos = position(rows[NODE].to_numpy().astype(np.int64))
    out = {}
    for name in raw.metric_columns:
        col = np.full(raw.num_nodes, np.nan)
        col[pos] = rows[name].to_numpy(dtype=float)
        out[name] = col
    return out


def _json_object(columns: Dict[str, Any], n: int, numeric: bool = False) -> np.ndarray:
    """One JSON object text per row; missing values (NaN/None) are left out.

    With ``numeric``, NaN is kept as ``null`` (a metric without a value).
    """
    acc = _obj("")
    for key, values in columns.items():
        if numeric:
            text = _numbers(np.asarray(values, dtype=float))
            present = np.ones(n, dtype=bool)
        else:
            series = pd.Series(values).reset_index(drop=True)
            present = series.notna().to_numpy()
            text = _encode(series)
        piece = np.where(present, json.dumps(str(key)) + ": " + text, "")
        sep = np.where((acc != "") & (piece != ""), ", ", "")
        acc = acc + sep + piece
    return "{" + acc + "}"


def _encode(series: pd.Series) -> np.ndarray:
    """JSON text of each value, encoding each distinct value once."""
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    table = np.array([_json_value(v) for v in uniques] + ["null"], dtype=object)
    return table[codes]


def _json_value(value: Any) -> str:
    if isinstance(value, np.integer):
        value = int(value)
    elif isinstance(value, np.floating):
        value = float(value)
    elif isinstance(value, np.bool_):
        value = bool(value)
    return json.dumps(value)


def _numbers(values: np.ndarray) -> np.ndarray:
    """Shortest round-trip text of each float; NaN -> null, infinities as JSON allows."""
    text = values.astype(str).astype(object)
    text[np.isnan(values)] = "null"
    text[np.isposinf(values)] = "Infinity"
    text[np.isneginf(values)] = "-Infinity"
    return text


def _tails(depth: np.ndarray, has_kids: np.ndarray) -> np.ndarray:
    """What follows each node (in pre-order): open its children, or close levels."""
    n = len(depth)
    next_depth = np.append(depth[1:], 0)
    closes = np.where(has_kids, 0, depth - next_depth)
    last = np.zeros(n, dtype=bool)
    if n:
        last[-1] = True
    table_sep = np.array(["}" + "]}" * k + ", " for k in range(int(depth.max(initial=0)) + 1)],
                         dtype=object)
    table_end = np.array(["}" + "]}" * k for k in range(int(depth.max(initial=0)) + 1)],
                         dtype=object)
    tail = np.where(last, table_end[np.maximum(closes, 0)], table_sep[np.maximum(closes, 0)])
    return np.where(has_kids, ', "children": [', tail).astype(object)


def _obj(text: str) -> np.ndarray:
    return np.array([text], dtype=object)
