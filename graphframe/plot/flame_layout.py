"""Where each box of a flame graph (or icicle) goes: pure numpy, no matplotlib.

A box per node: its depth is the row, its width the node's inclusive value,
and its children sit side by side on the row above, left to right in node-id
order (the order ``tree()`` prints), starting at the parent's left edge.

Rules:

- **First parents.** A node with several parents (a call graph) is drawn once,
  under its first parent (the path ``tree()`` expands it under), like
  ``to_flamegraph`` writes it.
- **Children always fit.** When the children of a box are wider together than
  the box (possible in call graphs, where a shared descendant is counted once
  per node but appears under several children, or in inconsistent data), they
  are scaled down to fit, and so are their subtrees.
- **Small boxes are merged.** A box narrower than ``min_fraction`` of the
  total width is not drawn; the small children of one box become one grey
  box ("(n more)") after its other children, and their descendants are not
  drawn. So a 100,000-node profile draws a few thousand boxes at most.
- Missing values (NaN), zeros and negative values give no box.

The work is a handful of numpy calls per depth level.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List

import numpy as np

INT = np.int64


@dataclass(frozen=True)
class FlameLayout:
    """Boxes of a flame graph, ordered by depth then left edge.

    Attributes
    ----------
    node : numpy.ndarray
        Node id of each box; -1 for a box of merged small nodes.
    parent : numpy.ndarray
        Node id of the box's parent (-1 on the bottom row).
    depth : numpy.ndarray
        Row of each box (0 = roots).
    x, width : numpy.ndarray
        Left edge and width, in the units of the values.
    merged : numpy.ndarray
        Number of nodes a merged box stands for (0 for a node's own box).
    total : float
        Sum of the roots' widths: the width of the whole graph.
    """

    node: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    x: np.ndarray
    width: np.ndarray
    merged: np.ndarray
    total: float

    def __len__(self) -> int:
        return len(self.node)

    @property
    def max_depth(self) -> int:
        """Deepest row drawn (-1 when there is no box)."""
        return int(self.depth.max()) if len(self.depth) else -1


def flame_boxes(parent: np.ndarray, depth: np.ndarray, width: np.ndarray,
                min_fraction: float = 0.001) -> FlameLayout:
    """Lay out a forest given each node's first parent, depth and inclusive width.

    Parameters
    ----------
    parent : numpy.ndarray
        First parent of each node (-1 for roots), a forest.
    depth : numpy.ndarray
        Depth of each node along first parents.
    width : numpy.ndarray
        Inclusive value of each node (NaN, 0 and negative: no box).
    min_fraction : float
        Boxes narrower than this fraction of the total are merged (0: none).

    Examples
    --------
    >>> parent = np.array([-1, 0, 0, 0])
    >>> depth = np.array([0, 1, 1, 1])
    >>> lay = flame_boxes(parent, depth, np.array([10.0, 6.0, 0.5, 0.3]), min_fraction=0.1)
    >>> lay.node.tolist(), lay.x.tolist(), lay.width.tolist(), lay.merged.tolist()
    ([0, 1, -1], [0.0, 0.0, 6.0], [10.0, 6.0, 0.8], [0, 0, 2])
    """
    parent = np.asarray(parent, dtype=INT)
    depth = np.asarray(depth, dtype=INT)
    width = np.asarray(width, dtype=np.float64)
    n = len(parent)
    w = np.where(np.isfinite(width) & (width > 0), width, 0.0)
    if n == 0:
        return _empty()
    levels = _levels(depth)
    eff = _fitted_widths(parent, w, levels)
    roots = levels[0]
    total = float(eff[roots].sum())
    if total <= 0:
        return _empty()
    min_w = float(min_fraction) * total
    keep = np.zeros(n, dtype=bool)
    x = np.zeros(n)
    parts: List[tuple] = []
    for d, level in enumerate(levels):
        p = parent[level] if d else np.full(len(level), -1, dtype=INT)
        live = eff[level] > 0
        if d:
            live &= keep[np.maximum(p, 0)]
        big = live & (eff[level] >= min_w)
        small = live & ~big
        kept, kp = level[big], p[big]
        order = np.argsort(kp, kind="stable")  # group siblings, ids ascending within
        kept, kp = kept[order], kp[order]
        ends = np.cumsum(eff[kept])
        starts = ends - eff[kept]
        first = np.r_[True, kp[1:] != kp[:-1]] if len(kp) else np.zeros(0, dtype=bool)
        group_start = np.maximum.accumulate(np.where(first, np.arange(len(kp)), 0)) \
            if len(kp) else np.zeros(0, dtype=INT)
        base = x[kp] if d else 0.0
        x[kept] = base + starts - starts[group_start]
        keep[kept] = True
        parts.append((kept, kp, np.full(len(kept), d), x[kept], eff[kept],
                      np.zeros(len(kept), dtype=INT)))
        if small.any():
            parts.append(_merged(level[small], p[small], kept, kp, eff, x, d))
    return _assemble(parts, total)


def _levels(depth: np.ndarray) -> List[np.ndarray]:
    order = np.argsort(depth, kind="stable")
    bounds = np.cumsum(np.bincount(depth))
    return np.split(order, bounds[:-1])


def _fitted_widths(parent: np.ndarray, w: np.ndarray, levels: List[np.ndarray]) -> np.ndarray:
    """Widths after scaling every group of children down to fit its parent."""
    n = len(parent)
    child = parent >= 0
    child_sum = np.bincount(parent[child], weights=w[child], minlength=n)
    eff = np.zeros(n)
    ratio = np.zeros(n)
    for d, level in enumerate(levels):
        eff[level] = w[level] if d == 0 else w[level] * ratio[parent[level]]
        denom = np.maximum(w[level], child_sum[level])
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio[level] = np.where(denom > 0, eff[level] / denom, 0.0)
    return eff


def _merged(small: np.ndarray, sp: np.ndarray, kept: np.ndarray, kp: np.ndarray,
            eff: np.ndarray, x: np.ndarray, d: int) -> tuple:
    """One box per parent for its small children, after its kept children."""
    owners, inverse = np.unique(sp, return_inverse=True)
    widths = np.bincount(inverse, weights=eff[small], minlength=len(owners))
    counts = np.bincount(inverse, minlength=len(owners)).astype(INT)
    if d == 0:
        left = np.full(len(owners), float(eff[kept].sum()))
    else:
        kept_sum = np.zeros(len(owners))
        pos = np.searchsorted(owners, kp)
        hit = (pos < len(owners)) & (owners[np.minimum(pos, len(owners) - 1)] == kp)
        np.add.at(kept_sum, pos[hit], eff[kept[hit]])
        left = x[owners] + kept_sum
    return (np.full(len(owners), -1, dtype=INT), owners, np.full(len(owners), d), left,
            widths, counts)


def _assemble(parts: List[tuple], total: float) -> FlameLayout:
    if not parts:
        return _empty()
    node, parent, depth, x, width, merged = (np.concatenate([p[i] for p in parts])
                                             for i in range(6))
    order = np.lexsort((x + 0.5 * width, depth))  # centres: a tiny box at a shared edge
    # sorts on the side it belongs to
    return FlameLayout(node[order].astype(INT), parent[order].astype(INT),
                       depth[order].astype(INT), x[order].astype(np.float64),
                       width[order].astype(np.float64), merged[order].astype(INT), total)


def _empty() -> FlameLayout:
    z = np.zeros(0, dtype=INT)
    return FlameLayout(z, z, z, np.zeros(0), np.zeros(0), z, 0.0)
