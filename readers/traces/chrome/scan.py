"""Vectorised scanning of a JSON array of flat-ish objects (Chrome trace events).

:func:`scan_events` finds, in a buffer that starts inside the event array,
every complete event object and the members of each (key span, value
span), with numpy over the whole buffer: quote positions (escapes
honoured), structural characters outside strings, brace depth by a
cumulative sum. No Python work per event.

The value helpers turn value spans into columns: :func:`parse_fixed`
(decimal numbers scaled to integers, exact: ``"12.3456"`` µs ->
12346 ns), :func:`intern_strings` (string values -> ids in a
:class:`~readers.traces.events.StringTable`).

Examples
--------
>>> import numpy as np
>>> buf = b' {"ph": "X", "ts": 1.5, "args": {"a": [1, 2]}}, {"ph": "B", "ts": 2}, {"ph'
>>> s = scan_events(buf, "mem")
>>> s.starts.tolist(), s.ends.tolist(), s.consumed, s.closed
([1, 48], [46, 68], 68, False)
>>> [buf[a:b] for a, b in zip(s.key_start, s.key_end)][:3]
[b'ph', b'ts', b'args']
"""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from ...errors import ReadError
from ..events import StringTable

_STRUCT = np.zeros(256, dtype=bool)
_STRUCT[list(b"{}[],:")] = True
_CLASS = _STRUCT.copy()
_CLASS[ord('"')] = True
_WS = np.zeros(256, dtype=bool)
_WS[list(b" \t\r\n")] = True
_POW10 = 10 ** np.arange(19, dtype=np.int64)
_DELTA = np.zeros(256, dtype=np.int8)
_DELTA[list(b"{[")] = 1
_DELTA[list(b"}]")] = -1


@dataclass
class Scan:
    """Where the events and their members are in a buffer (byte offsets)."""

    starts: np.ndarray      # '{' of each complete event
    ends: np.ndarray        # one past its '}'
    member_event: np.ndarray  # event index of each member
    key_start: np.ndarray   # key text (inside the quotes)
    key_end: np.ndarray
    value_start: np.ndarray  # value text, whitespace trimmed
    value_end: np.ndarray
    consumed: int           # bytes fully handled (after the last complete event)
    closed: bool            # the array's closing ']' was found
    after: int              # offset just past ']' when closed


def _real_quotes(a: np.ndarray, buf: bytes) -> np.ndarray:
    q = np.flatnonzero(a == 34)
    if b"\\" not in buf or not len(q):
        return q
    idx = np.arange(len(a), dtype=np.int64)
    last_plain = np.maximum.accumulate(np.where(a == 92, -1, idx))
    prev = q - 1
    run = np.where(prev >= 0, prev - last_plain[np.maximum(prev, 0)], 0)
    return q[(run & 1) == 0]


def scan_events(buf: bytes, source: str, base: int = 0, continuing: bool = False) -> Scan:
    """Scan ``buf`` (it begins inside the event array, outside any string).

    ``base`` is the buffer's offset in the file, for error positions;
    ``continuing``: events came before, so a ',' precedes the first one.
    Raises ReadError at the first byte that cannot belong to the array.
    """
    a = np.frombuffer(buf, dtype=np.uint8)
    # one pass over the bytes: quotes and structural characters, in order
    pos = np.flatnonzero(_CLASS[a])
    isq = a[pos] == 34
    if b"\\" in buf:  # drop escaped quotes (an odd run of backslashes before them)
        real = _real_quotes(a, buf)
        qpos = pos[isq]
        hit = np.searchsorted(real, qpos)
        ok = hit < len(real)
        ok[ok] = real[hit[ok]] == qpos[ok]
        keep = np.ones(len(pos), dtype=bool)
        keep[np.flatnonzero(isq)[~ok]] = False
        pos, isq = pos[keep], isq[keep]
    q = pos[isq]
    outside = (np.cumsum(isq, dtype=np.uint8) & 1) == 0  # low bit: quotes so far
    s = pos[outside & ~isq]
    ch = a[s]
    delta = _DELTA[ch]
    depth_after = np.cumsum(delta, dtype=np.int32)
    depth_before = depth_after - delta
    closing = np.flatnonzero(depth_after < 0)
    closed = bool(len(closing))
    if closed:
        stop = int(closing[0])
        if ch[stop] != ord("]"):
            _fail(source, base + int(s[stop]), "unbalanced '}'", "',' or ']'")
        s, ch = s[:stop + 1], ch[:stop + 1]
        depth_after, depth_before = depth_after[:stop + 1], depth_before[:stop + 1]
    is_start = (depth_before == 0) & (ch == ord("{"))
    starts = s[is_start]
    ends = s[(depth_after == 0) & (ch == ord("}"))] + 1
    starts = starts[:len(ends)]
    _check_top_level(a, s, ch, depth_before, starts, ends, source, base, continuing)
    limit = int(ends[-1]) if len(ends) else 0
    inner = (depth_before == 1) & (s < limit)
    ci = np.flatnonzero(inner & (ch == ord(":")))
    colons = s[ci]
    qi = np.searchsorted(q, colons) - 1  # index in q of the key's closing quote
    key_end = q[qi]
    key_start = q[qi - 1] + 1
    is_term = (inner & (ch == ord(","))) | ((depth_after == 0) & (ch == ord("}")))
    nxt = np.minimum(ci + 1, len(s) - 1)
    flat = is_term[nxt]              # a scalar value: the next structural char ends it
    value_end = s[nxt]
    if not flat.all():
        terms = s[is_term]
        value_end[~flat] = terms[np.searchsorted(terms, colons[~flat])]
    value_start, value_end = _trim(a, colons + 1, value_end)
    member_event = (np.cumsum(is_start, dtype=np.int64) - 1)[ci]
    after = int(s[-1]) + 1 if closed else limit
    consumed = after if closed else limit
    return Scan(starts, ends, member_event, key_start, key_end, value_start, value_end,
                consumed, closed, after)


def _check_top_level(a, s, ch, depth_before, starts, ends, source, base,
                     continuing) -> None:
    """Between events only whitespace and one comma; nothing else at depth 0."""
    top = depth_before == 0
    bad = top & (ch != ord("{")) & (ch != ord(",")) & (ch != ord("]"))
    if bad.any():
        pos = int(s[np.argmax(bad)])
        _fail(source, base + pos, f"unexpected {chr(a[pos])!r} between events",
              "an event object, ',' or ']'")
    if not len(ends):
        return
    # the gaps between events: whitespace and exactly one ','
    gap_start = np.r_[0, ends[:-1]]
    m, length = gather(a, gap_start, starts)
    nonws = ~_WS[m] & (np.arange(m.shape[1])[None, :] < length[:, None])
    comma = nonws & (m == ord(","))
    stray = nonws & ~comma
    if stray.any():
        row = int(np.argmax(stray.any(axis=1)))
        pos = int(gap_start[row] + np.argmax(stray[row]))
        _fail(source, base + pos, f"unexpected {chr(a[pos])!r} between events",
              "',' between event objects")
    count = comma.sum(axis=1)
    count[0] += 0 if continuing else 1
    wrong = np.flatnonzero(count != 1)
    if len(wrong):
        k = int(wrong[0])
        if k == 0:
            _fail(source, base + int(starts[0]), "misplaced ',' before an event",
                  "one ',' between events")
        _fail(source, base + int(gap_start[k]), "events are not separated by exactly one ','",
              "one ',' between events")


def _trim(a: np.ndarray, start: np.ndarray, end: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    start = start.copy()
    end = end.copy()
    for _ in range(64):
        ws = (start < end) & _WS[a[np.minimum(start, len(a) - 1)]]
        if not ws.any():
            break
        start += ws
    for _ in range(64):
        ws = (end > start) & _WS[a[np.maximum(end - 1, 0)]]
        if not ws.any():
            break
        end -= ws
    return start, end


def _fail(source: str, pos: int, problem: str, expected: str) -> None:
    raise ReadError(source, problem, position=f"byte {pos}", expected=expected)


def gather(a: np.ndarray, start: np.ndarray, end: np.ndarray,
           width: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Bytes of each span as rows of a matrix (padded with 0) and the row lengths."""
    length = (end - start).astype(np.int64)
    w = int(length.max()) if width is None and len(length) else (width or 0)
    if w == 0:
        return np.zeros((len(start), 0), dtype=np.uint8), length
    cols = np.arange(w, dtype=np.int64)
    idx = start[:, None] + cols
    mask = cols < length[:, None]
    m = a[np.minimum(idx, len(a) - 1)]
    m[~mask] = 0
    return m, length


def parse_fixed(a: np.ndarray, start: np.ndarray, end: np.ndarray, scale: int,
                source: str, base: int, what: str) -> np.ndarray:
    """Decimal numbers in the spans, times ``10**scale``, rounded half up, as int64.

    Exact (integer arithmetic on the digits). An exponent (``1e6``) falls back
    to Python's float parsing for that value. A span that is not a number is
    a ReadError at its byte offset.

    Examples
    --------
    >>> buf = b"12.3456 -7 0.0005 1e3"
    >>> a = np.frombuffer(buf, dtype=np.uint8)
    >>> parse_fixed(a, np.array([0, 8, 11, 18]), np.array([7, 10, 17, 21]), 3, "x", 0, "ts").tolist()
    [12346, -7000, 1, 1000000]
    """
    n = len(start)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    m, length = gather(a, start, end, min(int((end - start).max()), 48))
    d = m.astype(np.int16) - 48
    digit = (d >= 0) & (d <= 9)
    dot = m == ord(".")
    neg = m[:, 0] == ord("-")
    cols = np.arange(m.shape[1])
    pad = cols[None, :] >= length[:, None]
    ok = (digit | dot | pad | ((cols == 0)[None, :] & (m == ord("-")))).all(axis=1)
    ndig = digit.sum(axis=1)
    ok &= (dot.sum(axis=1) <= 1) & (ndig > 0)
    special = ((m == ord("e")) | (m == ord("E"))).any(axis=1) | (ndig > 18) | (length > 40)
    value = np.zeros(n, dtype=np.int64)
    frac = np.zeros(n, dtype=np.int64)
    seen = np.zeros(n, dtype=bool)
    for j in range(m.shape[1]):  # Horner over the digits of every row at once
        dj = digit[:, j]
        value = np.where(dj, value * 10 + d[:, j], value)
        frac += dj & seen
        seen |= dot[:, j]
    shift = scale - frac
    up = shift >= 0
    value = np.where(up, value * _POW10[np.clip(shift, 0, 18)], value)
    if not up.all():
        div = _POW10[np.clip(-shift, 0, 18)]
        q, r = np.divmod(value, div)
        value = np.where(up, value, q + (2 * r >= div))
    value = np.where(neg, -value, value)
    bad = ~ok & ~special
    if bad.any():
        i = int(np.argmax(bad))
        text = bytes(a[start[i]:end[i]]).decode("utf-8", "replace")
        raise ReadError(source, f"{what} is not a number: {text[:40]!r}",
                        position=f"byte {base + int(start[i])}", expected="a JSON number")
    for i in np.flatnonzero(special):
        text = bytes(a[start[i]:end[i]]).decode("ascii", "replace")
        try:
            exact = (Decimal(text) * 10 ** scale).to_integral_value(ROUND_HALF_UP)
            value[i] = int(exact)
        except (ArithmeticError, ValueError, OverflowError) as exc:
            raise ReadError(source, f"{what} is not a number: {text[:40]!r}",
                            position=f"byte {base + int(start[i])}",
                            expected="a JSON number") from exc
    return value


def intern_strings(a: np.ndarray, buf: bytes, start: np.ndarray, end: np.ndarray,
                   strings: StringTable, source: str, base: int) -> np.ndarray:
    """Ids of JSON string values (spans include the quotes) in ``strings``.

    Equal byte strings are found with a vectorised hash; each distinct
    value is decoded once (escapes through :func:`json.loads`).
    """
    n = len(start)
    if n == 0:
        return np.zeros(0, dtype=np.int32)
    if not (a[start] == 34).all() or not (a[end - 1] == 34).all():
        i = int(np.argmax((a[start] != 34) | (a[end - 1] != 34)))
        raise ReadError(source, "a string value was expected", position=f"byte {base + int(start[i])}",
                        expected="a JSON string")
    m, length = gather(a, start, end)
    h = length.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    prime = np.uint64(0x100000001B3)
    for j in range(m.shape[1]):
        h = (h ^ m[:, j].astype(np.uint64)) * prime
    uniq, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    rep = first[inverse]
    same = (length == length[rep]) & (m == m[rep]).all(axis=1)
    texts = [_decode(buf, int(start[i]), int(end[i]), source, base) for i in first]
    ids = np.asarray([strings.intern(t) for t in texts], dtype=np.int32)[inverse]
    for i in np.flatnonzero(~same):  # hash collisions: decode each
        ids[i] = strings.intern(_decode(buf, int(start[i]), int(end[i]), source, base))
    return ids


def _decode(buf: bytes, s: int, e: int, source: str, base: int) -> str:
    raw = buf[s:e]
    if b"\\" not in raw:
        try:
            return raw[1:-1].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ReadError(source, "a string is not valid UTF-8", position=f"byte {base + s}",
                            expected="UTF-8 text") from exc
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise ReadError(source, f"bad string escape: {exc}", position=f"byte {base + s}",
                        expected="a JSON string") from exc
