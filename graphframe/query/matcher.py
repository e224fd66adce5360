"""The path matcher: which nodes lie on a path that matches a query.

A query is a sequence of steps, each ``"."`` (exactly one node) or ``"*"``
(zero or more nodes) with a node mask (the nodes satisfying its predicate).
A match is a downward walk ``v1 -> v2 -> ... -> vk`` (k >= 1) that the steps
consume in order. The result is the set of nodes on any match.

The search runs over *states* ``(node, step)`` = "this node is consumed by
this step", each decided once (memoised as one boolean array per step):

* forward: ``F[s]`` = states reachable from a start (a node consumed by the
  first step, or by a later step when every step before it is a ``"*"``);
* backward: ``B[s]`` = states of ``F[s]`` from which the rest of the query can
  be completed (the remaining steps are all ``"*"``, or a child state in
  ``B[t]`` for a step ``t`` that may come next).

A node is in the result iff some ``B[s]`` holds. A ``"*"`` is a self-loop:
``F`` is closed downward and ``B`` upward within the step's nodes. On trees
and forests the closures are pointer jumping (down) and a search over
subtree ranges (up), O(n log n) with O(log depth) numpy passes; on graphs
with shared nodes or cycles they are frontier searches with a visited mask,
so cycles terminate. Every ``"*"`` matches as many nodes as possible along
every path (Hatchet's ``"*"`` stops at the first node that matches the next
step; see docs/query.md).
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

import numpy as np

INT = np.int64


class Structure:
    """The arrays of one graph that matching needs (edges, subtree ranges).

    Examples
    --------
    >>> from graphframe import Graph
    >>> s = Structure(Graph.from_lists(("a", ("b", "c"), "d")))
    >>> s.size.tolist(), s.child_any(np.array([False, False, True, False])).tolist()
    ([4, 2, 1, 1], [False, True, False, False])
    """

    def __init__(self, graph) -> None:
        self.graph = graph
        self.n = graph.num_nodes
        self.forest = bool(graph.is_forest)
        self.parent = np.asarray(graph.parent, dtype=INT)
        self.nonroot = np.flatnonzero(self.parent >= 0)
        self._size = None

    @property
    def size(self) -> np.ndarray:
        """Subtree sizes of a forest: last descendant (pointer jumping) - id + 1."""
        if self._size is None:
            self._size = _last_descendant(self.parent, self.nonroot) - \
                np.arange(self.n, dtype=INT) + 1
        return self._size

    # -------------------------------------------------------- one edge step
    def parent_any(self, x: np.ndarray) -> np.ndarray:
        """Nodes with at least one parent in ``x``."""
        out = np.zeros(self.n, dtype=bool)
        if self.forest:
            out[self.nonroot] = x[self.parent[self.nonroot]]
        else:
            kids = _gather(self.graph.child_ptr, self.graph.child_idx, np.flatnonzero(x))
            out[kids] = True
        return out

    def child_any(self, x: np.ndarray) -> np.ndarray:
        """Nodes with at least one child in ``x``."""
        out = np.zeros(self.n, dtype=bool)
        if self.forest:
            sel = np.flatnonzero(x[self.nonroot])
            out[self.parent[self.nonroot[sel]]] = True
        else:
            pars = _gather(self.graph.parent_ptr, self.graph.parent_idx, np.flatnonzero(x))
            out[pars] = True
        return out

    # ------------------------------------------------------------- closures
    def close_down(self, seed: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Nodes reachable from ``seed`` by child steps through ``mask`` nodes."""
        if self.forest:
            cand = np.flatnonzero(mask & ~seed)
            if not len(cand):
                return seed.copy()
            ptr = _jump(self.parent, seed | ~mask, cand)
            anc = ptr[cand]
            out = seed.copy()
            out[cand[anc >= 0]] = seed[anc[anc >= 0]]
            return out
        return _frontier(self.graph.child_ptr, self.graph.child_idx, seed, mask)

    def close_up(self, seed: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Nodes of ``mask`` from which a ``seed`` is reachable through ``mask`` nodes."""
        if not self.forest:
            return _frontier(self.graph.parent_ptr, self.graph.parent_idx, seed, mask)
        members = np.flatnonzero(mask)
        seeds = np.flatnonzero(seed)
        if not len(seeds) or len(seeds) == len(members):
            return seed.copy()
        parent = self.parent
        has_mask_parent = np.zeros(self.n, dtype=bool)
        has_mask_parent[self.nonroot] = mask[parent[self.nonroot]]
        is_top = mask & ~has_mask_parent
        inner = np.flatnonzero(mask & has_mask_parent)
        top = np.arange(self.n, dtype=INT)
        if len(inner):
            top[inner] = _jump(parent, is_top | ~mask, inner)[inner]
        # u reaches seed w through mask nodes iff w is in u's subtree and in
        # u's mask component (same top): search seeds sorted by (top, id)
        n = INT(max(self.n, 1))
        keys = np.sort(top[seeds] * n + seeds)
        lo = top[members] * n + members
        hi = lo + self.size[members]
        pos = np.searchsorted(keys, lo)
        found = pos < len(keys)
        found[found] = keys[pos[found]] < hi[found]
        out = np.zeros(self.n, dtype=bool)
        out[members[found]] = True
        return out


def _last_descendant(parent: np.ndarray, nonroot: np.ndarray) -> np.ndarray:
    """Last descendant in pre-order of every node of a forest (itself for a leaf).

    Follows "last child" pointers by pointer jumping: O(n log depth), so deep
    chains cost a few passes, not one pass per level.
    """
    n = len(parent)
    ptr = np.arange(n, dtype=INT)
    np.maximum.at(ptr, parent[nonroot], nonroot)
    todo = np.flatnonzero(ptr != np.arange(n))
    while len(todo):
        nxt = ptr[ptr[todo]]
        moved = nxt != ptr[todo]
        ptr[todo] = nxt
        todo = todo[moved]
    return ptr


def _jump(parent: np.ndarray, stop: np.ndarray, active: np.ndarray) -> np.ndarray:
    """Nearest strict ancestor in ``stop`` of every node of ``active`` (-1: none).

    Pointer jumping; every non-stop node on those ancestor chains must itself
    be in ``active``.
    """
    ptr = np.full(len(parent), -1, dtype=INT)
    ptr[active] = parent[active]
    todo = active[ptr[active] >= 0]
    while len(todo):
        todo = todo[~stop[ptr[todo]]]
        if not len(todo):
            break
        ptr[todo] = ptr[ptr[todo]]
        todo = todo[ptr[todo] >= 0]
    return ptr


def _gather(ptr: np.ndarray, idx: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Concatenated CSR lists of ``nodes``."""
    starts = ptr[nodes]
    lens = ptr[nodes + 1] - starts
    total = int(lens.sum())
    if not total:
        return np.zeros(0, dtype=INT)
    offsets = np.repeat(starts - np.cumsum(lens) + lens, lens) + np.arange(total, dtype=INT)
    return idx[offsets]


def _frontier(ptr: np.ndarray, idx: np.ndarray, seed: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Closure of ``seed`` along CSR edges through ``mask`` nodes (visited mask: cycles end)."""
    reached = seed.copy()
    frontier = np.flatnonzero(seed)
    while len(frontier):
        nxt = _gather(ptr, idx, frontier)
        nxt = np.unique(nxt[mask[nxt] & ~reached[nxt]])
        reached[nxt] = True
        frontier = nxt
    return reached


def _successors(stars: Sequence[bool]) -> Tuple[List[List[int]], List[bool], List[int]]:
    """For each step: the later steps that may consume the next node; accepting steps; starts."""
    m = len(stars)

    def after(i: int) -> List[int]:
        out = []
        for k in range(i + 1, m):
            out.append(k)
            if not stars[k]:
                break
        return out

    succ = [after(i) for i in range(m)]
    accept = [all(stars[i + 1:]) for i in range(m)]
    return succ, accept, after(-1)


def match_path(structure: Structure, masks: Sequence[np.ndarray],
               stars: Sequence[bool]) -> np.ndarray:
    """Boolean array over nodes: the nodes on any walk matching the steps.

    Parameters
    ----------
    structure : Structure
        The graph's arrays.
    masks : sequence of bool arrays
        Per step, the nodes satisfying its predicate.
    stars : sequence of bool
        Per step, ``True`` for ``"*"`` and ``False`` for ``"."``.

    Examples
    --------
    >>> from graphframe import Graph
    >>> g = Graph.from_lists(("a", ("c", ("c", "z")), ("b", ("x", "c"))))
    >>> names = g.attrs["name"].to_numpy()
    >>> [n for n in names]
    ['a', 'b', 'x', 'c', 'c', 'c', 'z']
    >>> s = Structure(g)
    >>> ok = match_path(s, [names == "a", np.ones(7, bool), names == "c"], [False, True, False])
    >>> np.flatnonzero(ok).tolist()
    [0, 1, 2, 3, 4, 5]
    """
    m = len(masks)
    succ, accept, starts = _successors(stars)
    incoming: List[List[int]] = [[] for _ in range(m)]
    for i, nxt in enumerate(succ):
        for k in nxt:
            incoming[k].append(i)
    n = structure.n
    forward: List[np.ndarray] = []
    for k in range(m):
        seed = masks[k].copy() if k in starts else np.zeros(n, dtype=bool)
        if incoming[k]:
            before = np.zeros(n, dtype=bool)
            for i in incoming[k]:
                before |= forward[i]
            if before.any():
                seed |= masks[k] & structure.parent_any(before)
        forward.append(structure.close_down(seed, masks[k]) if stars[k] and seed.any() else seed)
    result = np.zeros(n, dtype=bool)
    backward: List[np.ndarray] = [np.zeros(0, dtype=bool)] * m
    for k in reversed(range(m)):
        if accept[k]:
            seed = forward[k].copy()
        else:
            after_k = np.zeros(n, dtype=bool)
            for j in succ[k]:
                after_k |= backward[j]
            seed = forward[k] & structure.child_any(after_k) if after_k.any() else after_k
        if stars[k] and seed.any():
            seed = structure.close_up(seed, forward[k])
        backward[k] = seed
        result |= seed
    return result
