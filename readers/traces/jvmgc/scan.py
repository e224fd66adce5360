"""Looking at many lines at once: the nearest byte of a kind, runs of a byte class, integers.

:class:`ByteIndex` finds the nearest occurrence of a byte before or after
many positions with one binary search per row; :func:`run_length` and
:func:`read_int` loop over a few positions (rows drop out once done), so
their cost is the total length read, not the block size.

Examples
--------
>>> import numpy as np
>>> digits = np.zeros(256, bool); digits[48:58] = True
>>> p2 = np.frombuffer(b"GC(123) x", np.uint8)
>>> n = run_length(p2, np.array([3]), np.array([9]), digits, 20); n.tolist()
[3]
>>> read_int(p2, np.array([3]), n).tolist()
[123]
"""

from __future__ import annotations

import threading

import numpy as np

_LOCAL = threading.local()


def scratch(name: str, size: int, dtype: type) -> np.ndarray:
    """A buffer of ``size`` items for temporaries, reused by the calls of this thread (each
    block's masks come from memory the process already has: no page faults per block)."""
    buf = getattr(_LOCAL, name, None)
    if buf is None or len(buf) < size or buf.dtype != dtype:
        buf = np.empty(size, dtype)
        setattr(_LOCAL, name, buf)
    return buf[:size]


#: bytes compared at a time by :func:`positions_of` (its mask: a buffer touched once)
CHUNK = 1 << 18


def positions_of(arr: np.ndarray, byte: int) -> np.ndarray:
    """Sorted positions of ``byte`` in ``arr`` (found :data:`CHUNK` bytes at a time, the
    mask in this thread's scratch buffer).

    >>> positions_of(np.frombuffer(b"a]b]", np.uint8), ord("]")).tolist()
    [1, 3]
    """
    n = len(arr)
    buf = scratch("mask", min(n, CHUNK), np.bool_)
    if n <= CHUNK:
        np.equal(arr, byte, out=buf)
        return np.flatnonzero(buf)
    found = []
    for lo in range(0, n, CHUNK):
        part = arr[lo:lo + CHUNK]
        mask = buf[:len(part)]
        np.equal(part, byte, out=mask)
        hit = np.flatnonzero(mask)
        hit += lo
        found.append(hit)
    return np.concatenate(found)


def _any_in(sorted_pos: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Per row: some of ``sorted_pos`` falls in ``[lo, hi)``."""
    return np.searchsorted(sorted_pos, np.maximum(hi, lo)) > np.searchsorted(sorted_pos, lo)


def scan_back(pad: np.ndarray, byte: int, start: np.ndarray, low: np.ndarray,
              limit: int) -> np.ndarray:
    """Per row, the last p in ``[low, start]`` within ``limit`` with the byte, else -1 (as
    :meth:`ByteIndex.back`, read byte by byte: for a byte as common as the space, whose
    index over a whole block costs more than the few bytes each row reads).

    >>> scan_back(np.frombuffer(b"ab cd ef  ", np.uint8), 32, np.array([7, 1]),
    ...           np.array([0, 0]), 8).tolist()
    [5, -1]
    """
    floor = np.maximum(low, start - limit + 1)  # the lowest position each row may take
    idx = np.flatnonzero(start >= floor)
    return _walk(pad, byte, len(start), idx, start[idx], floor[idx] - 1, -1)


def scan_forward(pad: np.ndarray, byte: int, start: np.ndarray, high: np.ndarray,
                 limit: int) -> np.ndarray:
    """Per row, the first p in ``[start, high)`` within ``limit`` with the byte, else -1 (as
    :meth:`ByteIndex.forward`, read byte by byte; ``pad`` must hold ``high``'s bytes).

    >>> scan_forward(np.frombuffer(b"ab cd ef  ", np.uint8), 32, np.array([0, 6]),
    ...              np.array([9, 9]), 8).tolist()
    [2, 8]
    """
    ceiling = np.minimum(high, start + limit)  # one past the highest position each may take
    first = np.maximum(start, 0)
    idx = np.flatnonzero(first < ceiling)
    return _walk(pad, byte, len(start), idx, first[idx], ceiling[idx], 1)


def _walk(pad: np.ndarray, byte: int, n: int, idx: np.ndarray, cur: np.ndarray,
          stop: np.ndarray, step: int) -> np.ndarray:
    """Rows ``idx`` read from ``cur`` a byte at a time (``step``: 1 or -1) up to ``stop``
    (excluded): per row of ``n``, where the byte first is, else -1 (rows drop out as
    they find it or reach their stop)."""
    out = np.full(n, -1, np.int64)
    while len(idx):
        hit = pad[cur] == byte
        if hit.any():
            out[idx[hit]] = cur[hit]
            miss = ~hit
            idx, cur, stop = idx[miss], cur[miss], stop[miss]
        cur = cur + step
        more = cur != stop
        if not more.all():
            idx, cur, stop = idx[more], cur[more], stop[more]
    return out


class ByteIndex:
    """Where each byte value occurs in a block (sorted positions, found once per value):
    the nearest occurrence before or after many positions at once is then one binary
    search per row instead of a scan.

    Examples
    --------
    >>> idx = ByteIndex(np.frombuffer(b"ab cd ef  ", np.uint8))
    >>> idx.back(ord(" "), np.array([7, 1]), np.array([0, 0]), 8).tolist()
    [5, -1]
    >>> idx.forward(ord(" "), np.array([0, 6]), np.array([9, 9]), 8).tolist()
    [2, 8]
    """

    def __init__(self, arr: np.ndarray) -> None:
        self.arr = arr
        self._where = {}

    def positions(self, byte: int) -> np.ndarray:
        """Sorted positions of ``byte``."""
        pos = self._where.get(byte)
        if pos is None:
            pos = self._where[byte] = positions_of(self.arr, byte)
        return pos

    def contains(self, pattern: bytes, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Per row: ``pattern`` occurs in ``arr[lo:hi]`` (found from its first byte's
        positions).

        >>> ByteIndex(np.frombuffer(b"a->b c-d", np.uint8)).contains(
        ...     b"->", np.array([0, 4]), np.array([4, 8])).tolist()
        [True, False]
        """
        pos = self.positions(pattern[0])
        ok = pos + len(pattern) <= len(self.arr)
        for j in range(1, len(pattern)):
            ok &= self.arr[np.minimum(pos + j, len(self.arr) - 1)] == pattern[j]
        return _any_in(pos[ok], lo, hi - len(pattern) + 1)

    def back(self, byte: int, start: np.ndarray, low: np.ndarray, limit: int) -> np.ndarray:
        """Per row, the last p in ``[low, start]`` within ``limit`` with the byte, else -1."""
        pos = self.positions(byte)
        if not len(pos):
            return np.full(len(start), -1, np.int64)
        i = np.searchsorted(pos, start, side="right") - 1
        p = pos[np.maximum(i, 0)]
        return np.where((i >= 0) & (p >= low) & (start - p < limit), p, -1)

    def forward(self, byte: int, start: np.ndarray, high: np.ndarray, limit: int) -> np.ndarray:
        """Per row, the first p in ``[start, high)`` within ``limit`` with the byte, else -1."""
        pos = self.positions(byte)
        if not len(pos):
            return np.full(len(start), -1, np.int64)
        i = np.searchsorted(pos, start)
        p = pos[np.minimum(i, len(pos) - 1)]
        return np.where((i < len(pos)) & (p < high) & (p - start < limit), p, -1)


def run_length(pad: np.ndarray, start: np.ndarray, high: np.ndarray, allowed: np.ndarray,
               limit: int) -> np.ndarray:
    """Per row, how many bytes from ``start`` (before ``high``, at most ``limit``) are
    ``allowed`` (a 256-entry bool table)."""
    out = np.zeros(len(start), np.int64)
    idx = np.flatnonzero(start < high)
    cur = start[idx].astype(np.int64)
    hi = high[idx]
    for _ in range(limit):
        if not len(idx):
            break
        ok = allowed[pad[cur]]
        idx, cur, hi = idx[ok], cur[ok] + 1, hi[ok]
        out[idx] += 1
        keep = cur < hi
        idx, cur, hi = idx[keep], cur[keep], hi[keep]
    return out


#: rows read at a time by the functions that read a matrix of rows x bytes
ROWS = 4096

#: powers of ten as int64 (a digit's weight)
_POW10_INT = 10 ** np.arange(19, dtype=np.int64)


def read_int(pad: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The decimal digits ``pad[start:start+length]`` as int64 per row (all digits, at most
    19; read as one matrix of rows x digits).

    >>> read_int(np.frombuffer(b"12 7 0045", np.uint8), np.array([0, 3, 5]),
    ...          np.array([2, 1, 4])).tolist()
    [12, 7, 45]
    """
    out = np.zeros(len(start), np.int64)
    width = int(length.max()) if len(length) else 0
    if width == 0:
        return out
    for lo in range(0, len(start), ROWS):  # (the matrices stay small: no fresh memory)
        part = slice(lo, lo + ROWS)
        digits, size = columns(pad, start[part], width), length[part]
        value = np.zeros(len(size), np.int64)
        for j in range(width):  # Horner's rule, a column (a digit of every row) at a time
            value = np.where(j < size, value * 10 + (digits[j].astype(np.int64) - 48), value)
        out[part] = value
    return out


def columns(pad: np.ndarray, start: np.ndarray, width: int) -> np.ndarray:
    """``(width, n)`` bytes: row ``j`` holds byte ``start + j`` of each of the ``n`` rows
    (positions past the end of ``pad`` read its last byte).

    >>> columns(np.frombuffer(b"abcdef", np.uint8), np.array([0, 3]), 2).tolist()
    [[97, 100], [98, 101]]
    """
    at = np.arange(width)[:, None] + start[None, :]
    np.minimum(at, len(pad) - 1, out=at)
    return pad[at]
