"""Short scans over many lines at once: the nearest byte of a kind before or after a position.

Each loop step looks at one position of every row still searching (rows
drop out once found), so the cost is the total distance scanned, not the
block size; a limit bounds the distance (tokens of a GC line are short).

Examples
--------
>>> import numpy as np
>>> pad = np.frombuffer(b"ab cd ef  ", np.uint8)
>>> find_back(pad, np.array([7, 1]), np.array([0, 0]), ord(" "), 8).tolist()
[5, -1]
>>> find_forward(pad, np.array([0, 6]), np.array([9, 9]), ord(" "), 8).tolist()
[2, 8]
>>> digits = np.zeros(256, bool); digits[48:58] = True
>>> p2 = np.frombuffer(b"GC(123) x", np.uint8)
>>> n = run_length(p2, np.array([3]), np.array([9]), digits, 20); n.tolist()
[3]
>>> read_int(p2, np.array([3]), n).tolist()
[123]
"""

from __future__ import annotations

import numpy as np


def _find(pad: np.ndarray, start: np.ndarray, bound: np.ndarray, byte: int, limit: int,
          step: int) -> np.ndarray:
    """Per row, the first p from ``start`` in direction ``step`` (within ``bound``: the
    lowest allowed for -1, one past the highest for +1) with ``pad[p] == byte``, else -1."""
    out = np.full(len(start), -1, np.int64)
    idx = np.flatnonzero(start >= bound if step < 0 else start < bound)
    cur = start[idx].astype(np.int64)
    lim = bound[idx]
    for _ in range(limit):
        if not len(idx):
            break
        hit = pad[cur] == byte
        out[idx[hit]] = cur[hit]
        keep = ~hit & ((cur > lim) if step < 0 else (cur + 1 < lim))
        idx, cur, lim = idx[keep], cur[keep] + step, lim[keep]
    return out


def find_back(pad: np.ndarray, start: np.ndarray, low: np.ndarray, byte: int,
              limit: int) -> np.ndarray:
    """Per row, the last p in ``[low, start]`` (at most ``limit`` back) with
    ``pad[p] == byte``, else -1."""
    return _find(pad, start, low, byte, limit, -1)


def find_forward(pad: np.ndarray, start: np.ndarray, high: np.ndarray, byte: int,
                 limit: int) -> np.ndarray:
    """Per row, the first p in ``[start, high)`` (at most ``limit`` on) with
    ``pad[p] == byte``, else -1."""
    return _find(pad, start, high, byte, limit, 1)


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


def read_int(pad: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The decimal digits ``pad[start:start+length]`` as int64 per row (all digits)."""
    out = np.zeros(len(start), np.int64)
    for j in range(int(length.max()) if len(length) else 0):
        more = j < length
        out = np.where(more, out * 10 + (pad[np.where(more, start + j, 0)].astype(np.int64) - 48),
                       out)
    return out
