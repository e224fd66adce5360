"""Call graphs (several parents, recursion) as RawProfile parent links.

Readers of call-graph formats (gprof2dot DOT, cProfile pstats) know a set of
``caller -> callee`` edges; a :class:`~readers.RawProfile` wants one *first*
parent per node whose chains end at a root, plus the other edges as extra
edges. :func:`parents_from_edges` chooses them:

* roots are the nodes nobody calls, plus one entry node for each group of
  mutually recursive functions that nobody outside the group calls (a
  *source* strongly connected component: for ``python -m cProfile`` dumps,
  ``builtins.exec`` and the import machinery call each other and nothing
  else calls them). The entry is the node of the group with the largest
  ``weight`` (inclusive time), ties going to the first node;
* every other node's first parent is the node a breadth-first walk from the
  roots discovers it from; all remaining edges (including self-recursion
  ``f -> f``) are extra edges, each listed once.

So every node is reachable, no parent is listed twice, and recursion never
becomes an endless chain of nodes.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

import numpy as np

INT = np.int64


def parents_from_edges(
    n: int,
    src: Sequence[int],
    dst: Sequence[int],
    weight: Sequence[float] | None = None,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """First parents and extra edges for a call graph on nodes ``0..n-1``.

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
        First parent of each node, ``-1`` for roots.
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
    src = np.asarray(src, dtype=INT)
    dst = np.asarray(dst, dtype=INT)
    if len(src):
        key = src * n + dst
        _, first = np.unique(key, return_index=True)
        keep = np.sort(first)
        src, dst = src[keep], dst[keep]
    w = np.zeros(n) if weight is None else np.nan_to_num(
        np.asarray(weight, dtype=float), nan=-np.inf)
    roots = _roots(n, src, dst, w)
    parent, primary = _bfs_parents(n, src, dst, roots)
    return parent, src[~primary], dst[~primary]


def _roots(n: int, src: np.ndarray, dst: np.ndarray, w: np.ndarray) -> List[int]:
    comp = strongly_connected(n, src, dst)
    cross = comp[src] != comp[dst]
    has_entry = np.zeros(comp.max() + 1 if n else 0, dtype=bool)
    has_entry[comp[dst[cross]]] = True
    candidates = np.flatnonzero(~has_entry[comp])
    if not len(candidates):
        return []
    # per source component: the node with the largest weight, then lowest id
    order = np.lexsort((candidates, -w[candidates], comp[candidates]))
    ranked = candidates[order]
    first = np.ones(len(ranked), dtype=bool)
    first[1:] = comp[ranked[1:]] != comp[ranked[:-1]]
    return sorted(ranked[first].tolist())


def _bfs_parents(n: int, src: np.ndarray, dst: np.ndarray,
                 roots: List[int]) -> Tuple[np.ndarray, np.ndarray]:
    order = np.argsort(src, kind="stable")
    ptr = np.zeros(n + 1, dtype=INT)
    np.cumsum(np.bincount(src, minlength=n), out=ptr[1:])
    targets = dst[order].tolist()
    edge_of = order.tolist()
    ptr_l = ptr.tolist()
    parent = np.full(n, -1, dtype=INT)
    primary = np.zeros(len(src), dtype=bool)
    seen = np.zeros(n, dtype=bool)
    seen[roots] = True
    frontier = list(roots)
    while frontier:
        nxt = []
        for v in frontier:
            for k in range(ptr_l[v], ptr_l[v + 1]):
                c = targets[k]
                if not seen[c]:
                    seen[c] = True
                    parent[c] = v
                    primary[edge_of[k]] = True
                    nxt.append(c)
        frontier = nxt
    return parent, primary


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
