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
    """Match ENTER/LEAVE rows (see module docs); ``stream`` is a non-decreasing code per row."""
    n = len(kind)
    match = np.full(n, -1, dtype=np.int64)
    depth = np.full(n, -1, dtype=np.int64)
    parent = np.full(n, -1, dtype=np.int64)
    rows = np.flatnonzero((kind == Kind.ENTER) | (kind == Kind.LEAVE))
    if not len(rows):
        return Matching(match, depth, parent, 0, 0)
    enter = kind[rows] == Kind.ENTER
    grp = stream[rows].astype(np.int64)
    c = np.cumsum(np.where(enter, 1, -1))
    starts = np.r_[0, np.flatnonzero(np.diff(grp)) + 1]
    before = np.r_[0, c[starts[1:] - 1]]
    c = c - np.repeat(before, np.diff(np.r_[starts, len(c)]))
    big = 2 * len(c) + 2
    g = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(c)]))
    floor = np.minimum(np.minimum.accumulate(c - g * big) + g * big, 0)
    drop = np.zeros(len(c), dtype=bool)
    drop[starts] = floor[starts] < 0
    same = np.ones(len(c), dtype=bool)
    same[starts] = False
    drop |= same & (floor < np.r_[0, floor[:-1]])
    keep = ~drop
    d = c - floor
    level = np.where(enter, d, d + 1)
    idx = np.flatnonzero(keep)
    order = idx[np.lexsort((idx, level[idx], g[idx]))]
    lv, gg, en = level[order], g[order], enter[order]
    pair = np.zeros(len(order), dtype=bool)
    pair[:-1] = en[:-1] & ~en[1:] & (lv[:-1] == lv[1:]) & (gg[:-1] == gg[1:])
    e_rows, l_rows = rows[order[pair]], rows[order[np.flatnonzero(pair) + 1]]
    match[e_rows], match[l_rows] = l_rows, e_rows
    depth[rows[idx]] = level[idx] - 1
    # parent: the latest ENTER one level up in the same stream
    ent_idx = idx[enter[idx]]
    key_sorted = np.lexsort((ent_idx, level[ent_idx], g[ent_idx]))
    ent_sorted = ent_idx[key_sorted]
    comp = np.stack([g[ent_sorted], level[ent_sorted], ent_sorted], axis=1)
    want = np.stack([g[ent_idx], level[ent_idx] - 1, ent_idx], axis=1)
    pos = _search_rows(comp, want) - 1
    ok = (pos >= 0) & (level[ent_idx] > 1)
    ok[ok] &= (comp[pos[ok], 0] == want[ok, 0]) & (comp[pos[ok], 1] == want[ok, 1])
    parent[rows[ent_idx[ok]]] = rows[ent_sorted[pos[ok]]]
    leave_rows = rows[idx[~enter[idx]]]
    has = match[leave_rows] >= 0
    parent[leave_rows[has]] = parent[match[leave_rows[has]]]
    return Matching(match, depth, parent,
                    int(((kind[rows] == Kind.ENTER) & (match[rows] < 0)).sum()), int(drop.sum()))


def _search_rows(sorted_rows: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """searchsorted for lexicographic int64 triples (via a structured view)."""
    dt = np.dtype([("a", np.int64), ("b", np.int64), ("c", np.int64)])
    left = np.ascontiguousarray(sorted_rows).view(dt).reshape(-1)
    right = np.ascontiguousarray(queries).view(dt).reshape(-1)
    return np.searchsorted(left, right)
