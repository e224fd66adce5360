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
import stat
from typing import Any, Callable, List, Optional

from ...common.source import read_source
from ...errors import ReadError
from .lines import Lines
from .meta import Attribute, CaliText

__all__ = ["Attribute", "CaliText", "read_cali_text", "decode_cali_text"]

LINE_BLOCK = 1 << 22
# the most common shapes, decoded inline by _collect (no escapes):
# groups 1-3 for a ctx record (one or more references), 4-7 for a node record
_FAST = re.compile(r"__rec=(?:ctx,ref=(\d{1,18}(?:=\d{1,18})*),attr=([0-9=]+),data=([^,\r\\]*)"
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
                  progress_step: Optional[Callable[[int], None]] = None) -> "Lines":
    """Like :func:`_collect`, reading the file a block at a time: the file's
    bytes are never held whole (a block and the partial line after it are)."""
    parsed = Lines(source)
    number, offset, carry = 0, 0, b""
    block = LINE_BLOCK
    try:  # a small file in one read of its size (a 4 MB buffer per read costs ~0.1 ms)
        info = os.fstat(fh.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > 0:  # not a pipe, whose size is 0
            block = min(LINE_BLOCK, info.st_size + 1)
    except (AttributeError, OSError, ValueError):
        pass
    while True:
        chunk = fh.read(block)
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
             progress_step: Optional[Callable[[int], None]] = None) -> "Lines":
    """Split ``content`` (bytes or text) into lines a block at a time, so that
    neither a second copy of the file nor a list of all its lines is held."""
    newline = b"\n" if isinstance(content, bytes) else "\n"
    end = len(content.rstrip(b" \t\r" if isinstance(content, bytes) else " \t\r"))
    if end and content[end - 1:end] != newline:
        raise ReadError(source, "the last record is cut off (no end of line)",
                        position=f"line {content.count(newline, 0, end) + 1}",
                        expected="a complete record ending in a newline")
    parsed = Lines(source)
    number, pos = 0, 0
    while pos < end:
        stop = content.find(newline, min(pos + LINE_BLOCK, end - 1)) + 1 or end
        number = _lines(parsed, as_text(content[pos:stop], pos), number)
        if progress_step is not None:
            progress_step(stop - pos)
        pos = stop
    return parsed


def _lines(parsed: "Lines", block: str, number: int) -> int:
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
    several = parsed.ctx_refs  # records with several references: index -> their text
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
                if "=" in ref:
                    several[len(parsed.ctx_line)] = ref
                    ctx_ref(-1)
                else:
                    ctx_ref(int(ref))
                ctx_line(number)
                ctx_sig(code)
                ctx_data(data)
                continue
        if line:
            parsed.add(number, line)
    parsed.pack()
    return number - 1  # the block's last "line" is the empty text after its final newline
