"""Collecting the records of a ``.cali`` file as its lines are split.

:class:`Lines` receives the lines :mod:`graphframe_readers.caliper.cali.text` does not
decode inline (escaped text, unusual field orders, globals) and the arrays the
inline loop fills; :meth:`Lines.pack` packs each block's value texts per
signature, and :meth:`Lines.finish` turns everything into a
:class:`~graphframe_readers.caliper.cali.meta.CaliText`.
"""

from __future__ import annotations

import re
from array import array
from typing import Any, Dict, List, Tuple, Union

import numpy as np

from ...errors import ReadError
from ..records import forest_depth
from .meta import (BOOTSTRAP, INVALID_ID, MAX_ID, CaliText, IdIndex, add_value,
                               chain_entries, check_attr_refs, define_attributes, ref_matrix)

INT = np.int64
_USUAL_CTX = re.compile(r"ref=([0-9=]*),attr=([0-9=]*),data=([^,\r]*)")
# one token of an escaped line: "\\" and the escaped character, a separator, or plain text
_TOKENS = re.compile(r"\\(.?)|([,=])|([^\\,=]+)", re.S)
_USUAL_NODE = re.compile(r"id=(\d+),attr=(\d+),data=([^,\r]*)(?:,parent=(\d+))?")


class Lines:
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
        self.ctx_data: List[Union[str, List[str]]] = []  # the current block's value texts
        self.packed = 0  # records before this one are packed into chunks
        self.chunks: List[Tuple[int, np.ndarray, str]] = []
        self.irregular: Dict[int, List[str]] = {}
        self.sig_code: Dict[str, int] = {}
        self.globals: List[Tuple[int, List[str], List[str], List[str]]] = []

    def pack(self) -> None:
        """Pack the value texts of the block's records: per signature, one text of
        ``\n``-separated lines and the records' indices (a Python string per
        record costs twice its text). Escaped records, whose values arrive split,
        are kept apart in ``irregular``."""
        entries, self.ctx_data = self.ctx_data, []
        start = self.packed
        self.packed = start + len(entries)
        if not entries:
            return
        codes = np.frombuffer(self.ctx_sig, dtype=INT, count=len(entries),
                              offset=start * 8).copy()
        regular = None
        if not all(type(e) is str for e in entries):
            regular = np.array([type(e) is str for e in entries], dtype=bool)
            for i in np.flatnonzero(~regular).tolist():
                self.irregular[start + i] = entries[i]
        order = np.argsort(codes, kind="stable")
        sorted_codes = codes[order]
        changes = sorted_codes[1:] != sorted_codes[:-1]
        bounds = np.flatnonzero(np.concatenate(([True], changes, [True])))
        no_values = self.sig_code.get("")
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            code = int(sorted_codes[a])
            rows = order[a:b]
            if regular is not None:
                rows = rows[regular[rows]]
            if code == no_values or not len(rows):
                continue
            self.chunks.append((code, rows + start, "\n".join([entries[i] for i in rows.tolist()])))

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
        """The :class:`CaliText`; the collected buffers are released as they are
        converted, so no two copies of a large one are held."""
        predefined = np.array(list(BOOTSTRAP), dtype=INT)
        defined = np.isin(predefined, np.frombuffer(self.node_id, dtype=INT))
        boot = predefined[~defined].tolist()
        ids = self._take("node_id", np.array(boot, dtype=INT))
        raw_attr = self._take("node_attr", np.array([BOOTSTRAP[i][0] for i in boot], dtype=INT))
        raw_parent = self._take("node_parent",
                                np.array([BOOTSTRAP[i][2] for i in boot], dtype=INT))
        node_line = self._take("node_line", np.zeros(len(boot), dtype=INT))
        datas = self.node_data
        self.node_data = []
        datas[:0] = [BOOTSTRAP[i][1] for i in boot]
        lookup = IdIndex(ids, node_line, self.source)
        parent = lookup.positions(raw_parent, node_line, "parent", allow_root=True)
        depth = forest_depth(parent, self.source, lambda i: f"line {int(node_line[i])}")
        attr_pos = lookup.positions(raw_attr, node_line, "attr", allow_root=False)
        cali = CaliText(self.source, ids, attr_pos, parent, datas, node_line, {}, depth)
        cali.attributes = define_attributes(cali, raw_attr)
        check_attr_refs(cali, raw_attr)
        self._records(cali, lookup)
        cali.globals = self._globals(cali, lookup)
        return cali

    def _take(self, name: str, head: np.ndarray) -> np.ndarray:
        """``head`` followed by the collected array ``name``, which is released."""
        buffer = getattr(self, name)
        setattr(self, name, None)
        out = np.empty(len(head) + len(buffer), dtype=INT)
        out[:len(head)] = head
        out[len(head):] = np.frombuffer(buffer, dtype=INT)
        return out

    def _records(self, cali: CaliText, lookup: "IdIndex") -> None:
        empty = np.zeros(0, dtype=INT)
        lines = self._take("ctx_line", empty)
        cali.rec_line = lines
        cali.refs = ref_matrix(self._take("ctx_ref", empty), self.ctx_refs, lines,
                                lookup, len(cali.node_id))
        codes = self._take("ctx_sig", empty)
        first = {}
        for text, code in self.sig_code.items():
            hits = np.flatnonzero(codes == code)
            first[code] = int(lines[hits[0]]) if len(hits) else 0
            cali.signatures.append(())
        for text, code in self.sig_code.items():
            attrs = text.split("=") if text else []
            cali.signatures[code] = lookup.record_attrs(attrs, first[code], cali.attributes)
        cali.rec_sig = codes
        cali.rec_data, self.chunks = self.chunks, []
        cali.rec_irregular, self.irregular = self.irregular, {}

    def _globals(self, cali: CaliText, lookup: "IdIndex") -> Dict[str, Any]:
        if not self.globals and any(a.is_global for a in cali.attributes.values()):
            raise ReadError(self.source, "the file ends before its globals record (truncated?)",
                            position="end of file", expected="a '__rec=globals' record")
        out: Dict[str, Any] = {}
        for number, refs, attrs, data in self.globals:
            for pos in lookup.record_refs(refs, number):
                for key, value in reversed(chain_entries(cali, pos)):
                    add_value(out, key, value)
            for apos, value in zip(lookup.record_attrs(attrs, number, cali.attributes), data):
                attribute = cali.attributes[apos]
                if not attribute.is_hidden:
                    out[attribute.name] = value
        return out


def _escaped_fields(line: str) -> Dict[str, List[str]]:
    """The fields of a line with backslash escapes (``\\n`` = newline): key -> values.

    Examples
    --------
    >>> _escaped_fields(r"__rec=node,id=5,data=a\\,b\\=c\\n,parent=1")
    {'__rec': ['node'], 'id': ['5'], 'data': ['a,b=c\\n'], 'parent': ['1']}
    """
    out: Dict[str, List[str]] = {}
    entry: List[str] = []
    chars: List[str] = []
    for escaped, separator, text in _TOKENS.findall(line):
        if text:
            chars.append(text)
        elif separator == ",":
            entry.append("".join(chars))
            if entry[0]:
                out[entry[0]] = entry[1:]
            entry, chars = [], []
        elif separator == "=":
            entry.append("".join(chars))
            chars = []
        else:  # a backslash and the character it escapes (none at the end of the line)
            chars.append("\n" if escaped == "n" else escaped)
    entry.append("".join(chars))
    if entry[0]:
        out[entry[0]] = entry[1:]
    return out
