"""Call-path primitives shared by squash, union and aggregation.

*Interning call paths* gives every node the id of its call path (the frame
sequence from a root): level by level from the roots, a node's path id is the
id of the pair ``(path id of its parent, frame code)``, found with one
``np.unique`` per depth level. Squash uses it to merge siblings with equal
frames (children of merged nodes pool automatically, because they key on the
merged parent); union uses it on the nodes of both graphs at once, with an
occurrence number so that duplicate siblings inside one graph stay distinct
and pair up one to one across graphs (as Hatchet's merge walk pairs them).
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from . import structure as st

INT = np.int64


def intern_paths(parent: np.ndarray, codes: np.ndarray, depth: np.ndarray,
                 occurrence: bool = False, order_key: Optional[np.ndarray] = None,
                 sibling_group: Optional[np.ndarray] = None,
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
    occurrence : bool
        Distinguish the 1st, 2nd... node with the same (parent path, frame)
        *within the same parent node*; nodes of different parents that share
        a path still share the id. Needs ``order_key`` (position among
        equal siblings, e.g. the node id).
    sibling_group : array, optional
        Who counts as siblings for ``occurrence`` (default: ``parent``; give
        roots of different graphs different negative groups).
    rank : array, optional
        The occurrence of every node given explicitly (overrides
        ``occurrence``), e.g. counted over every edge of a call graph.

    Examples
    --------
    >>> parent = np.array([-1, 0, 0, 1, 2])
    >>> codes = np.array([0, 1, 1, 2, 2])      # a -> {x -> y, x -> y}
    >>> depth = np.array([0, 1, 1, 2, 2])
    >>> intern_paths(parent, codes, depth)[0].tolist()
    [0, 1, 1, 2, 2]
    >>> intern_paths(parent, codes, depth, occurrence=True, order_key=np.arange(5))[0].tolist()
    [0, 1, 2, 3, 4]
    """
    n = len(parent)
    path = np.full(n, -1, dtype=INT)
    next_id = 0
    n_codes = int(codes.max()) + 1 if n else 1
    group = parent if sibling_group is None else sibling_group
    for level in st.levels(depth):
        par = parent[level]
        parent_path = np.where(par >= 0, path[np.maximum(par, 0)], -1) + 1
        key = parent_path * n_codes + codes[level]
        if rank is not None:
            occ = rank[level]
            key = key * (int(occ.max()) + 1) + occ
        elif occurrence:
            occ = _occurrence(group[level], codes[level], order_key[level])
            key = key * (int(occ.max()) + 1) + occ
        uniq, inverse = np.unique(key, return_inverse=True)
        path[level] = inverse.reshape(-1) + next_id
        next_id += len(uniq)
    return path, next_id


def _occurrence(par: np.ndarray, codes: np.ndarray, order: np.ndarray) -> np.ndarray:
    """0 for the first node with a given (parent, frame), 1 for the second..."""
    sorter = np.lexsort((order, codes, par))
    p, c = par[sorter], codes[sorter]
    new = np.ones(len(p), dtype=bool)
    new[1:] = (p[1:] != p[:-1]) | (c[1:] != c[:-1])
    start = np.maximum.accumulate(np.where(new, np.arange(len(p)), 0))
    rank = np.empty(len(p), dtype=INT)
    rank[sorter] = np.arange(len(p)) - start
    return rank


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
