"""Aligning frames that are full grids: one row per node and value of the other levels.

A frame indexed by ``(node, rank[, thread])`` whose rows come in node
blocks, each holding every combination of the other levels' values in level
order (every node measured on every rank, as profiles of MPI runs are), is
a grid. Two grids with the same other levels align node by node: each block
of rows lands in the output block of its new node id, so no per-row key is
built, sorted or decoded (:func:`graphframe.ops.align.align_frames` does that
for any other pair of frames, with the same result).

Examples
--------
>>> import numpy as np, pandas as pd
>>> idx = pd.MultiIndex.from_product([[0, 1], [0, 1]], names=["node", "rank"])
>>> n_rows, pos_l, pos_r, make_index = grid_alignment(idx, np.array([1, 2]), idx[:2], None)
>>> n_rows, pos_l.tolist(), pos_r.tolist()
(6, [2, 3, 4, 5], [0, 1])
>>> make_index().tolist()
[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
"""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple, Union

import numpy as np
import pandas as pd

from ..model.dataframe import code_dtype

INT = np.int64

Positions = Union[np.ndarray, slice]
Grid = Tuple[int, Positions, Positions, Callable[[], pd.Index]]


def grid_alignment(index_l: pd.Index, map_l: Optional[np.ndarray], index_r: pd.Index,
                   map_r: Optional[np.ndarray]) -> Optional[Grid]:
    """``(n_rows, pos_l, pos_r, make_index)`` for two grids whose node ids map through
    ``map_l``/``map_r`` (None: unchanged); None when either index is no grid, their
    other levels differ or a frame has two blocks for one new node.

    The positions are ``slice(None)`` when both frames hold the same nodes in
    increasing order, as :func:`graphframe.ops.align.align_frames` gives.
    """
    if not (isinstance(index_l, pd.MultiIndex) and isinstance(index_r, pd.MultiIndex)):
        return None
    names = list(index_l.names)
    if names[0] != "node" or list(index_r.names) != names:
        return None
    level_values = [np.asarray(lv) for lv in index_l.levels[1:]]
    for lv, other in zip(level_values, index_r.levels[1:]):
        other = np.asarray(other)
        if not (lv.dtype.kind in "iu" and other.dtype == lv.dtype and len(lv)
                and np.array_equal(lv, other) and bool(np.all(lv[1:] > lv[:-1]))):
            return None
    sizes = [len(lv) for lv in level_values]
    block = int(np.prod(sizes))
    nodes_l = _block_nodes(index_l, sizes, block)
    nodes_r = _block_nodes(index_r, sizes, block) if nodes_l is not None else None
    if nodes_r is None:
        return None
    new_l = nodes_l if map_l is None else map_l[nodes_l]
    new_r = nodes_r if map_r is None else map_r[nodes_r]
    span = int(max(new_l.max(initial=-1), new_r.max(initial=-1))) + 1
    seen_l, seen_r = _seen(new_l, span), _seen(new_r, span)
    if seen_l is None or seen_r is None:
        return None  # two blocks of one frame share a new node: their rows must merge
    if len(new_l) == len(new_r) and np.array_equal(new_l, new_r) \
            and bool(np.all(new_l[1:] > new_l[:-1])):
        nodes, pos_l, pos_r = new_l, slice(None), slice(None)
    else:
        either = seen_l | seen_r
        nodes = np.flatnonzero(either)
        out_block = np.cumsum(either) - 1
        pos_l = _block_rows(out_block[new_l], block)
        pos_r = _block_rows(out_block[new_r], block)

    def make_index() -> pd.Index:
        return _grid_index(nodes, level_values, sizes, names)

    return len(nodes) * block, pos_l, pos_r, make_index


def _block_nodes(index: pd.MultiIndex, sizes: List[int], block: int) -> Optional[np.ndarray]:
    """The node id of each block of a grid index, or None when it is no grid."""
    codes = [np.asarray(c) for c in index.codes]
    n = len(codes[0])
    if not n or n % block:
        return None
    blocks = n // block
    if len(codes) == 2:
        within = codes[1]
    else:  # the combined code of the other levels, last level fastest
        within = np.zeros(n, dtype=INT)
        for c, size in zip(codes[1:], sizes):
            within *= size
            within += c
    if not bool((within.reshape(blocks, block) == np.arange(block)).all()):
        return None
    node_codes = codes[0].reshape(blocks, block)
    first = node_codes[:, 0]
    if first.min() < 0 or not bool((node_codes == first[:, None]).all()):
        return None
    return np.asarray(index.levels[0], dtype=INT)[first]


def _seen(ids: np.ndarray, span: int) -> Optional[np.ndarray]:
    """A mask of ``ids`` over ``0..span-1``; None when an id repeats."""
    seen = np.zeros(span, dtype=bool)
    seen[ids] = True
    return seen if int(np.count_nonzero(seen)) == len(ids) else None


def _block_rows(out_block: np.ndarray, block: int) -> np.ndarray:
    """Output row of every row of a frame whose blocks go to ``out_block``."""
    return (out_block[:, None] * block + np.arange(block, dtype=INT)).reshape(-1)


def _grid_index(nodes: np.ndarray, level_values: List[np.ndarray], sizes: List[int],
                names: List[str]) -> pd.MultiIndex:
    """The index of the grid over ``nodes`` (sorted): level values and codes made
    directly, in the code types pandas keeps."""
    k = len(nodes)
    block = int(np.prod(sizes))
    codes = [np.repeat(np.arange(k, dtype=code_dtype(k)), block)]
    stride = block
    for size in sizes:
        stride //= size
        pattern = (np.arange(block, dtype=INT) // stride) % size
        codes.append(np.tile(pattern.astype(code_dtype(size)), k))
    levels = [nodes] + [lv.copy() for lv in level_values]
    return pd.MultiIndex(levels=levels, codes=codes, names=names, verify_integrity=False)
