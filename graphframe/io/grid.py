"""The dataframe of a RawProfile whose rows come in complete blocks, one per rank (or thread).

Readers of per-rank files (HPCToolkit metric-db files, profile.db profiles)
produce rows block by block: every block lists the same nodes in the same
order, and the one index level besides ``node`` is constant within a block
and increasing from block to block. The dataframe wants the rows sorted by
``(node, rank)``, i.e. the transpose of that layout. This module builds it
without any row-sized index array:

* the sort order is computed on one block (``perm``: block position of the
  k-th node in id order);
* a metric column is transposed block by block into its final array (one
  block-sized temporary at a time);
* a per-node column (``name``, ``file``...) is gathered once per node and
  repeated per block (``numpy.repeat`` / ``ExtensionArray.repeat``).

With ``consume``, each column of ``raw.metrics`` is deleted as soon as it has
been copied, so the raw values and the finished columns never coexist in
full: the peak of a large read is the finished dataframe plus one column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

import numpy as np
import pandas as pd

from graphframe_readers import RawProfile
from graphframe_readers.heap import release_free_heap
from graphframe_readers.profile import NODE

from ..model.textarray import TextDtype

INT = np.int64


@dataclass(frozen=True)
class BlockGrid:
    """Where the rows of a block-structured metrics table go.

    ``perm[k]`` is the position within a block of the k-th node in id order,
    ``node_pos[k]`` that node's row in the nodes table, ``nodes[k]`` its id,
    ``levels`` the level value of each block, ``size`` the rows per block.
    """

    perm: np.ndarray
    node_pos: np.ndarray
    nodes: np.ndarray
    levels: np.ndarray
    size: int

    @property
    def blocks(self) -> int:
        return len(self.levels)


def find_grid(metrics: pd.DataFrame, levels: List[str], lookup: Callable[[np.ndarray], np.ndarray],
              new_id: np.ndarray) -> Optional[BlockGrid]:
    """The :class:`BlockGrid` of ``metrics`` when its rows are block-structured, else None.

    Works on the columns as stored (int32 node ids, int16 ranks): the only
    row-sized temporaries are boolean masks.

    Examples
    --------
    >>> m = pd.DataFrame({"node": [5, 7, 5, 7], "rank": [0, 0, 1, 1], "t": [1.0, 2, 3, 4]})
    >>> grid = find_grid(m, ["rank"], lambda ids: np.asarray(ids) - 5, np.array([1, 9, 0]))
    >>> grid.perm.tolist(), grid.nodes.tolist(), grid.levels.tolist(), grid.size
    ([1, 0], [0, 1], [0, 1], 2)
    """
    if len(levels) != 1 or not len(metrics):
        return None
    node = metrics[NODE].to_numpy()
    level = metrics[levels[0]].to_numpy()
    if node.dtype.kind not in "iu" or level.dtype.kind not in "iu":
        return None
    if not bool(np.all(level[1:] >= level[:-1])):
        return None
    starts = np.flatnonzero(level[1:] != level[:-1]) + 1
    starts = np.concatenate([[0], starts])
    blocks = len(starts)
    if len(node) % blocks:
        return None
    size = len(node) // blocks
    if not np.array_equal(starts, np.arange(blocks) * size):
        return None
    table = node.reshape(blocks, size)
    if not bool((table == table[0]).all()):
        return None
    pos = lookup(table[0])
    ids = new_id[pos]
    perm = np.argsort(ids, kind="stable")
    nodes = ids[perm]
    if size > 1 and not bool(np.all(nodes[1:] > nodes[:-1])):
        return None  # a node twice in a block: validation forbids it, stay generic
    return BlockGrid(perm=perm, node_pos=pos[perm], nodes=nodes,
                     levels=level[starts].astype(INT), size=size)


def grid_index(grid: BlockGrid, names: List[str]) -> pd.MultiIndex:
    """The sorted ``(node, level)`` MultiIndex of a grid (codes in the smallest int type)."""
    n, r = len(grid.nodes), grid.blocks
    node_codes = np.repeat(np.arange(n, dtype=code_dtype(n)), r)
    level_codes = np.tile(np.arange(r, dtype=code_dtype(r)), n)
    return pd.MultiIndex(levels=[grid.nodes, grid.levels], codes=[node_codes, level_codes],
                         names=names, verify_integrity=False)


def code_dtype(count: int) -> np.dtype:
    """The smallest integer type pandas keeps for codes of ``count`` labels (no later copy)."""
    for dtype in (np.int8, np.int16, np.int32):
        if count < np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(INT)


def grid_columns(raw: RawProfile, grid: BlockGrid, levels: List[str],
                 node_columns: Dict[str, pd.Series], consume: bool,
                 prepare: Callable[[pd.Series], pd.Series]) -> Dict[str, Any]:
    """Every dataframe column, in row order ``(node, level)``, keyed by name.

    ``prepare`` turns a raw column into the Series to copy (text storage).
    With ``consume``, each column of ``raw.metrics`` is deleted once copied.
    """
    m = raw.metrics
    if consume:
        for col in [NODE] + levels:
            del m[col]
    columns: Dict[str, Any] = {}
    for col in list(m.columns):
        if col == NODE or col in levels:
            continue
        columns[col] = _transpose(prepare(m[col]), grid)
        if consume:
            del m[col]
    for col in list(node_columns):
        # with consume, each per-node source is released once spread, so the last
        # (largest) moment of the build does not also hold the node tables
        values = node_columns.pop(col) if consume else node_columns[col]
        if col not in columns:
            columns[col] = _spread(values, grid)
        del values
        if consume:  # the source's pages (node-sized, in the C heap) back before the next
            release_free_heap(len(grid.node_pos))
    return columns


def _transpose(values: pd.Series, grid: BlockGrid) -> Any:
    """A block-major column in ``(node, level)`` order."""
    blocks, size = grid.blocks, grid.size
    if isinstance(values.dtype, np.dtype) and values.dtype.kind in "biufcmM":
        src = values.to_numpy().reshape(blocks, size)
        out = np.empty(len(grid.nodes) * blocks, dtype=src.dtype)
        table = out.reshape(len(grid.nodes), blocks)
        for b in range(blocks):
            for rows in _chunks(len(grid.nodes)):  # small temporaries (see _chunks)
                table[rows, b] = src[b][grid.perm[rows]]
        return out
    if isinstance(values.dtype, TextDtype):  # its codes, as numbers
        codes = pd.Series(values.array.codes, copy=False)
        return values.array.with_codes(_transpose(codes, grid))
    positions = (grid.perm[:, None] + np.arange(blocks, dtype=INT)[None, :] * size).reshape(-1)
    array = values.array
    return array.take(positions) if not isinstance(array, np.ndarray) else array[positions]


def _spread(values: pd.Series, grid: BlockGrid) -> Any:
    """A per-node column repeated for every block, in ``(node, level)`` order."""
    if isinstance(values.dtype, np.dtype):
        return _spread_array(values.to_numpy(), grid)
    if isinstance(values.dtype, TextDtype):  # its codes, as numbers
        return values.array.with_codes(_spread_array(values.array.codes, grid))
    return values.array.take(grid.node_pos).repeat(grid.blocks)


def _spread_array(src: np.ndarray, grid: BlockGrid) -> np.ndarray:
    out = np.empty(len(grid.node_pos) * grid.blocks, dtype=src.dtype)
    table = out.reshape(len(grid.node_pos), grid.blocks)
    for rows in _chunks(len(grid.node_pos)):  # the same as numpy.repeat, in pieces
        table[rows] = src[grid.node_pos[rows], None]
    return out


#: rows per piece when a column is gathered: node-sized temporaries (4-8 MB at a
#: million nodes) would be served from the C heap and stay resident once freed
#: (glibc keeps up to 64 MiB of free heap), in the middle of the build's peak
CHUNK = 1 << 16


def _chunks(count: int):
    """Slices of ``range(count)`` of :data:`CHUNK` rows each."""
    return (slice(start, min(start + CHUNK, count)) for start in range(0, count, CHUNK))
