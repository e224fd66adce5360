"""Depth-first pre-order of any graph (shared nodes, cycles), vectorised by blocks.

The walk is the classic one: from each root in turn, visit a node, then its
children in the given order, each unless it was visited already (first
discovery wins). :func:`general_preorder` gets the same result without a
Python step per node:

* A node with exactly one incoming edge that is not a root is always
  discovered from that edge. Those edges form a forest whose roots are the
  *heads*: the roots and the nodes with several (or no) incoming edges. A
  head's *block* is its subtree in that forest.
* Inside a block the walk is the forest's pre-order (computed per depth
  level with arrays). An edge into a head is a *splice point* of the block:
  if the head is not visited yet, the walk enters its block there and
  continues the outer block afterwards.
* Only the heads and the edges into them are walked in Python (which head
  is entered where); every node's final position, depth and discovery
  parent are then a few array operations.

A tree with a few extra edges costs what a tree costs; a graph in which every
node is shared costs one Python step per edge, as a plain walk would.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

from .structure import forest_depth, levels, on_parent_cycles, segment_owner

INT = np.int64


def general_preorder(n: int, roots: np.ndarray, child_ptr: np.ndarray,
                     child_idx: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pre-order of any graph (first discovery, children in CSR order).

    Returns ``(order, depth, via)``: the visit order, each node's depth at its
    first discovery and the parent it was discovered from (-1 for roots).
    Nodes unreachable from ``roots`` are not in ``order`` (depth and via -1).

    Examples
    --------
    A diamond ``0 -> {1, 2} -> 3`` and a back edge ``3 -> 0``:

    >>> ptr, idx = np.array([0, 2, 3, 4, 5]), np.array([1, 2, 3, 3, 0])
    >>> order, depth, via = general_preorder(4, np.array([0]), ptr, idx)
    >>> order.tolist(), depth.tolist(), via.tolist()
    ([0, 1, 3, 2], [0, 1, 1, 2], [-1, 0, 0, 1])
    """
    roots = np.asarray(roots, dtype=INT)
    child_ptr = np.asarray(child_ptr, dtype=INT)
    child_idx = np.asarray(child_idx, dtype=INT)
    blocks = _Blocks(n, roots, child_ptr, child_idx)
    walk = _walk_heads(blocks, roots)
    return _assemble(blocks, walk, n)


class _Blocks:
    """The forest of single-parent edges, positions inside each block, splice points."""

    def __init__(self, n: int, roots: np.ndarray, ptr: np.ndarray, idx: np.ndarray) -> None:
        owner = segment_owner(ptr)
        is_head = np.bincount(idx, minlength=n) != 1
        is_head[roots] = True
        tree_edge = ~is_head[idx]
        self.tparent = np.full(n, -1, dtype=INT)
        self.tparent[idx[tree_edge]] = owner[tree_edge]
        looped = on_parent_cycles(self.tparent)  # unreachable: a cycle nothing enters
        if looped.any():
            is_head |= looped
            tree_edge = ~is_head[idx]
            self.tparent = np.full(n, -1, dtype=INT)
            self.tparent[idx[tree_edge]] = owner[tree_edge]
        self.is_head = is_head
        tedge = np.full(n, -1, dtype=INT)
        tedge[idx[tree_edge]] = np.flatnonzero(tree_edge)
        self.idepth = forest_depth(self.tparent)
        by_level = levels(self.idepth)
        size = np.ones(n, dtype=INT)
        for level in reversed(by_level[1:]):
            np.add.at(size, self.tparent[level], size[level])
        self.size = size
        slot = np.where(tree_edge, size[idx], 0)
        before = np.cumsum(slot) - slot
        excl = before - before[ptr[owner]] if len(idx) else before  # earlier slots of owner
        self.ipos = np.zeros(n, dtype=INT)
        self.block = np.arange(n, dtype=INT)
        for level in by_level[1:]:
            up = self.tparent[level]
            self.ipos[level] = self.ipos[up] + 1 + excl[tedge[level]]
            self.block[level] = self.block[up]
        # splice points: edges into heads, in the order the walk meets them
        e = np.flatnonzero(~tree_edge)
        src = owner[e]
        ip = self.ipos[src] + 1 + excl[e]
        sort = np.lexsort((e, -self.idepth[src], ip, self.block[src]))
        e, src, ip = e[sort], src[sort], ip[sort]
        self.s_block, self.s_src, self.s_ip, self.s_head = self.block[src], src, ip, idx[e]
        self.s_ptr = np.zeros(n + 1, dtype=INT)
        np.cumsum(np.bincount(self.s_block, minlength=n), out=self.s_ptr[1:])


class _Walk:
    """What the walk over heads found: entered heads and where each was spliced."""

    def __init__(self, n: int) -> None:
        self.visited = np.zeros(n, dtype=bool)
        self.depth = np.full(n, -1, dtype=INT)               # of entered heads
        self.via = np.full(n, -1, dtype=INT)
        self.spliced: Dict[int, List[Tuple[int, int]]] = {}  # block -> [(head, ip)]
        self.finished: List[int] = []                       # walked blocks, post-order


def _walk_heads(b: _Blocks, roots: np.ndarray) -> Tuple[_Walk, np.ndarray]:
    """Depth-first over heads only: one Python step per edge into a head.

    Roots whose block has no splice point and that nothing enters (most roots
    of a forest-like graph) are entered in bulk. Returns the walk and the
    roots that start a block of their own, in order.
    """
    w = _Walk(len(b.is_head))
    ptr = b.s_ptr.tolist()
    s_head, s_src, s_ip = b.s_head.tolist(), b.s_src.tolist(), b.s_ip.tolist()
    idepth = b.idepth.tolist()
    entered = np.zeros(len(b.is_head), dtype=bool)
    entered[b.s_head] = True
    plain = (b.s_ptr[roots + 1] == b.s_ptr[roots]) & ~entered[roots]
    w.visited[roots[plain]] = True
    w.depth[roots[plain]] = 0
    top = np.zeros(len(roots), dtype=bool)
    top[plain] = True
    for k in np.flatnonzero(~plain).tolist():
        r = int(roots[k])
        if w.visited[r]:
            continue
        w.visited[r] = True
        w.depth[r] = 0
        top[k] = True
        stack = [[r, ptr[r]]]
        while stack:
            frame = stack[-1]
            h, i = frame
            if i == ptr[h + 1]:
                stack.pop()
                w.finished.append(h)
                continue
            frame[1] = i + 1
            x = s_head[i]
            if w.visited[x]:
                continue
            w.visited[x] = True
            u = s_src[i]
            w.via[x] = u
            w.depth[x] = w.depth[h] + idepth[u] + 1
            w.spliced.setdefault(h, []).append((x, s_ip[i]))
            stack.append([x, ptr[x]])
    return w, roots[top]


def _assemble(b: _Blocks, walked: Tuple[_Walk, np.ndarray], n: int
              ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Global positions from block starts plus the blocks spliced in before each node."""
    w, top = walked
    total = b.size.copy()  # expanded size: the block and everything spliced into it
    for h in w.finished:
        total[h] += sum(int(total[x]) for x, _ in w.spliced.get(h, ()))
    start = np.full(n, -1, dtype=INT)
    start[top] = np.cumsum(total[top]) - total[top]
    shift_block, shift_ip, shift_add = [], [], []
    for h in reversed(w.finished):  # pre-order of walked blocks: a block's start is known
        done = 0
        for x, ip in w.spliced.get(h, ()):
            start[x] = start[h] + ip + done
            done += int(total[x])
            shift_block.append(h)
            shift_ip.append(ip)
            shift_add.append(done)  # added to nodes of h at positions >= ip
    block = b.block
    live = np.flatnonzero(start[block] >= 0)
    pos = start[block[live]] + b.ipos[live]
    if shift_block:
        key = np.asarray(shift_block, dtype=INT) * (n + 1) + np.asarray(shift_ip, dtype=INT)
        sort = np.argsort(key, kind="stable")  # blocks were listed in pre-order, not id order
        key, add = key[sort], np.asarray(shift_add, dtype=INT)[sort]
        owner = np.asarray(shift_block, dtype=INT)[sort]
        at = np.searchsorted(key, block[live] * (n + 1) + b.ipos[live], side="right") - 1
        ok = at >= 0
        ok[ok] = owner[at[ok]] == block[live[ok]]
        pos[ok] += add[at[ok]]
    order = np.empty(len(live), dtype=INT)
    order[pos] = live
    depth = np.full(n, -1, dtype=INT)
    depth[live] = w.depth[block[live]] + b.idepth[live]
    via = np.where(b.is_head, w.via, b.tparent)
    via[start[block] < 0] = -1
    return order, depth, via
