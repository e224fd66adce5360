"""rma_rows of a one-sided call table (every row, in order) shares nothing writable with it."""

import numpy as np
import pandas as pd

from graphframe.traces.rma import rma_rows, rma_summary


def _table(index=None):
    return pd.DataFrame({
        "rank": np.array([0, 0, 0, 1, 1, 1]), "window": np.array([1, 1, 1, 1, 1, 1]),
        "kind": pd.Categorical(["rma_sync", "rma", "rma_sync"] * 2),
        "name": pd.Categorical(["MPI_Win_fence", "MPI_Put", "MPI_Win_fence"] * 2),
        "start": np.array([0, 10, 30, 0, 12, 40]), "end": np.array([2, 14, 35, 3, 20, 44]),
        "bytes": np.array([-1, 64, -1, -1, 8, -1]), "peer": np.array([-1, 1, -1, -1, 0, -1]),
        "assertion": np.array([0, -1, 0, 0, -1, 0])}, index=index)


def test_writing_the_rows_leaves_the_table_alone():
    table = _table()
    before = table.copy()
    rows = rma_rows(table)
    assert rows["epoch"].tolist() == [-1, 0, 0, -1, 0, 0]
    assert rows["bound"].fillna(-1).tolist() == [-1, 25.0, -1, -1, 32.0, -1]
    rows.loc[1, "bytes"] = 5
    rows.loc[1, "start"] = 7
    pd.testing.assert_frame_equal(table, before)


def test_any_index_gives_the_same_rows():
    plain = rma_rows(_table())
    other = rma_rows(_table(index=[10, 11, 12, 13, 14, 15]))
    pd.testing.assert_frame_equal(plain, other)
    pd.testing.assert_frame_equal(rma_summary(_table()), rma_summary(_table(index=list("abcdef"))))
