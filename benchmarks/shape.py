"""Shapes of generated calling-context trees, built level by level with numpy.

A :class:`Tree` holds positional arrays: node ``i``'s parent is a position
``< i`` (nodes are stored shallowest level first), so every pass below is a
loop over depth levels (tens of them) with array work inside, never a loop
over nodes.

Shape of :func:`grow`:

* a single root ``main``; a *bulk* of levels whose sizes grow geometrically
  from the root, peak at mid depth and thin out (most nodes sit at depth
  5-15, as in real CCTs); parents are drawn with heavy-tailed weights, so a
  few dispatcher nodes have many children and most nodes are leaves;
  library functions (MPI, libc) almost never have children;
* a few deep *chains* below the bulk (a recursive solver calling itself down
  to ``depth``), each chain node with a few leaf children, ending in a hot
  kernel;
* names drawn from a skewed vocabulary, unique among siblings, so the same
  name appears in many call paths but never twice under one parent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import numpy as np

from .vocabulary import Vocabulary, draw

INT = np.int64


@dataclass(frozen=True)
class Tree:
    """Positional tree arrays.

    ``ids`` are the node ids written to the profile; ``parent`` holds
    positions (``-1`` for the root) and ``parent[i] < i``; ``code`` indexes
    the vocabulary; ``hot`` marks the kernels at the bottom of the chains.
    """

    ids: np.ndarray
    parent: np.ndarray
    code: np.ndarray
    depth: np.ndarray
    hot: np.ndarray

    def __len__(self) -> int:
        return len(self.parent)

    def has_children(self) -> np.ndarray:
        """True for nodes with at least one child."""
        kids = self.parent[self.parent >= 0]
        return np.bincount(kids, minlength=len(self)) > 0


def grow(n: int, vocab: Vocabulary, rng: np.random.Generator, depth: int = 64,
         chains: Optional[int] = None) -> Tree:
    """A tree of exactly ``n`` nodes (see the module docstring for its shape).

    Examples
    --------
    >>> from benchmarks.vocabulary import make_vocabulary
    >>> rng = np.random.default_rng(0)
    >>> t = grow(1000, make_vocabulary(200, rng), rng, depth=30)
    >>> len(t), int(t.depth.max()), bool((t.parent < np.arange(1000)).all())
    (1000, 30, True)
    """
    if n < 1:
        raise ValueError(f"a profile needs at least one node, not {n}")
    depth = max(1, int(depth))
    bulk_levels = int(np.clip(round(2 * np.log10(max(n, 2))) + 6, 1, depth))
    n_chains = int(chains) if chains is not None else int(np.clip(n // 2500, 1, 8))
    chain_len = depth - bulk_levels
    if n_chains * chain_len * (1 + LEAVES_PER_LINK) > n / 4:
        chain_len = int(n / 4 / (max(n_chains, 1) * (1 + LEAVES_PER_LINK)))
    if chain_len < 1:
        n_chains, chain_len = 0, 0
    expected_chain = int(n_chains * chain_len * (1 + LEAVES_PER_LINK))
    levels = _Levels(vocab.root_code)
    for level, size in enumerate(_level_sizes(n - 1 - expected_chain, bulk_levels), start=1):
        _bulk_level(levels, size, library=level > 2, vocab=vocab, rng=rng)
    deepest_bulk = levels.last()
    hot = np.zeros(0, dtype=INT)
    if n_chains:
        hot = _chains(levels, n, n_chains, chain_len, vocab, rng)
    if levels.size < n:  # rounding leftovers: leaves of the deepest bulk level
        extra = n - levels.size
        par = np.sort(rng.choice(deepest_bulk, size=extra))
        code = _unique_siblings(par, draw(vocab, extra, rng), np.zeros(extra, bool), vocab, rng,
                                others=levels.children_of(par))
        levels.add(par, code)
    parent, code = levels.arrays()
    is_hot = np.zeros(n, dtype=bool)
    is_hot[hot] = True
    return Tree(np.arange(n, dtype=INT), parent, code, depth_of(parent), is_hot)


#: Mean number of leaf children of each link of a deep chain.
LEAVES_PER_LINK = 1.5


class _Levels:
    """The tree under construction, one block of nodes per depth level."""

    def __init__(self, root_code: int) -> None:
        self.parents: List[np.ndarray] = [np.array([-1], dtype=INT)]
        self.codes: List[np.ndarray] = [np.array([root_code], dtype=INT)]
        self.size = 1

    def add(self, parent: np.ndarray, code: np.ndarray) -> np.ndarray:
        """Append a level; return the positions of its nodes."""
        self.parents.append(parent)
        self.codes.append(code)
        self.size += len(parent)
        return np.arange(self.size - len(parent), self.size, dtype=INT)

    def last(self) -> np.ndarray:
        """Positions of the last level added."""
        return np.arange(self.size - len(self.parents[-1]), self.size, dtype=INT)

    def children_of(self, wanted: np.ndarray) -> tuple:
        """(parent, code) of the nodes whose parent is in ``wanted``."""
        parent, code = self.arrays()
        mask = np.isin(parent, wanted)
        return parent[mask], code[mask]

    def arrays(self) -> tuple:
        return np.concatenate(self.parents), np.concatenate(self.codes)


def _bulk_level(levels: _Levels, size: int, library: bool, vocab: Vocabulary,
                rng: np.random.Generator) -> None:
    """A level whose parents are drawn from the previous level with heavy-tailed weights."""
    prev = levels.last()
    weights = rng.lognormal(0.0, 1.2, len(prev))
    weights[levels.codes[-1] < vocab.n_library] *= 0.01
    par = np.sort(rng.choice(prev, size=size, p=weights / weights.sum()))
    drawn = draw(vocab, size, rng, library=library)
    levels.add(par, _unique_siblings(par, drawn, np.zeros(size, bool), vocab, rng))


def _chains(levels: _Levels, n: int, n_chains: int, chain_len: int, vocab: Vocabulary,
            rng: np.random.Generator) -> np.ndarray:
    """Deep recursive chains below the last level; return the hot kernels' positions."""
    prev = levels.last()
    links = prev[levels.codes[-1] >= vocab.n_library]
    if len(links) == 0:
        links = prev
    links = np.sort(rng.choice(links, size=min(n_chains, len(links)), replace=False))
    recursive = vocab.recursive_codes()
    chain_code = recursive[np.arange(len(links)) % len(recursive)]
    for step in range(chain_len):
        last = step == chain_len - 1
        leaves = rng.poisson(LEAVES_PER_LINK, len(links))
        if last:  # the kernels at the bottom are leaves
            leaves[:] = 0
        budget = n - levels.size - len(links) * (chain_len - step)
        if leaves.sum() > budget:
            leaves = _trim(leaves, max(budget, 0))
        par = np.concatenate([links, np.repeat(links, leaves)])
        fixed = np.zeros(len(par), bool)
        fixed[:len(links)] = True
        link_code = vocab.kernel_codes()[np.arange(len(links)) % 3] if last else chain_code
        code = np.concatenate([link_code, draw(vocab, int(leaves.sum()), rng)])
        order = np.argsort(par, kind="stable")
        par, code, fixed = par[order], code[order], fixed[order]
        links = levels.add(par, _unique_siblings(par, code, fixed, vocab, rng))[fixed]
    return links


def _level_sizes(total: int, levels: int, growth: int = 8) -> List[int]:
    """Bulk level sizes: geometric growth from the root, a peak at mid depth."""
    total = max(total, 0)
    levels = max(min(levels, total), 0)
    if levels == 0:
        return []
    d = np.arange(1, levels + 1, dtype=float)
    shape = d ** 3 * np.exp(-6.0 * d / levels)
    sizes, prev, remaining = [], 1, total
    for i in range(levels):
        left = levels - i
        if left == 1:
            size = remaining
        else:
            share = remaining * shape[i] / shape[i:].sum()
            size = int(min(max(round(share), 1), prev * growth, remaining - (left - 1)))
        sizes.append(size)
        prev, remaining = size, remaining - size
    return sizes


def _trim(counts: np.ndarray, budget: int) -> np.ndarray:
    """Scale non-negative ``counts`` down so they sum to ``budget``."""
    cum = np.minimum(np.cumsum(counts), budget)
    return np.diff(np.concatenate([[0], cum]))


def _unique_siblings(parent: np.ndarray, code: np.ndarray, fixed: np.ndarray,
                     vocab: Vocabulary, rng: np.random.Generator,
                     others: Optional[tuple] = None) -> np.ndarray:
    """Redraw codes so no two siblings share one; ``fixed`` codes never change.

    ``others`` gives (parent, code) of existing siblings that also count.
    Redraws are uniform over the application names, which outnumber any
    node's children, so a few rounds settle it.
    """
    code = code.copy()
    lo, hi = vocab.n_library + 4, len(vocab)
    n = len(code)
    if others is not None and len(others[0]):
        parent = np.concatenate([others[0], parent])
        fixed = np.concatenate([np.ones(len(others[0]), bool), fixed])
        code = np.concatenate([others[1], code])
    for _ in range(200):
        key = parent * (len(vocab) + 1) + code
        order = np.lexsort((~fixed, key))
        dup_sorted = np.zeros(len(key), bool)
        dup_sorted[1:] = key[order][1:] == key[order][:-1]
        dup = order[dup_sorted]
        if not len(dup):
            return code[len(code) - n:]
        if fixed[dup].any():
            raise ValueError("two fixed siblings share a name")
        code[dup] = rng.integers(lo, hi, len(dup))
    raise RuntimeError("could not make sibling names unique; enlarge the vocabulary")


def depth_of(parent: np.ndarray) -> np.ndarray:
    """Depth from positional parents with ``parent[i] < i`` (pointer jumping)."""
    depth = (parent >= 0).astype(INT)
    anc = parent.copy()
    while True:
        active = np.flatnonzero(anc >= 0)
        if not len(active):
            return depth
        depth[active] += depth[anc[active]]
        anc[active] = anc[anc[active]]


def levels(depth: np.ndarray) -> List[np.ndarray]:
    """Positions grouped by depth, shallowest first."""
    order = np.argsort(depth, kind="stable")
    return np.split(order, np.cumsum(np.bincount(depth))[:-1])


def subtree_sizes(tree: Tree) -> np.ndarray:
    """Number of nodes in each node's subtree (itself included)."""
    size = np.ones(len(tree), dtype=INT)
    for level in reversed(levels(tree.depth)[1:]):
        size += np.bincount(tree.parent[level], weights=size[level],
                            minlength=len(tree)).astype(INT)
    return size


def propagate_down(tree: Tree, mark: np.ndarray) -> np.ndarray:
    """``mark`` extended to every descendant of a marked node."""
    mark = mark.copy()
    for level in levels(tree.depth)[1:]:
        mark[level] |= mark[tree.parent[level]]
    return mark


def vary(tree: Tree, vocab: Vocabulary, fraction: float, rng: np.random.Generator
         ) -> "tuple[Tree, np.ndarray]":
    """The same program with about ``fraction`` of its call paths changed.

    Half of the change removes small subtrees (about ``fraction / 2`` of the
    nodes), half adds new small subtrees (as many nodes) under existing
    functions; new node ids continue after the largest id. Returns the new
    tree and, for each of its nodes, the position it had in ``tree`` (-1 for
    an added node).

    Examples
    --------
    >>> from benchmarks.vocabulary import make_vocabulary
    >>> rng = np.random.default_rng(0)
    >>> vocab = make_vocabulary(300, rng)
    >>> base = grow(2000, vocab, rng)
    >>> var, old = vary(base, vocab, 0.1, np.random.default_rng(1))
    >>> int((old < 0).sum()), 1800 < len(var) < 2200
    (100, True)
    """
    n = len(tree)
    half = int(round(fraction / 2 * n))
    removed = np.zeros(n, dtype=bool)
    if half:
        size = subtree_sizes(tree)
        cap = max(1, half // 25)
        for _ in range(10):
            missing = half - int(removed.sum())
            if missing <= max(1, half // 10):
                break
            cand = np.flatnonzero((tree.parent >= 0) & (size <= min(cap, missing)) & ~removed)
            if not len(cand):
                break
            cand = rng.permutation(cand)
            take = int(np.searchsorted(np.cumsum(size[cand]), missing, side="right"))
            removed[cand[:max(take, 1)]] = True
            removed = propagate_down(tree, removed)
    keep = ~removed
    new_pos = np.cumsum(keep) - 1
    kept_parent = tree.parent[keep]
    kept_parent = np.where(kept_parent >= 0, new_pos[np.maximum(kept_parent, 0)], -1)
    n_kept = int(keep.sum())

    # additions: small random recursive trees hung under surviving functions
    hosts = np.flatnonzero(tree.code[keep] >= vocab.n_library)
    if not len(hosts):
        hosts = np.arange(n_kept)
    n_roots = max(1, half // 6) if half else 0
    anchor = rng.choice(hosts, size=n_roots) if n_roots else np.zeros(0, INT)
    j = np.arange(n_roots, half)
    inner = n_kept + (rng.random(len(j)) * j).astype(INT)
    added_parent = np.concatenate([anchor, inner]).astype(INT)
    parent = np.concatenate([kept_parent, added_parent])
    fixed = np.concatenate([np.ones(n_kept, bool), np.zeros(half, bool)])
    code = np.concatenate([tree.code[keep], draw(vocab, half, rng)])
    code = _unique_siblings(parent, code, fixed, vocab, rng)
    next_id = int(tree.ids.max()) + 1
    ids = np.concatenate([tree.ids[keep], np.arange(next_id, next_id + half, dtype=INT)])
    hot = np.concatenate([tree.hot[keep], np.zeros(half, bool)])
    old = np.concatenate([np.flatnonzero(keep), np.full(half, -1, dtype=INT)])
    return Tree(ids, parent, code, depth_of(parent), hot), old
