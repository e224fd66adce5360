"""The ``.cali`` text format, decoded into arrays.

One record per line, comma-separated ``key=value[=value...]`` fields, a
backslash escaping the next character (``\\n`` is a newline)::

    __rec=node,id=155,attr=20,data=main,parent=28
    __rec=ctx,ref=155,attr=97=105,data=0.000285=2
    __rec=globals,ref=20=71

``node`` records build Caliper's metadata tree: a node whose ``attr`` is 8
(``cali.attribute.name``) defines an attribute, typed and flagged by its
ancestors (attr 9 = type, attr 10 = property bits, other attributes such as
``attribute.alias`` = metadata); every other node is a context-tree entry
(attribute, value, parent). ``ctx`` records are snapshots: ``ref`` names
context-tree nodes (each stands for its whole chain of ancestors), ``attr`` /
``data`` hold immediate values. ``globals`` holds the run metadata.

This module reads the same format as Caliper's ``caliper-reader`` package and
follows its rules (bootstrap nodes, hidden attributes, how chains expand), but
keeps the tree in numpy arrays and decodes the records column by column: the
package tokenises one character at a time and expands a dict per record,
which costs seconds per hundred thousand records.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

import numpy as np

from .caliper_records import forest_depth
from .errors import ReadError

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
    :class:`Attribute`. Records (``ctx``) are kept as lists: ``rec_line``,
    ``rec_refs`` (node positions), ``rec_attrs`` (attribute node positions,
    as a tuple: the record's signature) and ``rec_data`` (value texts).
    """

    source: Any
    node_id: np.ndarray
    node_attr: np.ndarray
    node_parent: np.ndarray
    node_data: List[str]
    node_line: np.ndarray
    attributes: Dict[int, Attribute]
    rec_line: List[int]
    rec_refs: List[Tuple[int, ...]]
    rec_attrs: List[Tuple[int, ...]]
    rec_data: List[List[str]]
    globals: Dict[str, Any]
    depth: np.ndarray

    def where(self, position: int) -> str:
        line = int(self.node_line[position])
        return f"line {line}" if line > 0 else f"predefined node {int(self.node_id[position])}"


def read_cali_text(path: Any) -> CaliText:
    """Read and decode the ``.cali`` file at ``path``.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "t.cali")
    >>> with open(p, "w") as f:
    ...     _ = f.write("__rec=node,id=12,attr=10,data=268,parent=3\\n"
    ...                 "__rec=node,id=13,attr=8,data=region,parent=12\\n"
    ...                 "__rec=node,id=14,attr=13,data=main\\n"
    ...                 "__rec=ctx,ref=14\\n")
    >>> cali = read_cali_text(p)
    >>> region = cali.attributes[cali.node_attr[cali.rec_refs[0][0]]]
    >>> region.name, region.is_nested, cali.node_data[cali.rec_refs[0][0]]
    ('region', True, 'main')
    """
    source = os.fspath(path)
    try:
        with open(source, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise ReadError(source, f"cannot read the file: {exc.strerror}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReadError(source, "the file is not UTF-8 text", position=f"byte {exc.start}",
                        expected="Caliper's .cali text format") from exc
    return decode_cali_text(text, source)


def decode_cali_text(text: str, source: Any = None) -> CaliText:
    """Decode ``.cali`` text (see :func:`read_cali_text`)."""
    lines = text.split("\n")
    last = lines.pop()
    if last.strip():
        raise ReadError(source, "the last record is cut off (no end of line)",
                        position=f"line {len(lines) + 1}", expected="a complete record ending in a newline")
    parsed = _Lines(source)
    for number, line in enumerate(lines, 1):
        parsed.add(number, line)
    return parsed.finish()


class _Lines:
    """Collects the records of one file while it is being split into lines."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.ids: List[int] = []
        self.attrs: List[int] = []
        self.datas: List[str] = []
        self.parents: List[int] = []
        self.lines: List[int] = []
        self.ctx: List[Tuple[int, List[str], List[str], List[str]]] = []
        self.globals: List[Tuple[int, List[str], List[str], List[str]]] = []

    def fail(self, line: int, problem: str, expected: str) -> ReadError:
        return ReadError(self.source, problem, position=f"line {line}", expected=expected)

    def add(self, number: int, line: str) -> None:
        line = line.strip()
        if not line:
            return
        rec = _fields(line) if "\\" not in line else _escaped_fields(line)
        kind = rec.get("__rec")
        if not kind:
            raise self.fail(number, "the line is not a Caliper record", "a line starting with '__rec='")
        kind = kind[0]
        if kind == "node":
            self._node(number, rec)
        elif kind == "ctx" or kind == "globals":
            refs, attrs, data = rec.get("ref", []), rec.get("attr", []), rec.get("data", [])
            if len(attrs) != len(data):
                raise self.fail(number, f"{len(attrs)} attributes but {len(data)} values",
                                "one 'data' value per 'attr' entry")
            (self.ctx if kind == "ctx" else self.globals).append((number, refs, attrs, data))
        # other record kinds carry nothing a profile needs; Caliper's own reader skips them too

    def _node(self, number: int, rec: Dict[str, List[str]]) -> None:
        try:
            nid = int(rec["id"][0])
            attr = int(rec["attr"][0])
            parent = int(rec["parent"][0]) if "parent" in rec else -1
        except (KeyError, IndexError, ValueError) as exc:
            raise self.fail(number, "malformed node record", "integer 'id', 'attr' and optional "
                            "'parent' fields") from exc
        if parent == INVALID_ID:
            parent = -1
        if not (0 <= nid < MAX_ID and 0 <= attr < MAX_ID and -1 <= parent < MAX_ID):
            raise self.fail(number, "node id out of range", "ids between 0 and 2**63 - 1")
        self.ids.append(nid)
        self.attrs.append(attr)
        self.parents.append(parent)
        self.datas.append(rec.get("data", [""])[0] if rec.get("data") else "")
        self.lines.append(number)

    def finish(self) -> CaliText:
        defined = set(self.ids)
        boot = [i for i in BOOTSTRAP if i not in defined]
        ids = np.array(boot + self.ids, dtype=INT)
        raw_attr = np.array([BOOTSTRAP[i][0] for i in boot] + self.attrs, dtype=INT)
        raw_parent = np.array([BOOTSTRAP[i][2] for i in boot] + self.parents, dtype=INT)
        datas = [BOOTSTRAP[i][1] for i in boot] + self.datas
        node_line = np.array([0] * len(boot) + self.lines, dtype=INT)
        lookup = _IdIndex(ids, node_line, self.source)
        parent = lookup.positions(raw_parent, node_line, "parent", allow_root=True)
        depth = forest_depth(parent, self.source, lambda i: f"line {int(node_line[i])}")
        attr_pos = lookup.positions(raw_attr, node_line, "attr", allow_root=False)
        cali = CaliText(self.source, ids, attr_pos, parent, datas, node_line, {}, [], [], [],
                        [], {}, depth)
        cali.attributes = _attributes(cali, raw_attr)
        _check_attr_refs(cali, raw_attr)
        self._records(cali, lookup)
        cali.globals = self._globals(cali, lookup)
        return cali

    def _records(self, cali: CaliText, lookup: "_IdIndex") -> None:
        attributes = cali.attributes
        for number, refs, attrs, data in self.ctx:
            cali.rec_line.append(number)
            cali.rec_refs.append(lookup.record_refs(refs, number))
            cali.rec_attrs.append(lookup.record_attrs(attrs, number, attributes))
            cali.rec_data.append(data)

    def _globals(self, cali: CaliText, lookup: "_IdIndex") -> Dict[str, Any]:
        if not self.globals and any(a.is_global for a in cali.attributes.values()):
            raise ReadError(self.source, "the file ends before its globals record (truncated?)",
                            position="end of file", expected="a '__rec=globals' record")
        out: Dict[str, Any] = {}
        for number, refs, attrs, data in self.globals:
            for pos in lookup.record_refs(refs, number):
                for key, value in reversed(chain_entries(cali, pos)):
                    _add_value(out, key, value)
            for apos, value in zip(lookup.record_attrs(attrs, number, cali.attributes), data):
                attribute = cali.attributes[apos]
                if not attribute.is_hidden:
                    out[attribute.name] = value
        return out


def _add_value(out: Dict[str, Any], key: str, value: str) -> None:
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


class _IdIndex:
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
                  allow_root: bool) -> np.ndarray:
        idx = np.clip(np.searchsorted(self.sorted, refs), 0, len(self.sorted) - 1)
        found = self.sorted[idx] == refs
        ok = found | ((refs == -1) if allow_root else False)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise ReadError(self.source, f"the node's {what} {int(refs[i])} is not a defined node",
                            position=f"line {int(lines[i])}", expected="the id of a node record")
        out = self.order[idx]
        return np.where(found, out, -1).astype(INT)

    def one(self, text: str, line: int) -> int:
        pos = self.cache.get(text)
        if pos is None:
            try:
                value = int(text)
            except ValueError:
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


def _attributes(cali: CaliText, raw_attr: np.ndarray) -> Dict[int, Attribute]:
    """Every node with attr == cali.attribute.name defines an attribute."""
    out: Dict[int, Attribute] = {}
    defining = np.flatnonzero(raw_attr == ATTR_NAME)
    name_of = {int(p): cali.node_data[int(p)] for p in defining}
    for pos in defining.tolist():
        type_name, prop, meta = None, 0, {}
        node = int(cali.node_parent[pos])
        while node >= 0:
            a = int(raw_attr[node])
            if a == ATTR_TYPE:
                type_name = type_name or cali.node_data[node]
            elif a == ATTR_PROP:
                try:
                    prop = prop or int(cali.node_data[node])
                except ValueError as exc:
                    raise ReadError(cali.source, f"attribute property {cali.node_data[node]!r} is "
                                    "not a number", position=cali.where(node),
                                    expected="integer property bits") from exc
            else:
                key = name_of.get(int(cali.node_attr[node]))
                if key is not None:
                    meta.setdefault(key, cali.node_data[node])
            node = int(cali.node_parent[node])
        out[pos] = Attribute(int(cali.node_id[pos]), cali.node_data[pos], type_name or "usr",
                             prop, meta)
    return out


def _check_attr_refs(cali: CaliText, raw_attr: np.ndarray) -> None:
    """Every node's ``attr`` must name an attribute-defining node."""
    is_attr = np.zeros(len(raw_attr), dtype=bool)
    is_attr[list(cali.attributes)] = True
    bad = ~is_attr[cali.node_attr]
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ReadError(cali.source, f"the node's attr {int(raw_attr[i])} is not an attribute",
                        position=cali.where(i), expected="the id of an attribute node")


# ----------------------------------------------------------- tokenising
def _fields(line: str) -> Dict[str, List[str]]:
    out: Dict[str, List[str]] = {}
    for item in line.split(","):
        if item:
            parts = item.split("=")
            out[parts[0]] = parts[1:]
    return out


def _escaped_fields(line: str) -> Dict[str, List[str]]:
    """Like :func:`_fields` for lines with backslash escapes (``\\n`` = newline)."""
    out: Dict[str, List[str]] = {}
    entry: List[str] = []
    chars: List[str] = []
    it = iter(line)
    for c in it:
        if c == "\\":
            c = next(it, "")
            chars.append("\n" if c == "n" else c)
        elif c == ",":
            entry.append("".join(chars))
            if entry[0]:
                out[entry[0]] = entry[1:]
            entry, chars = [], []
        elif c == "=":
            entry.append("".join(chars))
            chars = []
        else:
            chars.append(c)
    entry.append("".join(chars))
    if entry[0]:
        out[entry[0]] = entry[1:]
    return out
