"""Caliper ``.cali`` files -> RecordTable (one file; :mod:`readers.caliper` reads sets).

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

from typing import Any, Dict, List, Sequence, Set, Tuple

import numpy as np

from .caliper_assemble import Decoded, PathTree, _convert_texts, _parses, assemble
from .caliper_calitext import ATTR_NAME, ATTR_PROP, ATTR_TYPE, Attribute, CaliText
from .caliper_names import CALLPATH_ATTRIBUTE
from .caliper_records import RecordTable
from .errors import ReadError

INT = np.int64


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
    tree = PathTree()
    node_path = _node_paths(cali, hier, levels, tree)
    m = len(cali.rec_line)
    refs = cali.refs
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
                tree: PathTree) -> np.ndarray:
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


def _record_paths(cali: CaliText, refs: np.ndarray, node_path: np.ndarray,
                  tree: PathTree) -> np.ndarray:
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
    m = len(cali.rec_line)
    order = np.argsort(cali.rec_sig, kind="stable")
    bounds = np.flatnonzero(np.r_[True, np.diff(cali.rec_sig[order]) != 0, True])
    pieces: Dict[int, List[Tuple[np.ndarray, np.ndarray]]] = {}
    slots: Dict[int, np.ndarray] = {}
    for a, b in zip(bounds[:-1], bounds[1:]):
        rows_arr = order[a:b]
        sig = cali.signatures[int(cali.rec_sig[rows_arr[0]])] if len(rows_arr) else ()
        if not sig:
            continue
        data = _data_matrix(cali, rows_arr, len(sig))
        for j in range(len(sig) - 1, -1, -1):  # an attribute given twice keeps its first slot
            slots.setdefault(sig[j], np.zeros(m, dtype=INT))[rows_arr] = j
        for j, pos in enumerate(sig):  # ... and its last value, like caliper-reader
            values = _convert(cali, cali.attributes[pos], data[:, j], rows_arr)
            pieces.setdefault(pos, []).append((rows_arr, values))
    out: Dict[int, np.ndarray] = {}
    for pos, parts in pieces.items():
        covered = np.zeros(m, dtype=bool)
        for r, _ in parts:
            covered[r] = True
        vals = [v for _, v in parts]
        full_cover = bool(covered.all())
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


def _data_matrix(cali: CaliText, rows: np.ndarray, width: int) -> np.ndarray:
    """The value texts of records ``rows`` (all of one signature) as an object matrix."""
    texts = [cali.rec_data[i] for i in rows.tolist()]
    out = np.empty((len(rows), width), dtype=object)
    plain = np.array([isinstance(t, str) for t in texts], dtype=bool)
    if plain.any():
        joined = "=".join(t for t, p in zip(texts, plain) if p).split("=")
        out[plain] = np.array(joined, dtype=object).reshape(int(plain.sum()), width)
    for i in np.flatnonzero(~plain):  # escaped lines arrive split already
        out[i] = texts[i]
    return out


def _convert(cali: CaliText, attribute: Attribute, texts: np.ndarray, rows: np.ndarray) -> np.ndarray:
    return _convert_texts(cali.source, attribute, texts,
                          lambda i: f"line {cali.rec_line[int(rows[i])]}")


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


