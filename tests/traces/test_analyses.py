"""TraceFrame analyses on small traces built by hand (exact values)."""

import numpy as np
import pytest

from graphframe.errors import ArgumentError
from graphframe.traces import TableBuilder, TraceFrame
from graphframe_readers.traces import EventBatch, Kind, StringTable

E, L = Kind.ENTER, Kind.LEAVE


def _frame(**cols):
    t = StringTable()
    names = cols.pop("names")
    files = cols.pop("files", None)
    if files is not None:
        cols["file"] = np.array([t.intern(f) if f else -1 for f in files], dtype=np.int32)
    h = TableBuilder()
    h.on_batch(EventBatch.build(t, name=t.intern_many(names), **cols))
    h.on_end()
    return TraceFrame(h.result(), h.definitions)


@pytest.fixture
def io_trace():
    # rank 0: open a.h5 as fd 3, write 100 B, close; reopen fd 3 as b.h5, read 50 B
    # rank 1: open a.h5 as fd 5, write 10 B
    return _frame(
        kind=[Kind.IO] * 7, time=[0, 10, 20, 30, 40, 0, 5], rank=[0, 0, 0, 0, 0, 1, 1],
        names=["open", "write", "close", "open", "read", "open64", "write"],
        fd=[3, 3, 3, 3, 3, 5, 5], bytes=[-1, 100, -1, -1, 50, -1, 10],
        end=[2, 15, 21, 31, 44, 1, 9],
        files=["a.h5", None, None, "b.h5", None, "a.h5", None])


def test_fd_mapping_and_io_summaries(io_trace):
    assert io_trace.fd_map()[["rank", "fd", "file"]].values.tolist() == [
        [0, 3, "a.h5"], [0, 3, "b.h5"], [1, 5, "a.h5"]]
    per_file = io_trace.io_summary(per="file")
    assert per_file.loc[("a.h5", "write"), ["count", "bytes"]].tolist() == [2, 110]
    assert per_file.loc[("b.h5", "read"), "bytes"] == 50
    per_rank = io_trace.io_summary(per="rank")
    assert per_rank.loc[(0, "write"), "time"] == pytest.approx(5e-9)
    assert io_trace.files_per_rank().to_dict() == {0: ["a.h5", "b.h5"], 1: ["a.h5"]}
    assert io_trace.shared_files().to_dict() == {"a.h5": 2}


def test_rma_epochs():
    # rank 0, window 1: put 8 B (2 ns), fence, put 16 B (4 ns), get 4 B (6 ns), fence
    tf = _frame(kind=[Kind.RMA, Kind.RMA_SYNC, Kind.RMA, Kind.RMA, Kind.RMA_SYNC],
                time=[0, 10, 20, 30, 40], end=[2, 11, 24, 36, 41], rank=0,
                names=["MPI_Put", "MPI_Win_fence", "MPI_Put", "MPI_Get", "MPI_Win_fence"],
                window=1, peer=[1, -1, 1, 2, -1], bytes=[8, -1, 16, 4, -1])
    s = tf.rma_summary()
    # the put before the first fence is in no epoch (-1); the next two in epoch 0
    assert s.index.tolist() == [(0, 1, -1), (0, 1, 0)]
    assert s["count"].tolist() == [1, 2]
    assert s.loc[(0, 1, 0), ["bytes sum", "bytes min", "bytes max", "bytes mean"]].tolist() == \
        [20, 4, 16, 10]
    assert s.loc[(0, 1, 0), "duration mean"] == pytest.approx(5e-9)
    # transfer bounds: to the end of the next fence (11, then 41)
    assert s.loc[(0, 1, -1), "bound max"] == pytest.approx(11e-9)
    assert s.loc[(0, 1, 0), ["bound min", "bound max"]].tolist() == pytest.approx([11e-9, 21e-9])
    ops = tf.rma_operations()
    assert ops[["epoch", "op", "start", "duration", "bytes", "bound", "target"]].values.tolist() == [
        [-1, "MPI_Put", 0, 2, 8, 11.0, 1], [0, "MPI_Put", 20, 4, 16, 21.0, 1],
        [0, "MPI_Get", 30, 6, 4, 11.0, 2]]
    assert tf.rma_syncs()["epoch"].tolist() == [-1, 0]


def test_communication():
    tf = _frame(kind=[Kind.SEND, Kind.SEND, Kind.SEND, Kind.RECV], time=[0, 5, 9, 7],
                rank=[0, 0, 1, 1], names=["MPI_Send"] * 3 + ["MPI_Recv"],
                peer=[1, 1, 0, 0], bytes=[100, 28, 4, 100])
    assert tf.comm_matrix().values.tolist() == [[0, 128], [4, 0]]
    assert tf.comm_matrix("count").values.tolist() == [[0, 2], [1, 0]]
    counts, edges = tf.message_histogram(bins=[0, 10, 1000])
    assert counts.tolist() == [1, 2]
    assert tf.comm_over_time(bins=3)["bytes"].tolist() == [100, 28, 4]
    with pytest.raises(ArgumentError, match="kind='size'"):
        tf.comm_matrix("size")


@pytest.fixture
def calls():
    # rank 0: main [0, 100) > solve [10, 70) > wait [50, 65); rank 1: main [0, 40)
    return _frame(kind=[E, E, E, L, L, L, E, L], time=[0, 10, 50, 65, 70, 100, 0, 40],
                  rank=[0] * 6 + [1] * 2,
                  names=["main", "solve", "MPI_Wait", "MPI_Wait", "solve", "main", "main",
                         "main"])


def test_time_profile(calls):
    tp = calls.time_profile(bins=2)
    assert tp.index.tolist() == [0, 50]
    assert tp.loc[0].to_dict() == pytest.approx({"MPI_Wait": 0, "main": 50e-9, "solve": 40e-9})
    assert tp.loc[50].to_dict() == pytest.approx({"MPI_Wait": 15e-9, "main": 30e-9,
                                                  "solve": 5e-9})


def test_filter_and_window(calls):
    f = calls.filter(names=["main", "MPI_Wait"])
    ev = f.events
    assert ev["name"].astype(str).tolist() == ["main", "MPI_Wait", "MPI_Wait", "main", "main",
                                              "main"]
    assert ev["parent"].tolist()[:2] == [-1, 0] and ev["depth"].tolist()[:2] == [0, 1]
    assert f.events["exclusive"].iloc[0] == 85.0
    w = calls.window(60, 90)
    assert w.events["time"].tolist() == [60, 60, 60, 65, 70, 89]
    assert w.events["duration"].dropna().tolist() == [29.0, 10.0, 5.0]
    with pytest.raises(ArgumentError):
        calls.filter(mask=[True])


def test_tree_and_profile_agree(calls):
    gf = calls.to_graphframe()
    df = gf.dataframe.reset_index()
    assert df[["name", "rank", "time (inc)", "time", "count"]].values.tolist() == [
        ["main", 0, 1e-7, 4e-8, 1], ["main", 1, 4e-8, 4e-8, 1], ["solve", 0, 6e-8, 4.5e-8, 1],
        ["MPI_Wait", 0, 1.5e-8, 1.5e-8, 1]]
    prof = calls.flat_profile(per=None)
    assert prof.loc["main", "time"] == pytest.approx(8e-8)
    assert calls.idle_time()["idle"].tolist() == pytest.approx([1.5e-8, 0.0])
    assert calls.load_imbalance().loc["main", "imbalance"] == pytest.approx(1.0)
