"""Call-path primitives shared by squash, union and aggregation.

*Interning call paths* gives every node the id of its call path (the frame
sequence from a root): level by level from the roots, a node's path id is the
id of the pair ``(path id of its parent, frame code)``, found with one
``np.unique`` per depth level. Squash uses it to merge siblings with equal
frames (children of merged nodes pool automatically, because they key on the
merged parent). The union of two forests *matches* one forest's nodes onto
the other's instead (:func:`match_paths`), with an occurrence number
(:func:`sibling_occurrence`) so that duplicate siblings inside one graph stay
distinct and pair up one to one across graphs (as Hatchet's merge walk pairs
them).
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from . import structure as st

INT = np.int64


def intern_paths(parent: np.ndarray, codes: np.ndarray, depth: np.ndarray,
                 rank: Optional[np.ndarray] = None) -> Tuple[np.ndarray, int]:
    """Path id per node (dense, ``0..k-1``) and ``k``.

    Parameters
    ----------
    parent : array
        Parent of each node in a forest (-1 for roots); ``depth[parent] ==
        depth - 1``.
    codes : array
        Interned frame code per node.
    depth : array
        Depth per node.
    rank : array, optional
        An occurrence number per node that keeps nodes with the same (parent
        path, frame) apart (e.g. :func:`sibling_occurrence`, or one counted
        over every edge of a call graph); nodes of different parents that
        share a path and an occurrence still share the id.

    Examples
    --------
    >>> parent = np.array([-1, 0, 0, 1, 2])
    >>> codes = np.array([0, 1, 1, 2, 2])      # a -> {x -> y, x -> y}
    >>> depth = np.array([0, 1, 1, 2, 2])
    >>> intern_paths(parent, codes, depth)[0].tolist()
    [0, 1, 1, 2, 2]
    >>> intern_paths(parent, codes, depth, rank=sibling_occurrence(parent, codes))[0].tolist()
    [0, 1, 2, 3, 4]
    """
    n = len(parent)
    path = np.full(n, -1, dtype=INT)
    next_id = 0
    n_codes = int(codes.max()) + 1 if n else 1
    for level in st.levels(depth):
        par = parent[level]
        parent_path = np.where(par >= 0, path[np.maximum(par, 0)], -1) + 1
        key = parent_path * n_codes + codes[level]
        if rank is not None:
            occ = rank[level]
            key = key * (int(occ.max()) + 1) + occ
        uniq, inverse = np.unique(key, return_inverse=True)
        path[level] = inverse.reshape(-1) + next_id
        next_id += len(uniq)
    return path, next_id


def sibling_occurrence(parent: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """0 for a node's first sibling with its frame code (ids ascending), 1 for the second...

    Roots are siblings of each other.

    Examples
    --------
    >>> sibling_occurrence(np.array([-1, 0, 0, 0, -1]), np.array([0, 1, 2, 1, 0])).tolist()
    [0, 0, 0, 1, 1]
    """
    n = len(parent)
    if not n:
        return np.zeros(0, dtype=INT)
    order = st.sort_keys(codes, parent)  # by parent, then code; ties keep id order
    p, c = parent[order], codes[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    new[1:] = (p[1:] != p[:-1]) | (c[1:] != c[:-1])
    start = np.maximum.accumulate(np.where(new, np.arange(n, dtype=INT), 0))
    rank = np.empty(n, dtype=INT)
    rank[order] = np.arange(n, dtype=INT) - start
    return rank


def match_paths(parent_a: np.ndarray, key_a: np.ndarray, parent_b: np.ndarray,
                key_b: np.ndarray, depth_b: np.ndarray) -> np.ndarray:
    """For every node of forest ``b``, the node of forest ``a`` on the same call path (-1: none).

    A node's call path is its parent's call path plus its sibling key
    (``key_a``/``key_b``: frame code and occurrence as one integer, distinct
    among the children of one parent and among the roots of one forest). The
    ``(parent, key)`` pairs of ``a`` are sorted once; ``b`` is walked one depth
    level at a time, each node looked up under its parent's match.

    Examples
    --------
    >>> parent_a, key_a = np.array([-1, 0, 0]), np.array([0, 1, 2])     # a -> {b, c}
    >>> parent_b, key_b = np.array([-1, 0, 1]), np.array([0, 2, 1])     # a -> c -> b
    >>> match_paths(parent_a, key_a, parent_b, key_b, np.array([0, 1, 2])).tolist()
    [0, 2, -1]
    """
    match = np.full(len(parent_b), -1, dtype=INT)
    if not len(parent_a) or not len(parent_b):
        return match
    span = int(max(key_a.max(), key_b.max())) + 1
    if (len(parent_a) + 1) * span >= 1 << 62:  # sibling keys renumbered densely
        uniq, inverse = np.unique(np.concatenate([key_a, key_b]), return_inverse=True)
        key_a, key_b = np.split(inverse.reshape(-1).astype(INT), [len(key_a)])
        span = len(uniq)
    lookup = (parent_a.astype(INT) + 1) * span + key_a
    by_key = np.argsort(lookup)
    table = lookup[by_key]
    last = len(table) - 1
    for depth, level in enumerate(st.levels(depth_b)):
        if depth:  # below the roots, only a node whose parent has a match can have one
            above = match[parent_b[level]]
            kept = above >= 0
            level, above = level[kept], above[kept]
            if not len(level):
                break  # and none further down either
        else:
            above = np.full(len(level), -1, dtype=INT)
        want = (above + 1) * span + key_b[level]
        at = np.minimum(np.searchsorted(table, want), last)
        hit = table[at] == want
        match[level[hit]] = by_key[at[hit]]
    return match


def nearest_kept_ancestor(parent: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """For every node of a forest, its nearest strict ancestor that is kept (-1: none).

    Pointer jumping: O(n log depth).

    Examples
    --------
    >>> parent = np.array([-1, 0, 1, 2, 1])
    >>> kept = np.array([True, False, False, True, True])
    >>> nearest_kept_ancestor(parent, kept).tolist()
    [-1, 0, 0, 0, 0]
    """
    p = parent.astype(INT, copy=True)
    while True:
        need = np.flatnonzero((p >= 0) & ~kept[np.maximum(p, 0)])
        if not len(need):
            return p
        p[need] = p[p[need]]


def nearest_marked(parent: np.ndarray, marked: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """For each of ``nodes``, its nearest ancestor-or-self (along ``parent``) that is
    ``marked``; -1 when none is.

    A few queries walk up their chains (one vectorised step per level); many
    use :func:`nearest_kept_ancestor` over the whole forest.

    Examples
    --------
    >>> parent = np.array([-1, 0, 1, 2, 1])
    >>> marked = np.array([False, True, False, False, False])
    >>> nearest_marked(parent, marked, np.array([3, 4, 0, 1])).tolist()
    [1, 1, -1, 1]
    """
    nodes = np.asarray(nodes, dtype=INT)
    if 8 * len(nodes) > len(parent):
        above = nearest_kept_ancestor(parent, marked)
        return np.where(marked[nodes], nodes, above[nodes])
    out = np.where(marked[nodes], nodes, -1)
    todo = np.flatnonzero(out < 0)
    at = nodes[todo]
    while len(todo):
        at = parent[at]
        alive = at >= 0
        todo, at = todo[alive], at[alive]
        hit = marked[at]
        out[todo[hit]] = at[hit]
        todo, at = todo[~hit], at[~hit]
    return out


def representatives(group: np.ndarray, k: int) -> np.ndarray:
    """Smallest member of each group ``0..k-1`` (groups must all be non-empty)."""
    rep = np.full(k, np.iinfo(INT).max, dtype=INT)
    np.minimum.at(rep, group, np.arange(len(group), dtype=INT))
    return rep
