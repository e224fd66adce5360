"""Runs of flat events parsed by pyarrow's JSON reader (the fast path of :mod:`.run`).

Most of a large trace is events whose members are all scalars: no ``args``
object, no nested array. For a buffer of such events, :func:`flat_events`
finds the events' braces with two byte comparisons (no quote-by-quote
scan), blanks the commas between events and hands the run to
``pyarrow.json`` (a C++ parser; pyarrow is already a dependency through
Parquet), which returns the columns the decoder reads: ``ph`` and ``name``
as strings, ``pid``/``tid`` as int64, ``ts``/``dur`` as decimals with three
places (exact nanoseconds from the decimal text, as :func:`.values.parse_fixed`
gives them).

The path is taken only when its result is provably the one the scanner of
:mod:`.scan` would give; anything else returns None and the caller scans
the buffer the usual way (which also reports any error at its byte):

- no backslash (escapes), no ``null``, no ``[`` / ``]`` before the end of
  the run, every ``{`` and ``}`` alternating with single commas and
  whitespace between them (a brace inside a string breaks this or makes
  pyarrow find fewer rows than braces: both decline);
- pyarrow parses the run into exactly one row per event, every other member
  a string, integer, float or boolean, no ``args`` member;
- the run's quotes number exactly two per key plus two per string value
  (a number written as a string, which the decimal columns would accept,
  declines);
- every ``ph`` one byte, every ``ts``/``dur`` fits 64 bits in nanoseconds
  with at most three decimals in microseconds (more decimals decline: the
  scanner rounds them).

Examples
--------
>>> buf = b'{"ph": "X", "name": "f", "ts": 1.5, "dur": 2, "pid": 0, "tid": 3},\\n{"ph": "i"'
>>> run = flat_events(buf, continuing=False)
>>> run.consumed, bytes(run.ph), run.ts.tolist(), run.dur.tolist(), run.thread.tolist()
(65, b'X', [1500], [2000], [3])
>>> run.names, run.name.tolist()
(['f'], [0])
>>> flat_events(b'{"ph": "X", "args": {"a": 1}}', continuing=False) is None
True
"""

from __future__ import annotations

from typing import List, Optional

import numpy as np

from .values import strip

#: whether :mod:`.run` tries this path (tests turn it off to compare the two paths)
ENABLED = True

_OPEN, _CLOSE, _COMMA, _SPACE = (ord(c) for c in "{}, ")
#: the columns read, with the types that make a run's result exact
_READ = ("ph", "name", "pid", "tid", "ts", "dur")
_SCHEMA = None


class FlatRun:
    """The events of a flat run as columns (``name``: indexes into ``names``, -1 where
    absent; ``has_ts``/``has_dur``: which events have the member; ``consumed``: the bytes
    of the buffer the run covers, to its last '}'; ``starts``: each event's '{')."""

    __slots__ = ("consumed", "starts", "ph", "ts", "has_ts", "dur", "has_dur", "rank",
                 "thread", "name", "names")

    def __init__(self, consumed: int, starts: np.ndarray, ph: np.ndarray, ts: np.ndarray,
                 has_ts: np.ndarray, dur: np.ndarray, has_dur: np.ndarray, rank: np.ndarray,
                 thread: np.ndarray, name: np.ndarray, names: List[str]) -> None:
        self.consumed, self.starts, self.ph = consumed, starts, ph
        self.ts, self.has_ts, self.dur, self.has_dur = ts, has_ts, dur, has_dur
        self.rank, self.thread, self.name, self.names = rank, thread, name, names


def _schema():
    global _SCHEMA
    if _SCHEMA is None:
        import pyarrow as pa
        _SCHEMA = pa.schema([("ph", pa.string()), ("name", pa.string()),
                             ("pid", pa.int64()), ("tid", pa.int64()),
                             ("ts", pa.decimal128(38, 3)), ("dur", pa.decimal128(38, 3))])
    return _SCHEMA


class Prepared:
    """A run found by :func:`prepare`: its text (the commas between events made spaces)
    for :func:`parse`, the bytes of the buffer it covers and each event's '{'."""

    __slots__ = ("text", "end", "opens")

    def __init__(self, text: np.ndarray, end: int, opens: np.ndarray) -> None:
        self.text, self.end, self.opens = text, end, opens


def flat_events(buf: bytes, continuing: bool, max_event: int = 1 << 62) -> Optional[FlatRun]:
    """The complete flat events at the start of ``buf`` (which begins inside the event
    array, after an event when ``continuing``), or None when the path declines.

    ``max_event``: a longer event declines (the scanner reports it).
    """
    prepared = prepare(buf, continuing, max_event)
    return None if prepared is None else parse(prepared, buf)


def prepare(buf: bytes, continuing: bool, max_event: int = 1 << 62) -> Optional[Prepared]:
    """Where the run of flat events at the start of ``buf`` ends, and its text for pyarrow
    (the byte-level checks of the module docstring); None when the path declines.

    Examples
    --------
    >>> p = prepare(b',\\n{"ph": "B", "ts": 1},\\n{"ph": "E", "ts": 2},\\n{"ph"', True)
    >>> p.end, p.opens.tolist(), bytes(p.text)
    (44, [2, 24], b' \\n{"ph": "B", "ts": 1} \\n{"ph": "E", "ts": 2}')
    >>> prepare(b'{"ph": "B", "name": "a\\\\nb"}', False) is None  # an escape: the scanner
    True
    """
    if b"\\" in buf or b"null" in buf:
        return None
    limit = len(buf)
    for bracket in (b"[", b"]"):
        at = buf.find(bracket)
        if at >= 0:
            limit = min(limit, at)
    a = np.frombuffer(buf, dtype=np.uint8, count=limit)
    opens = np.flatnonzero(a == _OPEN)
    closes = np.flatnonzero(a == _CLOSE)
    k = len(closes)
    if k == 0 or len(opens) not in (k, k + 1):
        return None
    if len(opens) > k and opens[k] < closes[-1]:
        return None
    opens = opens[:k]
    if (opens > closes).any() or (closes[:-1] > opens[1:]).any():
        return None
    if int((closes - opens).max()) >= max_event:
        return None
    end = int(closes[-1]) + 1
    lo = np.r_[0, closes[:-1] + 1]
    s, e = strip(a, lo, opens)
    comma = (e - s == 1) & (a[s] == _COMMA)
    if not continuing:  # the first event directly after the '['
        if e[0] != s[0]:
            return None
        comma[0] = True
    if not comma.all():
        return None
    text = a[:end].copy()
    text[s[1:] if not continuing else s] = _SPACE
    _schema()  # made here, not on a parsing thread
    return Prepared(text, end, opens.astype(np.int64))


def parse(prepared: Prepared, buf: bytes) -> Optional[FlatRun]:
    """The prepared run parsed by pyarrow into columns (``buf``: the buffer it came from),
    or None when the result would not be exact (see the module docstring).

    Thread-safe: :mod:`.run` parses the next run on a helper thread while it converts
    the previous one (pyarrow parses without the GIL).

    Examples
    --------
    >>> buf = b'{"ph": "X", "ts": "5", "dur": 1}'  # a time written as a string
    >>> parse(prepare(buf, False), buf) is None
    True
    >>> buf = b'{"ph": "X", "ts": 5.25, "dur": 1, "cat": "gpu"}'
    >>> run = parse(prepare(buf, False), buf)
    >>> run.ts.tolist(), run.dur.tolist(), run.names
    ([5250], [1000], [])
    """
    import pyarrow as pa
    import pyarrow.json as pj
    text, end, opens = prepared.text, prepared.end, prepared.opens
    try:
        table = pj.read_json(
            pa.BufferReader(pa.py_buffer(text)),
            # one block (no chunking at line breaks: an event may span lines)
            read_options=pj.ReadOptions(use_threads=False, block_size=len(text) + 1),
            parse_options=pj.ParseOptions(explicit_schema=_schema(),
                                          unexpected_field_behavior="infer",
                                          newlines_in_values=True))
    except (pa.ArrowException, ValueError):
        return None
    if table.num_rows != len(opens):
        return None
    quotes = 0
    for field, column in zip(table.schema, table.columns):
        kind = field.type
        present = len(column) - column.null_count
        quotes += 2 * present
        if pa.types.is_string(kind):
            quotes += 2 * present
        elif field.name not in _READ and not (pa.types.is_integer(kind)
                                              or pa.types.is_floating(kind)
                                              or pa.types.is_boolean(kind)):
            return None  # nested values, dates inferred from strings...
        if field.name == "args":
            return None
    if quotes != buf.count(b'"', 0, end):
        return None
    ph = _one_byte(table.column("ph"))
    ts, has_ts = _nanoseconds(table.column("ts"))
    dur, has_dur = _nanoseconds(table.column("dur"))
    if ph is None or ts is None or dur is None:
        return None
    rank = _ints(table.column("pid"))
    thread = _ints(table.column("tid"))
    name, names = _codes(table.column("name"))
    return FlatRun(end, opens.astype(np.int64), ph, ts, has_ts, dur, has_dur, rank, thread,
                   name, names)


def _one_byte(column) -> Optional[np.ndarray]:
    """The one-byte strings of a column as uint8, or None (absent or longer ones)."""
    arr = column.combine_chunks()
    if arr.null_count:
        return None
    offsets = np.frombuffer(arr.buffers()[1], dtype=np.int32)[arr.offset:arr.offset + len(arr) + 1]
    if len(arr) and (np.diff(offsets) != 1).any():
        return None
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)
    return data[offsets[0]:offsets[-1]].copy()


def _nanoseconds(column):
    """A decimal(38, 3) column as int64 (its unscaled value: ns), 0 where absent, and
    which rows have it; (None, None) when a value does not fit 64 bits."""
    arr = column.combine_chunks()
    n = len(arr)
    words = np.frombuffer(arr.buffers()[1], dtype=np.int64)[2 * arr.offset:2 * (arr.offset + n)]
    low, high = words[0::2], words[1::2]
    has = np.ones(n, dtype=bool) if not arr.null_count else \
        np.asarray(arr.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
    value = np.where(has, low, 0)
    if (np.where(has, high, 0) != (value >> 63)).any():
        return None, None
    return value, has


def _ints(column) -> np.ndarray:
    arr = column.combine_chunks()
    if arr.null_count:
        arr = arr.fill_null(0)
    return np.asarray(arr.to_numpy(zero_copy_only=False), dtype=np.int64)


def _codes(column):
    """A string column as indexes in order of first appearance (-1 where absent), and the
    distinct strings in that order."""
    enc = column.combine_chunks().dictionary_encode()
    idx = enc.indices
    if idx.null_count:
        idx = idx.fill_null(-1)
    return (np.asarray(idx.to_numpy(zero_copy_only=False), dtype=np.int64),
            enc.dictionary.to_pylist())
