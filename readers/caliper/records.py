"""Caliper records -> RawProfile: the step both Caliper readers share.

A reader (``.cali`` or json-split) decodes its file into a :class:`RecordTable`:
a hierarchy (parent array, labels, frame types) and one entry per Caliper
record with the record's node, rank, node-order key and value columns. This
module turns it into a :class:`~graphframe_readers.RawProfile`:

1. records carrying a sampled source location (``sourceloc#cali.sampler.pc``)
   get ``file``/``line`` columns; a node sampled at several locations gets one
   ``statement`` child per location (Hatchet's layout);
2. records of the same (node, rank) merge (event traces, timeseries
   snapshots, secondary keys): metrics by their operator (``sum`` adds,
   ``min``/``max`` keep the extreme, ``avg`` is weighted by each record's
   number of values, see :mod:`graphframe_readers.caliper.averages`), other values keep
   the first;
3. every (node, rank) gets exactly one row: nodes a record never named (path
   prefixes) and ranks a node never ran on get a row whose metrics are 0;
4. siblings follow Caliper's node order when the file records one, else (``.cali``)
   the order in which Hatchet's reader creates the nodes (:attr:`Hierarchy.creation`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ..builder import ProfileBuilder
from ..errors import ReadError
from ..pandas_text import text_column
from ..profile import RawProfile
from .averages import average_parts, is_average, merge_averages
from .names import (METRIC, ATTRIBUTE, LABEL, UNATTRIBUTED, UNATTRIBUTED_SHARE, ColumnSpec,
                    column_unit, declare)

INT = np.int64


@dataclass
class Hierarchy:
    """Call-path nodes: ``parent`` (-1 for roots), ``label``, frame ``kind`` and
    the reader's own id ``nid`` (shown in the ``nid`` column).

    ``creation`` (``.cali`` records; None for json-split) is each node's place in the
    order Hatchet's ``.cali`` reader creates nodes, which orders siblings when the file
    records no node order: walking the records in file order, a node made for a
    record's own call path is numbered (here: its first-seen ``nid``), while an
    ancestor made on the way to another record's node keeps -1. Hatchet sorts
    siblings by that number with a stable sort, so siblings first met as ancestors
    come first, then those first met as a record's own node, each group in
    first-seen order (:func:`creation_positions`).
    """

    parent: np.ndarray
    label: np.ndarray
    kind: np.ndarray
    nid: np.ndarray
    depth: Optional[np.ndarray] = None
    creation: Optional[np.ndarray] = None

    def __len__(self) -> int:
        return len(self.parent)

    def with_root(self, label: str, nid: int) -> "Hierarchy":
        """This hierarchy and one more root node, last (its kind that of the first node).

        Examples
        --------
        >>> h = Hierarchy(np.array([-1]), np.array(["main"], dtype=object),
        ...               np.array(["region"], dtype=object), np.array([0]), np.array([0]))
        >>> h2 = h.with_root("<no path>", 1)
        >>> h2.parent.tolist(), h2.label.tolist(), h2.kind.tolist(), h2.nid.tolist()
        ([-1, -1], ['main', '<no path>'], ['region', 'region'], [0, 1])
        """
        def grown(values: np.ndarray, last: Any) -> np.ndarray:
            out = np.empty(len(values) + 1, dtype=object if values.dtype == object else INT)
            out[:-1] = values
            out[-1] = last
            return out
        kind = self.kind[0] if len(self) else "region"
        depth = None if self.depth is None else grown(self.depth, 0)
        creation = None if self.creation is None else grown(self.creation, len(self))
        return Hierarchy(parent=grown(self.parent, -1), label=grown(self.label, label),
                         kind=grown(self.kind, kind), nid=grown(self.nid, nid), depth=depth,
                         creation=creation)


@dataclass
class RecordTable:
    """One decoded Caliper profile, one entry per record (see module docs)."""

    source: Any
    hierarchy: Hierarchy
    node: np.ndarray
    columns: List[Tuple[ColumnSpec, np.ndarray]] = field(default_factory=list)
    rank: Optional[np.ndarray] = None
    order: Optional[np.ndarray] = None
    sourceloc: Optional[np.ndarray] = None
    metadata: Dict[str, Any] = field(default_factory=dict)
    layout: Sequence[str] = ()
    #: ``attribute.unit`` of the attributes that declare one (native name -> text)
    units: Dict[str, str] = field(default_factory=dict)


def repeated(value: Any, n: int) -> np.ndarray:
    """An object array holding ``value`` ``n`` times: one object, ``n`` references
    (``np.full`` would make ``n`` copies of a string)."""
    out = np.empty(n, dtype=object)
    out.fill(value)
    return out


def forest_depth(parent: np.ndarray, source: Any,
                 where: Callable[[int], str]) -> np.ndarray:
    """Depth of every node; a parent chain that loops is a :class:`ReadError`.

    ``where(i)`` names node ``i`` in the file (``"nodes[3]"``, ``"line 12"``).
    Pointer jumping: O(n log depth), no recursion.
    """
    parent = np.asarray(parent, dtype=INT)
    n = len(parent)
    bad = np.flatnonzero((parent < -1) | (parent >= n))
    if len(bad):
        i = int(bad[0])
        raise ReadError(source, f"node's parent {int(parent[i])} does not exist",
                        position=where(i), expected="the index of another node")
    depth = (parent >= 0).astype(INT)
    jump = parent.copy()
    for _ in range(max(1, int(n).bit_length()) + 1):
        active = np.flatnonzero(jump >= 0)
        if not len(active):
            return depth
        target = jump[active]
        depth[active] = depth[active] + depth[target]
        jump[active] = jump[target]
    i = int(np.flatnonzero(jump >= 0)[0])
    raise ReadError(source, "the node's chain of parents forms a cycle", position=where(i),
                    expected="parent links that end at a root")


def to_raw_profile(table: RecordTable, *, node_ordering: bool = True,
                   fmt: str = "caliper") -> RawProfile:
    """Build the RawProfile of ``table`` (see the module docs for the steps).

    The table is consumed: its arrays are released as soon as they have been
    copied into the profile's tables, which keeps the peak memory of large
    reads down.
    """
    if node_ordering == "recorded":   # Caliper's node order where the file records one
        node_ordering = table.order is not None
    h = table.hierarchy
    node, columns = table.node, list(table.columns)
    frames_extra: Dict[str, np.ndarray] = {}
    names = np.asarray(h.label, dtype=object)
    if table.sourceloc is not None:
        h, node, names, loc_columns, frames_extra = _split_statements(table, names)
        columns.extend(loc_columns)
    ranks, rank_code = _rank_codes(table.rank, len(node))
    values = _merge_and_fill(columns, key=node * len(ranks) + rank_code,
                             size=len(h) * len(ranks), source=table.source)
    if node_ordering and table.order is None and h.creation is not None:
        position = creation_positions(h.creation)
    else:
        position = _node_positions(h, node, table.order if node_ordering else None,
                                   table.source)
    specs = [spec for spec, _ in columns]
    if UNATTRIBUTED in table.metadata:
        table.metadata[UNATTRIBUTED_SHARE] = unattributed_shares(
            table.metadata[UNATTRIBUTED], values, specs, h.parent, len(ranks))
    ordered = bool(node_ordering and (table.order is not None or h.creation is not None))
    ranked = table.rank is not None
    del node, rank_code, columns
    table.hierarchy = table.node = table.rank = table.order = table.sourceloc = None
    table.columns = []
    builder = ProfileBuilder(table.source, index_levels=("rank",) if ranked else ())
    n = len(h)
    if np.array_equal(position, np.arange(n, dtype=INT)):
        local = position  # nodes enter in their own order: no reordered copies

        def placed(values: np.ndarray) -> np.ndarray:
            return values
    else:
        local = np.empty(n, dtype=INT)
        local[position] = np.arange(n, dtype=INT)

        def placed(values: np.ndarray) -> np.ndarray:
            return values[position]
    parents = placed(h.parent)
    frames = {"type": text_column(placed(np.asarray(h.kind, dtype=object))),
              "name": text_column(placed(np.asarray(h.label, dtype=object)))}
    for key_name, arr in frames_extra.items():
        frames[key_name] = text_column(placed(arr))
    builder.add_nodes(np.where(parents >= 0, local[np.maximum(parents, 0)], -1), frames,
                      columns={"nid": placed(h.nid), "name": text_column(placed(names))})
    del frames, frames_extra, parents, names, h, position
    levels = {"rank": np.tile(ranks, n)} if ranked else {}
    for key_name, column in values.items():
        if column.dtype == object:
            values[key_name] = text_column(column)
    builder.add_rows(np.repeat(local, len(ranks)), values, **levels)
    present = list(values)
    del values, levels, local
    metadata = {"format": fmt}
    metadata.update(table.metadata)
    metadata["units"] = _units(specs, present, table.units)
    return builder.build(**declare(specs, present), metadata=metadata, ordered=ordered,
                         columns=_layout(table.layout, present))


def _units(specs: Sequence[ColumnSpec], present: Sequence[str],
           declared: Dict[str, str]) -> Dict[str, str]:
    """``metadata["units"]``: each metric column present with a known unit."""
    out: Dict[str, str] = {}
    for spec in specs:
        if spec.role == METRIC and spec.name in present and spec.name not in out:
            unit = column_unit(spec, declared.get(spec.native))
            if unit is not None:
                out[spec.name] = unit
    return out


def unattributed_shares(totals: Dict[str, float], values: Dict[str, np.ndarray],
                        specs: Sequence[ColumnSpec], parent: np.ndarray,
                        ranks: int) -> Dict[str, float]:
    """Metric -> the share of its whole that ``totals`` (the records left out of the
    tree) are: ``left out / (left out + the tree's total)``, the tree's total being
    the sum over every (node, rank) of an exclusive metric, over the roots' of an
    inclusive one. ``values`` are the merged (node, rank) columns, node-major.

    Examples
    --------
    >>> specs = [ColumnSpec("time", "time", "metric"),
    ...          ColumnSpec("time (inc)", "x", "metric", inclusive=True)]
    >>> values = {"time": np.array([1.0, 2.0]), "time (inc)": np.array([3.0, 2.0])}
    >>> unattributed_shares({"time": 1.0, "time (inc)": 1.0}, values, specs,
    ...                     np.array([-1, 0]), 1)
    {'time': 0.25, 'time (inc)': 0.25}
    """
    inclusive = {spec.name for spec in specs if spec.inclusive}
    roots = np.flatnonzero(np.asarray(parent) < 0)
    root_rows = (roots[:, None] * ranks + np.arange(ranks)[None, :]).ravel()
    out: Dict[str, float] = {}
    for metric, left_out in totals.items():
        column = values.get(metric)
        if column is None or column.dtype == object:
            continue
        shown = column[root_rows] if metric in inclusive else column
        whole = float(np.nansum(shown)) + left_out
        out[metric] = left_out / whole if whole > 0 else 0.0
    return out


# ------------------------------------------------------------------ steps
def _rank_codes(rank: Optional[np.ndarray], n: int) -> Tuple[np.ndarray, np.ndarray]:
    """The ranks that recorded anything, and each record's position among them."""
    if rank is None:
        return np.zeros(1, dtype=INT), np.zeros(n, dtype=INT)
    rank = np.asarray(rank, dtype=INT)
    ranks = np.unique(rank) if len(rank) else np.zeros(1, dtype=INT)
    return ranks, np.searchsorted(ranks, rank).astype(INT)


def _merge_and_fill(columns: List[Tuple[ColumnSpec, np.ndarray]], *, key: np.ndarray,
                    size: int, source: Any = None) -> Dict[str, np.ndarray]:
    """One value per (node, rank) cell of the grid, for every column.

    ``avg#`` columns merge as weighted averages (:mod:`graphframe_readers.caliper.averages`).
    """
    n = len(key)
    if n and bool(np.all(key[1:] > key[:-1])):
        order = None
        starts = np.arange(n, dtype=INT)
        cell = key
    else:
        order = np.argsort(key, kind="stable")
        sorted_key = key[order]
        starts = np.flatnonzero(np.concatenate(([True], sorted_key[1:] != sorted_key[:-1]))) \
            if n else np.zeros(0, dtype=INT)
        cell = sorted_key[starts]
    counts = np.diff(np.append(starts, n)) if n else np.zeros(0, dtype=INT)
    duplicates = bool(len(starts) != n)
    averages = average_parts(columns) if duplicates else {}
    out: Dict[str, np.ndarray] = {}
    for spec, values in columns:
        if spec.role not in (METRIC, ATTRIBUTE, LABEL):
            continue
        if spec.name in averages and is_average(spec):
            parts = averages.pop(spec.name)
            reduced = merge_averages(spec.name, parts if order is None else parts.take(order),
                                     starts, counts, source)
        else:
            v = values if order is None else values[order]
            reduced = _reduce(spec, v, starts, counts, duplicates)
        out[spec.name] = _fill(spec, reduced, cell, size)
    return out


def _reduce(spec: ColumnSpec, v: np.ndarray, starts: np.ndarray, counts: np.ndarray,
            duplicates: bool) -> np.ndarray:
    """Combine the records of each (node, rank); a missing metric value is 0."""
    if spec.role == LABEL or v.dtype == object:
        return _reduce_labels(v, starts, counts) if duplicates and len(v) else v
    floating = v.dtype.kind == "f"
    if spec.role != METRIC:
        if not duplicates or not len(v):
            return v
        if not floating:
            return v[starts]
        index = np.where(np.isnan(v), len(v), np.arange(len(v)))
        first = np.minimum.reduceat(index, starts)
        return np.append(v, np.nan)[first]
    if not duplicates or not len(v):
        return _nan_to_zero(v) if floating else v
    op = spec.combine
    if op == "sum":
        return np.add.reduceat(_nan_to_zero(v) if floating else v, starts)
    # "min" or "max" (averages are merged by caliper_averages before they get here)
    ufunc = (np.fmin if op == "min" else np.fmax) if floating else \
        (np.minimum if op == "min" else np.maximum)
    return _nan_to_zero(ufunc.reduceat(v, starts)) if floating else \
        ufunc.reduceat(v, starts)


def _nan_to_zero(v: np.ndarray) -> np.ndarray:
    """NaN -> 0, infinities kept (``np.nan_to_num`` would clip them to the largest float);
    ``v`` itself when it holds no NaN."""
    missing = np.isnan(v)
    return np.where(missing, 0.0, v) if missing.any() else v


def _reduce_labels(v: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """First value per group; a group with several distinct values gets a tuple."""
    out = v[starts].copy()
    for g in np.flatnonzero(counts > 1):
        s = int(starts[g])
        seen: List[Any] = []
        for item in v[s:s + int(counts[g])]:
            if item is not None and item not in seen:
                seen.append(item)
        out[g] = seen[0] if len(seen) == 1 else (tuple(seen) if seen else None)
    return out


def _fill(spec: ColumnSpec, reduced: np.ndarray, cell: np.ndarray, size: int) -> np.ndarray:
    if len(cell) == size:
        return reduced
    if spec.role == LABEL or reduced.dtype == object:
        full = np.full(size, None, dtype=object)
    elif spec.role == METRIC:
        full = np.zeros(size, dtype=reduced.dtype)
    else:
        full = np.full(size, np.nan, dtype=np.float64)
    full[cell] = reduced
    return full


def _node_positions(h: Hierarchy, node: np.ndarray, order: Optional[np.ndarray],
                    source: Any) -> np.ndarray:
    """Order in which nodes enter the builder (siblings follow it when ordered).

    With a node order, a node's key is the smallest order of its own records
    or, for a node without records, of its subtree (its first-seen time).
    """
    n = len(h)
    if order is None:
        return np.arange(n, dtype=INT)
    depth = h.depth if h.depth is not None else \
        forest_depth(h.parent, source, lambda i: f"node {i}")
    key = np.full(n, np.inf)
    finite = ~np.isnan(order)
    np.minimum.at(key, node[finite], order[finite])
    by_depth = np.argsort(-depth, kind="stable")
    changes = np.diff(depth[by_depth]) != 0
    level_bounds = np.flatnonzero(np.concatenate(([True], changes, [True])))
    for a, b in zip(level_bounds[:-1], level_bounds[1:]):
        members = by_depth[a:b]
        members = members[h.parent[members] >= 0]
        if len(members):
            np.minimum.at(key, h.parent[members], key[members])
    return np.lexsort((np.arange(n), key)).astype(INT)


def creation_positions(creation: np.ndarray) -> np.ndarray:
    """The order in which nodes enter the builder so that siblings follow Hatchet's
    creation order (:attr:`Hierarchy.creation`): nodes with key -1 first, then by key,
    ties (the -1 nodes) in node order.

    Examples
    --------
    >>> creation_positions(np.array([0, -1, 2, -1])).tolist()
    [1, 3, 0, 2]
    """
    n = len(creation)
    return np.lexsort((np.arange(n, dtype=INT), creation)).astype(INT)


def _layout(preferred: Sequence[str], present: Sequence[str]) -> List[str]:
    layout = [c for c in preferred if c in present or c in ("nid", "name", "file", "line")]
    for c in present:
        if c not in layout:
            layout.append(c)
    for c in ("nid", "name"):
        if c not in layout:
            layout.append(c) if c == "name" else layout.insert(0, c)
    return layout


# --------------------------------------------------------- statements
_LOC = r"^(?P<file>.*):(?P<line>\d+)$"


def _split_statements(table: RecordTable, names: np.ndarray):
    """``file``/``line`` per record; statement children for multi-location nodes."""
    h = table.hierarchy
    loc = pd.Series(table.sourceloc, dtype=object)
    codes, uniques = pd.factorize(loc, use_na_sentinel=True)
    parsed = pd.Series(uniques, dtype=object).str.extract(_LOC)
    no_line = parsed["file"].isna().to_numpy()
    files = np.where(no_line, np.asarray(uniques, dtype=object), parsed["file"].to_numpy(dtype=object))
    lines = parsed["line"].to_numpy(dtype=object)
    file_col = np.where(codes >= 0, files[np.maximum(codes, 0)], None).astype(object)
    line_col = np.where(codes >= 0, lines[np.maximum(codes, 0)], None).astype(object)
    node = table.node
    has = codes >= 0
    pairs = pd.DataFrame({"node": node[has], "loc": codes[has]}).drop_duplicates()
    per_node = pairs.groupby("node").size()
    split_nodes = per_node.index[per_node.to_numpy() > 1].to_numpy()
    stmts = pairs[pairs["node"].isin(split_nodes)].copy()
    stmts["line"] = lines[stmts["loc"].to_numpy()]
    stmts["file"] = files[stmts["loc"].to_numpy()]
    stmts["pnid"] = h.nid[stmts["node"].to_numpy()]
    stmts = stmts.sort_values(["pnid", "line", "file"], kind="stable", na_position="last")
    k = len(stmts)
    base = len(h)
    first_nid = int(h.nid.max()) + 1 if len(h) else 0  # after the largest id, as in Hatchet
    new_index = np.arange(base, base + k, dtype=INT)
    lookup = pd.Series(new_index, index=pd.MultiIndex.from_arrays(
        [stmts["node"].to_numpy(), stmts["loc"].to_numpy()]))
    moved = np.isin(node, split_nodes) & has
    new_node = node.copy()
    if moved.any():
        new_node[moved] = lookup.reindex(pd.MultiIndex.from_arrays(
            [node[moved], codes[moved]])).to_numpy()
    stmt_files = stmts["file"].to_numpy(dtype=object)
    stmt_lines = stmts["line"].to_numpy(dtype=object)
    stmt_names = np.array([f"{os.path.basename(f)}:{ln}" for f, ln in zip(stmt_files, stmt_lines)],
                          dtype=object)
    hierarchy = Hierarchy(
        parent=np.r_[h.parent, stmts["node"].to_numpy(dtype=INT)],
        label=np.r_[np.asarray(h.label, dtype=object), np.full(k, None, dtype=object)],
        kind=np.r_[np.asarray(h.kind, dtype=object), repeated("statement", k)],
        nid=np.r_[h.nid, np.arange(first_nid, first_nid + k, dtype=INT)],
        creation=None if h.creation is None else np.r_[h.creation, new_index])
    frames = {"file": np.r_[np.full(base, None, dtype=object), stmt_files],
              "line": np.r_[np.full(base, None, dtype=object), stmt_lines]}
    all_names = np.r_[names, stmt_names]
    loc_columns = [(ColumnSpec("file", "file", LABEL), file_col),
                   (ColumnSpec("line", "line", LABEL), line_col)]
    return hierarchy, new_node, all_names, loc_columns, frames
