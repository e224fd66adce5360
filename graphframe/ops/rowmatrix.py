"""Dense (node x rank/thread) views of dataframe columns.

Operations that follow the graph (inclusive sums, exclusive from inclusive)
work on a matrix with one row per node and one column per combination of the
non-node index levels; this module maps dataframe rows to matrix cells and
back.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class RowLayout:
    """Where each dataframe row sits in an ``(n_nodes, n_combos)`` matrix."""

    node: np.ndarray    # node id of each row
    combo: np.ndarray   # column (rank/thread combination) of each row
    n_nodes: int
    n_combos: int

    @classmethod
    def of(cls, dataframe: pd.DataFrame, n_nodes: int) -> "RowLayout":
        index = dataframe.index
        node = np.asarray(index.get_level_values("node"), dtype=np.int64)
        others = [name for name in index.names if name != "node"]
        if not others:
            combo = np.zeros(len(node), dtype=np.int64)
            n_combos = 1
        else:
            keys = [np.asarray(index.get_level_values(name)) for name in others]
            if len(keys) == 1:
                combo, uniques = pd.factorize(keys[0], sort=True)
                n_combos = len(uniques)
            else:
                frame = pd.DataFrame({str(i): k for i, k in enumerate(keys)})
                combo = frame.groupby(list(frame.columns), sort=True, dropna=False).ngroup().to_numpy()
                n_combos = int(combo.max()) + 1 if len(combo) else 0
            combo = np.asarray(combo, dtype=np.int64)
        return cls(node, combo, n_nodes, max(n_combos, 1))

    def to_matrix(self, values: np.ndarray):
        """``(sums, present)``: values scattered into the matrix (NaN/missing -> 0)."""
        values = np.asarray(values, dtype=np.float64)
        ok = ~np.isnan(values)
        mat = np.zeros((self.n_nodes, self.n_combos))
        present = np.zeros((self.n_nodes, self.n_combos), dtype=np.int64)
        mat[self.node[ok], self.combo[ok]] = values[ok]
        present[self.node[ok], self.combo[ok]] = 1
        return mat, present

    def from_matrix(self, mat: np.ndarray, present: np.ndarray) -> np.ndarray:
        """Values of the matrix at each row; NaN where nothing was present."""
        out = mat[self.node, self.combo]
        return np.where(present[self.node, self.combo] > 0, out, np.nan)
