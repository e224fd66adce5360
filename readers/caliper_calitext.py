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
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

from .caliper_calimeta import (BOOTSTRAP, INVALID_ID, MAX_ID, Attribute, CaliText,
                               IdIndex, add_value, define_attributes, check_attr_refs,
                               ref_matrix, chain_entries)
from .caliper_records import forest_depth
from .errors import ReadError

INT = np.int64
__all__ = ["Attribute", "CaliText", "read_cali_text", "decode_cali_text"]

LINE_BLOCK = 1 << 22
_USUAL_CTX = re.compile(r"ref=([0-9=]*),attr=([0-9=]*),data=([^,\r]*)")
_USUAL_NODE = re.compile(r"id=(\d+),attr=(\d+),data=([^,\r]*)(?:,parent=(\d+))?")
# the most common shapes, decoded inline by _collect (one reference, no escapes):
# groups 1-3 for a ctx record, 4-7 for a node record
_FAST = re.compile(r"__rec=(?:ctx,ref=(\d{1,18}),attr=([0-9=]+),data=([^,\r\\]*)"
                   r"|node,id=(\d{1,18}),attr=(\d{1,18}),data=([^,\r\\]*)"
                   r"(?:,parent=(\d{1,18}))?)")
def read_cali_text(path: Any, progress_step: Optional[Callable[[int], None]] = None) -> CaliText:
    """Read and decode the ``.cali`` file at ``path``.

    Parameters
    ----------
    path : path-like or file-like
        The file, or an open stream (text or binary) whose ``read()`` returns
        the whole ``.cali`` text.
    progress_step : callable, optional
        Called with ``n`` as each block of ``n`` bytes has been decoded.

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
    if hasattr(path, "read"):
        return decode_cali_content(list(read_source(path)), progress_step)
    source = os.fspath(path)
    try:
        with open(source, "rb") as fh:
            parsed = _collect_file(fh, source, progress_step)
    except OSError as exc:
        raise ReadError(source, f"cannot read the file: {exc.strerror}") from exc
    return parsed.finish()


def decode_cali_content(box: List[Any], progress_step: Optional[Callable[[int], None]] = None
                        ) -> CaliText:
    """Decode ``box = [content, source]``: ``.cali`` bytes or text and its name.
    The content is dropped from ``box`` once its lines are split, so its memory
    can be freed before the records are decoded."""
    data, source = box
    if isinstance(data, str):
        parsed = _collect(data, source, lambda block, offset: block, progress_step)
    else:
        parsed = _collect(data, source, lambda block, offset: _utf8(block, offset, source),
                          progress_step)
    box.clear()
    del data  # the records hold what they need: free the file's bytes first
    return parsed.finish()


def read_source(path: Any) -> Tuple[Union[bytes, str], Any]:
    """The contents of a file or an open stream, and the name to report it by
    (a stream's ``name``, else ``<stream>``)."""
    if hasattr(path, "read"):
        source = getattr(path, "name", None)
        source = source if isinstance(source, str) else "<stream>"
        try:
            data = path.read()
        except (OSError, ValueError) as exc:
            raise ReadError(source, f"cannot read the stream: {exc}") from exc
        if not isinstance(data, (bytes, str)):
            raise ReadError(source, f"the stream's read() returned {type(data).__name__}",
                            expected="a text or binary stream")
        return data, source
    source = os.fspath(path)
    try:
        with open(source, "rb") as fh:
            return fh.read(), source
    except OSError as exc:
        raise ReadError(source, f"cannot read the file: {exc.strerror}") from exc


def decode_cali_text(text: str, source: Any = None) -> CaliText:
    """Decode ``.cali`` text (see :func:`read_cali_text`).

    Parameters
    ----------
    text : str
        The whole file's text.
    source : path-like, optional
        What to name in errors.

    Returns
    -------
    CaliText

    Examples
    --------
    >>> cali = decode_cali_text("__rec=node,id=12,attr=10,data=268,parent=3\\n"
    ...                         "__rec=node,id=13,attr=8,data=region,parent=12\\n"
    ...                         "__rec=node,id=14,attr=13,data=main\\n__rec=ctx,ref=14\\n")
    >>> [cali.node_data[i] for i in cali.refs[:, 0]]
    ['main']
    """
    return _collect(text, source, lambda block, offset: block).finish()


def _utf8(block: bytes, offset: int, source: Any) -> str:
    try:
        return block.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReadError(source, "the file is not UTF-8 text", position=f"byte {offset + exc.start}",
                        expected="Caliper's .cali text format") from exc


def _collect_file(fh: Any, source: Any,
                  progress_step: Optional[Callable[[int], None]] = None) -> "_Lines":
    """Like :func:`_collect`, reading the file a block at a time: the file's
    bytes are never held whole (a block and the partial line after it are)."""
    parsed = _Lines(source)
    number, offset, carry = 0, 0, b""
    while True:
        chunk = fh.read(LINE_BLOCK)
        if not chunk:
            break
        data = carry + chunk if carry else chunk
        cut = data.rfind(b"\n") + 1
        if cut:
            number = _lines(parsed, _utf8(data[:cut], offset, source), number)
            if progress_step is not None:
                progress_step(cut)
            offset += cut
        carry = data[cut:]
        del data, chunk
    if carry.rstrip(b" \t\r"):
        line = number + 1  # the carry holds no newline: it is one partial line
        raise ReadError(source, "the last record is cut off (no end of line)",
                        position=f"line {line}",
                        expected="a complete record ending in a newline")
    if carry and progress_step is not None:
        progress_step(len(carry))
    return parsed


def _collect(content: Any, source: Any, as_text: Any,
             progress_step: Optional[Callable[[int], None]] = None) -> "_Lines":
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
        if progress_step is not None:
            progress_step(stop - pos)
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
    parsed.pack()
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
        bounds = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1], True])
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
