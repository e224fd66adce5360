"""Where the records of a DUMPI call stream start, found with numpy.

A DUMPI record has no length field: its length follows from its label, its
mask and, for a few layouts (arrays, statuses, strings), its data. For the
records of fixed length a table gives the length of every (label, mask)
(:func:`.layouts.fixed_sizes`), so the start of record ``i + 1`` is the
start of record ``i`` plus a table entry: a chain, one step per record.

:func:`record_starts` walks that chain for a whole buffer at once:

1. The buffer is cut into chunks of :data:`CHUNK` bytes. One *walk* per
   chunk starts :data:`WARMUP` bytes before the chunk (the first walk at the
   true first record) and follows the table, all walks in lockstep (one
   numpy step moves every walk by one record). A walk that meets a
   position that is not a fixed-length record fitting in the buffer steps
   one byte further; a walk stops at the end of its chunk, at the end of
   the buffer, or after :data:`STEPS` steps. A walk started at a wrong
   byte soon lands on a true record start (the table rejects most byte
   positions), and from there it follows the true chain: the chain from a
   position is fixed by the bytes.
2. A check, chunk by chunk, follows the true chain: from the true position
   where a chunk is entered, the walk's positions are taken as they are
   from the first one equal to it until the walk meets a position it did not
   take as a record. Where the true chain is not (yet) on the walk, or the
   record there is not of fixed length (a record whose length depends on
   its data, the end of the stream, a bad label, a record cut by the end of
   the buffer), one exact step is made in Python: ``step(position)`` for the
   variable-length cases, the table otherwise.

So every start returned is on the exact chain from the first record, as
one Python step per record would find it; Python steps are made only
where walks had not joined the chain yet and for records whose length
depends on their data. Cost: about (CHUNK + WARMUP) / record length numpy
steps over ``buffer / CHUNK`` walks, plus one check per chunk.

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
CHUNK = 4096
#: bytes a walk starts before its chunk, to join the true chain before the chunk begins
WARMUP = 512
#: most lockstep steps (walks that have not reached the end of their chunk by then leave
#: the rest of it to exact Python steps)
STEPS = (CHUNK + WARMUP) // 8
#: buffers shorter than this are walked in Python alone (no numpy set-up)
SMALL = 2 * CHUNK

#: fixed record length per ``(min(label, END_OF_STREAM) << 8) | mask``; 0 = not fixed
#: (row END_OF_STREAM is all 0: labels from there on are never a fixed record)
_SIZE = np.asarray(fixed_sizes(), dtype=np.int64)
_SIZE_LIST: List[int] = _SIZE.tolist()
#: a position beyond every buffer (fills the walks' rows after their end: rows stay sorted)
_FAR = np.iinfo(np.int64).max
#: walk position states
_OTHER, _FIXED, _END = 0, 1, 2
#: walk size tables by the set of masks they keep
_WALK_SIZES: Dict[FrozenSet[int], np.ndarray] = {}

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
    first = np.maximum(lo - WARMUP, p0)
    first[0] = p0
    pos, state = _walks(a, n, first, hi, _walk_sizes(frozenset(masks) | {int(a[p0 + 2])}))
    parts: List[np.ndarray] = []
    slow: List[int] = []
    e = p0
    for j in range(len(lo)):
        end = int(hi[j])
        if e >= end:
            continue
        row, st = pos[j], state[j]
        while e < end:
            k = int(np.searchsorted(row, e))
            if row[k] == e and st[k] == _FIXED:   # on the walk: take its run of records
                r = k + int(np.argmax(st[k:] != _FIXED))
                parts.append(row[k:r])
                e = int(row[r])
                continue
            got, e, stopped = _python_steps(a, e, n, step, slow, row, end)
            if got:
                parts.append(np.asarray(got, dtype=np.int64))
            if stopped:
                return _join(parts), slow, e
    return _join(parts), slow, e


def _walk_sizes(masks: FrozenSet[int]) -> np.ndarray:
    """The size table with the fixed records of other masks left out (cached)."""
    table = _WALK_SIZES.get(masks)
    if table is None:
        keep = np.zeros(256, dtype=bool)
        keep[sorted(masks)] = True
        table = np.where(keep[np.arange(len(_SIZE)) & 0xFF], _SIZE, 0)
        if len(_WALK_SIZES) > 64:
            _WALK_SIZES.clear()
        _WALK_SIZES[masks] = table
    return table


def _walks(a: np.ndarray, n: int, first: np.ndarray, hi: np.ndarray, sizes: np.ndarray
           ) -> Tuple[np.ndarray, np.ndarray]:
    """Positions (rows sorted, padded with _FAR: the last column always) and their states
    of every walk."""
    walks = len(first)
    pos = np.full((walks, STEPS + 2), _FAR, dtype=np.int64)
    state = np.full((walks, STEPS + 2), _END, dtype=np.int8)
    p = first.copy()
    live = np.ones(walks, dtype=bool)
    last = n - 3
    for s in range(STEPS):
        ending = live & ((p >= hi) | (p > last))
        if ending.any():
            pos[ending, s] = p[ending]
            live &= ~ending
            if not live.any():
                return pos, state
        q = np.minimum(p, last)
        label = (a[q].astype(np.int64) << 8) | a[q + 1]
        size = sizes[(np.minimum(label, END_OF_STREAM) << 8) | a[q + 2]]
        fixed = (size > 0) & (p + size <= n)
        pos[live, s] = p[live]
        state[live, s] = fixed[live]
        p = np.where(live, p + np.where(fixed, size, 1), p)
    pos[live, STEPS] = p[live]
    return pos, state


def _python_steps(a: np.ndarray, e: int, n: int, step: Step, slow: List[int],
                  row: np.ndarray, end: int) -> Tuple[List[int], int, bool]:
    """Exact steps from ``e`` until the chain is on ``row`` again (or leaves the chunk).
    Returns the starts found, the next position and whether the chain stopped."""
    got: List[int] = []
    size_of = _SIZE_LIST
    while True:
        if e + 3 > n:
            return got, e, True
        label = (int(a[e]) << 8) | int(a[e + 1])
        size = size_of[(label << 8) | int(a[e + 2])] if label < END_OF_STREAM else 0
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
        if e >= end:
            return got, e, False
        k = int(np.searchsorted(row, e))
        if row[k] == e and row[k] != _FAR:
            return got, e, False


def _python(a: np.ndarray, p: int, n: int, step: Step, end: int
            ) -> Tuple[np.ndarray, List[int], int]:
    """Exact Python steps alone (short buffers)."""
    got: List[int] = []
    slow: List[int] = []
    size_of = _SIZE_LIST
    data = a[:n].tobytes()
    while p + 3 <= n:
        label = (data[p] << 8) | data[p + 1]
        size = size_of[(label << 8) | data[p + 2]] if label < END_OF_STREAM else 0
        if size:
            if p + size > n:
                break
            got.append(p)
            p += size
        else:
            q = step(p)
            if q is None:
                break
            got.append(p)
            slow.append(p)
            p = q
    return np.asarray(got, dtype=np.int64), slow, p


def _join(parts: List[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
