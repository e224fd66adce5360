"""Fast path for json-split files: the two big sections decoded in blocks.

Caliper writes ``{"data": [[...], ...], "columns": [...], "column_metadata":
[...], "nodes": [{...}, ...], <globals>}``. Each block of ``data`` rows is
checked against JSON's grammar for rows of numbers and ``null``
(:mod:`~graphframe_readers.caliper.jsonsplit.grammar`: the C parsers below
would also read ``+1``, ``.5`` or ``01``), then with array operations (every row
of the same width), and converted by a C CSV parser (pandas 3's, or pyarrow's on
pandas 2), exactly as Python's ``float`` would; the ``nodes`` objects are decoded by the json module a block
at a time and kept as columns. Work and temporary memory are bounded by the
block size instead of the file size, and no Python object is made per cell.

Anything unexpected (text in the data, another key order, a block that does
not parse, anything JSON does not allow) returns None: the caller then decodes
the whole document with the general decoder, which also reports located errors.
"""

from __future__ import annotations

import io
import json
import mmap
import re
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pandas as pd

from .grammar import is_json_rows

# JSON's whitespace is these four bytes only (regular expressions' \s also takes \f and \v)
_WHITESPACE = b" \t\r\n"
_WS = rb"[ \t\r\n]*"
_START = re.compile(rb'\A(?:\xef\xbb\xbf)?' + _WS + rb'\{' + _WS + rb'"data"' + _WS + rb':' +
                    _WS + rb'\[')
_NODES = re.compile(rb',' + _WS + rb'"nodes"' + _WS + rb':' + _WS + rb'\[')
_NODE_BREAK = re.compile(rb'\}' + _WS + rb',' + _WS + rb'\{')
_LIST_END = re.compile(rb'\}' + _WS + rb'\]')
_SPACES = re.compile(_WS)
_MEMBER_COMMA = re.compile(_WS + rb',')
_SPACE_BYTES = frozenset(b" \t\r\n")
_BEFORE_KEY = frozenset(b" \t\r\n,")
_SPACE, _NEWLINE, _COMMA, _OPEN, _CLOSE = 32, 10, 44, 91, 93
BLOCK = 1 << 23
#: pandas 3's C parser converts decimal text exactly (as Python's ``float``). pandas 2's
#: default one can be a unit in the last place off and its exact ("round_trip") mode calls
#: Python per cell (20 s for 64 M cells), so on pandas 2 pyarrow's CSV reader (exact too)
#: converts the rows.
PANDAS_EXACT = int(pd.__version__.split(".")[0]) >= 3
#: read_csv options for exact floats (used by the .cali decoder, whose columns mix types)
EXACT_FLOATS = {} if PANDAS_EXACT else {"float_precision": "round_trip"}


@dataclass
class FastDoc:
    """A json-split document decoded by the fast path.

    ``cells``: float64 matrix (rows x columns, NaN for null); ``labels``,
    ``node_columns`` (one string per node) and ``parents`` (-1: none);
    ``doc``: every other section, as the json module returns them.
    """

    cells: np.ndarray
    labels: List[str]
    node_columns: np.ndarray
    parents: np.ndarray
    doc: Dict[str, Any]


def decode_fast(raw: Any, progress_step: Optional[Callable[[int], None]] = None
                ) -> Optional[FastDoc]:
    """The :class:`FastDoc` of ``raw`` (bytes, or a read-only ``mmap`` of the
    file, whose pages are released as they are decoded), or None if the fast
    path does not apply.

    ``progress_step(n)``, when given, is called as each block of ``n`` bytes
    of the data and node lists is decoded.

    Examples
    --------
    >>> d = decode_fast(b'{"data": [[1, null, 0], [3, 4.5, 1]], "columns": ["a", "b", "path"],'
    ...                 b' "column_metadata": [{}, {}, {}], "nodes": [{"label": "main",'
    ...                 b' "column": "path"}, {"label": "f", "column": "path", "parent": 0}]}')
    >>> d.cells.tolist(), d.labels, d.parents.tolist(), sorted(d.doc)
    ([[1.0, nan, 0.0], [3.0, 4.5, 1.0]], ['main', 'f'], [-1, 0], ['column_metadata', 'columns'])
    """
    match = _START.match(raw)
    if match is None:
        return None
    start = match.end() - 1
    quote = raw.find(b'"', start)  # the next key: the data itself holds no text
    release(raw, 0, quote)
    if quote < 0:
        return None
    end = quote - 1
    while end > start and raw[end] in _BEFORE_KEY:
        end -= 1
    if end <= start or raw[end] != _CLOSE:
        return None
    cells = _data_rows(raw, start, end, progress_step)
    if cells is None:
        return None
    nodes_match = _NODES.search(raw, end)
    if nodes_match is None:
        return None
    nodes = _node_objects(raw, nodes_match.end() - 1, progress_step)
    if nodes is None:
        return None
    labels, columns, parents, nodes_end = nodes
    release(raw, 0, len(raw))
    # the other members, after the comma that followed the data list (or the node
    # list, when it came right after): exactly one comma, as JSON has it
    rest = raw[end + 1:nodes_match.start()] + raw[nodes_end + 1:]
    comma = _MEMBER_COMMA.match(rest)
    if comma is None and rest.strip(_WHITESPACE) != b"}":
        return None
    try:
        doc = json.loads((b"{" + rest[comma.end() if comma else 0:]).decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None  # the general decoder has no recursion limit and locates errors
    if not isinstance(doc, dict) or "data" in doc or "nodes" in doc:
        return None
    return FastDoc(cells, labels, columns, parents, doc)


# ----------------------------------------------------------------- data
def _data_rows(raw: Any, start: int, end: int, progress_step=None) -> Optional[np.ndarray]:
    """Rows of the data list ``raw[start:end + 1]``, parsed a block of rows at a time
    (the file's bytes are only viewed, never copied whole) into one column-major
    matrix, so that each column is a contiguous array."""
    view = np.frombuffer(raw, dtype=np.uint8)
    first, last = start + 1, end
    while first < last and raw[first] in _SPACE_BYTES:
        first += 1
    while last > first and raw[last - 1] in _SPACE_BYTES:
        last -= 1
    if first == last:
        return np.zeros((0, 0))
    count = 0  # one "]" per row, if the data is what it should be
    for a in range(first, last, BLOCK):
        count += int(np.count_nonzero(view[a:min(a + BLOCK, last)] == _CLOSE))
        release(raw, a, a + BLOCK)
    cells: Optional[np.ndarray] = None
    done = 0
    pos = first
    while pos < last:
        close = raw.find(b"]", min(pos + BLOCK, last - 1), last)
        if close < 0:
            return None
        if not is_json_rows(view[pos:close + 1]):
            return None  # text, NaN, +1, 01, 1 5, ...: the general decoder reads or locates them
        block = _rows(view[pos:close + 1]) if PANDAS_EXACT else _compact_rows(raw, pos, close + 1)
        if block is None or done + len(block) > count or \
                (cells is not None and block.shape[1] != cells.shape[1]):
            return None
        if cells is None and len(block) == count and block.flags.f_contiguous and \
                block.flags.writeable:
            cells = block  # the whole table in one block: no copy
        elif cells is None:
            cells = np.empty((count, block.shape[1]), dtype=np.float64, order="F")
        if cells is not block:
            cells[done:done + len(block)] = block
        done += len(block)
        del block
        release(raw, pos, close + 1)
        if progress_step is not None:
            progress_step(close + 1 - pos)
        pos = close + 1
        if pos < last:
            nxt = raw.find(b"[", pos, last)
            if nxt < 0 or raw[pos:nxt].strip(_WHITESPACE) != b",":
                return None
            pos = nxt
    return cells if done == count else None


def release(raw: Any, start: int, stop: int) -> None:
    """Let the kernel drop the pages of ``raw[start:stop]`` from this process's
    memory when ``raw`` is a memory-mapped file (they are read again from the
    page cache if touched later; the contents never change). A no-op for bytes
    and where ``madvise`` is unavailable."""
    if not isinstance(raw, mmap.mmap) or not hasattr(mmap, "MADV_DONTNEED"):
        return
    lo = start - start % mmap.PAGESIZE
    hi = min(stop, len(raw))
    if hi > lo:
        try:
            raw.madvise(mmap.MADV_DONTNEED, lo, hi - lo)
        except (OSError, ValueError):
            pass  # only a memory hint


def _compact_rows(raw: Any, start: int, stop: int) -> Optional[np.ndarray]:
    """:func:`_rows` of ``raw[start:stop]`` (rows that :func:`is_json_rows` accepted) for
    pyarrow's reader: whitespace is deleted first (JSON numbers hold none, and pyarrow
    does not skip it around ``null``), then each row becomes a line in place.

    The compact text is then ``[a,b],[c,d],...`` (the grammar has checked the
    brackets): the n-th ``[`` right after the (n-1)-th ``]`` and a comma; pyarrow
    checks that every line has ``width`` numbers.
    """
    chunk = bytearray(memoryview(raw)[start:stop])
    # a bytearray's translation is a bytearray: the array below views it, writable
    text = np.frombuffer(chunk.translate(None, _WHITESPACE), dtype=np.uint8)
    del chunk  # at most two block-sized copies at a time
    closes = np.flatnonzero(text == _CLOSE)
    rows = len(closes)
    if not rows or text[0] != _OPEN or closes[-1] != len(text) - 1:
        return None
    joins = closes[:-1] + 1  # the comma between two rows
    opens = np.concatenate([[0], joins + 1])
    width = int(np.count_nonzero(text[:closes[0]] == _COMMA)) + 1
    if not ((text[joins] == _COMMA).all() and (text[opens] == _OPEN).all()):
        return None  # something between two rows
    text[opens] = _NEWLINE  # empty lines are skipped
    text[closes] = _NEWLINE
    text[joins] = _NEWLINE
    values = _arrow_floats(text, width)
    if values is None or values.shape != (rows, width) or np.isinf(values).any():
        return None  # infinite: 1e400 or an integer too large for a float, which differ
    return values


def _rows(buf: np.ndarray) -> Optional[np.ndarray]:
    """``[a, b], [c, d], ...`` (bytes as uint8, rows that :func:`is_json_rows` accepted) ->
    a float matrix, or None if it is not that (pandas 3's reader, which skips the spaces
    before a number).

    The grammar has checked the brackets, so they alternate; pandas refuses a line with
    another number of cells than the first, and the commas are counted: every row
    then has ``width`` cells.
    """
    brackets = np.flatnonzero((buf == _OPEN) | (buf == _CLOSE))
    opens, closes = brackets[0::2], brackets[1::2]
    rows = len(opens)
    width = int(np.count_nonzero(buf[opens[0]:closes[0]] == _COMMA)) + 1
    between = closes[:-1] + 1
    if not (buf[between] == _COMMA).all() or \
            np.count_nonzero(buf == _COMMA) != rows * width - 1:
        return None  # whitespace before the comma between two rows, or rows of other widths
    text = buf.copy()
    text[opens] = _SPACE
    text[closes] = _NEWLINE
    text[between] = _SPACE
    values = _csv_floats(text, width)
    if values is None or values.shape != (rows, width) or np.isinf(values).any():
        return None  # infinite: 1e400 or an integer too large for a float, which differ
    return values


def _csv_floats(text: np.ndarray, width: int) -> Optional[np.ndarray]:
    """Rows of comma-separated numbers/``null`` (bytes) as floats, by pandas' C parser."""
    try:
        # only "null" is missing: an empty cell or "2 3" fails to convert
        frame = pd.read_csv(io.BytesIO(text.tobytes()), header=None, skipinitialspace=True,
                            engine="c", dtype=np.float64, na_values=["null"],
                            keep_default_na=False)
    except (ValueError, TypeError, pd.errors.ParserError, pd.errors.EmptyDataError):
        return None
    return frame.to_numpy(dtype=np.float64)


def _arrow_floats(text: np.ndarray, width: int) -> Optional[np.ndarray]:
    """Lines of comma-separated numbers/``null`` without whitespace (bytes as uint8) as
    a column-major float matrix, by pyarrow's CSV reader (exact, multi-threaded)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    names = [str(i) for i in range(width)]
    try:
        table = pcsv.read_csv(
            pa.py_buffer(text),
            read_options=pcsv.ReadOptions(column_names=names),
            parse_options=pcsv.ParseOptions(delimiter=",", quote_char=False),
            convert_options=pcsv.ConvertOptions(
                column_types={n: pa.float64() for n in names}, null_values=["null"],
                quoted_strings_can_be_null=False))
    except (pa.ArrowInvalid, ValueError):
        return None
    if table.num_columns != width:
        return None
    out = np.empty((table.num_rows, width), dtype=np.float64, order="F")
    for k in range(width):
        out[:, k] = table.column(k).to_numpy(zero_copy_only=False)  # nulls -> NaN
    return out


# ---------------------------------------------------------------- nodes
def _node_objects(raw: bytes, start: int, progress_step=None
                  ) -> Optional[Tuple[List[str], np.ndarray, np.ndarray, int]]:
    """``(labels, columns, parents, end)`` of the node list opened at ``raw[start]``.

    The list ends at the first ``}]``; blocks are cut between two objects
    (``}, {``). A cut that falls inside a string leaves that string
    unterminated, so its block fails to parse and the whole fast path is
    abandoned rather than misread.
    """
    first = _SPACES.match(raw, start + 1).end()
    if raw[first:first + 1] == b"]":
        return [], np.zeros(0, dtype=object), np.zeros(0, dtype=np.int64), first
    if raw[first:first + 1] != b"{":
        return None
    list_end = _LIST_END.search(raw, first)
    if list_end is None:
        return None
    stop_all = list_end.start() + 1
    release(raw, first, stop_all)
    labels: List[str] = []
    columns: List[np.ndarray] = []
    parents: List[np.ndarray] = []
    pos = first
    while pos < stop_all:
        cut = _NODE_BREAK.search(raw, pos + BLOCK, stop_all) if stop_all - pos > BLOCK else None
        stop = cut.start() + 1 if cut else stop_all
        try:
            objects = json.loads(b"[" + raw[pos:stop] + b"]")
            block_labels = [o["label"] for o in objects]
            block_columns = [o["column"] for o in objects]
            block_parents = [o.get("parent", -1) for o in objects]
        except (ValueError, TypeError, KeyError, AttributeError, UnicodeDecodeError,
                RecursionError):
            return None
        if set(map(type, block_labels)) - {str} or set(map(type, block_columns)) - {str} or \
                set(map(type, block_parents)) - {int}:
            return None
        try:
            block_parent_array = np.array(block_parents, dtype=np.int64)
        except OverflowError:
            return None
        if explicit_parents(objects) != int((block_parent_array >= 0).sum()):
            return None  # a negative parent: the general decoder locates it
        labels.extend(block_labels)
        # one string object per distinct column name instead of one per node
        codes, names = pd.factorize(np.array(block_columns, dtype=object))
        columns.append(np.asarray(names, dtype=object)[codes])
        del block_columns, objects
        parents.append(block_parent_array)
        release(raw, pos, stop)
        if progress_step is not None:
            progress_step(stop - pos)
        pos = cut.end() - 1 if cut else stop_all
    return _compact(labels), np.concatenate(columns), np.concatenate(parents), \
        list_end.end() - 1


def explicit_parents(nodes: List[Dict[str, Any]]) -> int:
    """How many node objects have a ``parent`` key (a root has none: Caliper
    never writes a negative parent).

    Examples
    --------
    >>> explicit_parents([{"label": "a"}, {"label": "b", "parent": 0}])
    1
    """
    return sum(map(dict.__contains__, nodes, repeat("parent")))


def _compact(labels: List[str]) -> List[str]:
    """The same strings, allocated together now that the blocks' dicts are gone
    (otherwise each survivor pins a page of garbage and the memory stays used)."""
    if not labels:
        return labels
    joined = "\x00".join(labels)
    if joined.count("\x00") != len(labels) - 1:
        return labels  # a label holds a NUL character: keep them as they are
    del labels[:]
    return joined.split("\x00")
