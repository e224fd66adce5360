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

import csv
import io
from typing import Any, Dict, List, Sequence, Set, Tuple

import numpy as np
import pandas as pd

from .caliper_assemble import Decoded, PathTree, _convert_texts, _parses, assemble
from .caliper_jsonfast import EXACT_FLOATS
from .caliper_calimeta import ATTR_NAME, ATTR_PROP, ATTR_TYPE, Attribute, CaliText
from .caliper_names import CALLPATH_ATTRIBUTE
from .caliper_records import RecordTable, forest_depth
from .errors import ReadError

INT = np.int64


def cali_records(cali: CaliText, *, native: bool = False,
                 string_attributes: Sequence[str] = ()) -> RecordTable:
    """The :class:`RecordTable` of one decoded ``.cali`` file."""
    return assemble(decode_records(cali), native=native, string_attributes=string_attributes)


def decode_records(cali: CaliText) -> Decoded:
    """Call path and typed attribute values of every record of a ``.cali`` file.

    Consumes ``cali.rec_data`` (the records' value texts) once decoded.
    """
    attrs = cali.attributes
    by_name = {a.name: pos for pos, a in attrs.items()}
    levels = _levels(cali.depth)
    hier = _hierarchy_attributes(cali, by_name)
    tree, node_path = _node_paths(cali, hier, levels)
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
    cali.rec_data = []  # the value texts are decoded: release them early
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


def _node_paths(cali: CaliText, hier: Set[int],
                levels: List[np.ndarray]) -> Tuple[PathTree, np.ndarray]:
    """The call-path tree, and the path node of every context-tree node (-1: none).

    Each context node whose attribute is a hierarchy attribute is a "raw" path
    node, child of its nearest such ancestor; raw nodes with the same label
    path (contexts that differ only in other attributes) are then merged, one
    path depth at a time (equal paths have equal depths), with array keys.
    """
    n = len(cali.node_parent)
    is_h = np.isin(cali.node_attr, np.fromiter(hier, dtype=INT, count=len(hier)))
    parent = np.r_[cali.node_parent, -1]
    nearest = np.full(n + 1, -1, dtype=INT)  # nearest hierarchy node, self included
    for members in levels:
        nearest[members] = np.where(is_h[members], members, nearest[parent[members]])
    raw = np.flatnonzero(is_h)
    raw_of = np.full(n + 1, -1, dtype=INT)
    raw_of[raw] = np.arange(len(raw), dtype=INT)
    raw_parent = raw_of[nearest[parent[raw]]]
    labels = np.empty(len(raw), dtype=object)
    labels[:] = [cali.node_data[i] for i in raw.tolist()]
    codes, uniques = pd.factorize(labels)
    width = max(len(uniques), 1)
    depth = forest_depth(raw_parent, cali.source, lambda i: cali.where(int(raw[i])))
    canon = np.full(len(raw), -1, dtype=INT)
    out_parent, out_label, next_id = [], [], 0
    for members in _levels(depth):
        above = raw_parent[members]
        key = (np.where(above >= 0, canon[np.maximum(above, 0)], -1) + 1) * width + codes[members]
        unique_keys, inverse = np.unique(key, return_inverse=True)
        canon[members] = next_id + inverse.ravel()
        out_parent.append(unique_keys // width - 1)
        out_label.append(unique_keys % width)
        next_id += len(unique_keys)
    tree = PathTree.from_arrays(
        np.concatenate(out_parent) if out_parent else np.zeros(0, dtype=INT),
        np.asarray(uniques, dtype=object)[np.concatenate(out_label)] if out_label else [],
        "function")
    node_raw = raw_of[nearest[:n]]
    path = np.r_[canon, -1][node_raw]  # -1 (no hierarchy ancestor) picks the sentinel
    return tree, path


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
        columns = _typed_columns(cali, rows_arr, sig)
        for j in range(len(sig) - 1, -1, -1):  # an attribute given twice keeps its first slot
            slots.setdefault(sig[j], np.zeros(m, dtype=INT))[rows_arr] = j
        for j, pos in enumerate(sig):  # ... and its last value, like caliper-reader
            pieces.setdefault(pos, []).append((rows_arr, columns[j]))
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


_CSV_TYPES = {"double": np.float64, "int": np.int64, "uint": np.uint64, "addr": np.uint64}
CSV_ROWS = 1 << 17


def _typed_columns(cali: CaliText, rows: np.ndarray, sig: Tuple[int, ...]) -> List[np.ndarray]:
    """The values of records ``rows`` (one signature), one typed array per entry.

    Usual records (no escapes) go through pandas' C parser with ``=`` as the
    separator, typed by each attribute's Caliper type; anything it rejects
    goes value by value, which also locates the bad value.
    """
    attrs = [cali.attributes[pos] for pos in sig]
    data = cali.rec_data
    if len(rows) > 64 and all(a.type in _CSV_TYPES or not a.numeric for a in attrs) and \
            all(isinstance(data[i], str) for i in rows.tolist()):
        dtypes = {j: _CSV_TYPES.get(a.type, object) for j, a in enumerate(attrs)}
        try:
            blocks = [_csv_block(data, rows[k:k + CSV_ROWS], dtypes)
                      for k in range(0, len(rows), CSV_ROWS)]
            return [np.concatenate([b[j] for b in blocks]) for j in range(len(sig))]
        except (ValueError, TypeError, OverflowError, pd.errors.ParserError):
            pass  # the slow path below says which value is wrong
    matrix = _data_matrix(cali, rows, len(sig))
    return [_convert(cali, attrs[j], matrix[:, j], rows) for j in range(len(sig))]


def _csv_block(data: List[Any], rows: np.ndarray, dtypes: Dict[int, Any]) -> List[np.ndarray]:
    frame = pd.read_csv(io.StringIO("\n".join([data[i] for i in rows.tolist()])), sep="=",
                        header=None, names=list(dtypes), dtype=dtypes, engine="c",
                        quoting=csv.QUOTE_NONE, na_filter=False, skip_blank_lines=False,
                        **EXACT_FLOATS)
    if len(frame) != len(rows):
        raise ValueError("rows")
    return [frame[j].to_numpy(dtype=t) for j, t in dtypes.items()]


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


