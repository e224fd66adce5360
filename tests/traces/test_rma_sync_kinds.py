"""foRMA's operation table and bounds where epochs are fences, locks or PSCW (generated DUMPI)."""

from __future__ import annotations

import pytest

import graphframe as gf
from graphframe_readers.testing.writers.dumpi_rma import write_rma_trace


@pytest.mark.parametrize("sync, syncs, labels", [
    ("fence", ["MPI_Win_fence"] * 3, [-1, 0, 1]),
    ("lock", ["MPI_Win_lock", "MPI_Win_unlock"] * 2, [0, 0, 1, 1]),
    ("pscw", ["MPI_Win_start", "MPI_Win_complete"] * 2, [0, 0, 1, 1]),
])
def test_epochs_and_bounds_for_each_synchronisation(tmp_path, sync, syncs, labels):
    tf = gf.read_trace(write_rma_trace(tmp_path, ranks=2, ops=6, per_epoch=3, sync=sync))
    ops = tf.rma_operations()
    r0 = ops[ops["rank"] == 0]
    assert r0["op"].tolist() == ["MPI_Put", "MPI_Get", "MPI_Accumulate"] * 2
    assert r0["epoch"].tolist() == [0, 0, 0, 1, 1, 1]
    assert r0["bytes"].tolist() == [128 * 8] * 6 and r0["target"].tolist() == [1] * 6
    # each op starts 1000 + 500 i ns into its epoch; the closing call starts at 2500, lasts 800
    assert r0["bound"].tolist() == [2300.0, 1800.0, 1300.0] * 2
    s = tf.rma_syncs()
    s0 = s[s["rank"] == 0]
    assert s0["op"].tolist() == syncs and s0["epoch"].tolist() == labels
    if sync == "lock":
        assert s0["target"].tolist() == [1, 1, 1, 1]  # the locked rank
    summary = tf.rma_summary(per=("rank",))
    assert summary["count"].tolist() == [6, 6] and summary["bound max"].tolist() == [2.3e-6] * 2


def test_a_trace_without_one_sided_operations(shared_data):
    tf = gf.read_trace(shared_data / "traces" / "dumpi" / "sst-dumpi-testtrace-4ranks")
    assert tf.rma_operations().empty and tf.rma_syncs().empty and tf.counters().empty
    assert tf.rma_summary().empty and tf.rma_summary(per=("window",)).empty
    total = tf.rma_summary(per=())
    assert total[["count", "bytes sum"]].values.tolist() == [[0, 0]]
    assert total["bound max"].isna().all()
