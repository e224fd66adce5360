"""Enter/leave matching over a whole events table, vectorised across all streams.

Rows must be grouped by stream (rank, thread) and in stream order. Per
stream, the depth is a cumulative sum of +1 (ENTER) / -1 (LEAVE) floored at
zero (a LEAVE with nothing open is unmatched); within a depth level, each
ENTER pairs with the LEAVE that follows it. The floor is computed for all
streams at once: subtracting ``stream x BIG`` makes one running minimum
restart at every stream.

Examples
--------
>>> import numpy as np
>>> kind = np.array([0, 0, 1, 1, 1, 0])      # E E L L L E  (one stream)
>>> m = match_events(kind, np.zeros(6, dtype=np.int64))
>>> m.match.tolist(), m.depth.tolist(), m.parent.tolist()
([3, 2, 1, 0, -1, -1], [0, 1, 1, 0, -1, 0], [-1, 0, 0, -1, -1, -1])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .events import Kind


@dataclass
class Matching:
    """Per row: ``match`` (row of the partner, -1), ``depth`` (0 = outermost, -1 for
    rows that are not a matched/open region), ``parent`` (row of the enclosing ENTER)."""

    match: np.ndarray
    depth: np.ndarray
    parent: np.ndarray
    unmatched_enters: int
    unmatched_leaves: int


def match_events(kind: np.ndarray, stream: np.ndarray) -> Matching:
    """Match ENTER/LEAVE rows (see module docs); ``stream`` is a non-decreasing code per row.

    ``match`` and ``parent`` are int32 when row numbers fit (int64 beyond 2**31 rows),
    ``depth`` int32.
    """
    n = len(kind)
    index_type = np.int32 if n < 2**31 - 1 else np.int64
    match = np.full(n, -1, dtype=index_type)
    depth = np.full(n, -1, dtype=np.int32)
    parent = np.full(n, -1, dtype=index_type)
    kind = np.asarray(kind)
    both = kind <= Kind.LEAVE  # ENTER = 0, LEAVE = 1
    every = bool(both.all())
    rows = None if every else np.flatnonzero(both)  # None: every row (no index array)
    if not n or (rows is not None and not len(rows)):
        return Matching(match, depth, parent, 0, 0)

    def at(local: np.ndarray) -> np.ndarray:  # positions among ENTER/LEAVE rows -> rows
        return local if every else rows[local]

    enter = (kind if every else kind[rows]) == Kind.ENTER
    grp = np.asarray(stream) if every else np.asarray(stream)[rows]
    step = enter.view(np.int8) * np.int8(2)
    step -= 1  # +1 per ENTER, -1 per LEAVE
    c = np.cumsum(step, dtype=np.int64)
    del step
    starts = np.r_[0, np.flatnonzero(grp[1:] != grp[:-1]) + 1]
    lengths = np.diff(np.r_[starts, len(c)])
    if len(starts) > 1:
        c -= np.repeat(np.r_[0, c[starts[1:] - 1]], lengths)
        big = 2 * len(c) + 2
        g = np.repeat(np.arange(len(starts), dtype=np.int64), lengths)
        floor = np.minimum(np.minimum.accumulate(c - g * big) + g * big, 0)
    else:
        g = np.zeros(len(c), dtype=np.int64)
        floor = np.minimum(np.minimum.accumulate(c), 0)
    drop = np.zeros(len(c), dtype=bool)
    drop[1:] |= floor[1:] < floor[:-1]  # a new low inside a stream: a LEAVE with none open
    drop[starts] = floor[starts] < 0
    keep = ~drop
    level = c - floor
    level[~enter] += 1
    del c, floor
    dropped = bool(drop.any())
    idx = np.flatnonzero(keep) if dropped else slice(None)  # the rows kept
    # one group code per (stream, level); a stable sort by it orders rows by
    # (stream, level, row) as the pairing and the parent search need
    top = int(level[idx].max()) + 1 if len(level[idx]) else 1
    gl = g * top + level
    del g
    order = stable_order(gl[idx])
    if dropped:
        order = idx[order]
    lv, en = gl[order], enter[order]
    pair = np.zeros(len(order), dtype=bool)
    pair[:-1] = en[:-1] & ~en[1:] & (lv[:-1] == lv[1:])
    e_rows, l_rows = at(order[pair]), at(order[np.flatnonzero(pair) + 1])
    match[e_rows], match[l_rows] = l_rows, e_rows
    if dropped:
        depth[at(idx)] = level[idx] - 1
    elif every:
        depth[:] = level - 1
    else:
        depth[rows] = level - 1
    # parent: the latest ENTER one level up in the same stream; the ENTERs sorted by
    # (stream, level, row) are both the table searched and (one level down) the queries
    ent_sorted = order[en]
    del order, lv, en, pair
    width = len(gl) + 1
    want = gl[ent_sorted] - 1
    if (int(gl.max()) + 1) * width < 2**62:
        key = gl[ent_sorted] * width + ent_sorted
        pos = np.searchsorted(key, want * width + ent_sorted) - 1
        del key
    else:  # a (stream, level) code times the row count would overflow int64
        pos = _search_rows(np.stack([gl[ent_sorted], ent_sorted], axis=1),
                           np.stack([want, ent_sorted], axis=1)) - 1
    ok = (pos >= 0) & (level[ent_sorted] > 1)
    ok[ok] &= gl[ent_sorted[pos[ok]]] == want[ok]
    parent[at(ent_sorted[ok])] = at(ent_sorted[pos[ok]])
    leave_rows = at(idx[~enter[idx]]) if dropped else at(np.flatnonzero(~enter))
    has = match[leave_rows] >= 0
    parent[leave_rows[has]] = parent[match[leave_rows[has]]]
    unmatched_enters = int(len(ent_sorted) - len(e_rows))
    return Matching(match, depth, parent, unmatched_enters, int(drop.sum()))


def stable_order(code: np.ndarray) -> np.ndarray:
    """A stable argsort of non-negative codes (a radix sort when they fit in 16 bits).

    Examples
    --------
    >>> stable_order(np.array([2, 0, 2, 1])).tolist()
    [1, 3, 0, 2]
    """
    if not len(code):
        return np.zeros(0, dtype=np.int64)
    top = int(code.max())
    if top < 2**16:
        return np.argsort(code.astype(np.uint16), kind="stable")
    return np.argsort(code, kind="stable")


def _search_rows(sorted_rows: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """searchsorted for lexicographic int64 pairs (via a structured view)."""
    dt = np.dtype([("a", np.int64), ("b", np.int64)])
    left = np.ascontiguousarray(sorted_rows, dtype=np.int64).view(dt).reshape(-1)
    right = np.ascontiguousarray(queries, dtype=np.int64).view(dt).reshape(-1)
    return np.searchsorted(left, right)
