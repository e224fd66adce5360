"""Call graphs (several parents, recursion) as RawProfile parent links.

Readers of call-graph formats (gprof2dot DOT, cProfile pstats) know a set of
``caller -> callee`` edges; a :class:`~graphframe_readers.RawProfile` wants the roots,
one parent per other node such that every parent chain ends at a root, and
the remaining edges as extra edges. :func:`parents_from_edges` gives them:

* roots are the nodes nobody calls (self-recursion aside), plus one entry
  node for each group of mutually recursive functions that nobody outside
  the group calls (a *source* strongly connected component: for ``python -m
  cProfile`` dumps, ``builtins.exec`` and the import machinery call each
  other and nothing else calls them). The entry is the node of the group with
  the largest ``weight`` (inclusive time), ties going to the first node. The
  groups are only looked for (Tarjan's algorithm) among the nodes that the
  uncalled nodes do not reach, which is usually none;
* the parent of every other node is the node a breadth-first walk from the
  roots discovers it from; all remaining edges (including self-recursion
  ``f -> f``) are extra edges, each listed once.

So every node is reachable, no parent is listed twice, and recursion never
becomes an endless chain of nodes. The parent chosen here only makes the
RawProfile valid: ``GraphFrame.from_raw`` (``Graph.build``) numbers the nodes
depth-first from the roots in frame order and makes each node's first parent
the one it is discovered from there, so users see that choice, not this one.
The walk runs one numpy step per breadth level while levels are wide and a
plain loop for narrow ones (long call chains).
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

INT = np.int64
_WIDE = 64  # frontier size from which a breadth level is processed with numpy


def parents_from_edges(
    n: int,
    src: Sequence[int],
    dst: Sequence[int],
    weight: Sequence[float] | None = None,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Parents and extra edges for a call graph on nodes ``0..n-1``.

    Parameters
    ----------
    n : int
        Number of nodes.
    src, dst : sequences of int
        Caller and callee of every edge (duplicates are dropped).
    weight : sequence of float, optional
        Per node; picks the entry node of a recursive group nobody else calls
        (largest weight wins, NaN counts as smallest).

    Returns
    -------
    parent : numpy.ndarray
        Parent of each node (see the module documentation), ``-1`` for roots.
    extra_src, extra_dst : numpy.ndarray
        The other edges, in input order.

    Examples
    --------
    >>> parent, es, ed = parents_from_edges(3, [0, 1, 2, 1], [1, 2, 1, 1])
    >>> parent.tolist(), list(zip(es.tolist(), ed.tolist()))
    ([-1, 0, 1], [(2, 1), (1, 1)])
    >>> parents_from_edges(2, [0, 1], [1, 0], [1.0, 5.0])[0].tolist()
    [1, -1]
    """
    src, dst = _first_edges(n, src, dst)
    w = np.zeros(n) if weight is None else np.nan_to_num(
        np.asarray(weight, dtype=float), nan=-np.inf)
    walk = _Walk(n, src, dst)
    called = np.zeros(n, dtype=bool)
    called[dst[src != dst]] = True
    uncalled = np.flatnonzero(~called)
    parent, primary, seen = walk.run(uncalled)
    if not seen.all():
        entries = _entries(np.flatnonzero(~seen), src, dst, w)
        roots = np.sort(np.concatenate([uncalled, entries]))
        parent, primary, seen = walk.run(roots)
    return parent, src[~primary], dst[~primary]


def parents_from_roots(n: int, src: Sequence[int], dst: Sequence[int], roots: Sequence[int]
                       ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Like :func:`parents_from_edges` with the roots given: ``(parent, extra_src,
    extra_dst, reached)``, the parent of a node being the one a breadth-first walk from
    ``roots`` (in order) discovers it from; ``reached`` says which nodes the walk reached.

    Examples
    --------
    >>> parent, es, ed, reached = parents_from_roots(4, [0, 0, 1], [2, 1, 2], [0])
    >>> parent.tolist(), list(zip(es.tolist(), ed.tolist())), reached.tolist()
    ([-1, 0, 0, -1], [(1, 2)], [True, True, True, False])
    """
    src, dst = _first_edges(n, src, dst)
    parent, primary, seen = _Walk(n, src, dst).run(np.asarray(roots, dtype=INT))
    return parent, src[~primary], dst[~primary], seen


def ids_in_edge_order(n: int, src: np.ndarray, dst: np.ndarray, parent: np.ndarray,
                      extra_src: np.ndarray, extra_dst: np.ndarray,
                      root_key: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Local node ids and the extra edges' ``order`` under which a RawProfile lists
    every node's children in the order of the edges ``src -> dst`` (the first of
    repeated edges counts), as Hatchet's readers that link nodes edge by edge do.

    A RawProfile places a child reached by its first-parent edge by the child's local
    id and one reached by an extra edge by that edge's ``order``
    (:class:`~graphframe_readers.RawProfile`): so a non-root's id is the position of the
    edge from its first parent, an extra edge's ``order`` its own position, and a root's
    id comes after every edge (``len(src) + root_key``: distinct values per root,
    default the node's number).

    Examples
    --------
    >>> local, order = ids_in_edge_order(
    ...     4, np.array([2, 0, 0, 2]), np.array([3, 1, 2, 1]),
    ...     np.array([-1, 0, 0, 2]), np.array([2]), np.array([1]))
    >>> local.tolist(), order.tolist()
    ([4, 1, 2, 0], [3])
    """
    key = np.asarray(src, dtype=INT) * n + np.asarray(dst, dtype=INT)
    uniq, first_pos = np.unique(key, return_index=True)

    def position(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return first_pos[np.searchsorted(uniq, np.asarray(a, dtype=INT) * n + b)]

    local = np.empty(n, dtype=INT)
    rooted = parent < 0
    local[rooted] = len(key) + (np.arange(n, dtype=INT) if root_key is None
                                else np.asarray(root_key, dtype=INT))[rooted]
    child = np.flatnonzero(~rooted)
    local[child] = position(parent[child], child)
    return local, position(extra_src, extra_dst)


def _first_edges(n: int, src: Sequence[int], dst: Sequence[int]
                 ) -> Tuple[np.ndarray, np.ndarray]:
    """The edges without repeats, each at its first occurrence, in input order."""
    src = np.asarray(src, dtype=INT)
    dst = np.asarray(dst, dtype=INT)
    if len(src):
        _, first = np.unique(src * n + dst, return_index=True)
        keep = np.sort(first)
        src, dst = src[keep], dst[keep]
    return src, dst


def _entries(rest: np.ndarray, src: np.ndarray, dst: np.ndarray, w: np.ndarray) -> np.ndarray:
    """One entry node per source component of the subgraph on ``rest`` (the
    nodes the uncalled ones do not reach: nothing outside calls into them)."""
    local = np.full(len(w), -1, dtype=INT)
    local[rest] = np.arange(len(rest), dtype=INT)
    inside = (local[src] >= 0) & (local[dst] >= 0)
    ls, ld = local[src[inside]], local[dst[inside]]
    comp = strongly_connected(len(rest), ls, ld)
    cross = comp[ls] != comp[ld]
    has_entry = np.zeros(comp.max() + 1, dtype=bool)
    has_entry[comp[ld[cross]]] = True
    candidates = np.flatnonzero(~has_entry[comp])
    # per source component: the node with the largest weight, then lowest id
    order = np.lexsort((rest[candidates], -w[rest[candidates]], comp[candidates]))
    ranked = candidates[order]
    first = np.ones(len(ranked), dtype=bool)
    first[1:] = comp[ranked[1:]] != comp[ranked[:-1]]
    return rest[ranked[first]]


class _Walk:
    """Breadth-first walk over the edges, each node's out-edges in input order;
    a node's parent is the source of the first edge that reaches it."""

    def __init__(self, n: int, src: np.ndarray, dst: np.ndarray) -> None:
        self.n = n
        self.src = src
        self.edge_of = np.argsort(src, kind="stable")
        self.targets = dst[self.edge_of]
        self.ptr = np.zeros(n + 1, dtype=INT)
        np.cumsum(np.bincount(src, minlength=n), out=self.ptr[1:])

    def run(self, roots: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        parent = np.full(self.n, -1, dtype=INT)
        primary = np.zeros(len(self.src), dtype=bool)
        seen = np.zeros(self.n, dtype=bool)
        seen[roots] = True
        frontier = np.asarray(roots, dtype=INT)
        while len(frontier):
            step = self._wide if len(frontier) >= _WIDE else self._narrow
            frontier = step(frontier, parent, primary, seen)
        return parent, primary, seen

    def _wide(self, frontier: np.ndarray, parent: np.ndarray, primary: np.ndarray,
              seen: np.ndarray) -> np.ndarray:
        starts = self.ptr[frontier]
        lens = self.ptr[frontier + 1] - starts
        total = int(lens.sum())
        if not total:
            return frontier[:0]
        offsets = np.cumsum(lens) - lens
        pos = np.arange(total, dtype=INT) - np.repeat(offsets - starts, lens)
        targets = self.targets[pos]
        new = ~seen[targets]
        pos, targets = pos[new], targets[new]
        found, first = np.unique(targets, return_index=True)
        by_discovery = np.argsort(first, kind="stable")
        found, via = found[by_discovery], pos[first[by_discovery]]
        edges = self.edge_of[via]
        seen[found] = True
        parent[found] = self.src[edges]
        primary[edges] = True
        return found

    def _narrow(self, frontier: np.ndarray, parent: np.ndarray, primary: np.ndarray,
                seen: np.ndarray) -> np.ndarray:
        ptr, targets, edge_of = self.ptr, self.targets, self.edge_of
        nxt: List[int] = []
        for v in frontier.tolist():
            for k in range(int(ptr[v]), int(ptr[v + 1])):
                c = int(targets[k])
                if not seen[c]:
                    seen[c] = True
                    parent[c] = v
                    primary[edge_of[k]] = True
                    nxt.append(c)
        return np.asarray(nxt, dtype=INT)


def strongly_connected(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Component number of every node (iterative Tarjan; no recursion).

    Examples
    --------
    >>> strongly_connected(4, np.array([0, 1, 2]), np.array([1, 0, 3])).tolist()
    [0, 0, 1, 2]
    """
    order = np.argsort(src, kind="stable")
    ptr = np.zeros(n + 1, dtype=INT)
    np.cumsum(np.bincount(src, minlength=n), out=ptr[1:])
    ptr_l = ptr.tolist()
    targets = np.asarray(dst, dtype=INT)[order].tolist()
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    comp = [-1] * n
    stack: List[int] = []
    counter = 0
    found = 0
    for start in range(n):
        if index[start] >= 0:
            continue
        work = [(start, ptr_l[start])]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack[start] = True
        while work:
            v, k = work[-1]
            if k < ptr_l[v + 1]:
                work[-1] = (v, k + 1)
                c = targets[k]
                if index[c] < 0:
                    index[c] = low[c] = counter
                    counter += 1
                    stack.append(c)
                    on_stack[c] = True
                    work.append((c, ptr_l[c]))
                elif on_stack[c]:
                    low[v] = min(low[v], index[c])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                while True:
                    x = stack.pop()
                    on_stack[x] = False
                    comp[x] = found
                    if x == v:
                        break
                found += 1
    # number components in order of their first node, for determinism
    comp_arr = np.asarray(comp, dtype=INT)
    if n:
        first_node = np.full(found, n, dtype=INT)
        np.minimum.at(first_node, comp_arr, np.arange(n, dtype=INT))
        rank = np.empty(found, dtype=INT)
        rank[np.argsort(first_node, kind="stable")] = np.arange(found, dtype=INT)
        comp_arr = rank[comp_arr]
    return comp_arr
