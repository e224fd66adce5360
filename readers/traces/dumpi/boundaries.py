"""Where the records of a DUMPI call stream start, found with numpy.

A DUMPI record has no length field: its length follows from its label, its
mask and, for a few layouts (arrays, statuses, strings), its data. For the
records of fixed length a table gives the length of every (label, mask)
(:func:`.layouts.fixed_sizes`), so the start of record ``i + 1`` is the
start of record ``i`` plus a table entry: a chain, one step per record.

:func:`record_starts` follows that chain for a whole buffer at once:

1. The buffer is cut into chunks of :data:`CHUNK` bytes, one *walk* per
   chunk. Walk 0 starts at the first record; walk ``j`` at the first byte
   of the :data:`WARMUP` bytes before its chunk where a fixed-length record
   of a known mask could start (one vectorised test of those bytes). All
   walks step in lockstep (one numpy step moves every walk by one record;
   a walk at a position that is not a fixed-length record fitting in the
   buffer steps one byte) until each has left its chunk (or after
   :data:`STEPS` steps). A walk that started on a false record start soon
   lands on a true one (the table rejects most byte positions), and from a
   true start it follows the true chain: the chain from a position is fixed
   by the bytes.
2. Linking, vectorised: walk ``j`` is *trusted* from where it entered its
   chunk on when the position where walk ``j - 1`` left its chunk is among
   walk ``j``'s positions and every step from there to the chunk's end was
   a fixed-length record. Runs of trusted chunks are taken as they are.
3. Where a chunk is not trusted (the walk did not join the chain in time,
   a record whose length depends on its data, the end of the stream, a bad
   label, a record cut by the end of the buffer), exact Python steps cross
   that chunk: ``step(position)`` for the records that are not of fixed
   length, the table otherwise; the next chunk is trusted again when its
   walk holds the position reached.

So every start returned is on the exact chain from the first record, as
one Python step per record would find it; Python steps are made only in
chunks where a walk had not joined the chain, or that hold records whose
length depends on their data. Cost: about (CHUNK + WARMUP) / record length
numpy steps over ``buffer / CHUNK`` walks.

Examples
--------
Two ``MPI_Barrier`` records with wall times (mask 0x08: 3 + 12 + 2 bytes
each), then the end-of-stream mark:

>>> import numpy as np
>>> from .layouts import END_OF_STREAM, LABEL
>>> rec = LABEL["MPI_Barrier"].to_bytes(2, "big") + bytes([0x08]) + bytes(14)
>>> buf = np.frombuffer(rec * 2 + END_OF_STREAM.to_bytes(2, "big") + b"\\0", dtype=np.uint8)
>>> starts, slow, stop = record_starts(buf, 0, len(buf), lambda p: None)
>>> starts.tolist(), slow, stop
([0, 17], [], 34)
"""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Tuple

import numpy as np

from .layouts import END_OF_STREAM, fixed_sizes

#: bytes per walk
CHUNK = 1024
#: bytes before its chunk where a walk looks for its first record
WARMUP = 64
#: most lockstep steps (a walk that has not left its chunk by then leaves the rest of the
#: chunk to exact Python steps)
STEPS = 160
#: the lockstep stops when at most 1/STRAGGLERS of the walks are still in their chunk
#: (Python crosses those chunks: cheaper than numpy steps for a few walks)
STRAGGLERS = 100
#: buffers shorter than this are walked in Python alone (no numpy set-up)
SMALL = 2 * CHUNK

#: fixed record length per ``(min(label, END_OF_STREAM) << 8) | mask``; 0 = not fixed
#: (row END_OF_STREAM is all 0: labels from there on are never a fixed record)
_SIZE = np.asarray(fixed_sizes(), dtype=np.int64)
_SIZE_LIST: List[int] = _SIZE.tolist()
#: the last key of the size table (labels from END_OF_STREAM on share its zero row)
_LAST_KEY = (END_OF_STREAM << 8) | 0xFF
#: walk size tables by the set of masks they keep
_WALK_SIZES: Dict[FrozenSet[int], np.ndarray] = {}
#: row key factor of the walks' flattened positions (positions are below it)
_ROW = np.int64(1) << 40

#: ``step(position)`` -> the position after a record that is not of fixed length there,
#: or None to stop before it (the caller decides why: end of stream, cut record, error)
Step = Callable[[int], Optional[int]]


def record_starts(a: np.ndarray, p0: int, n: int, step: Step, masks: Iterable[int] = ()
                  ) -> Tuple[np.ndarray, List[int], int]:
    """The record starts of the chain from ``p0`` in ``a[:n]`` (uint8).

    Returns ``(starts, slow, stop)``: every record start in order (int64),
    the positions among them whose records went through ``step`` (in order),
    and the position where the chain stopped (``step`` returned None there,
    or fewer than 3 bytes are left, or a fixed-length record is cut by ``n``).
    ``masks``: record masks met before in the stream; the walks take only
    records with these masks or the mask of the record at ``p0`` (a file's
    records share their few masks, and zero bytes, common inside records,
    read as MPI_Send records without times). This only speeds the walks'
    joining of the true chain; the chain itself is exact whatever the masks.
    """
    if n - p0 < SMALL:
        return _python(a, p0, n, step, n)
    lo = np.arange(p0, n, CHUNK, dtype=np.int64)
    hi = np.minimum(lo + CHUNK, n)
    kept = frozenset(masks) | {int(a[p0 + 2])}
    sizes = _walk_sizes(kept)
    keys = _keys(a, n)
    first = _first_records(a, keys, n, lo, p0, sizes, kept)
    pos, fixed, out = _walks(keys, n, first, hi, sizes)
    walks, width = pos.shape
    rows = np.arange(walks)
    left = out >= 0                      # the walk left its chunk (or the buffer's end)
    at = np.maximum(out, 0)
    exit_ = pos[rows, at]
    col = np.arange(width)
    # the steps before leaving that were not fixed records: a walk is trusted after them
    loose = ~fixed & (col < at[:, None])
    trust = np.where(loose.any(axis=1), width - np.argmax(loose[:, ::-1], axis=1), 0)
    flat = (rows[:, None] * _ROW + np.minimum(pos, _ROW - 1)).reshape(-1)
    entry = np.r_[p0, exit_[:-1]]
    k = _find(flat, rows, entry, width)
    linked = left & (pos[rows, k] == entry) & (k >= trust) & (k < at)
    linked[1:] &= left[:-1] & (exit_[:-1] >= hi[:-1])
    unlinked = np.flatnonzero(~linked)
    parts: List[np.ndarray] = []  # the starts, in order
    slow: List[int] = []
    mv = a.data
    e, j = p0, 0
    while j < walks:
        if e >= hi[j]:
            j = int(np.searchsorted(hi, e, side="right"))
            continue
        kj = int(_find(flat, rows[j:j + 1], np.asarray([e]), width)[0])
        if left[j] and pos[j, kj] == e and trust[j] <= kj < out[j]:
            b = int(unlinked[np.searchsorted(unlinked, j, side="right")]) \
                if len(unlinked) and unlinked[-1] > j else walks
            first_col = k[j:b].copy()
            first_col[0] = kj
            block = pos[j:b]
            parts.append(block[(col >= first_col[:, None]) & (col < at[j:b, None])])
            e = int(exit_[b - 1])
            if e < hi[b - 1]:            # fewer than 3 bytes left: the chain ends here
                break
            j = b
            continue
        got, e, stopped = _python_steps(mv, e, n, step, slow, int(hi[j]))
        if got:
            parts.append(np.asarray(got, dtype=np.int64))
        if stopped:
            break
    starts = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return starts, slow, e


def _find(flat: np.ndarray, rows: np.ndarray, values: np.ndarray, width: int) -> np.ndarray:
    """Per row, the first column whose position is >= the row's value (clipped)."""
    k = np.searchsorted(flat, rows * _ROW + values) - rows * width
    return np.clip(k, 0, width - 1)


def _walk_sizes(masks: FrozenSet[int]) -> np.ndarray:
    """The size table with the fixed records of other masks left out (cached)."""
    table = _WALK_SIZES.get(masks)
    if table is None:
        keep = np.zeros(256, dtype=bool)
        keep[sorted(masks)] = True
        table = np.where(keep[np.arange(len(_SIZE)) & 0xFF], _SIZE, 0).astype(np.uint8)
        if len(_WALK_SIZES) > 64:
            _WALK_SIZES.clear()
        _WALK_SIZES[masks] = table
    return table


def _keys(a: np.ndarray, n: int) -> np.ndarray:
    """Per position ``p <= n - 3`` the big-endian 32-bit word at ``p`` (a strided view of
    a padded copy): its top 24 bits are ``(label << 8) | mask``."""
    padded = np.zeros(n + 1, dtype=np.uint8)
    padded[:n] = a[:n]
    return np.ndarray((n - 2,), dtype=">u4", buffer=padded, strides=(1,))


def _sizes_at(keys: np.ndarray, p: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The table's record size at positions ``p`` (each with 3 bytes in the buffer)."""
    return sizes[np.minimum(keys[p].astype(np.uint32) >> 8, _LAST_KEY)].astype(np.int64)


def _first_records(a: np.ndarray, keys: np.ndarray, n: int, lo: np.ndarray, p0: int,
                   sizes: np.ndarray, masks: FrozenSet[int]) -> np.ndarray:
    """Per walk its first position: ``p0`` for the first, else the first byte of the
    WARMUP bytes before the chunk where the table sees a fixed record that fits (the
    table is looked up only where the mask byte is one of ``masks``)."""
    base = np.maximum(lo - WARMUP, p0)
    at = np.minimum(base[:, None] + np.arange(WARMUP), n - 3)
    known = np.zeros(256, dtype=bool)
    known[sorted(masks)] = True
    row, col = np.nonzero(known[a[at + 2]])
    where = at[row, col]
    fits = _sizes_at(keys, where, sizes)
    ok = (fits > 0) & (where + fits <= n)
    row, where = row[ok], where[ok]
    first = base.copy()
    if len(row):  # row-major order: a row's first hit is where its row number first appears
        lead = np.r_[True, row[1:] != row[:-1]]
        first[row[lead]] = where[lead]
    first[0] = p0
    return first


def _walks(keys: np.ndarray, n: int, first: np.ndarray, hi: np.ndarray, sizes: np.ndarray
           ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every walk's positions (rows non-decreasing), whether each was a fixed record that
    fits, and the column where the walk left its chunk or the buffer's end (-1: not within
    STEPS steps)."""
    walks = len(first)
    pos = np.empty((STEPS + 1, walks), dtype=np.int64)
    fixed = np.zeros((STEPS + 1, walks), dtype=bool)
    out = np.full(walks, -1, dtype=np.int64)
    p = first.copy()
    last = n - 3
    used = STEPS + 1
    stragglers = walks // STRAGGLERS
    for s in range(STEPS + 1):
        pos[s] = p
        live = (p < hi) & (p <= last)
        out[(out < 0) & ~live] = s
        if s == STEPS or np.count_nonzero(live) <= stragglers:
            used = s + 1
            break
        size = _sizes_at(keys, np.minimum(p, last), sizes)
        ok = live & (size > 0) & (p + size <= n)
        fixed[s] = ok
        p = np.where(live, p + np.where(ok, size, 1), p)
    return np.ascontiguousarray(pos[:used].T), np.ascontiguousarray(fixed[:used].T), out


def _python_steps(mv: memoryview, e: int, n: int, step: Step, slow: List[int], end: int
                  ) -> Tuple[List[int], int, bool]:
    """Exact steps from ``e`` until the chain leaves the chunk ending at ``end``.
    Returns the starts found, the next position and whether the chain stopped."""
    got: List[int] = []
    size_of = _SIZE_LIST
    while e < end:
        if e + 3 > n:
            return got, e, True
        label = (mv[e] << 8) | mv[e + 1]
        size = size_of[(label << 8) | mv[e + 2]] if label < END_OF_STREAM else 0
        if size:
            if e + size > n:
                return got, e, True
            got.append(e)
            e += size
        else:
            q = step(e)
            if q is None:
                return got, e, True
            got.append(e)
            slow.append(e)
            e = q
    return got, e, e + 3 > n


def _python(a: np.ndarray, p: int, n: int, step: Step, end: int
            ) -> Tuple[np.ndarray, List[int], int]:
    """Exact Python steps alone (short buffers)."""
    slow: List[int] = []
    got, p, _ = _python_steps(a[:n].tobytes(), p, n, step, slow, end)
    return np.asarray(got, dtype=np.int64), slow, p
