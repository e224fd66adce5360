"""Array algorithms on graph structure: CSR building, depths, levels, orders.

Everything here takes and returns numpy arrays of integer node ids. Forests
(every node has at most one parent) use vectorised level-by-level or
pointer-jumping algorithms; the pre-order of general graphs (several
parents, cycles) is in :mod:`graphframe.kernels.preorder`, their post-order
an iterative depth-first walk with a visited mask.
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


def on_parent_cycles(parent: np.ndarray) -> np.ndarray:
    """Nodes whose parent chain never ends: on a cycle of parent links or below one.

    Pointer jumping for ``log2(n) + 1`` rounds resolves every chain that ends
    at a root; whatever is still pointing somewhere is caught in a loop.

    Examples
    --------
    >>> on_parent_cycles(np.array([-1, 0, 3, 2, 3])).tolist()
    [False, False, True, True, True]
    """
    anc = np.asarray(parent, dtype=INT).copy()
    for _ in range(len(anc).bit_length() + 1):
        live = np.flatnonzero(anc >= 0)
        if len(live) == 0:
            break
        anc[live] = anc[anc[live]]
    return anc >= 0


def levels(depth: np.ndarray) -> List[np.ndarray]:
    """Node ids grouped by depth, shallowest first (ids ascending in a level)."""
    if len(depth) == 0:
        return []
    counts = np.bincount(depth)
    if len(counts) <= np.iinfo(np.int16).max:  # a 16-bit key sorts by radix: linear time
        depth = depth.astype(np.int16)
    order = np.argsort(depth, kind="stable")
    bounds = np.cumsum(counts)
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
        keep = first_occurrences(cand, n)
        first[cand[keep]] = par[keep]
        frontier = cand[keep]
    return first


def first_occurrences(values: np.ndarray, n: int) -> np.ndarray:
    """Positions of the first occurrence of each distinct value (values in ``0..n-1``),
    ascending; no sort.

    Examples
    --------
    >>> first_occurrences(np.array([3, 1, 3, 0, 1]), 4).tolist()
    [0, 1, 3]
    """
    where = np.empty(n, dtype=INT)
    where[values[::-1]] = np.arange(len(values) - 1, -1, -1, dtype=INT)  # earliest wins
    return np.flatnonzero(where[values] == np.arange(len(values), dtype=INT))


def sort_keys(*keys: np.ndarray) -> np.ndarray:
    """``np.lexsort(keys)`` (last key primary), through one combined integer key when
    the keys' ranges allow it (one stable sort instead of several passes).

    Examples
    --------
    >>> sort_keys(np.array([0, 1, 0]), np.array([2, 1, 1])).tolist()
    [2, 1, 0]
    """
    spans = [int(k.max()) - int(k.min()) + 1 if len(k) else 1 for k in keys]
    if len(keys[0]) == 0 or float(np.prod([float(s) for s in spans])) >= 2.0 ** 62:
        return np.lexsort(keys)
    combined = np.zeros(len(keys[0]), dtype=INT)
    for k, span in zip(reversed(keys), reversed(spans)):
        combined = combined * span + (np.asarray(k, dtype=INT) - int(k.min()))
    return np.argsort(combined, kind="stable")


def invert(order: np.ndarray, n: int) -> np.ndarray:
    """Inverse permutation: ``inv[order[k]] = k``; -1 where absent."""
    inv = np.full(n, -1, dtype=INT)
    inv[order] = np.arange(len(order), dtype=INT)
    return inv
