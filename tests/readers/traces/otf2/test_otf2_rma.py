"""One-sided MPI in OTF2 (Score-P's records): puts, request-based puts, atomics, fences and
locks counted, timed by their calls, in epochs with transfer bounds."""

from __future__ import annotations

import pytest

import graphframe as gf

pytest.importorskip("otf2", reason="the OTF2 decoder needs the optional otf2 package")
from graphframe_readers.testing.writers.otf2_rma import write_rma_otf2  # noqa: E402


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    return gf.read_trace(write_rma_otf2(str(tmp_path_factory.mktemp("rma") / "t"), ranks=2))


def test_operations_with_their_calls_epochs_and_bounds(trace):
    ops = trace.rma_operations()
    r1 = ops[ops["rank"] == 1]
    # start/duration: the call's (the RMA record is a point inside it); bound: to the end
    # of the next fence (2250) or unlock (2360)
    assert r1[["epoch", "op", "start", "duration", "bytes", "bound", "target"]].values.tolist() == [
        [0, "MPI_Put", 2100, 10, 64, 150.0, 0], [0, "MPI_Rput", 2120, 5, 32, 130.0, 0],
        [2, "MPI_Fetch_and_op", 2320, 10, 8, 40.0, 0]]
    ev = trace.events
    atomic = ev[(ev["kind"] == "rma") & (ev["name"] == "MPI_Fetch_and_op")]
    assert atomic[["bytes", "recv_bytes"]].values.tolist() == [[8, 8], [8, 8]]


def test_synchronisations(trace):
    s = trace.rma_syncs()
    r0 = s[s["rank"] == 0]
    assert r0[["epoch", "op", "start", "duration", "target"]].values.tolist() == [
        [-1, "MPI_Win_fence", 1000, 50, -1], [0, "MPI_Win_fence", 1200, 50, -1],
        [2, "MPI_Win_lock", 1300, 10, 1], [2, "MPI_Win_unlock", 1340, 20, 1]]
    summary = trace.rma_summary(per=())
    assert summary[["count", "bytes sum"]].values.tolist() == [[6, 208]]
