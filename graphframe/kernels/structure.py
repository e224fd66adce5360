"""Array algorithms on graph structure: CSR building, depths, levels, orders.

Everything here takes and returns numpy arrays of integer node ids. Forests
(every node has at most one parent) use vectorised level-by-level or
pointer-jumping algorithms; general graphs (several parents, cycles) use an
iterative depth-first walk with a visited mask.
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np

INT = np.int64


def csr(owner: np.ndarray, values: np.ndarray, n: int) -> Tuple[np.ndarray, np.ndarray]:
    """Group ``values`` by ``owner`` (stable); return ``(ptr, idx)``.

    Examples
    --------
    >>> ptr, idx = csr(np.array([1, 0, 1]), np.array([5, 6, 7]), 3)
    >>> ptr.tolist(), idx.tolist()
    ([0, 1, 3, 3], [6, 5, 7])
    """
    owner = np.asarray(owner, dtype=INT)
    order = np.argsort(owner, kind="stable")
    ptr = np.zeros(n + 1, dtype=INT)
    np.cumsum(np.bincount(owner, minlength=n), out=ptr[1:])
    return ptr, np.asarray(values, dtype=INT)[order]


def segment_owner(ptr: np.ndarray) -> np.ndarray:
    """For a CSR ``ptr``, the owner of each entry of ``idx``."""
    return np.repeat(np.arange(len(ptr) - 1, dtype=INT), np.diff(ptr))


def forest_depth(parent: np.ndarray) -> np.ndarray:
    """Depth of every node of a forest by pointer jumping (O(n log depth))."""
    n = len(parent)
    depth = (parent >= 0).astype(INT)
    anc = parent.copy()
    while True:
        active = anc >= 0
        if not active.any():
            return depth
        idx = np.flatnonzero(active)
        depth[idx] += depth[anc[idx]]
        anc[idx] = anc[anc[idx]]
        if n == 0:
            return depth


def levels(depth: np.ndarray) -> List[np.ndarray]:
    """Node ids grouped by depth, shallowest first (ids ascending in a level)."""
    if len(depth) == 0:
        return []
    order = np.argsort(depth, kind="stable")
    bounds = np.cumsum(np.bincount(depth))
    return np.split(order, bounds[:-1])


def forest_preorder(parent: np.ndarray, roots: np.ndarray, sibling_key: np.ndarray,
                    depth: np.ndarray) -> np.ndarray:
    """Pre-order of a forest; siblings (and roots) visited by ``sibling_key``.

    Returns ``order`` with ``order[k]`` = the k-th node visited. Ties in
    ``sibling_key`` keep id order, so the result is deterministic.
    Vectorised per depth level: subtree sizes bottom-up, then each node's
    position = parent's position + 1 + sizes of the siblings before it.
    """
    n = len(parent)
    if n == 0:
        return np.zeros(0, dtype=INT)
    by_level = levels(depth)
    size = np.ones(n, dtype=INT)
    for level in reversed(by_level[1:]):
        np.add.at(size, parent[level], size[level])
    # offset of each node among its siblings, in sibling order
    group = np.where(parent >= 0, parent, -1)
    span = int(sibling_key.max()) + 1 if n else 1
    if (n + 1) * span < 1 << 62:  # one combined key: a single stable sort
        sib_order = np.argsort((group + 1) * span + sibling_key, kind="stable")
    else:
        sib_order = np.lexsort((np.arange(n), sibling_key, group))
    sizes_sorted = size[sib_order]
    groups_sorted = group[sib_order]
    csum = np.cumsum(sizes_sorted) - sizes_sorted
    first = np.ones(n, dtype=bool)
    first[1:] = groups_sorted[1:] != groups_sorted[:-1]
    start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    before = csum - csum[start]
    offset = np.empty(n, dtype=INT)
    offset[sib_order] = before
    position = np.empty(n, dtype=INT)
    is_root = parent < 0
    position[is_root] = offset[is_root]  # roots: sizes of earlier roots
    for level in by_level[1:]:
        position[level] = position[parent[level]] + 1 + offset[level]
    order = np.empty(n, dtype=INT)
    order[position] = np.arange(n, dtype=INT)
    return order


def general_preorder(n: int, roots: np.ndarray, child_ptr: np.ndarray,
                     child_idx: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pre-order of any graph (first discovery, children in CSR order).

    Returns ``(order, depth, via)``: the visit order, each node's depth at its
    first discovery and the parent it was discovered from (-1 for roots).
    Nodes unreachable from ``roots`` are not in ``order``. Iterative, with a
    visited mask, so cycles and deep chains are safe.
    """
    visited = np.zeros(n, dtype=bool)
    depth = np.full(n, -1, dtype=INT)
    via = np.full(n, -1, dtype=INT)
    order: List[int] = []
    ptr = child_ptr.tolist()
    kids = child_idx.tolist()
    stack = [(int(r), 0, -1) for r in reversed(roots.tolist())]
    while stack:
        v, d, p = stack.pop()
        if visited[v]:
            continue
        visited[v] = True
        depth[v] = d
        via[v] = p
        order.append(v)
        for c in reversed(kids[ptr[v]:ptr[v + 1]]):
            if not visited[c]:
                stack.append((c, d + 1, v))
    return np.asarray(order, dtype=INT), depth, via


def general_postorder(n: int, roots: np.ndarray, child_ptr: np.ndarray,
                      child_idx: np.ndarray) -> np.ndarray:
    """Post-order of any graph (each node once, after the children it discovers)."""
    visited = np.zeros(n, dtype=bool)
    order: List[int] = []
    ptr = child_ptr.tolist()
    kids = child_idx.tolist()
    for r in roots.tolist():
        if visited[r]:
            continue
        visited[r] = True
        stack = [(r, ptr[r])]
        while stack:
            v, i = stack[-1]
            if i < ptr[v + 1]:
                stack[-1] = (v, i + 1)
                c = kids[i]
                if not visited[c]:
                    visited[c] = True
                    stack.append((c, ptr[c]))
            else:
                stack.pop()
                order.append(v)
    return np.asarray(order, dtype=INT)


def bfs_parents(n: int, src: np.ndarray, dst: np.ndarray, roots: np.ndarray) -> np.ndarray:
    """First parent of each node in a breadth-first walk from ``roots``.

    Roots get -1, unreachable nodes -2. Among several parents in the same
    level, the one listed first (frontier order, then edge order) wins.
    Vectorised per level.
    """
    first = np.full(n, -2, dtype=INT)
    first[roots] = -1
    ptr, idx = csr(src, dst, n)
    frontier = np.asarray(roots, dtype=INT)
    while len(frontier):
        counts = ptr[frontier + 1] - ptr[frontier]
        if not counts.sum():
            break
        starts = np.repeat(ptr[frontier] - np.cumsum(counts) + counts, counts)
        cand = idx[starts + np.arange(counts.sum())]
        par = np.repeat(frontier, counts)
        fresh = first[cand] == -2
        cand, par = cand[fresh], par[fresh]
        uniq, pick = np.unique(cand, return_index=True)
        keep = np.sort(pick)
        first[cand[keep]] = par[keep]
        frontier = cand[keep]
    return first


def invert(order: np.ndarray, n: int) -> np.ndarray:
    """Inverse permutation: ``inv[order[k]] = k``; -1 where absent."""
    inv = np.full(n, -1, dtype=INT)
    inv[order] = np.arange(len(order), dtype=INT)
    return inv
