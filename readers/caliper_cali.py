"""Caliper ``.cali`` files -> RecordTable (one file; see ``caliper_cali_files`` for sets).

The call path of a record is the chain of its *nested* attributes (``region``,
``function``, ``loop``, ``annotation``, ``mpi.function``..., in Caliper's
context-tree order), or, in sampling profiles with call-path unwinding, the
chain of ``source.function#callpath.address`` values. Files from Caliper 1.x,
which had no nested property, use their user-level reference attributes.
Activity records add a child: CUDA kernels (``cupti.kernel.name``, type
``kernel``) and memory copies (``memcpy``), ROCm kernels and copies; a sampled
function (``source.function#cali.sampler.pc``) becomes a child of its region.
Spot files keep only their ``regionprofile`` channel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from .caliper_calitext import ATTR_NAME, ATTR_PROP, ATTR_TYPE, Attribute, CaliText
from .caliper_names import (CALLPATH_ATTRIBUTE, MODULE_ATTRIBUTE, ORDER, RANK,
                            RANK_ATTRIBUTE, SOURCELOC_ATTRIBUTE, ColumnSpec, classify)
from .caliper_records import Hierarchy, RecordTable
from .errors import ReadError

INT = np.int64
SPOT_CHANNEL = "spot.channel"
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


class _PathTree:
    """Call-path nodes keyed by (parent, label, kind)."""

    def __init__(self) -> None:
        self.parent: List[int] = []
        self.label: List[str] = []
        self.kind: List[str] = []
        self.index: Dict[Tuple[int, str, str], int] = {}

    def child(self, parent: int, label: str, kind: str = "function") -> int:
        key = (parent, label, kind)
        node = self.index.get(key)
        if node is None:
            node = len(self.parent)
            self.index[key] = node
            self.parent.append(parent)
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
    whether it came from the context tree; ``slots[key]`` is its position in
    each record (for Hatchet's first-seen column order); ``where(i)`` names
    record ``i`` in error messages.
    """

    source: Any
    tree: _PathTree
    rec_path: np.ndarray
    attributes: Dict[Any, Any]
    values: Dict[Any, np.ndarray]
    by_reference: Dict[Any, bool]
    slots: Dict[Any, np.ndarray]
    callpath: bool
    where: Callable[[int], str]

    def text(self, name: str) -> Optional[np.ndarray]:
        for key, attribute in self.attributes.items():
            if attribute.name == name and key in self.values:
                column = self.values[key]
                return column if column.dtype == object else column.astype(object)
        return None


def cali_records(cali: CaliText, *, native: bool = False,
                 string_attributes: Sequence[str] = ()) -> RecordTable:
    """The :class:`RecordTable` of one decoded ``.cali`` file."""
    return assemble(decode_records(cali), native=native, string_attributes=string_attributes)


def decode_records(cali: CaliText) -> Decoded:
    """Call path and typed attribute values of every record of a ``.cali`` file."""
    attrs = cali.attributes
    by_name = {a.name: pos for pos, a in attrs.items()}
    levels = _levels(cali.depth)
    hier = _hierarchy_attributes(cali, by_name)
    tree = _PathTree()
    node_path = _node_paths(cali, hier, levels, tree)
    m = len(cali.rec_line)
    refs = _ref_matrix(cali.rec_refs, len(cali.node_parent))
    rec_path = _record_paths(cali, refs, node_path, tree)
    candidates = _reference_attributes(cali, hier)
    values: Dict[Any, np.ndarray] = {}
    by_reference: Dict[Any, bool] = {}
    slots: Dict[Any, np.ndarray] = {}
    for pos, nodes in _reference_values(cali, refs, candidates, levels).items():
        values[pos] = _as_column(cali, attrs[pos], nodes)
        by_reference[pos] = True
        slots[pos] = np.zeros(m, dtype=INT)
    imm_values, imm_slots = _immediate_values(cali)
    for pos, column in imm_values.items():
        if pos not in values:
            values[pos], by_reference[pos], slots[pos] = column, False, imm_slots[pos]
    lines = cali.rec_line
    return Decoded(cali.source, tree, rec_path, attrs, values, by_reference, slots,
                   callpath=any(attrs[p].name == CALLPATH_ATTRIBUTE for p in hier),
                   where=lambda i: f"line {lines[i]}")


def assemble(d: Decoded, *, native: bool = False,
             string_attributes: Sequence[str] = ()) -> RecordTable:
    """Filter (Spot channels), add activity nodes, prune, and build the columns."""
    m = len(d.rec_path)
    keep = d.rec_path >= 0
    channel = d.text(SPOT_CHANNEL)
    if channel is not None:
        keep &= (channel == "regionprofile") | np.equal(channel, None)
    rec_path = _activity_children(d.rec_path, keep, d.text, d.tree, d.callpath)
    if not keep.any():
        raise ReadError(d.source, "no record carries a call path", position=f"{m} records",
                        expected="records with nested region/function attributes or "
                                 "source.function#callpath.address")
    rows = np.flatnonzero(keep)
    hierarchy, node = _pruned(d.tree, rec_path[rows])
    table = RecordTable(source=d.source, hierarchy=hierarchy, node=node)
    found: List[Tuple[Tuple[int, int, int], ColumnSpec, np.ndarray]] = []
    for key, values in d.values.items():
        attribute = d.attributes[key]
        if attribute.name == SOURCELOC_ATTRIBUTE:
            table.sourceloc = d.text(SOURCELOC_ATTRIBUTE)[rows]
            continue
        spec = column_for(attribute, d.by_reference[key], string_attributes, native)
        column = values[rows]
        hits = np.flatnonzero(_present(column))
        if spec is None or not len(hits):
            continue
        first = int(hits[0])
        order_key = (first, 0 if d.by_reference[key] else 1, int(d.slots[key][rows[first]]))
        found.append((order_key, spec, column))
    found.sort(key=lambda t: t[0])
    layout = ["nid"]
    for _, spec, column in found:
        if spec.role == RANK:
            table.rank = _ranks(d, column, rows)
        elif spec.role == ORDER:
            table.order = np.asarray(column, dtype=np.float64)
        elif spec.name not in layout:
            table.columns.append((spec, column))
            layout.append(spec.name)
    table.layout = layout
    return table


# ------------------------------------------------------------- hierarchy
def _levels(depth: np.ndarray) -> List[np.ndarray]:
    order = np.argsort(depth, kind="stable")
    bounds = np.flatnonzero(np.r_[True, np.diff(depth[order]) != 0, True])
    return [order[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _hierarchy_attributes(cali: CaliText, by_name: Dict[str, int]) -> Set[int]:
    used = set(np.unique(cali.node_attr).tolist())
    callpath = by_name.get(CALLPATH_ATTRIBUTE)
    if callpath is not None and callpath in used:
        return {callpath}
    nested = {pos for pos, a in cali.attributes.items() if a.is_nested and pos in used}
    if nested:
        return nested
    # Caliper 1.x had no "nested" property: its user annotations are the
    # reference (non-value) attributes outside Caliper's own namespaces
    return {pos for pos, a in cali.attributes.items()
            if pos in used and not (a.is_value or a.is_global or a.is_hidden)
            and not a.name.startswith(("cali.", "event.", "attribute."))
            and pos not in _metadata_attributes(cali)}


def _metadata_attributes(cali: CaliText) -> Set[int]:
    """Attributes used only to describe attributes (alias, unit, bootstrap)."""
    out = set()
    defining = set(cali.attributes)
    for pos in defining:
        node = int(cali.node_parent[pos])
        while node >= 0:
            out.add(int(cali.node_attr[node]))
            node = int(cali.node_parent[node])
    boot = {p for p, a in cali.attributes.items() if a.id in (ATTR_NAME, ATTR_TYPE, ATTR_PROP)}
    return out | boot


def _node_paths(cali: CaliText, hier: Set[int], levels: List[np.ndarray],
                tree: _PathTree) -> np.ndarray:
    """Path-tree node of every context-tree node (-1: no path)."""
    n = len(cali.node_parent)
    is_h = np.isin(cali.node_attr, np.fromiter(hier, dtype=INT, count=len(hier)))
    path = np.full(n + 1, -1, dtype=INT)  # path[-1] == -1 serves parents of roots
    parent = cali.node_parent
    data = cali.node_data
    for members in levels:
        path[members] = path[parent[members]]
        for m in members[is_h[members]].tolist():
            path[m] = tree.child(int(path[m]), data[m])
    return path[:n]


def _ref_matrix(rec_refs: List[Tuple[int, ...]], n: int) -> np.ndarray:
    """Records' refs as an (m, k) matrix padded with ``n`` (a sentinel node)."""
    width = max((len(r) for r in rec_refs), default=0)
    out = np.full((len(rec_refs), max(width, 1)), n, dtype=INT)
    for k in range(1, width + 1):
        rows = [i for i, r in enumerate(rec_refs) if len(r) == k]
        if rows:
            out[rows, :k] = np.array([rec_refs[i] for i in rows], dtype=INT)
    return out


def _record_paths(cali: CaliText, refs: np.ndarray, node_path: np.ndarray,
                  tree: _PathTree) -> np.ndarray:
    paths = np.r_[node_path, -1][refs]
    count = (paths >= 0).sum(axis=1)
    out = paths.max(axis=1) if paths.shape[1] else np.full(len(refs), -1, dtype=INT)
    for i in np.flatnonzero(count > 1).tolist():
        # several context chains: Caliper's formatters put later chains first
        labels: List[str] = []
        for p in reversed(paths[i].tolist()):
            if p >= 0:
                labels.extend(tree.labels(p))
        out[i] = tree.path(labels)
    return out


def _activity_children(rec_path, keep, text, tree: _PathTree, callpath: bool) -> np.ndarray:
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


def _pruned(tree: _PathTree, used: np.ndarray) -> Tuple[Hierarchy, np.ndarray]:
    """The path nodes records use, with their ancestors, numbered in first-seen order.

    Walking the records in file order, a record's node gets the next number
    after its not-yet-numbered ancestors (root first): the order in which
    the calling contexts first appear, which is also the ``nid``.
    """
    parent = tree.parent
    new = np.full(len(parent), -1, dtype=INT)
    order: List[int] = []
    for p in used.tolist():
        if new[p] >= 0:
            continue
        chain = []
        while p >= 0 and new[p] < 0:
            chain.append(p)
            p = parent[p]
        for q in reversed(chain):
            new[q] = len(order)
            order.append(q)
    keep = np.array(order, dtype=INT)
    old_parent = np.array(parent, dtype=INT)[keep]
    label = np.array(tree.label, dtype=object)[keep]
    kind = np.array(tree.kind, dtype=object)[keep]
    hierarchy = Hierarchy(parent=np.where(old_parent >= 0, new[np.maximum(old_parent, 0)], -1),
                          label=label, kind=kind, nid=np.arange(len(keep), dtype=INT))
    return hierarchy, new[used]


# ---------------------------------------------------------------- values
def _reference_attributes(cali: CaliText, hier: Set[int]) -> Set[int]:
    meta = _metadata_attributes(cali)
    used = set(np.unique(cali.node_attr).tolist())
    return {pos for pos in used if pos not in hier and pos not in meta
            and not cali.attributes[pos].is_hidden and not cali.attributes[pos].is_global}


def _reference_values(cali: CaliText, refs: np.ndarray, candidates: Set[int],
                      levels: List[np.ndarray]) -> Dict[int, np.ndarray]:
    """Per candidate attribute: the node holding its value in each record (-1: none)."""
    n = len(cali.node_parent)
    if not candidates:
        return {}
    is_c = np.zeros(n + 1, dtype=bool)
    is_c[:n] = np.isin(cali.node_attr, np.fromiter(candidates, dtype=INT, count=len(candidates)))
    nearest = np.full(n + 1, -1, dtype=INT)
    parent = np.r_[cali.node_parent, -1]
    for members in levels:
        nearest[members] = np.where(is_c[members], members, nearest[parent[members]])
    out = {pos: np.full(len(refs), -1, dtype=INT) for pos in candidates}
    attr = np.r_[cali.node_attr, -1]
    rows = np.repeat(np.arange(len(refs), dtype=INT), refs.shape[1])
    cur = nearest[refs.ravel()]
    while True:
        live = cur >= 0
        if not live.any():
            break
        rows, cur = rows[live], cur[live]
        a = attr[cur]
        for pos in np.unique(a).tolist():
            sel = a == pos
            target = out[pos]
            r = rows[sel]
            unset = target[r] < 0
            target[r[unset]] = cur[sel][unset]
        cur = nearest[parent[cur]]
    return {pos: v for pos, v in out.items() if (v >= 0).any()}


def _immediate_values(cali: CaliText):
    """Per attribute with immediate entries: one converted value per record.

    Numbers are float64 with NaN where a record lacks the entry (int64/uint64
    when every record has it), text is object with None. Also returns each
    attribute's position within every record.
    """
    groups: Dict[Tuple[int, ...], List[int]] = {}
    for i, sig in enumerate(cali.rec_attrs):
        if sig:
            groups.setdefault(sig, []).append(i)
    pieces: Dict[int, List[Tuple[np.ndarray, np.ndarray]]] = {}
    m = len(cali.rec_line)
    slots: Dict[int, np.ndarray] = {}
    for sig, rows in groups.items():
        data = np.array([cali.rec_data[i] for i in rows], dtype=object).reshape(len(rows), len(sig))
        rows_arr = np.array(rows, dtype=INT)
        for j in range(len(sig) - 1, -1, -1):  # an attribute given twice keeps its first slot
            slots.setdefault(sig[j], np.zeros(m, dtype=INT))[rows_arr] = j
        for j, pos in enumerate(sig):  # ... and its last value, like caliper-reader
            values = _convert(cali, cali.attributes[pos], data[:, j], rows_arr)
            pieces.setdefault(pos, []).append((rows_arr, values))
    out: Dict[int, np.ndarray] = {}
    for pos, parts in pieces.items():
        rows_all = np.concatenate([r for r, _ in parts])
        vals = [v for _, v in parts]
        full_cover = len(rows_all) == m and len(np.unique(rows_all)) == m
        if any(v.dtype == object for v in vals):
            column = np.full(m, None, dtype=object)
        elif full_cover and all(v.dtype.kind in "iu" for v in vals):
            column = np.zeros(m, dtype=np.result_type(*vals))
        else:
            column = np.full(m, np.nan)
        for r, v in parts:
            column[r] = v
        out[pos] = column
    return out, slots


def _convert(cali: CaliText, attribute: Attribute, texts: np.ndarray, rows: np.ndarray) -> np.ndarray:
    return _convert_texts(cali.source, attribute, texts,
                          lambda i: f"line {cali.rec_line[int(rows[i])]}")


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


def _as_column(cali: CaliText, attribute: Attribute, nodes: np.ndarray) -> np.ndarray:
    """Context-tree values of a record column (numbers parsed, text kept)."""
    texts = np.array(cali.node_data + [None], dtype=object)[nodes]
    if not attribute.numeric:
        return texts
    out = np.full(len(texts), np.nan)
    have = nodes >= 0
    try:
        out[have] = texts[have].astype(np.float64)
    except (TypeError, ValueError) as exc:
        bad = next(i for i in np.flatnonzero(have) if not _parses(texts[i], "double"))
        raise ReadError(cali.source, f"attribute {attribute.name!r} has value {texts[bad]!r}",
                        position=cali.where(int(nodes[bad])),
                        expected=f"a {attribute.type} value") from exc
    return out


def _present(column: np.ndarray) -> np.ndarray:
    if column.dtype == object:
        return ~np.equal(column, None)
    if column.dtype.kind == "f":
        return ~np.isnan(column)
    return np.ones(len(column), dtype=bool)


def _ranks(d: "Decoded", column: np.ndarray, rows: np.ndarray) -> np.ndarray:
    try:
        ranks = np.asarray(column, dtype=np.float64)
    except (TypeError, ValueError):
        ranks = np.full(len(column), np.nan)
    bad = np.isnan(ranks) | (ranks != np.round(ranks))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ReadError(d.source, "a record has no integer mpi.rank while others do",
                        position=d.where(int(rows[i])),
                        expected="an mpi.rank entry in every record")
    return ranks.astype(INT)
