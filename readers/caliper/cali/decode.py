"""Caliper ``.cali`` files -> RecordTable (one file; :mod:`graphframe_readers.caliper` reads sets).

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

from ...errors import ReadError
from ..assemble import Decoded, PathTree, _convert_texts, _parses, assemble
from ..jsonsplit.fast import EXACT_FLOATS
from ..names import CALLPATH_ATTRIBUTE
from ..records import RecordTable, forest_depth
from .meta import ATTR_NAME, ATTR_PROP, ATTR_TYPE, Attribute, CaliText

INT = np.int64


def cali_records(cali: CaliText, *, native: bool = False, string_attributes: Sequence[str] = (),
                 no_path: str = "drop") -> RecordTable:
    """The :class:`RecordTable` of one decoded ``.cali`` file."""
    return assemble(decode_records(cali), native=native, string_attributes=string_attributes,
                    no_path=no_path)


def decode_records(cali: CaliText) -> Decoded:
    """Call path and typed attribute values of every record of a ``.cali`` file.

    Consumes ``cali.rec_data`` (the records' value texts) once decoded.
    """
    attrs = cali.attributes
    by_name = {a.name: pos for pos, a in attrs.items()}
    levels = _levels(cali.depth)
    hier = _hierarchy_attributes(cali, by_name)
    tree, node_path = _node_paths(cali, hier, levels)
    refs = cali.refs
    rec_path = _record_paths(cali, refs, node_path, tree)
    del node_path
    candidates = _reference_attributes(cali, hier)
    values: Dict[Any, np.ndarray] = {}
    by_reference: Dict[Any, bool] = {}
    for pos, nodes in _reference_values(cali, refs, candidates, levels).items():
        values[pos] = _as_column(cali, attrs[pos], nodes)
        by_reference[pos] = True
    del levels, refs
    cali.refs = None
    imm_values = _immediate_values(cali)
    cali.rec_data = []  # the value texts are decoded: release them early
    for pos in list(imm_values):
        column = imm_values.pop(pos)
        if pos not in values:
            values[pos], by_reference[pos] = column, False
    lines, rec_sig, signatures = cali.rec_line, cali.rec_sig, cali.signatures

    def slot(pos: Any, i: int) -> int:
        """Position of attribute ``pos`` in record ``i`` (its first, if repeated)."""
        sig = signatures[int(rec_sig[i])]
        return 0 if by_reference[pos] or pos not in sig else sig.index(pos)

    return Decoded(cali.source, tree, rec_path, attrs, values, by_reference, slot,
                   callpath=any(attrs[p].name == CALLPATH_ATTRIBUTE for p in hier),
                   where=lambda i: f"line {lines[i]}")


# ------------------------------------------------------------- hierarchy
def _levels(depth: np.ndarray) -> List[np.ndarray]:
    order = np.argsort(depth, kind="stable")
    bounds = np.flatnonzero(np.concatenate(([True], np.diff(depth[order]) != 0, [True])))
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
    meta = _metadata_attributes(cali)
    return {pos for pos, a in cali.attributes.items()
            if pos in used and not (a.is_value or a.is_global or a.is_hidden)
            and not a.name.startswith(("cali.", "event.", "attribute."))
            and pos not in meta}


def _metadata_attributes(cali: CaliText) -> Set[int]:
    """Attributes used only to describe attributes (alias, unit, bootstrap)."""
    out = set()
    parent, attr = cali.node_parent.tolist(), cali.node_attr.tolist()  # lists: fast items
    for pos in cali.attributes:
        node = parent[pos]
        while node >= 0:
            out.add(attr[node])
            node = parent[node]
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
    parent = np.append(cali.node_parent, -1)
    nearest = np.full(n + 1, -1, dtype=INT)  # nearest hierarchy node, self included
    for members in levels:
        nearest[members] = np.where(is_h[members], members, nearest[parent[members]])
    raw = np.flatnonzero(is_h)
    del is_h
    raw_of = np.full(n + 1, -1, dtype=INT)
    raw_of[raw] = np.arange(len(raw), dtype=INT)
    raw_parent = raw_of[nearest[parent[raw]]]
    del parent
    node_raw = raw_of[nearest[:n]]
    del nearest, raw_of
    data = np.empty(n, dtype=object)
    data[:] = cali.node_data  # references, no copies of the texts
    codes, uniques = pd.factorize(data[raw])
    del data
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
    del codes, raw_parent, depth
    tree = PathTree.from_arrays(
        np.concatenate(out_parent) if out_parent else np.zeros(0, dtype=INT),
        np.asarray(uniques, dtype=object)[np.concatenate(out_label)] if out_label else [],
        "function")
    del out_parent, out_label
    path = np.append(canon, -1)[node_raw]  # -1 (no hierarchy ancestor) picks the sentinel
    return tree, path


def _record_paths(cali: CaliText, refs: np.ndarray, node_path: np.ndarray,
                  tree: PathTree) -> np.ndarray:
    paths = np.append(node_path, -1)[refs]
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
    parent = np.append(cali.node_parent, -1)
    for members in levels:
        nearest[members] = np.where(is_c[members], members, nearest[parent[members]])
    out = {pos: np.full(len(refs), -1, dtype=INT) for pos in candidates}
    attr = np.append(cali.node_attr, -1)
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


def _immediate_values(cali: CaliText) -> Dict[int, np.ndarray]:
    """Per attribute with immediate entries: one converted value per record.

    Numbers are float64 with NaN where a record lacks the entry (int64/uint64
    when every record has it), text is object with None. Consumes the packed
    value texts (``cali.rec_data``), a chunk at a time.
    """
    m = len(cali.rec_line)
    per_signature: Dict[int, List[Tuple[np.ndarray, Any]]] = {}
    for code, rows, text in cali.rec_data:
        per_signature.setdefault(code, []).append((rows, text))
    for i, values in cali.rec_irregular.items():
        per_signature.setdefault(int(cali.rec_sig[i]), []).append((np.array([i], dtype=INT),
                                                                   values))
    cali.rec_data, cali.rec_irregular = [], {}
    pieces: Dict[int, List[Tuple[np.ndarray, np.ndarray]]] = {}
    for code in sorted(per_signature):
        chunks = per_signature.pop(code)
        sig = cali.signatures[code]
        while chunks and sig:
            rows, text = chunks.pop(0)
            columns = _chunk_columns(cali, sig, rows, text)
            del text
            for j, pos in enumerate(sig):  # an attribute given twice keeps its last
                pieces.setdefault(pos, []).append((rows, columns[j]))  # value, as in
            del columns  # caliper-reader
    out: Dict[int, np.ndarray] = {}
    for pos in list(pieces):
        out[pos] = _combine(pieces.pop(pos), m)
    return out


def _combine(parts: List[Tuple[np.ndarray, np.ndarray]], m: int) -> np.ndarray:
    """One column of ``m`` records from the pieces (rows, values) of its chunks."""
    if len(parts) == 1 and len(parts[0][0]) == m:
        return parts[0][1]  # one chunk for every record: rows are 0..m-1 in order
    covered = np.zeros(m, dtype=bool)
    for r, _ in parts:
        covered[r] = True
    kinds = {v.dtype for _, v in parts}
    if any(k == object for k in kinds):
        column = np.full(m, None, dtype=object)
    elif bool(covered.all()) and all(k.kind in "iu" for k in kinds):
        column = np.zeros(m, dtype=np.result_type(*kinds))
    else:
        column = np.full(m, np.nan)
    del covered
    while parts:
        r, v = parts.pop(0)
        column[r] = v
    return column


_CSV_TYPES = {"double": np.float64, "int": np.int64, "uint": np.uint64, "addr": np.uint64}
CSV_ROWS = 2048


def _chunk_columns(cali: CaliText, sig: Tuple[int, ...], rows: np.ndarray,
                   text: Any) -> List[np.ndarray]:
    """The values of one chunk (records ``rows`` of one signature), one typed array
    per entry. ``text`` holds a ``=``-joined line per record, or the values of
    one escaped record (a list).

    Chunks of more than :data:`CSV_ROWS` usual records go through pandas' C
    parser with ``=`` as the separator, typed by each attribute's Caliper type;
    anything it rejects goes value by value, which also locates the bad value.
    """
    attrs = [cali.attributes[pos] for pos in sig]
    if isinstance(text, str) and len(rows) > CSV_ROWS and \
            all(a.type in _CSV_TYPES or not a.numeric for a in attrs):
        dtypes = {j: _CSV_TYPES.get(a.type, object) for j, a in enumerate(attrs)}
        try:
            return _csv_chunk(text, dtypes, len(rows))
        except (ValueError, TypeError, OverflowError, pd.errors.ParserError):
            pass  # the slow path below says which value is wrong
    if isinstance(text, str):
        cells = text.replace("\n", "=").split("=")
    else:
        cells = list(text)
    matrix = np.array(cells, dtype=object).reshape(len(rows), len(sig))
    del cells
    out = _doubles_at_once(matrix, attrs)
    return [out[j] if j in out else _convert(cali, attrs[j], matrix[:, j], rows)
            for j in range(len(sig))]


def _doubles_at_once(matrix: np.ndarray, attrs: List[Attribute]) -> Dict[int, np.ndarray]:
    """The ``double`` entries of a chunk converted in one call (a conversion per column
    costs more than the values of a small file); {} when any value is not a number,
    and each column is then converted, and a bad value located, on its own."""
    doubles = [j for j, a in enumerate(attrs) if a.type == "double"]
    if len(doubles) < 2:
        return {}
    try:
        block = matrix[:, doubles].astype(np.float64).T.copy()  # one row per column
    except (ValueError, TypeError, OverflowError):
        return {}
    return {j: block[i] for i, j in enumerate(doubles)}


def _csv_chunk(text: str, dtypes: Dict[int, Any], count: int) -> List[np.ndarray]:
    frame = pd.read_csv(io.BytesIO(text.encode("utf-8")), sep="=", header=None,
                        names=list(dtypes), dtype=dtypes, engine="c", quoting=csv.QUOTE_NONE,
                        na_filter=False, skip_blank_lines=False, encoding="utf-8",
                        **EXACT_FLOATS)
    if len(frame) != count:
        raise ValueError("rows")
    return [frame[j].to_numpy(dtype=t) for j, t in dtypes.items()]


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


