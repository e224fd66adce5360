"""Write a RawProfile as Caliper files: json-split (what Hatchet's ``from_caliper``
reads) and the ``.cali`` text format (what ``from_caliperreader`` reads).

Both writers follow the layout Caliper 2.x produces: one record per
(node, rank), a ``path`` hierarchy, metric columns, an optional ``Node order``
(Caliper's ``min#min#aggregate.slot``) and ``mpi.rank`` for profiles with a
``rank`` level. They exist to make large inputs for benchmarks and tests.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence

import numpy as np

from ...profile import NODE, PARENT, RawProfile

#: graphframe/Hatchet metric names -> Caliper's attribute names.
NATIVE = {"time": "sum#time.duration", "time (inc)": "inclusive#sum#time.duration"}


def write_caliper_json(raw: RawProfile, path: Any, *, node_order: bool = True,
                       native_names: bool = True, metrics: Optional[Sequence[str]] = None,
                       metadata: bool = True) -> None:
    """Write ``raw`` as Caliper json-split.

    Parameters
    ----------
    raw : RawProfile
        A tree profile (``parent`` links only) with a ``name`` per node.
    path : path-like
        The output file.
    node_order : bool
        Add a ``Node order`` column (each node's position in ``raw.nodes``).
    native_names : bool
        Title ``time``/``time (inc)`` as Caliper does (``sum#time.duration``,
        ``inclusive#sum#time.duration``).
    metrics : sequence of str, optional
        Metric columns to write (default: the declared ones).
    metadata : bool
        Write ``raw.metadata`` as top-level run metadata (values as text).

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe_readers import ProfileBuilder
    >>> b = ProfileBuilder("demo", index_levels=("rank",))
    >>> ids = b.add_nodes([-1, 0], {"name": ["main", "solve"]})
    >>> b.add_rows([0, 1, 0, 1], {"time": [1.0, 2.0, 3.0, 4.0]}, rank=[0, 0, 1, 1])
    >>> p = os.path.join(tempfile.mkdtemp(), "demo.json")
    >>> write_caliper_json(b.build(["time"]), p)
    >>> import graphframe_readers
    >>> graphframe_readers.read(p).metrics["time"].tolist()
    [1.0, 3.0, 2.0, 4.0]
    """
    columns = list(metrics if metrics is not None else raw.metric_columns)
    position = _positions(raw)
    m = raw.metrics
    titles: List[str] = []
    cells: List[List[Any]] = []
    meta: List[Dict[str, Any]] = []
    node_pos = position[m[NODE].to_numpy()]
    if node_order:
        titles.append("Node order")
        meta.append({"is_value": True, "attribute.alias": "Node order"})
        cells.append(node_pos.tolist())
    if "rank" in raw.index_levels:
        titles.append("mpi.rank")
        meta.append({"is_value": True})
        cells.append(m["rank"].to_numpy().astype(np.int64).tolist())
    for col in columns:
        titles.append(NATIVE.get(col, col) if native_names else col)
        meta.append({"is_value": True})
        cells.append(_json_numbers(m[col].to_numpy()))
    titles.append("path")
    meta.append({"is_value": False})
    cells.append(node_pos.tolist())
    doc: Dict[str, Any] = {
        "data": [list(row) for row in zip(*cells)],
        "columns": titles,
        "column_metadata": meta,
        "nodes": _nodes(raw, position),
    }
    if metadata:
        for key, value in raw.metadata.items():
            if key not in doc and key not in ("source", "format") and value is not None:
                doc[key] = value if isinstance(value, str) else json.dumps(value)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, allow_nan=False)


def _positions(raw: RawProfile) -> np.ndarray:
    """Map node ids to their row position in ``raw.nodes`` (a lookup table)."""
    ids = raw.nodes[NODE].to_numpy().astype(np.int64)
    table = np.full(int(ids.max()) + 1 if len(ids) else 0, -1, dtype=np.int64)
    table[ids] = np.arange(len(ids), dtype=np.int64)
    return table


def _nodes(raw: RawProfile, position: np.ndarray) -> List[Dict[str, Any]]:
    names = raw.display_names().tolist()
    parents = raw.nodes[PARENT].to_numpy().astype(np.int64)
    parent_pos = np.where(parents >= 0, position[np.maximum(parents, 0)], -1).tolist()
    out = []
    for label, parent in zip(names, parent_pos):
        entry: Dict[str, Any] = {"label": str(label), "column": "path"}
        if parent >= 0:
            entry["parent"] = parent
        out.append(entry)
    return out


def _json_numbers(values: np.ndarray) -> List[Any]:
    """Numbers for JSON: integers stay integers, NaN becomes null."""
    if values.dtype.kind in "iub":
        return values.astype(np.int64).tolist()
    out = values.astype(np.float64).tolist()
    return [None if math.isnan(v) else v for v in out]


def write_cali(raw: RawProfile, path: Any, *, node_order: bool = True,
               metrics: Optional[Sequence[str]] = None,
               globals_: Optional[Dict[str, str]] = None) -> None:
    """Write ``raw`` in Caliper's ``.cali`` text format (one ``ctx`` record per row).

    Node names are ``region`` values (a nested attribute), metrics are double
    value attributes (``time`` written as ``sum#time.duration`` aliased
    ``time``), ranks are ``mpi.rank`` and the node order is
    ``min#min#aggregate.slot`` aliased ``Node order``.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe_readers import ProfileBuilder
    >>> b = ProfileBuilder("demo")
    >>> ids = b.add_nodes([-1, 0], {"name": ["main", "solve"]})
    >>> b.add_rows([0, 1], {"time": [1.0, 2.0]})
    >>> p = os.path.join(tempfile.mkdtemp(), "demo.cali")
    >>> write_cali(b.build(["time"]), p, globals_={"cluster": "quartz"})
    >>> import graphframe_readers
    >>> raw = graphframe_readers.read(p)
    >>> raw.metrics["time"].tolist(), raw.metadata["cluster"]
    ([1.0, 2.0], 'quartz')
    """
    columns = list(metrics if metrics is not None else raw.metric_columns)
    lines: List[str] = []
    out = lines.append
    # attribute definitions: 100 = alias, 101 = nested region, 102.. = metrics
    out("__rec=node,id=12,attr=10,data=64,parent=3")
    out("__rec=node,id=13,attr=8,data=attribute.alias,parent=12")
    out("__rec=node,id=14,attr=10,data=268,parent=3")
    out("__rec=node,id=15,attr=8,data=region,parent=14")
    out("__rec=node,id=16,attr=10,data=21,parent=1")
    out("__rec=node,id=17,attr=8,data=mpi.rank,parent=16")
    out("__rec=node,id=18,attr=13,data=Node order,parent=2")
    out("__rec=node,id=19,attr=10,data=65,parent=18")
    out("__rec=node,id=20,attr=8,data=min#min#aggregate.slot,parent=19")
    out("__rec=node,id=21,attr=10,data=1612,parent=3")
    metric_ids = []
    next_id = 30
    for col in columns:
        native = NATIVE.get(col, col)
        out(f"__rec=node,id={next_id},attr=13,data={_esc(col)},parent=5")
        out(f"__rec=node,id={next_id + 1},attr=10,data=65,parent={next_id}")
        out(f"__rec=node,id={next_id + 2},attr=8,data={_esc(native)},parent={next_id + 1}")
        metric_ids.append(next_id + 2)
        next_id += 3
    position = _positions(raw)
    names = raw.display_names().tolist()
    parents = raw.nodes[PARENT].to_numpy().astype(np.int64)
    parent_pos = np.where(parents >= 0, position[np.maximum(parents, 0)], -1).tolist()
    base = next_id
    for i, (label, parent) in enumerate(zip(names, parent_pos)):
        tail = f",parent={base + parent}" if parent >= 0 else ""
        out(f"__rec=node,id={base + i},attr=15,data={_esc(str(label))}{tail}")
    del names, parent_pos
    with open(os.fspath(path), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
        lines.clear()
        _write_records(fh, raw, columns, metric_ids, position, base, node_order)
        next_id = base + raw.num_nodes
        _write_globals(fh, globals_ or {}, next_id)


#: Records written per chunk (the writer never holds the whole file's text).
RECORDS_PER_CHUNK = 1 << 16


def _write_records(fh: Any, raw: RawProfile, columns: List[str], metric_ids: List[int],
                   position: np.ndarray, base: int, node_order: bool) -> None:
    """One ``ctx`` record per metrics row, a chunk of rows at a time."""
    m = raw.metrics
    node_pos = position[m[NODE].to_numpy()]
    extra_attrs = (["17"] if "rank" in raw.index_levels else []) + (["20"] if node_order else [])
    attr_field = "=".join(extra_attrs + [str(a) for a in metric_ids])
    ranks = m["rank"].to_numpy().astype(np.int64) if "rank" in raw.index_levels else None
    values = [m[c].to_numpy() for c in columns]
    for a in range(0, len(m), RECORDS_PER_CHUNK):
        b = min(a + RECORDS_PER_CHUNK, len(m))
        cols = []
        if ranks is not None:
            cols.append(ranks[a:b].astype(str).tolist())
        if node_order:
            cols.append(node_pos[a:b].astype(str).tolist())
        cols.extend(_cali_numbers(v[a:b]) for v in values)
        refs = (node_pos[a:b] + base).tolist()
        fh.write("".join(f"__rec=ctx,ref={ref},attr={attr_field},data={'='.join(row)}\n"
                         for ref, row in zip(refs, zip(*cols))))


def _write_globals(fh: Any, globals_: Dict[str, str], next_id: int) -> None:
    lines: List[str] = []
    out = lines.append
    refs = []
    parent_ref = None
    for key, value in globals_.items():
        out(f"__rec=node,id={next_id},attr=8,data={_esc(key)},parent=21")
        tail = f",parent={parent_ref}" if parent_ref is not None else ""
        out(f"__rec=node,id={next_id + 1},attr={next_id},data={_esc(str(value))}{tail}")
        parent_ref = next_id + 1
        next_id += 2
    if parent_ref is not None:
        refs.append(str(parent_ref))
    out("__rec=globals" + (",ref=" + "=".join(refs) if refs else ""))
    fh.write("\n".join(lines) + "\n")


def _esc(text: str) -> str:
    """Escape the .cali field separators (``,`` ``=`` ``\\``) and newlines."""
    return (text.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=")
            .replace("\n", "\\n"))


def _cali_numbers(values: np.ndarray) -> Iterable[str]:
    if values.dtype.kind in "iub":
        return values.astype(np.int64).astype(str).tolist()
    return [repr(float(v)) for v in values.tolist()]


#: ``python -m benchmarks.generate --format caliper`` writes json-split
SUFFIX = ".json"
write_caliper = write_caliper_json
