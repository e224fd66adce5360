"""Times binned in int64 (issue 33 item 3): epoch-nanosecond timestamps lose their last
bits in float64 (256 ns steps near 2**60), so analyses subtract the start first."""

import numpy as np
import pytest

from graphframe.traces import TableBuilder, TraceFrame, read_trace
from graphframe_readers.traces import EventBatch, Kind, StringTable

E, L = Kind.ENTER, Kind.LEAVE
EPOCH = 1_700_000_000_123_456_789  # ns since 1970: float64 steps are 256 ns here


def _frame(**cols):
    t = StringTable()
    names = cols.pop("names")
    h = TableBuilder()
    h.on_batch(EventBatch.build(t, name=t.intern_many(names), **cols))
    h.on_end()
    return TraceFrame(h.result(), h.definitions)


@pytest.fixture
def epoch_calls():
    # main [0, 100) > solve [10, 73) > wait [50, 65): offsets below float64's 256 ns step
    rel = [0, 10, 50, 65, 73, 100]
    return _frame(kind=[E, E, E, L, L, L], time=[EPOCH + t for t in rel], rank=0,
                  names=["main", "solve", "MPI_Wait", "MPI_Wait", "solve", "main"])


def test_time_profile_of_epoch_times_is_exact(epoch_calls):
    tp = epoch_calls.time_profile(bins=2)
    assert tp.index.tolist() == [EPOCH, EPOCH + 50]
    assert tp.loc[EPOCH].to_dict() == pytest.approx(
        {"MPI_Wait": 0.0, "main": 10e-9, "solve": 40e-9}, abs=1e-15)
    assert tp.loc[EPOCH + 50].to_dict() == pytest.approx(
        {"MPI_Wait": 15e-9, "main": 27e-9, "solve": 8e-9}, abs=1e-15)
    assert (tp.to_numpy() >= 0).all()
    assert tp.sum().to_dict() == pytest.approx(
        {"MPI_Wait": 15e-9, "main": 37e-9, "solve": 48e-9}, abs=1e-15)


def test_comm_over_time_of_epoch_times():
    tf = _frame(kind=[Kind.SEND, Kind.SEND, Kind.SEND], time=[EPOCH, EPOCH + 20, EPOCH + 51],
                rank=0, names=["MPI_Send"] * 3, peer=1, bytes=[1, 2, 4])
    out = tf.comm_over_time(bins=2)
    assert out.index.tolist() == [EPOCH, EPOCH + 25]
    assert out["bytes"].tolist() == [3, 4]


def test_empty_trace_analyses_do_not_raise():
    tf = _frame(kind=np.array([], dtype=np.int8), time=np.array([], dtype=np.int64), rank=0,
                names=[])
    assert tf.time_profile(bins=4).shape == (0, 0)
    assert tf.comm_over_time(bins=4).shape == (0, 1)


HPCTOOLKIT_TRACES = ["hpcviewer-inline-v4-database", "hpcviewer-issue-328-v4-database",
                     "hpcviewer-loop-fork-cycles-v4-database", "pipit-ping-pong-v4-database",
                     "hpcviewer-d.x-v4-database"]


@pytest.mark.parametrize("name", HPCTOOLKIT_TRACES)
def test_hpctoolkit_trace_time_profile_has_no_negative_cell(shared_data, name):
    tf = read_trace(shared_data / "hpctoolkit" / name)
    tp = tf.time_profile(bins=20)
    assert (tp.to_numpy() >= -1e-15).all()
    if len(tf.events):
        flat = tf.flat_profile(per=None)["time"]
        assert tp.sum().to_dict() == pytest.approx(flat.to_dict(), rel=1e-9, abs=1e-12)
    else:  # trace.db without events: empty answers, no exception
        assert tp.shape == (0, 0)
        assert tf.comm_over_time().shape == (0, 1)


def test_rma_summary_of_a_trace_without_one_sided_communication(epoch_calls):
    """No analysis of a readable trace raises (issue 33 item 3): rma_summary raised
    KeyError 'window' on every trace without RMA events."""
    out = epoch_calls.rma_summary()
    assert len(out) == 0 and list(out.index.names) == ["rank", "window", "epoch"]
    assert list(out.columns[:2]) == ["count", "bytes sum"]
