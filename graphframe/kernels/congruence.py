"""Merging equal children over every edge of a graph, until stable.

Call-path interning (:mod:`graphframe.kernels.paths`) follows first parents only.
In a graph with shared nodes that is not enough: a node reached through a
second parent must still be the same node as the other graph's child of that
parent with the same frame. :func:`merge_equal_children` refines a node
classification so that it is closed under the rule

    if ``p ~ p'`` and ``p -> c``, ``p' -> c'`` are edges (any edges, not only
    first parents) where ``c`` and ``c'`` have the same frame and the same
    occurrence among their parent's children with that frame, then ``c ~ c'``.

It works in rounds over integer arrays: a round keys the edges it looks at by
``(class of parent, frame code of child, occurrence)``, merges the children
of equal keys with a vectorised union-find, and the next round only looks at
the edges leaving nodes whose class grew. Cost: one pass over all edges, then
passes over the edges below merged nodes (a merge cascades one level per
round).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

INT = np.int64


def edge_occurrence(src: np.ndarray, dst: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Per edge, 0 for the first child of ``src`` with its frame, 1 for the second...

    Children are ranked by node index.

    Examples
    --------
    >>> edge_occurrence(np.array([0, 0, 0, 1]), np.array([3, 1, 2, 2]),
    ...                 np.array([0, 5, 5, 7])).tolist()
    [0, 0, 1, 0]
    """
    src = np.asarray(src, dtype=INT)
    dst = np.asarray(dst, dtype=INT)
    if not len(src):
        return np.zeros(0, dtype=INT)
    code = np.asarray(codes, dtype=INT)[dst]
    order = np.lexsort((dst, code, src))
    s, c = src[order], code[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (s[1:] != s[:-1]) | (c[1:] != c[:-1])
    start = np.maximum.accumulate(np.where(new, np.arange(len(order)), 0))
    rank = np.empty(len(order), dtype=INT)
    rank[order] = np.arange(len(order)) - start
    return rank


def union_pairs(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """Smallest member of the component of every element ``0..n-1`` after joining
    each ``a[i]`` with ``b[i]`` (hook-and-compress union-find on arrays).

    Examples
    --------
    >>> union_pairs(np.array([4, 1]), np.array([2, 4]), 6).tolist()
    [0, 1, 1, 3, 1, 5]
    """
    root = np.arange(n, dtype=INT)
    a = np.asarray(a, dtype=INT)
    b = np.asarray(b, dtype=INT)
    while True:
        ra, rb = root[a], root[b]
        lo, hi = np.minimum(ra, rb), np.maximum(ra, rb)
        join = lo != hi
        if not join.any():
            return root
        np.minimum.at(root, hi[join], lo[join])
        _compress(root)


def _compress(root: np.ndarray) -> None:
    """Pointer jumping until every element points at its component's root."""
    while True:
        up = root[root]
        if np.array_equal(up, root):
            return
        root[:] = up


def merge_equal_children(label: np.ndarray, src: np.ndarray, dst: np.ndarray,
                         codes: np.ndarray, rank: np.ndarray,
                         start: Optional[np.ndarray] = None) -> np.ndarray:
    """Refine ``label`` (per node: the smallest node of its class) until children
    with equal ``(class of parent, frame code, rank)`` over every edge share a class.

    Parameters
    ----------
    label : array of int
        Initial class of each node, given as the smallest node index in it
        (``label[label[v]] == label[v]``).
    src, dst : arrays of int
        Every edge.
    codes : array of int
        Frame code per node.
    rank : array of int
        Occurrence of each edge (see :func:`edge_occurrence`).
    start : array of int, optional
        The edges to look at in the first round (default: all). A caller
        whose ``label`` is already closed under the rule for the other edges
        (e.g. interned along a spanning forest) passes the edges out of the
        classes that also have other edges.

    Returns
    -------
    numpy.ndarray
        The refined labels (again the smallest node index of each class).

    Notes
    -----
    Classes are a union-find forest over node indices (``up``), resolved only
    for the nodes a round looks at; the members of each class that grew are
    gathered from the initial classes (one sort) and the merged ones, so a
    round costs what its edges and merged classes cost, not a pass over all
    nodes: a merge cascading down a deep subtree stays linear in its size.

    Examples
    --------
    Two copies of ``p -> u`` whose ``u`` start in different classes merge:

    >>> label = np.array([0, 1, 0, 3, 4])          # p0 ~ p2; u3, u4 apart
    >>> merge_equal_children(label, np.array([0, 2]), np.array([3, 4]),
    ...                      np.array([0, 0, 0, 1, 1]), np.array([0, 0])).tolist()
    [0, 1, 0, 3, 3]
    """
    n = len(label)
    up = np.asarray(label, dtype=INT).copy()
    src = np.asarray(src, dtype=INT)
    dst = np.asarray(dst, dtype=INT)
    codes = np.asarray(codes, dtype=INT)
    rank = np.asarray(rank, dtype=INT)
    out_edges = members = None  # built on the first merge: most calls merge nothing
    active = np.arange(len(src), dtype=INT) if start is None else np.asarray(start, dtype=INT)
    while len(active):
        cls = _find(up, src[active])
        code_dst = codes[dst[active]]
        order = np.lexsort((rank[active], code_dst, cls))
        e = active[order]
        k_cls, k_code, k_rank = cls[order], code_dst[order], rank[e]
        new = np.ones(len(e), dtype=bool)
        new[1:] = ((k_cls[1:] != k_cls[:-1]) | (k_code[1:] != k_code[:-1])
                   | (k_rank[1:] != k_rank[:-1]))
        child = _find(up, dst[e])
        first = child[np.maximum.accumulate(np.where(new, np.arange(len(e)), 0))]
        join = child != first
        if not join.any():
            break
        if members is None:
            out_edges, members = _Groups(src, n), _Members(up, n)
        touched = members.join(up, child[join], first[join])
        active = out_edges.of(touched)
    if members is None:  # nothing merged: the labels were closed already
        return up
    return _find(up, np.arange(n, dtype=INT))


def _find(up: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Class root of each of ``nodes``; compresses their paths."""
    root = up[nodes]
    while True:
        above = up[root]
        if np.array_equal(above, root):
            break
        root = above
    up[nodes] = root
    return root


class _Groups:
    """Positions of ``keys`` grouped by value, for ``of(values)``: the positions whose key
    is one of ``values``.

    The first lookups scan the keys (one pass, no sort), which is all most
    calls need; from the fifth on an index built once (one sort) answers, so
    a long cascade of merges stays linear in what it touches.
    """

    SCANS = 4

    def __init__(self, keys: np.ndarray, n: int) -> None:
        self.keys = keys
        self.n = n
        self.scans = 0
        self.order: Optional[np.ndarray] = None
        self.ptr: Optional[np.ndarray] = None

    def of(self, values: np.ndarray) -> np.ndarray:
        if self.order is None and self.scans < self.SCANS:
            self.scans += 1
            table = np.zeros(self.n, dtype=bool)
            table[values] = True
            return np.flatnonzero(table[self.keys])
        if self.order is None:
            self.order = np.argsort(self.keys, kind="stable")
            self.ptr = np.zeros(self.n + 1, dtype=INT)
            np.cumsum(np.bincount(self.keys, minlength=self.n), out=self.ptr[1:])
        values = np.asarray(values, dtype=INT)
        counts = self.ptr[values + 1] - self.ptr[values]
        starts = np.repeat(self.ptr[values] - np.cumsum(counts) + counts, counts)
        return self.order[starts + np.arange(int(counts.sum()), dtype=INT)]


class _Members:
    """Members of every class: the initial classes looked up in the labels, merged ones
    stored."""

    def __init__(self, label: np.ndarray, n: int) -> None:
        self.label = label.copy()
        self.seed = _Groups(self.label, n)
        self.merged: dict = {}

    def join(self, up: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Join the classes (roots) ``a[i]`` and ``b[i]``; return every member of the
        classes that grew."""
        labs, inverse = np.unique(np.concatenate([a, b]), return_inverse=True)
        inverse = inverse.reshape(-1)
        local = union_pairs(inverse[:len(a)], inverse[len(a):], len(labs))
        new_root = labs[local]
        moved = new_root != labs
        up[labs[moved]] = new_root[moved]
        involved = moved | np.isin(labs, new_root[moved])
        pairs = list(zip(labs[involved].tolist(), new_root[involved].tolist()))
        fresh = [lab for lab, _ in pairs if lab not in self.merged]
        seeded = self.seed.of(np.asarray(fresh, dtype=INT))
        seeded = seeded[np.argsort(self.label[seeded], kind="stable")]
        bounds = np.searchsorted(self.label[seeded], fresh)
        own = dict(zip(fresh, np.split(seeded, bounds[1:]))) if fresh else {}
        groups: dict = {}
        for lab, root in pairs:
            groups.setdefault(root, []).append(self.merged.pop(lab) if lab in self.merged
                                               else own[lab])
        grown = []
        for root, parts in groups.items():
            self.merged[root] = np.concatenate(parts)
            grown.append(self.merged[root])
        return np.concatenate(grown)
