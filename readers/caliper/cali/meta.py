"""Caliper's metadata tree, in arrays: attributes, context nodes, references.

The predefined ("bootstrap") nodes, the attribute property bits, the
:class:`CaliText` container :mod:`graphframe_readers.caliper.cali.text` fills, and the
lookups that resolve node ids, attributes and global values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

import numpy as np

from ...errors import ReadError

INT = np.int64

ATTR_NAME, ATTR_TYPE, ATTR_PROP = 8, 9, 10
INVALID_ID = 0xFFFFFFFFFFFFFFFF  # Caliper's CALI_INV_ID ("no parent")
MAX_ID = 2 ** 63
PROP_VALUE, PROP_HIDDEN, PROP_NESTED, PROP_GLOBAL, PROP_AGGREGATABLE = 1, 128, 256, 512, 2048
TYPE_NAMES = {0: "usr", 1: "int", 2: "uint", 3: "string", 4: "addr", 5: "double",
              6: "bool", 7: "type", 11: "ptr"}

#: Caliper's predefined nodes: id -> (attr, data, parent).
BOOTSTRAP = {i: (ATTR_TYPE, name, -1) for i, name in TYPE_NAMES.items()}
BOOTSTRAP.update({ATTR_NAME: (ATTR_NAME, "cali.attribute.name", 3),
                  ATTR_TYPE: (ATTR_NAME, "cali.attribute.type", 7),
                  ATTR_PROP: (ATTR_NAME, "cali.attribute.prop", 1)})


@dataclass
class Attribute:
    """One Caliper attribute: ``name``, ``type`` name, ``prop`` bits, metadata."""

    id: int
    name: str
    type: str
    prop: int
    meta: Dict[str, str] = field(default_factory=dict)

    @property
    def is_value(self) -> bool:
        return bool(self.prop & PROP_VALUE)

    @property
    def is_nested(self) -> bool:
        return bool(self.prop & PROP_NESTED)

    @property
    def is_hidden(self) -> bool:
        return bool(self.prop & PROP_HIDDEN)

    @property
    def is_global(self) -> bool:
        return bool(self.prop & PROP_GLOBAL)

    @property
    def is_aggregatable(self) -> bool:
        return bool(self.prop & PROP_AGGREGATABLE)

    @property
    def numeric(self) -> bool:
        return self.type in ("int", "uint", "double", "addr", "bool")


@dataclass
class CaliText:
    """A decoded ``.cali`` file.

    ``node_*`` arrays describe every node (positions, not Caliper ids):
    ``node_attr`` is the position of the attribute-defining node (-1 for
    bootstrap type nodes), ``node_parent`` the parent position (-1 for roots),
    ``node_data`` the value text, ``node_line`` the line that defined it.
    ``attributes`` maps the position of each attribute-defining node to its
    :class:`Attribute`. Records (``ctx``): ``rec_line`` (their lines),
    ``refs`` (an m x k matrix of node positions, padded with the number of
    nodes), ``rec_sig`` (index into ``signatures``: the tuple of attribute
    positions of the record's immediate entries), ``rec_data`` (the entries'
    texts, packed: chunks ``(signature, record indices, text)`` whose text
    holds one ``=``-joined line per record) and ``rec_irregular`` (records
    of escaped lines: index -> their values, already split).
    """

    source: Any
    node_id: np.ndarray
    node_attr: np.ndarray
    node_parent: np.ndarray
    node_data: List[str]
    node_line: np.ndarray
    attributes: Dict[int, Attribute]
    depth: np.ndarray
    rec_line: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=INT))
    refs: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), dtype=INT))
    rec_sig: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=INT))
    signatures: List[Tuple[int, ...]] = field(default_factory=list)
    rec_data: List[Tuple[int, np.ndarray, str]] = field(default_factory=list)
    rec_irregular: Dict[int, List[str]] = field(default_factory=dict)
    globals: Dict[str, Any] = field(default_factory=dict)

    def where(self, position: int) -> str:
        line = int(self.node_line[position])
        return f"line {line}" if line > 0 else f"predefined node {int(self.node_id[position])}"


def ref_matrix(single: np.ndarray, other: Dict[int, str], lines: np.ndarray,
                lookup: "IdIndex", n: int) -> np.ndarray:
    """Records' references as an (m, k) matrix of positions padded with ``n``.

    ``single`` holds the one referenced id of most records (-1 where ``other``
    has the record's ``ref`` text instead: several ids, or none).
    """
    split = [(i, text.split("=")) for i, text in other.items() if text]
    width = max([1] + [len(parts) for _, parts in split])
    out = np.full((len(single), width), n, dtype=INT)
    problem = "the record refers to node {}, which the file does not define"
    simple = np.flatnonzero(single >= 0)
    if len(simple):
        out[simple, 0] = lookup.positions(single[simple], lines[simple], "reference",
                                          allow_root=False, problem=problem)
    rows: List[int] = []
    cols: List[int] = []
    ids: List[int] = []
    for i, parts in split:
        for j, text in enumerate(parts):
            if text.isascii() and text.isdigit() and len(text) < 19:
                rows.append(i)
                cols.append(j)
                ids.append(int(text))
            else:  # unusual text: looked up (or refused, with its line) one by one
                out[i, j] = lookup.one(text, int(lines[i]))
    if rows:
        at = np.array(rows, dtype=INT)
        out[at, np.array(cols, dtype=INT)] = lookup.positions(
            np.array(ids, dtype=INT), lines[at], "reference", allow_root=False, problem=problem)
    return out


def add_value(out: Dict[str, Any], key: str, value: str) -> None:
    if key not in out:
        out[key] = value
    elif isinstance(out[key], list):
        out[key].append(value)
    else:
        out[key] = [out[key], value]


def chain_entries(cali: CaliText, pos: int) -> List[Tuple[str, str]]:
    """(attribute name, value) along a node's chain, innermost first (hidden skipped)."""
    out = []
    while pos >= 0:
        attribute = cali.attributes.get(int(cali.node_attr[pos]))
        if attribute is not None and not attribute.is_hidden:
            out.append((attribute.name, cali.node_data[pos]))
        pos = int(cali.node_parent[pos])
    return out


class IdIndex:
    """Caliper node ids -> positions."""

    def __init__(self, ids: np.ndarray, lines: np.ndarray, source: Any) -> None:
        self.source = source
        self.order = np.argsort(ids, kind="stable")
        self.sorted = ids[self.order]
        dup = np.flatnonzero(self.sorted[1:] == self.sorted[:-1])
        if len(dup):
            pos = int(self.order[dup[0] + 1])
            raise ReadError(source, f"node id {int(ids[pos])} is defined twice",
                            position=f"line {int(lines[pos])}", expected="unique node ids")
        self.cache: Dict[str, int] = {}

    def positions(self, refs: np.ndarray, lines: np.ndarray, what: str, *,
                  allow_root: bool, problem: str = "") -> np.ndarray:
        idx = np.clip(np.searchsorted(self.sorted, refs), 0, len(self.sorted) - 1)
        found = self.sorted[idx] == refs
        ok = found | ((refs == -1) if allow_root else False)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            text = (problem or f"the node's {what} {{}} is not a defined node").format(
                int(refs[i]))
            raise ReadError(self.source, text, position=f"line {int(lines[i])}",
                            expected="the id of a node record")
        out = self.order[idx]
        return np.where(found, out, -1).astype(INT)

    def one(self, text: str, line: int) -> int:
        pos = self.cache.get(text)
        if pos is None:
            try:
                value = int(text)
            except ValueError:
                value = None
            if value is not None and not 0 <= value < MAX_ID:
                value = None
            i = int(np.searchsorted(self.sorted, value)) if value is not None else -1
            if value is None or i >= len(self.sorted) or self.sorted[i] != value:
                raise ReadError(self.source, f"the record refers to node {text!r}, which the file "
                                "does not define", position=f"line {line}",
                                expected="the id of a node record")
            pos = int(self.order[i])
            self.cache[text] = pos
        return pos

    def record_refs(self, refs: List[str], line: int) -> Tuple[int, ...]:
        return tuple(self.one(r, line) for r in refs)

    def record_attrs(self, attrs: List[str], line: int,
                     attributes: Dict[int, Attribute]) -> Tuple[int, ...]:
        out = tuple(self.one(a, line) for a in attrs)
        for pos, text in zip(out, attrs):
            if pos not in attributes:
                raise ReadError(self.source, f"entry 'attr={text}' is not an attribute",
                                position=f"line {line}", expected="the id of an attribute node")
        return out


def define_attributes(cali: CaliText, raw_attr: np.ndarray) -> Dict[int, Attribute]:
    """Every node with attr == cali.attribute.name defines an attribute."""
    out: Dict[int, Attribute] = {}
    defining = np.flatnonzero(raw_attr == ATTR_NAME).tolist()
    data = cali.node_data
    name_of = {p: data[p] for p in defining}
    # walked as Python lists: indexing numpy arrays one item at a time costs ~10x more
    attr_of, parent_of, attr_pos = raw_attr.tolist(), cali.node_parent.tolist(), \
        cali.node_attr.tolist()
    for pos in defining:
        type_name, prop, meta = None, 0, {}
        node = parent_of[pos]
        while node >= 0:
            a = attr_of[node]
            if a == ATTR_TYPE:
                type_name = type_name or data[node]
            elif a == ATTR_PROP:
                try:
                    prop = prop or int(data[node])
                except ValueError as exc:
                    raise ReadError(cali.source, f"attribute property {data[node]!r} is "
                                    "not a number", position=cali.where(node),
                                    expected="integer property bits") from exc
            else:
                key = name_of.get(attr_pos[node])
                if key is not None:
                    meta.setdefault(key, data[node])
            node = parent_of[node]
        out[pos] = Attribute(int(cali.node_id[pos]), data[pos], type_name or "usr", prop, meta)
    return out


def check_attr_refs(cali: CaliText, raw_attr: np.ndarray) -> None:
    """Every node's ``attr`` must name an attribute-defining node."""
    is_attr = np.zeros(len(raw_attr), dtype=bool)
    is_attr[list(cali.attributes)] = True
    bad = ~is_attr[cali.node_attr]
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ReadError(cali.source, f"the node's attr {int(raw_attr[i])} is not an attribute",
                        position=cali.where(i), expected="the id of an attribute node")


# ----------------------------------------------------------- tokenising
