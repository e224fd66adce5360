"""Turning JSON value spans into columns, with numpy over all spans of a block at once.

A block's bytes are viewed through :func:`padded` (the bytes plus :data:`PAD`
zero bytes), so a fixed-width read at any span start stays inside the
array: :func:`rows` gathers a span's first bytes as one matrix row with no
index matrix, :func:`words` reads 8 bytes at any offset as one ``uint64``.

- :func:`parse_fixed`: decimal numbers scaled to integers, exact
  (``"12.3456"`` µs -> 12346 ns; half up), Horner over the digit columns;
- :func:`key_codes`: each member key's length and first 4 bytes in one
  ``uint64``, to compare with the few keys a decoder reads;
- :func:`intern_strings`: string values -> ids in a
  :class:`~graphframe_readers.traces.events.StringTable`, equal values found with a
  hash of 8-byte words and a hash table (values up to :data:`SHORT` bytes;
  longer ones by a dict of their bytes, so the work stays linear in the
  bytes whatever the longest value); each distinct value decoded once;
- :func:`strip`, :func:`check_blank`: whitespace around values, looking
  only at the spans that have any.

Examples
--------
>>> a = padded(b'"ts": 12.5, "name": "x"')
>>> rows(a, np.array([0, 6]), 4).tolist()
[[34, 116, 115, 34], [49, 50, 46, 53]]
>>> words(a, np.array([1, 12])).tobytes()
b'ts": 12."name": '
"""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ...errors import ReadError
from ..events import StringTable

#: Zero bytes after a block's data (fixed-width reads never leave the array).
PAD = 64
_WS = np.zeros(256, dtype=bool)
_WS[list(b" \t\r\n")] = True
_POW10 = 10 ** np.arange(19, dtype=np.int64)
#: low ``8 * k`` bits set, k = 0..8
_LOW = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_PRIME = np.uint64(0x100000001B3)
#: string values (quotes included) up to this length are hashed by 8-byte word columns
SHORT = 256
_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")  # JSON's grammar


# JSON numbers as an automaton over byte classes ('0', '1'-'9', '-', '+', '.', 'e'/'E',
# other): states 0 start, 1 sign, 2 a lone 0, 3 integer digits, 4 point, 5 fraction
# digits, 6 exponent mark, 7 exponent sign, 8 exponent digits, 9 dead
_NUM_CLASS = np.full(256, 6, dtype=np.int8)
_NUM_CLASS[ord("0")] = 0
_NUM_CLASS[list(b"123456789")] = 1
_NUM_CLASS[ord("-")], _NUM_CLASS[ord("+")], _NUM_CLASS[ord(".")] = 2, 3, 4
_NUM_CLASS[list(b"eE")] = 5
_NUM_DEAD = 9
_NUM_NEXT = np.full((10, 7), _NUM_DEAD, dtype=np.int8)
for _state, _cls, _to in ((0, 2, 1), (0, 0, 2), (0, 1, 3), (1, 0, 2), (1, 1, 3), (2, 4, 4),
                          (2, 5, 6), (3, 0, 3), (3, 1, 3), (3, 4, 4), (3, 5, 6), (4, 0, 5),
                          (4, 1, 5), (5, 0, 5), (5, 1, 5), (5, 5, 6), (6, 2, 7), (6, 3, 7),
                          (6, 0, 8), (6, 1, 8), (7, 0, 8), (7, 1, 8), (8, 0, 8), (8, 1, 8)):
    _NUM_NEXT[_state, _cls] = _to
_NUM_NEXT_FLAT = _NUM_NEXT.ravel().astype(np.int8)
_NUM_ACCEPT = np.zeros(10, dtype=bool)
_NUM_ACCEPT[[2, 3, 5, 8]] = True
_HIGH = np.uint64(0x8080808080808080)
_ZEROS = np.uint64(0x3030303030303030)       # eight '0'
_NINES_UP = np.uint64(0x4646464646464646)    # + this sets a byte's high bit above '9'
_LITERAL_CODES = {4: [int.from_bytes(b"true", "little"), int.from_bytes(b"null", "little")],
                  5: [int.from_bytes(b"false", "little")]}


def padded(buf: bytes) -> np.ndarray:
    """``buf`` and :data:`PAD` zero bytes as a read-only uint8 array."""
    return np.frombuffer(buf + bytes(PAD), dtype=np.uint8)


def rows(a: np.ndarray, start: np.ndarray, width: int) -> np.ndarray:
    """The ``width`` bytes at each ``start`` as rows of a (copied) matrix; ``width <= PAD``."""
    win = np.lib.stride_tricks.as_strided(a, shape=(len(a) - width + 1, width),
                                          strides=(1, 1), writeable=False)
    return win[start]


def words(a: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The 8 bytes at each ``start`` as a little-endian uint64 (unaligned reads)."""
    view = np.ndarray(shape=(len(a) - 7,), dtype="<u8", buffer=a, strides=(1,))
    return view[start]


def key_codes(a: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """``length << 32 | first min(length, 4) bytes`` of each key (uint64).

    Equal codes mean equal keys for keys of up to 4 bytes; longer keys
    never equal :func:`key_code` of a short one.

    Examples
    --------
    >>> a = padded(b'"ph":1,"name":2,"names":3')
    >>> codes = key_codes(a, np.array([1, 8, 16]), np.array([3, 12, 21]))
    >>> [int(c) == key_code(k) for c, k in zip(codes, ["ph", "name", "name"])]
    [True, True, False]
    """
    length = (end - start).astype(np.int64)
    low = words(a, start) & _LOW[np.minimum(length, 4)]
    return low | (length.astype(np.uint64) << np.uint64(32))


def key_code(key: str) -> int:
    """The :func:`key_codes` value of a key of at most 4 ASCII bytes."""
    raw = key.encode()
    return len(raw) << 32 | int.from_bytes(raw, "little")


def strip(a: np.ndarray, start: np.ndarray, end: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Spans without their leading and trailing JSON whitespace (one step per blank byte)."""
    start = start.copy()
    end = end.copy()
    live = np.flatnonzero(_WS[a[start]] & (start < end))
    while len(live):
        start[live] += 1
        live = live[_WS[a[start[live]]] & (start[live] < end[live])]
    live = np.flatnonzero(_WS[a[np.maximum(end - 1, 0)]] & (end > start))
    while len(live):
        end[live] -= 1
        live = live[_WS[a[end[live] - 1]] & (end[live] > start[live])]
    return start, end


def check_blank(a: np.ndarray, start: np.ndarray, end: np.ndarray) -> int:
    """Offset of the first byte in the spans that is not whitespace, or -1."""
    live = np.flatnonzero(end > start)
    bad = -1
    at = start[live]
    while len(live):
        hit = ~_WS[a[at]]
        if hit.any():
            first = int(at[hit].min())
            bad = first if bad < 0 else min(bad, first)
            live, at = live[~hit], at[~hit]
        at = at + 1
        more = at < end[live]
        live, at = live[more], at[more]
    return bad


def bad_scalar(a: np.ndarray, start: np.ndarray, end: np.ndarray) -> int:
    """Offset of the first span that is not a JSON number or literal, or -1.

    The spans are scalar values, stripped and not empty. Numbers are checked by an
    automaton of JSON's number grammar stepped over all spans at once (one step
    per byte position, on the spans still running); ``true``, ``false`` and
    ``null`` by their bytes.

    Examples
    --------
    >>> a = padded(b"12 -0.5e+3 true nul 01")
    >>> bad_scalar(a, np.array([0, 3, 11]), np.array([2, 10, 15]))
    -1
    >>> bad_scalar(a, np.array([16, 20]), np.array([19, 22]))
    16
    """
    if not len(start):
        return -1
    length = (end - start).astype(np.int64)
    ok = np.zeros(len(start), dtype=bool)
    word = words(a, start) & _LOW[np.minimum(length, 8)]
    for size, codes in _LITERAL_CODES.items():
        ok |= (length == size) & np.isin(word, np.array(codes, dtype=np.uint64))
    # digits only, at most 8 bytes (most numbers): a word test, no per-byte steps
    digits = word | (_ZEROS & ~_LOW[np.minimum(length, 8)])   # '0' beyond the end
    plain = (length <= 8) & ((digits & _HIGH) == 0) & (((digits - _ZEROS) & _HIGH) == 0) \
        & (((digits + _NINES_UP) & _HIGH) == 0)
    ok |= plain & ((a[start] != 48) | (length == 1))   # no leading zero
    num = np.flatnonzero(~ok)
    state = np.zeros(len(num), dtype=np.int64)
    at, left = start[num], length[num]
    live = np.arange(len(num))
    step = 0
    while len(live):
        state[live] = _NUM_NEXT_FLAT[state[live] * 7 + _NUM_CLASS[a[at[live] + step]]]
        step += 1
        live = live[(left[live] > step) & (state[live] != _NUM_DEAD)]
    ok[num] = _NUM_ACCEPT[state]
    return -1 if ok.all() else int(start[~ok].min())


def parse_fixed(a: np.ndarray, start: np.ndarray, end: np.ndarray, scale: int,
                source: str, base: int, what: str) -> np.ndarray:
    """Decimal numbers in the spans, times ``10**scale``, rounded half up, as int64.

    Exact (integer arithmetic on the digits). An exponent (``1e6``) or more
    than 18 digits fall back to :class:`decimal.Decimal` for that value. A
    span that is not a number is a ReadError at its byte offset.

    Examples
    --------
    >>> a = padded(b"12.3456 -7 0.0005 1e3")
    >>> parse_fixed(a, np.array([0, 8, 11, 18]), np.array([7, 10, 17, 21]), 3, "x", 0, "ts").tolist()
    [12346, -7000, 1, 1000000]
    """
    n = len(start)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    length = (end - start).astype(np.int64)
    width = min(int(length.max()), 40)
    m = rows(a, start, width)
    if (length < width).any():
        m[np.arange(width)[None, :] >= length[:, None]] = 0   # not a digit, dot or sign
    d = m - np.uint8(48)      # digits 0..9; '.' -> 254
    value = np.zeros(n, dtype=np.int64)
    frac = np.zeros(n, dtype=np.int64)
    dots = np.zeros(n, dtype=np.int64)
    ndig = np.zeros(n, dtype=np.int64)
    for j in range(width):  # Horner over the digit columns of every row at once
        dj = d[:, j]
        digit = dj < 10
        value = np.where(digit, value * 10 + dj, value)
        frac += digit & (dots > 0)
        ndig += digit
        dots += dj == 254
    neg = m[:, 0] == 45
    plain = (ndig + dots + neg == length) & (dots <= 1) & (ndig > 0) & (ndig <= 18)
    rows_ = np.arange(n)
    lead = neg.astype(np.int64)
    first, last = d[rows_, np.minimum(lead, width - 1)], d[rows_, np.maximum(length - 1, 0)]
    second = d[rows_, np.minimum(lead + 1, width - 1)]
    plain &= (first < 10) & (last < 10)       # no '.5', '-.5' or '5.' (not JSON)
    plain &= ~((first == 0) & (length > lead + 1) & (second < 10))  # no leading zero: '05'
    value = np.where(neg, -_scale(value, frac, scale), _scale(value, frac, scale))
    for i in np.flatnonzero(~plain):  # exponents, long numbers, or not a number
        text = bytes(a[start[i]:end[i]]).decode("utf-8", "replace")
        if _NUMBER.fullmatch(text) is None:
            _not_a_number(text, start, i, source, base, what, None)
        try:
            value[i] = int((Decimal(text) * 10 ** scale).to_integral_value(ROUND_HALF_UP))
        except (ArithmeticError, ValueError, OverflowError) as exc:
            _not_a_number(text, start, i, source, base, what, exc)
    return value


def _scale(value: np.ndarray, frac: np.ndarray, scale: int) -> np.ndarray:
    shift = scale - frac
    up = shift >= 0
    if up.all():
        return value * _POW10[np.minimum(shift, 18)]
    div = _POW10[np.clip(-shift, 0, 18)]
    q, r = np.divmod(value, div)
    return np.where(up, value * _POW10[np.clip(shift, 0, 18)], q + (2 * r >= div))


def _not_a_number(text, start, i, source, base, what, exc) -> None:
    raise ReadError(source, f"{what} is not a number: {text[:40]!r}",
                    position=f"byte {base + int(start[i])}",
                    expected="a JSON number") from exc


def intern_strings(a: np.ndarray, buf: bytes, start: np.ndarray, end: np.ndarray,
                   strings: StringTable, source: str, base: int) -> np.ndarray:
    """Ids of JSON string values (spans include the quotes) in ``strings``.

    Equal byte strings are found by hashing 8-byte words and a hash table;
    each distinct value is decoded once (escapes through :func:`json.loads`).

    Examples
    --------
    >>> buf = b'"main" "f" "main" "\\\\u00e9"'
    >>> t = StringTable()
    >>> intern_strings(padded(buf), buf, np.array([0, 7, 11, 18]), np.array([6, 10, 17, 26]),
    ...                t, "mem", 0).tolist(), t.strings
    ([0, 1, 0, 2], ['main', 'f', 'é'])
    """
    n = len(start)
    if n == 0:
        return np.zeros(0, dtype=np.int32)
    wrong = (a[start] != 34) | (a[end - 1] != 34) | (end - start < 2)
    if wrong.any():
        i = int(np.argmax(wrong))
        raise ReadError(source, "a string value was expected",
                        position=f"byte {base + int(start[i])}", expected="a JSON string")
    length = (end - start).astype(np.int64)
    if int(length.max()) <= SHORT:
        rows = np.arange(n)
        codes, first, same = _hash_groups(a, start, length)
    else:  # long values: one dict step each, so the work stays linear in their bytes
        rows = np.flatnonzero(length <= SHORT)
        codes, first, same = _hash_groups(a, start[rows], length[rows])
        long = np.flatnonzero(length > SHORT)
        seen: dict = {}
        long_code = np.empty(len(long), dtype=np.int64)
        long_first = []
        for k, i in enumerate(long.tolist()):
            raw = buf[int(start[i]):int(end[i])]
            code = seen.get(raw)
            if code is None:
                code = seen[raw] = len(first) + len(long_first)
                long_first.append(i)
            long_code[k] = code
        codes = np.concatenate([codes, long_code])
        first = np.concatenate([rows[first], np.asarray(long_first, dtype=np.int64)])
        same = np.concatenate([same, np.ones(len(long), dtype=bool)])
        rows = np.concatenate([rows, long])
        first_rows = first
        order = np.argsort(first_rows, kind="stable")   # intern in order of appearance
        texts = [_decode(buf, int(start[i]), int(end[i]), source, base) for i in first_rows[order]]
        table = np.empty(len(first), dtype=np.int32)
        table[order] = [strings.intern(t) for t in texts]
        ids = np.empty(n, dtype=np.int32)
        ids[rows] = table[codes]
        for i in rows[~same]:  # hash collisions: decode each
            ids[i] = strings.intern(_decode(buf, int(start[i]), int(end[i]), source, base))
        return ids
    texts = [_decode(buf, int(start[i]), int(end[i]), source, base) for i in first]
    ids = np.asarray([strings.intern(t) for t in texts], dtype=np.int32)[codes]
    for i in np.flatnonzero(~same):  # hash collisions: decode each
        ids[i] = strings.intern(_decode(buf, int(start[i]), int(end[i]), source, base))
    return ids


def _hash_groups(a: np.ndarray, start: np.ndarray, length: np.ndarray):
    """Group equal values of at most :data:`SHORT` bytes: (code of each row in order of
    first appearance, first row of each code, False where a row only shares the hash)."""
    if not len(start):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=bool)
    h = length.astype(np.uint64) * _MIX
    cols = []
    for k in range(0, int(length.max()), 8):
        w = words(a, np.minimum(start + k, len(a) - 8)) & _LOW[np.clip(length - k, 0, 8)]
        cols.append(w)
        h = (h ^ w) * _PRIME
    codes, _ = pd.factorize(h)
    codes = np.asarray(codes, dtype=np.int64)
    seen = np.maximum.accumulate(np.r_[-1, codes[:-1]])
    first = np.flatnonzero(codes > seen)          # first row of each hash, in code order
    rep = first[codes]
    same = length == length[rep]
    for w in cols:
        same &= w == w[rep]
    return codes, first, same


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


def small_ints(a: np.ndarray, start: np.ndarray, end: np.ndarray) -> Optional[np.ndarray]:
    """One-digit numbers (the usual pid/tid) directly; None when any span is not one."""
    if not len(start) or not (end - start == 1).all():
        return None
    d = a[start] - np.uint8(48)
    return d.astype(np.int64) if (d < 10).all() else None


__all__: Sequence[str] = ("PAD", "padded", "rows", "words", "key_codes", "key_code", "strip",
                          "check_blank", "parse_fixed", "intern_strings", "small_ints")
