"""Caliper records -> RecordTable: the steps after decoding, shared by the
``.cali`` decoder (:mod:`graphframe_readers.caliper.cali.decode`) and caliper-reader objects
(:mod:`graphframe_readers.caliper.pyreader`).

A decoder hands over a :class:`Decoded`: each record's call path (a node of a
:class:`PathTree`) and one typed value per record for every attribute.
:func:`assemble` keeps Spot's ``regionprofile`` channel, turns CUDA/ROCm
activities and sampled functions into child nodes, prunes the call paths no
kept record uses, and chooses the columns (:func:`column_for`).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import ReadError
from .names import (CALLPATH_ATTRIBUTE, MAX_RANK, METRIC, MODULE_ATTRIBUTE, NO_PATH, ORDER,
                    ORDER_BASE, RANK, RANK_ATTRIBUTE, SOURCELOC_ATTRIBUTE, UNATTRIBUTED, ColumnSpec, check_no_path,
                    metric_total,
                    classify)
from .records import Hierarchy, RecordTable, forest_depth

INT = np.int64
SPOT_CHANNEL = "spot.channel"
#: Name of a call-path node whose label is empty (an unresolved sampled frame).
UNRESOLVED = "<unknown>"
SAMPLED_FUNCTION = "source.function#cali.sampler.pc"
ACTIVITY = ("cupti.activity.kind", "cupti.kernel.name", "rocm.activity", "rocm.kernel.name",
            "rocm.api")
#: Snapshot bookkeeping (trigger events, Caliper internals): not profile data.
INTERNAL_PREFIXES = ("cali.", "event.")
STRUCTURAL = frozenset(ACTIVITY + (SAMPLED_FUNCTION, SOURCELOC_ATTRIBUTE, CALLPATH_ATTRIBUTE))


def column_for(attribute: Any, by_reference: bool, string_attributes: Sequence[str],
               native: bool) -> Optional[ColumnSpec]:
    """The column an attribute becomes in the dataframe, or None if it does not.

    Global attributes are run metadata, hidden ones and snapshot triggers
    (``event.begin#region``, ``cali.snapshot.*``) internal; numeric
    attributes are kept (values classified by :func:`caliper_names.classify`,
    context attributes as non-additive attributes); text attributes only when
    asked for in ``string_attributes``, except ``spot.channel`` and the
    sampled module, which Hatchet always keeps.
    """
    if attribute.is_global or attribute.is_hidden:
        return None
    name = attribute.name
    if name.startswith(INTERNAL_PREFIXES):
        return None
    alias = attribute.meta.get("attribute.alias") if hasattr(attribute, "meta") else None
    if name == RANK_ATTRIBUTE:
        return ColumnSpec("rank", name, RANK)
    if name in (SPOT_CHANNEL, MODULE_ATTRIBUTE):
        return classify(name, numeric=False)
    if name in STRUCTURAL and name not in string_attributes:
        return None
    if attribute.numeric:
        spec = classify(name, alias, aggregatable=attribute.is_aggregatable, native_names=native)
        if by_reference and spec.role not in (RANK, ORDER):
            return ColumnSpec(spec.name, name, "attribute")
        return spec
    if name in string_attributes:
        return classify(name, alias, numeric=False, native_names=native)
    return None


class PathTree:
    """Call-path nodes: ``parent`` (int64 array), ``label``, frame ``kind``.

    Nodes are unique by (parent, label, kind); :meth:`child` finds or adds
    one (its index is built on first use, so trees decoded in bulk with
    :meth:`from_arrays` cost no per-node Python objects until then).
    """

    def __init__(self) -> None:
        self.parent = array("q")
        self.label: List[str] = []
        self.kind: List[str] = []
        self._index: Optional[Dict[Tuple[int, str, str], int]] = {}

    @classmethod
    def from_arrays(cls, parent: np.ndarray, label: Sequence[str], kind: str) -> "PathTree":
        tree = cls()
        tree.parent = array("q", np.asarray(parent, dtype=INT).tobytes())
        tree.label = list(label)
        tree.kind = [kind] * len(tree.label)
        tree._index = None
        return tree

    def __len__(self) -> int:
        return len(self.parent)

    def child(self, parent: int, label: str, kind: str = "function") -> int:
        if self._index is None:
            self._index = {key: i for i, key in
                           enumerate(zip(self.parent, self.label, self.kind))}
        key = (parent, label, kind)
        node = self._index.get(key)
        if node is None:
            node = len(self.parent)
            self._index[key] = node
            self.parent.append(parent)
            self.label.append(label)
            self.kind.append(kind)
        return node

    def add_root(self, label: str, kind: str = "function") -> int:
        """A new root, distinct from any existing node of the same label."""
        node = len(self.parent)
        if self._index is not None:
            self._index[(-1, label, kind)] = node
        self.parent.append(-1)
        self.label.append(label)
        self.kind.append(kind)
        return node

    def labels(self, node: int) -> List[str]:
        out = []
        while node >= 0:
            out.append(self.label[node])
            node = self.parent[node]
        return out[::-1]

    def path(self, labels: Sequence[str], kind: str = "function") -> int:
        node = -1
        for label in labels:
            node = self.child(node, label, kind)
        return node


@dataclass
class Decoded:
    """Records of one Caliper source before they become a RecordTable.

    ``values[key]`` holds one typed value per record (numbers with NaN, text
    with None) for attribute ``attributes[key]``; ``by_reference[key]`` says
    whether it came from the context tree; ``slot(key, i)`` is its position
    in record ``i`` (for Hatchet's first-seen column order); ``where(i)``
    names record ``i`` in error messages. :func:`assemble` consumes
    ``values``.
    """

    source: Any
    tree: PathTree
    rec_path: np.ndarray
    attributes: Dict[Any, Any]
    values: Dict[Any, np.ndarray]
    by_reference: Dict[Any, bool]
    slot: Callable[[Any, int], int]
    callpath: bool
    where: Callable[[int], str]

    def text(self, name: str) -> Optional[np.ndarray]:
        for key, attribute in self.attributes.items():
            if attribute.name == name and key in self.values:
                column = self.values[key]
                return column if column.dtype == object else column.astype(object)
        return None


def assemble(d: Decoded, *, native: bool = False, string_attributes: Sequence[str] = (),
             no_path: str = "drop") -> RecordTable:
    """Filter (Spot channels), place the records without a call path (``no_path``, see
    :func:`~graphframe_readers.caliper.names.check_no_path`), add activity nodes, prune, and
    build the columns."""
    m = len(d.rec_path)
    wanted = np.ones(m, dtype=bool)
    channel = d.text(SPOT_CHANNEL)
    if channel is not None:
        wanted = (channel == "regionprofile") | np.equal(channel, None)
    keep = wanted & (d.rec_path >= 0)
    if not keep.any():
        raise ReadError(d.source, "no record carries a call path", position=f"{m} records",
                        expected="records with nested region/function attributes or "
                                 "source.function#callpath.address")
    specs = {key: column_for(d.attributes[key], d.by_reference[key], string_attributes, native)
             for key in d.values}
    rec_path, pathless = d.rec_path, np.zeros(0, dtype=INT)
    unattributed: Dict[str, float] = {}
    if check_no_path(no_path) == "keep":
        rec_path, pathless = _keep_pathless(d, wanted, keep, specs)
    else:
        unattributed = _pathless_totals(d, wanted & (d.rec_path < 0), specs)
    rec_path = _activity_children(rec_path, keep, d.text, d.tree, d.callpath)
    every = bool(keep.all())
    rows = np.flatnonzero(keep)
    hierarchy, node = _pruned(d.tree, rec_path if every else rec_path[rows])
    del rec_path
    table = RecordTable(source=d.source, hierarchy=hierarchy, node=node)
    if unattributed:
        table.metadata[UNATTRIBUTED] = unattributed
    has_path = d.rec_path[rows] >= 0 if len(pathless) else None
    found: List[Tuple[Tuple[int, int, int], ColumnSpec, np.ndarray]] = []
    for key in list(d.values):
        values = d.values.pop(key)  # consumed: each column is held once
        attribute = d.attributes[key]
        if attribute.name == SOURCELOC_ATTRIBUTE:
            text = values if values.dtype == object else values.astype(object)
            table.sourceloc = text if every else text[rows]
            continue
        spec = specs[key]
        if spec is None:
            continue
        unit = attribute.meta.get("attribute.unit") if hasattr(attribute, "meta") else None
        if isinstance(unit, str):
            table.units[attribute.name] = unit
        column = values if every else values[rows]
        del values
        present = _present(column)
        if not present.any():
            continue
        first, at = _first_seen(present, has_path)
        order_key = (first, 0 if d.by_reference[key] else 1, d.slot(key, int(rows[at])))
        found.append((order_key, spec, column))
    found.sort(key=lambda t: t[0])
    layout = ["nid"]
    for _, spec, column in found:
        if spec.role == RANK:
            table.rank = _ranks(d, column, rows)
        elif spec.role == ORDER:
            order = np.asarray(column, dtype=np.float64)
            if spec.native != ORDER_BASE or _one_value_per_node(node, order):
                table.order = order
        elif spec.name not in layout:
            table.columns.append((spec, column))
            layout.append(spec.name)
    table.layout = layout
    return table


def _one_value_per_node(node: np.ndarray, order: np.ndarray) -> bool:
    """Whether the records of each node agree on its order value (NaN: no value).

    Caliper's raw ``aggregate.slot`` is a record's slot in the snapshot it was
    flushed in: one value per node in a profile flushed once, but it starts again
    with every snapshot of a timeseries (``mainloop`` has slots 1, 0, 0, ...), where
    it orders nothing.

    Examples
    --------
    >>> _one_value_per_node(np.array([0, 1, 0]), np.array([3.0, 1.0, 3.0]))
    True
    >>> _one_value_per_node(np.array([0, 1, 0]), np.array([3.0, 1.0, 0.0]))
    False
    """
    have = ~np.isnan(order)
    node, order = node[have], order[have]
    by_node = np.lexsort((order, node))
    node, order = node[by_node], order[by_node]
    return not bool(np.any((node[1:] == node[:-1]) & (order[1:] != order[:-1])))


def _keep_pathless(d: Decoded, wanted: np.ndarray, keep: np.ndarray,
                   specs: Dict[Any, Optional[ColumnSpec]]) -> Tuple[np.ndarray, np.ndarray]:
    """Records without a call path that hold a metric value, placed under a new
    :data:`~graphframe_readers.caliper.names.NO_PATH` root and added to ``keep`` (in place):
    the records' paths and the indices of those records."""
    pathless = _pathless_with_metrics(d, wanted & (d.rec_path < 0), specs)
    if not len(pathless):
        return d.rec_path, pathless
    rec_path = d.rec_path.copy()
    rec_path[pathless] = d.tree.add_root(NO_PATH, "function")
    keep[pathless] = True
    return rec_path, pathless


def _first_seen(present: np.ndarray, has_path: Optional[np.ndarray]) -> Tuple[int, int]:
    """A column's sort key and first record: first-seen order over the records with a
    call path, then over the rest (so keeping the records without one moves no column,
    nor the default metric).

    Examples
    --------
    >>> _first_seen(np.array([True, True]), np.array([False, True]))
    (1, 1)
    >>> _first_seen(np.array([True, False]), np.array([False, True]))
    (2, 0)
    """
    placed = present & has_path if has_path is not None else present
    if placed.any():
        at = int(np.argmax(placed))
        return at, at
    at = int(np.argmax(present))
    return len(present) + at, at


def _pathless_totals(d: Decoded, candidates: np.ndarray,
                     specs: Dict[Any, Optional[ColumnSpec]]) -> Dict[str, float]:
    """Metric column -> the sum of its values over the records among ``candidates``
    (a mask of records without a call path), for the metrics those records hold: what
    ``no_path="drop"`` leaves out of the tree (:data:`~graphframe_readers.caliper.names.UNATTRIBUTED`)."""
    rows = np.flatnonzero(candidates)
    totals: Dict[str, float] = {}
    if not len(rows):
        return totals
    for key, values in d.values.items():
        spec = specs[key]
        if spec is not None and spec.role == METRIC:
            total = metric_total(values[rows])
            if total is not None:
                totals[spec.name] = totals.get(spec.name, 0.0) + total
    return totals


def _pathless_with_metrics(d: Decoded, candidates: np.ndarray,
                           specs: Dict[Any, Optional[ColumnSpec]]) -> np.ndarray:
    """The records among ``candidates`` (a mask) that hold a value of a metric column
    (``specs``: each attribute's column, :func:`column_for`)."""
    rows = np.flatnonzero(candidates)
    if not len(rows):
        return rows
    holds = np.zeros(len(rows), dtype=bool)
    for key, values in d.values.items():
        spec = specs[key]
        if spec is not None and spec.role == METRIC:
            holds |= _present(values[rows])
    return rows[holds]


def _activity_children(rec_path, keep, text, tree: PathTree, callpath: bool) -> np.ndarray:
    """CUDA/ROCm activities and sampled functions become children of the path."""
    out = rec_path.copy()
    kind, kernel = text("cupti.activity.kind"), text("cupti.kernel.name")
    if kind is not None:
        for i in np.flatnonzero(keep & ~np.equal(kind, None)).tolist():
            k = kind[i]
            if k == "kernel" and kernel is not None and kernel[i] is not None:
                out[i] = tree.child(int(out[i]), kernel[i], "kernel")
            else:
                out[i] = tree.child(int(out[i]), k, "memcpy" if k == "memcpy" else k)
    activity, rkernel, api = text("rocm.activity"), text("rocm.kernel.name"), text("rocm.api")
    if activity is not None:
        for i in np.flatnonzero(keep & ~np.equal(activity, None)).tolist():
            a = activity[i]
            if a == "KERNEL_DISPATCH_COMPLETE" and rkernel is not None and rkernel[i] is not None:
                out[i] = tree.child(int(out[i]), rkernel[i], "kernel")
            elif api is not None and api[i] is not None and "hipMemcpy" in api[i]:
                # the copy is reported inside the hipMemcpy call's own region
                out[i] = tree.child(tree.parent[int(out[i])], a, "memcpy")
            else:
                out[i] = tree.child(int(out[i]), a, "activity")
    sampled = text(SAMPLED_FUNCTION)
    if sampled is not None and not callpath:
        for i in np.flatnonzero(keep & ~np.equal(sampled, None)).tolist():
            out[i] = tree.child(int(out[i]), sampled[i], "function")
    return out


def _pruned(tree: PathTree, used: np.ndarray) -> Tuple[Hierarchy, np.ndarray]:
    """The path nodes records use, with their ancestors, numbered in first-seen order,
    and each node's creation key (:attr:`~graphframe_readers.caliper.records.Hierarchy.creation`).

    Walking the records in file order, a record's node would get the next
    number after its not-yet-numbered ancestors (root first): so a node's
    number follows the first record that uses it or a descendant, then its
    depth. Computed with arrays (one pass per depth level).
    """
    parent = np.frombuffer(tree.parent, dtype=INT) if len(tree) else np.zeros(0, dtype=INT)
    n = len(parent)
    first = np.full(n, len(used), dtype=INT)
    np.minimum.at(first, used, np.arange(len(used), dtype=INT))
    depth = forest_depth(parent, "call paths", lambda i: f"node {i}")
    by_depth = np.argsort(-depth, kind="stable")
    bounds = np.flatnonzero(np.concatenate(([True], np.diff(depth[by_depth]) != 0, [True])))
    for a, b in zip(bounds[:-1], bounds[1:]):
        members = by_depth[a:b]
        members = members[parent[members] >= 0]
        np.minimum.at(first, parent[members], first[members])
    keep = np.flatnonzero(first < len(used))
    order = keep[np.lexsort((depth[keep], first[keep]))]
    new = np.full(n, -1, dtype=INT)
    new[order] = np.arange(len(order), dtype=INT)
    old_parent = parent[order]
    label = np.empty(len(order), dtype=object)
    label[:] = [tree.label[i] for i in order.tolist()]
    # an empty label (a sampled frame Caliper could not resolve) prints as a name
    label[label == ""] = UNRESOLVED
    kind = np.array([tree.kind[i] for i in order.tolist()], dtype=object)
    # Hatchet's creation key: a node whose first record (of its subtree) is its own
    # was made for that record and numbered; one first met as an ancestor keeps -1
    own = np.full(n, len(used), dtype=INT)
    np.minimum.at(own, used, np.arange(len(used), dtype=INT))
    seen = np.arange(len(order), dtype=INT)
    hierarchy = Hierarchy(parent=np.where(old_parent >= 0, new[np.maximum(old_parent, 0)], -1),
                          label=label, kind=kind,
                          nid=_hatchet_nids(first[order], depth[order],
                                            own[order] == first[order]),
                          depth=depth[order],
                          creation=np.where(own[order] == first[order], seen, -1))
    return hierarchy, new[used]


def _hatchet_nids(first: np.ndarray, depth: np.ndarray, is_own: np.ndarray) -> np.ndarray:
    """The ids Hatchet's ``.cali`` reader gives the nodes (its ``nid`` column).

    Hatchet numbers nodes as it walks the records: the first record that needs a
    node makes its missing ancestors nearest first, then -- when the topmost one
    is a root -- spends one more number on the root's entry in its root list,
    then numbers the record's own node. Nodes made for the same record share
    ``first``; ``is_own`` marks the record's own node.

    Examples
    --------
    Record 0 is at ``a/b`` (``a`` made on the way, then the root entry, then
    ``b``); record 1 at ``a/c``; record 2 at ``d`` (a root: its entry first):

    >>> _hatchet_nids(np.array([0, 0, 1, 2]), np.array([0, 1, 1, 0]),
    ...               np.array([False, True, True, True])).tolist()
    [0, 2, 3, 5]
    """
    n = len(first)
    if n == 0:
        return np.zeros(0, dtype=INT)
    rank = np.empty(n, dtype=INT)
    rank[np.lexsort((-depth, is_own, first))] = np.arange(n, dtype=INT)
    root_first = np.sort(first[depth == 0])
    before = np.searchsorted(root_first, first, side="left")   # root entries spent earlier
    in_root_group = np.isin(first, root_first)
    return rank + before + (is_own & in_root_group)


def _convert_texts(source: Any, attribute: Any, texts: np.ndarray,
                   where: Callable[[int], str]) -> np.ndarray:
    """Text values (None = absent) -> numbers by Caliper type; text types stay text.

    ``int``/``uint``/``addr`` become int64/uint64 when every value is present
    and integral, float64 with NaN otherwise; ``bool`` becomes 0/1.
    """
    kind = attribute.type
    if not attribute.numeric:
        return texts
    have = ~np.equal(texts, None)
    out = np.full(len(texts), np.nan)
    try:
        if kind == "bool":
            lowered = np.array([str(t).lower() for t in texts[have]], dtype=object)
            if not np.isin(lowered, ["true", "false", "1", "0"]).all():
                raise ValueError("not a boolean")
            out[have] = np.isin(lowered, ["true", "1"])
            return out
        if kind != "double" and have.all():
            try:
                return texts.astype(np.int64 if kind == "int" else np.uint64)
            except (ValueError, OverflowError, TypeError):
                pass
        out[have] = texts[have].astype(np.float64)
        return out
    except (ValueError, TypeError, OverflowError) as exc:
        bad = next(i for i in np.flatnonzero(have) if not _parses(texts[i], kind))
        raise ReadError(source, f"attribute {attribute.name!r} ({kind}) has value "
                        f"{texts[bad]!r}", position=where(int(bad)),
                        expected=f"a {kind} value") from exc


def _parses(text: Any, kind: str) -> bool:
    try:
        if kind == "bool":
            return str(text).lower() in ("true", "false", "1", "0")
        float(text)
        return True
    except (TypeError, ValueError):
        return False


def _present(column: np.ndarray) -> np.ndarray:
    if column.dtype == object:
        return ~np.equal(column, None)
    if column.dtype.kind == "f":
        return ~np.isnan(column)
    return np.ones(len(column), dtype=bool)


def _ranks(d: Decoded, column: np.ndarray, rows: np.ndarray) -> np.ndarray:
    try:
        ranks = np.asarray(column, dtype=np.float64)
    except (TypeError, ValueError):
        ranks = np.full(len(column), np.nan)
    bad = np.isnan(ranks) | (ranks != np.round(ranks))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        row = int(rows[i])
        hint = (f" (it has no call path and is kept under {NO_PATH!r}; the reader option "
                "no_path='drop' leaves such records out)") if d.rec_path[row] < 0 else ""
        raise ReadError(d.source, "a record has no integer mpi.rank while others do" + hint,
                        position=d.where(row), expected="an mpi.rank entry in every record")
    bad = (ranks < 0) | (ranks > MAX_RANK)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ReadError(d.source, f"the record's mpi.rank is {int(ranks[i])}",
                        position=d.where(int(rows[i])),
                        expected=f"an MPI rank: an integer from 0 to {MAX_RANK}")
    return ranks.astype(INT)
