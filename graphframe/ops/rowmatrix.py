"""Dense (node x rank/thread) views of dataframe columns.

Operations that follow the graph (inclusive sums, exclusive from inclusive)
work on a matrix with one row per node and one column per combination of the
non-node index levels; this module maps dataframe rows to matrix cells and
back. When the rows are exactly the full grid in (node, combination) order,
the matrix is a reshape of the column (no scatter, no gather).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np
import pandas as pd

from ..model.dataframe import plain_values

INT = np.int64


@dataclass(frozen=True)
class RowLayout:
    """Where each dataframe row sits in an ``(n_nodes, n_combos)`` matrix."""

    node: np.ndarray    # node id of each row
    combo: np.ndarray   # column (rank/thread combination) of each row
    n_nodes: int
    n_combos: int
    dense: bool         # rows are the full grid, node-major, combos ascending

    @classmethod
    def of(cls, dataframe: pd.DataFrame, n_nodes: int) -> "RowLayout":
        index = dataframe.index
        if isinstance(index, pd.MultiIndex):
            node_pos = index.names.index("node")
            node = plain_values(index.levels[node_pos]).astype(INT, copy=False)[
                np.asarray(index.codes[node_pos], dtype=INT)]
            combo = np.zeros(len(index), dtype=INT)
            n_combos = 1
            for i, name in enumerate(index.names):
                if i == node_pos:
                    continue
                size = len(index.levels[i])
                combo = combo * size + np.asarray(index.codes[i], dtype=INT)
                n_combos *= size
            if n_combos > 1:
                combo, uniq = _compact(combo)
                n_combos = len(uniq)
        else:
            node = plain_values(index).astype(INT, copy=False)
            combo = np.zeros(len(node), dtype=INT)
            n_combos = 1
        n_combos = max(n_combos, 1)
        dense = _is_full_grid(node, combo, n_nodes, n_combos)
        return cls(node, combo, n_nodes, n_combos, dense)

    def to_matrix(self, values: np.ndarray) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """``(sums, present)``: values in the matrix, NaN/missing as 0.

        ``present`` (1 where a value exists) is None when every cell has a
        value, so callers can skip tracking it.
        """
        values = np.asarray(values, dtype=np.float64)
        nan = np.isnan(values)
        any_nan = bool(nan.any())
        if self.dense:
            mat = values.reshape(self.n_nodes, self.n_combos).copy()
            if not any_nan:
                return mat, None
            mat[nan.reshape(mat.shape)] = 0.0
            return mat, (~nan).reshape(mat.shape).astype(INT)
        ok = ~nan
        mat = np.zeros((self.n_nodes, self.n_combos))
        present = np.zeros((self.n_nodes, self.n_combos), dtype=INT)
        mat[self.node[ok], self.combo[ok]] = values[ok]
        present[self.node[ok], self.combo[ok]] = 1
        return mat, present

    def to_exact_matrix(self, values: np.ndarray) -> np.ndarray:
        """Integer values in the matrix, in their own dtype (cells without a row hold 0).

        For columns without missing values (integers): every row has its value, so
        no ``present`` matrix is needed and sums stay exact.

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"n": [3, 4]}, index=pd.MultiIndex.from_tuples(
        ...     [(0, 0), (1, 1)], names=["node", "rank"]))
        >>> RowLayout.of(df, 2).to_exact_matrix(df["n"].to_numpy()).tolist()
        [[3, 0], [0, 4]]
        """
        values = np.asarray(values)
        if self.dense:
            return values.reshape(self.n_nodes, self.n_combos).copy()
        mat = np.zeros((self.n_nodes, self.n_combos), dtype=values.dtype)
        mat[self.node, self.combo] = values
        return mat

    def from_matrix(self, mat: np.ndarray, present: Optional[np.ndarray]) -> np.ndarray:
        """Values of the matrix at each row; NaN where nothing was present.

        ``mat`` is the caller's own (a matrix it made): the result may be a view
        of it, so a dense full matrix costs no copy.
        """
        if self.dense:
            out = mat.reshape(-1)
            if present is None:
                return out
            return np.where(present.reshape(-1) > 0, out, np.nan)
        out = mat[self.node, self.combo]
        if present is None:
            return out
        return np.where(present[self.node, self.combo] > 0, out, np.nan)


def _compact(codes: np.ndarray):
    present = np.zeros(int(codes.max()) + 1 if len(codes) else 1, dtype=bool)
    present[codes] = True
    table = np.cumsum(present) - 1
    return table[codes], np.flatnonzero(present)


def _is_full_grid(node: np.ndarray, combo: np.ndarray, n_nodes: int, n_combos: int) -> bool:
    if len(node) != n_nodes * n_combos:
        return False
    if n_combos == 1:
        return bool(np.array_equal(node, np.arange(n_nodes)))
    flat = node * n_combos + combo
    return bool(np.array_equal(flat, np.arange(len(flat))))
