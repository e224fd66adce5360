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
import re
from array import array
from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple, Union

import numpy as np

from .caliper_records import forest_depth
from .errors import ReadError

INT = np.int64

ATTR_NAME, ATTR_TYPE, ATTR_PROP = 8, 9, 10
INVALID_ID = 0xFFFFFFFFFFFFFFFF  # Caliper's CALI_INV_ID ("no parent")
MAX_ID = 2 ** 63
LINE_BLOCK = 1 << 22
_USUAL_CTX = re.compile(r"ref=([0-9=]*),attr=([0-9=]*),data=([^,\r]*)")
_USUAL_NODE = re.compile(r"id=(\d+),attr=(\d+),data=([^,\r]*)(?:,parent=(\d+))?")
# the most common shapes, decoded inline by _collect (one reference, no escapes):
# groups 1-3 for a ctx record, 4-7 for a node record
_FAST = re.compile(r"__rec=(?:ctx,ref=(\d{1,18}),attr=([0-9=]+),data=([^,\r\\]*)"
                   r"|node,id=(\d{1,18}),attr=(\d{1,18}),data=([^,\r\\]*)"
                   r"(?:,parent=(\d{1,18}))?)")
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
    positions of the record's immediate entries) and ``rec_data`` (the
    entries' texts: one ``=``-joined string, or a list for escaped lines).
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
    rec_data: List[Union[str, List[str]]] = field(default_factory=list)
    globals: Dict[str, Any] = field(default_factory=dict)

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
    >>> node = cali.refs[0, 0]  # the first record's first reference
    >>> region = cali.attributes[cali.node_attr[node]]
    >>> region.name, region.is_nested, cali.node_data[node]
    ('region', True, 'main')
    """
    source = os.fspath(path)
    try:
        with open(source, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise ReadError(source, f"cannot read the file: {exc.strerror}") from exc
    parsed = _collect(data, source, lambda block, offset: _utf8(block, offset, source))
    del data  # the records hold what they need: free the file's bytes first
    return parsed.finish()


def decode_cali_text(text: str, source: Any = None) -> CaliText:
    """Decode ``.cali`` text (see :func:`read_cali_text`)."""
    return _collect(text, source, lambda block, offset: block).finish()


def _utf8(block: bytes, offset: int, source: Any) -> str:
    try:
        return block.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReadError(source, "the file is not UTF-8 text", position=f"byte {offset + exc.start}",
                        expected="Caliper's .cali text format") from exc


def _collect(content: Any, source: Any, as_text: Any) -> "_Lines":
    """Split ``content`` (bytes or text) into lines a block at a time, so that
    neither a second copy of the file nor a list of all its lines is held."""
    newline = b"\n" if isinstance(content, bytes) else "\n"
    end = len(content.rstrip(b" \t\r" if isinstance(content, bytes) else " \t\r"))
    if end and content[end - 1:end] != newline:
        raise ReadError(source, "the last record is cut off (no end of line)",
                        position=f"line {content.count(newline, 0, end) + 1}",
                        expected="a complete record ending in a newline")
    parsed = _Lines(source)
    number, pos = 0, 0
    while pos < end:
        stop = content.find(newline, min(pos + LINE_BLOCK, end - 1)) + 1 or end
        number = _lines(parsed, as_text(content[pos:stop], pos), number)
        pos = stop
    return parsed


def _lines(parsed: "_Lines", block: str, number: int) -> int:
    """Feed one block of lines to ``parsed``; return the last line number.

    The two most common record shapes are decoded right here (this loop runs
    once per line of the file); every other line goes to :meth:`_Lines.add`.
    """
    fast = _FAST.fullmatch
    ctx_line, ctx_ref, ctx_sig = parsed.ctx_line.append, parsed.ctx_ref.append, \
        parsed.ctx_sig.append
    ctx_data, sig_code = parsed.ctx_data.append, parsed.sig_code
    node_line, node_id, node_attr = parsed.node_line.append, parsed.node_id.append, \
        parsed.node_attr.append
    node_parent, node_data = parsed.node_parent.append, parsed.node_data.append
    for line in block.split("\n"):
        number += 1
        match = fast(line)
        if match is not None:
            ref, attr, data, nid, nattr, ndata, parent = match.groups()
            if ref is None:
                node_line(number)
                node_id(int(nid))
                node_attr(int(nattr))
                node_parent(int(parent) if parent else -1)
                node_data(ndata)
                continue
            if attr.count("=") == data.count("="):
                code = sig_code.get(attr)
                if code is None:
                    code = sig_code[attr] = len(sig_code)
                ctx_line(number)
                ctx_ref(int(ref))
                ctx_sig(code)
                ctx_data(data)
                continue
        if line:
            parsed.add(number, line)
    return number - 1  # the block's last "line" is the empty text after its final newline


class _Lines:
    """Collects the records of one file while it is being split into lines.

    Lines of the usual shape (no escapes) are cut by one regular expression;
    ids go straight into int64 arrays and a record's attribute list into a
    signature code, so a record costs a few machine words plus its value text.
    """

    def __init__(self, source: Any) -> None:
        self.source = source
        self.node_line, self.node_id = array("q"), array("q")
        self.node_attr, self.node_parent = array("q"), array("q")
        self.node_data: List[str] = []
        self.ctx_line, self.ctx_ref, self.ctx_sig = array("q"), array("q"), array("q")
        self.ctx_refs: Dict[int, str] = {}  # records with several (or no) references
        self.ctx_data: List[Union[str, List[str]]] = []
        self.sig_code: Dict[str, int] = {}
        self.globals: List[Tuple[int, List[str], List[str], List[str]]] = []

    def fail(self, line: int, problem: str, expected: str) -> ReadError:
        return ReadError(self.source, problem, position=f"line {line}", expected=expected)

    def add(self, number: int, line: str) -> None:
        if "\\" in line:
            self._escaped(number, line.strip())
            return
        kind, _, rest = line.partition(",")
        if kind == "__rec=ctx":
            usual = _USUAL_CTX.fullmatch(rest)
            if usual is not None:
                self._ctx(number, usual[1], usual[2], usual[3])
                return
            ref = attr = data = None
            for item in rest.rstrip().split(","):
                key, _, value = item.partition("=")
                if key == "ref":
                    ref = value
                elif key == "attr":
                    attr = value
                elif key == "data":
                    data = value
            self._ctx(number, ref or "", attr, data)
        elif kind == "__rec=node":
            usual = _USUAL_NODE.fullmatch(rest)
            if usual is not None:
                self._node(number, usual[1], usual[2], usual[3], usual[4])
                return
            fields = dict(item.partition("=")[::2] for item in rest.rstrip().split(","))
            self._node(number, fields.get("id"), fields.get("attr"), fields.get("data"),
                       fields.get("parent"))
        elif kind.strip() == "__rec=globals":
            self._escaped(number, line.strip())
        elif not kind.strip().startswith("__rec="):
            if line.strip():
                raise self.fail(number, "the line is not a Caliper record",
                                "a line starting with '__rec='")
        # other record kinds carry nothing a profile needs; Caliper's own reader skips them too

    def _ctx(self, number: int, ref: str, attr: Any, data: Any) -> None:
        n_attr = 0 if attr is None else attr.count("=") + 1
        n_data = 0 if data is None else (len(data) if isinstance(data, list) else data.count("=") + 1)
        if n_attr != n_data:
            raise self.fail(number, f"{n_attr} attributes but {n_data} values",
                            "one 'data' value per 'attr' entry")
        index = len(self.ctx_line)
        self.ctx_line.append(number)
        if ref.isdigit() and len(ref) < 19:
            self.ctx_ref.append(int(ref))
        else:
            self.ctx_ref.append(-1)
            self.ctx_refs[index] = ref
        code = self.sig_code.setdefault(attr or "", len(self.sig_code))
        self.ctx_sig.append(code)
        self.ctx_data.append(data if data is not None else "")

    def _node(self, number: int, nid: Any, attr: Any, data: Any, parent: Any) -> None:
        try:
            values = (int(nid), int(attr), int(parent) if parent else -1)
        except (TypeError, ValueError):
            values = None
        if values is not None and values[2] == INVALID_ID:
            values = values[:2] + (-1,)
        if values is None or not (0 <= values[0] < MAX_ID and 0 <= values[1] < MAX_ID
                                  and -1 <= values[2] < MAX_ID):
            raise self.fail(number, f"malformed node record (id={nid}, attr={attr}, "
                            f"parent={parent})", "integer 'id', 'attr' and optional 'parent' "
                            "fields between 0 and 2**63 - 1")
        self.node_line.append(number)
        self.node_id.append(values[0])
        self.node_attr.append(values[1])
        self.node_parent.append(values[2])
        self.node_data.append(data or "")

    def _escaped(self, number: int, line: str) -> None:
        rec = _escaped_fields(line)
        kind = rec.get("__rec", [None])[0]
        if kind is None:
            raise self.fail(number, "the line is not a Caliper record",
                            "a line starting with '__rec='")
        if kind == "node":
            first = lambda key: rec[key][0] if rec.get(key) else None  # noqa: E731
            self._node(number, first("id"), first("attr"), first("data"), first("parent"))
        elif kind == "ctx":
            self._ctx(number, "=".join(rec.get("ref", [])),
                      "=".join(rec["attr"]) if "attr" in rec else None, rec.get("data"))
        elif kind == "globals":
            refs, attrs, data = rec.get("ref", []), rec.get("attr", []), rec.get("data", [])
            if len(attrs) != len(data):
                raise self.fail(number, f"{len(attrs)} attributes but {len(data)} values",
                                "one 'data' value per 'attr' entry")
            self.globals.append((number, refs, attrs, data))

    def finish(self) -> CaliText:
        defined = set(self.node_id)
        boot = [i for i in BOOTSTRAP if i not in defined]
        ids = np.r_[np.array(boot, dtype=INT), np.frombuffer(self.node_id, dtype=INT)]
        raw_attr = np.r_[np.array([BOOTSTRAP[i][0] for i in boot], dtype=INT),
                         np.frombuffer(self.node_attr, dtype=INT)]
        raw_parent = np.r_[np.array([BOOTSTRAP[i][2] for i in boot], dtype=INT),
                           np.frombuffer(self.node_parent, dtype=INT)]
        datas = [BOOTSTRAP[i][1] for i in boot] + self.node_data
        self.node_data = []
        node_line = np.r_[np.zeros(len(boot), dtype=INT), np.frombuffer(self.node_line, dtype=INT)]
        lookup = _IdIndex(ids, node_line, self.source)
        parent = lookup.positions(raw_parent, node_line, "parent", allow_root=True)
        depth = forest_depth(parent, self.source, lambda i: f"line {int(node_line[i])}")
        attr_pos = lookup.positions(raw_attr, node_line, "attr", allow_root=False)
        cali = CaliText(self.source, ids, attr_pos, parent, datas, node_line, {}, depth)
        cali.attributes = _attributes(cali, raw_attr)
        _check_attr_refs(cali, raw_attr)
        self._records(cali, lookup)
        cali.globals = self._globals(cali, lookup)
        return cali

    def _records(self, cali: CaliText, lookup: "_IdIndex") -> None:
        lines = np.frombuffer(self.ctx_line, dtype=INT).copy()
        cali.rec_line = lines
        cali.refs = _ref_matrix(np.frombuffer(self.ctx_ref, dtype=INT), self.ctx_refs, lines,
                                lookup, len(cali.node_id))
        codes = np.frombuffer(self.ctx_sig, dtype=INT).copy()
        first = {}
        for text, code in self.sig_code.items():
            hits = np.flatnonzero(codes == code)
            first[code] = int(lines[hits[0]]) if len(hits) else 0
            cali.signatures.append(())
        for text, code in self.sig_code.items():
            attrs = text.split("=") if text else []
            cali.signatures[code] = lookup.record_attrs(attrs, first[code], cali.attributes)
        cali.rec_sig = codes
        cali.rec_data = self.ctx_data
        self.ctx_data = []

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


def _ref_matrix(single: np.ndarray, other: Dict[int, str], lines: np.ndarray,
                lookup: "_IdIndex", n: int) -> np.ndarray:
    """Records' references as an (m, k) matrix of positions padded with ``n``.

    ``single`` holds the one referenced id of most records (-1 where ``other``
    has the record's ``ref`` text instead: several ids, or none).
    """
    parsed = {i: [lookup.one(t, int(lines[i])) for t in text.split("=")] if text else []
              for i, text in other.items()}
    width = max([1] + [len(v) for v in parsed.values()])
    out = np.full((len(single), width), n, dtype=INT)
    simple = np.flatnonzero(single >= 0)
    if len(simple):
        out[simple, 0] = lookup.positions(single[simple], lines[simple], "reference",
                                          allow_root=False,
                                          problem="the record refers to node {}, which the "
                                                  "file does not define")
    for i, positions in parsed.items():
        out[i, :len(positions)] = positions
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
