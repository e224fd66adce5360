"""Vectorised line and token handling for text profiles.

A profile of hundreds of megabytes is mostly lines of numbers (callgrind's
cost lines). They are decoded here with numpy over the whole buffer, never
one Python call per line: lines are found at the newline bytes, tokens where
a byte that is not blank follows a blank one, and the tokens of one length
are read together as a (tokens x length) matrix of digits times powers of ten
(exact in int64).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

INT = np.int64
#: 10**k for k = 0..18 (19 digits: up to 9223372036854775807)
POW10 = 10 ** np.arange(19, dtype=INT)
MAX_DIGITS = 19


@dataclass(frozen=True)
class Lines:
    """Start and end (exclusive, without ``\\r\\n``) byte offset of every line."""

    buf: np.ndarray  # uint8 view of the text
    starts: np.ndarray
    ends: np.ndarray

    @classmethod
    def of(cls, data: bytes) -> "Lines":
        """Split ``data`` at ``\\n`` (a final line without one counts; ``\\r`` before
        a ``\\n`` is dropped).

        Examples
        --------
        >>> lines = Lines.of(b"a b\\r\\n\\ncd")
        >>> lines.starts.tolist(), lines.ends.tolist()
        ([0, 5, 6], [3, 5, 8])
        """
        buf = np.frombuffer(data, dtype=np.uint8)
        nl = np.flatnonzero(buf == 10)
        starts = np.empty(len(nl) + 1, dtype=INT)
        starts[0] = 0
        starts[1:] = nl + 1
        ends = np.empty(len(nl) + 1, dtype=INT)
        ends[:-1] = nl
        ends[-1] = len(buf)
        if len(buf) and buf[-1] == 10:  # no line after the last newline
            starts, ends = starts[:-1], ends[:-1]
        cr = (ends > starts) & (buf[np.maximum(ends - 1, 0)] == 13)
        ends = ends - cr
        return cls(buf, starts, ends)

    def __len__(self) -> int:
        return len(self.starts)

    def first_bytes(self) -> np.ndarray:
        """The first byte of every line (0 for an empty line)."""
        out = np.zeros(len(self.starts), dtype=np.uint8)
        full = self.ends > self.starts
        out[full] = self.buf[self.starts[full]]
        return out


@dataclass(frozen=True)
class Tokens:
    """Blank-separated tokens of some lines: per token its line (index into the
    selected lines), its number within the line and its byte range; and the
    number of tokens of every selected line."""

    line: np.ndarray
    index: np.ndarray
    start: np.ndarray
    end: np.ndarray
    count: np.ndarray


def tokens(lines: Lines, rows: np.ndarray) -> Tokens:
    """The tokens (separated by spaces or tabs) of the lines ``rows`` (ascending).

    Only the bytes from the first to the last of these lines are scanned (callers
    pass blocks of lines, so the temporary arrays stay bounded); tokens of other
    lines in between are dropped.

    Examples
    --------
    >>> lines = Lines.of(b"12 +3  *\\nfn=x\\n 7\\n")
    >>> t = tokens(lines, np.array([0, 2]))
    >>> t.line.tolist(), t.index.tolist(), t.start.tolist(), t.end.tolist(), t.count.tolist()
    ([0, 0, 0, 1], [0, 1, 2, 0], [0, 3, 7, 15], [2, 5, 8, 16], [3, 1])
    """
    n = len(rows)
    if not n:
        empty = np.zeros(0, dtype=INT)
        return Tokens(empty, empty, empty, empty, empty)
    lo, hi = int(lines.starts[rows[0]]), int(lines.ends[rows[-1]])
    buf = lines.buf[lo:hi]
    sep = (buf == 32) | (buf == 9) | (buf == 10) | (buf == 13)
    word = ~sep
    edge = np.empty(len(buf) + 1, dtype=bool)  # word[k] != word[k - 1]
    edge[0] = word[0] if len(buf) else False
    edge[-1] = word[-1] if len(buf) else False
    np.not_equal(word[1:], word[:-1], out=edge[1:-1])
    flips = np.flatnonzero(edge)  # alternating starts and ends of words
    start, end = flips[0::2], flips[1::2]
    # the line of each token: the first line's number + the newlines before it
    newlines = np.cumsum(buf == 10, dtype=np.int32 if len(buf) < 2**31 else INT)
    line_of = np.zeros(len(start), dtype=INT)
    inside = start > 0
    line_of[inside] = newlines[start[inside] - 1]
    want = np.full(int(rows[-1] - rows[0]) + 1, -1, dtype=INT)
    want[rows - rows[0]] = np.arange(n, dtype=INT)
    sel = want[line_of]
    keep = sel >= 0
    start, end, line = start[keep] + lo, end[keep] + lo, sel[keep]
    count = np.bincount(line, minlength=n).astype(INT)
    first = np.cumsum(count) - count
    index = np.arange(len(start), dtype=INT) - np.repeat(first, count)
    return Tokens(line, index, start, end, count)


def blocks(lines: Lines, rows: np.ndarray, size: int) -> list:
    """``rows`` cut into consecutive blocks of about ``size`` bytes of text each.

    Examples
    --------
    >>> lines = Lines.of(b"1 2\\n3 4\\n5 6\\n")
    >>> [b.tolist() for b in blocks(lines, np.array([0, 1, 2]), 8)]
    [[0, 1], [2]]
    """
    if not len(rows):
        return []
    offset = lines.starts[rows] - lines.starts[rows[0]]
    cut = np.flatnonzero(np.diff(offset // size) > 0) + 1
    return np.split(rows, cut)


def decimal_values(buf: np.ndarray, start: np.ndarray, end: np.ndarray
                   ) -> Tuple[np.ndarray, Optional[int], str]:
    """Values of unsigned decimal tokens: ``(values, first bad token or None,
    problem)``.

    Examples
    --------
    >>> buf = np.frombuffer(b"0 17 9000000000000000001", dtype=np.uint8)
    >>> decimal_values(buf, np.array([0, 2, 5]), np.array([1, 4, 24]))[0].tolist()
    [0, 17, 9000000000000000001]
    >>> decimal_values(buf, np.array([0, 2]), np.array([3, 4]))[1:]
    (0, 'not a whole number')
    >>> decimal_values(np.frombuffer(b"9999999999999999999", dtype=np.uint8),
    ...                np.array([0]), np.array([19]))[1:]
    (0, 'a number too large for 64 bits')
    """
    values = np.zeros(len(start), dtype=INT)
    lengths = end - start
    bad_at = len(start)
    problem = ""
    for length in np.flatnonzero(np.bincount(lengths)).tolist():  # the lengths present
        sel = np.flatnonzero(lengths == length)
        if length == 0 or length > MAX_DIGITS:
            if sel[0] < bad_at:
                bad_at = int(sel[0])
                problem = "a number too large for 64 bits" if length else "empty"
            continue
        digits = buf[start[sel, None] + np.arange(length)].astype(INT) - 48
        bad = ((digits < 0) | (digits > 9)).any(axis=1)
        if bad.any() and sel[bad][0] < bad_at:
            bad_at, problem = int(sel[bad][0]), "not a whole number"
        vals = digits @ POW10[length - 1::-1]
        if length == MAX_DIGITS:
            over = vals < 0  # wrapped: above 2**63 - 1
            if over.any() and sel[over][0] < bad_at:
                bad_at, problem = int(sel[over][0]), "a number too large for 64 bits"
        values[sel] = vals
    return values, (bad_at if bad_at < len(start) else None), problem


def all_digits(buf: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Per range: is it one or more decimal digits?

    Examples
    --------
    >>> buf = np.frombuffer(b"(12) (below main) ()", dtype=np.uint8)
    >>> all_digits(buf, np.array([1, 6, 19]), np.array([3, 16, 19])).tolist()
    [True, False, False]
    """
    ok = np.zeros(len(start), dtype=bool)
    lengths = end - start
    for length in np.flatnonzero(np.bincount(lengths)).tolist():  # the lengths present
        if length <= 0:
            continue
        sel = np.flatnonzero(lengths == length)
        b = buf[start[sel, None] + np.arange(length)]
        ok[sel] = ((b >= 48) & (b <= 57)).all(axis=1)
    return ok


def position_tokens_ok(buf: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Per token: does it read as a callgrind subposition (``N``, ``0xH``, ``+N``,
    ``-N`` or ``*``)?

    Examples
    --------
    >>> buf = np.frombuffer(b"12 +3 -4 * 0x1F x2 +", dtype=np.uint8)
    >>> starts = np.array([0, 3, 6, 9, 11, 16, 19]); ends = np.array([2, 5, 8, 10, 15, 18, 20])
    >>> position_tokens_ok(buf, starts, ends).tolist()
    [True, True, True, True, True, False, False]
    """
    ok = np.zeros(len(start), dtype=bool)
    lengths = end - start
    for length in np.flatnonzero(np.bincount(lengths)).tolist():  # the lengths present
        sel = np.flatnonzero(lengths == length)
        if length == 0:
            continue
        b = buf[start[sel, None] + np.arange(length)]
        first = b[:, 0]
        rest = b[:, 1:]
        digits = ((rest >= 48) & (rest <= 57)).all(axis=1)
        if length == 1:
            ok[sel] = (first == 42) | ((first >= 48) & (first <= 57))
            continue
        low = rest[:, 1:] | 32
        hexa = (first == 48) & (rest[:, 0] == 120) & (length > 2) & (
            ((rest[:, 1:] >= 48) & (rest[:, 1:] <= 57)) | ((low >= 97) & (low <= 102))
        ).all(axis=1)
        numeric = ((first >= 48) & (first <= 57)) | (first == 43) | (first == 45)
        ok[sel] = (numeric & digits) | hexa
    return ok
