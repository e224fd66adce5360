"""Whole calls (``EventHandler.on_calls``, the decoders' shortcut for call tables) give the
call table the events give, value for value and row for row."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

from graphframe_readers.testing.writers.dumpi import DumpiWriter
from graphframe_readers.testing.writers.dumpi_rma import write_rma_trace
from graphframe_readers.testing.writers.recorder import RecorderTraceWriter, write_loop_trace
from graphframe_readers.traces import decode
from graphframe_readers.traces.call_table import CallTableBuilder
from graphframe_readers.traces.events import StringTable

S = 10**9


class FromEvents(CallTableBuilder):
    """The call table built from the events (the decoders' ENTER/data/LEAVE batches)."""

    takes_calls = False

    def fork(self) -> "FromEvents":
        return FromEvents(args=self.keep_args)


def assert_same(path, **options):
    for args in (False, True):
        calls = decode(path, CallTableBuilder(args=args), **options)
        events = decode(path, FromEvents(args=args), **options)
        assert len(calls) > 0
        pd.testing.assert_frame_equal(calls, events, check_exact=True)


@pytest.mark.parametrize("folder", ["recorder/io-mix/traces/np2", "recorder/recorder-simple",
                                    "recorder/recorder-ior", "recorder/io-mix/traces-v2.2/np2",
                                    "dumpi/rma-fence/traces/np2", "dumpi/rma-fence/traces/np3",
                                    "dumpi/sst-dumpi-testtrace-4ranks"])
def test_real_traces(shared_data, folder):
    assert_same(shared_data / "traces" / folder)


def test_generated_recorder(tmp_path):
    assert_same(write_loop_trace(tmp_path / "loop", 3, 500))


def test_recorder_threads_levels_and_ties(tmp_path):
    """Calls starting together (nested by level), zero-length calls, two threads."""
    w = RecorderTraceWriter(ranks=2)
    for r in range(2):
        w.call(r, "MPI_File_open", ["2", "/d/f", "1", "0", "%p"], 10, 90)
        w.call(r, "open", ["/d/f", "66", "420"], 10, 40, level=1)
        w.call(r, "write", ["/d/f", "%p", "8"], 40, 40, level=1, tid=7)
        w.call(r, "write", ["/d/f", "%p", "16"], 40, 60, level=0, tid=7)
        w.call(r, "read", ["/d/f", "%p", "4"], 60, 61, level=0)
        w.call(r, "close", ["/d/f"], 95, 99)
    assert_same(w.write(tmp_path / "rec"))


@pytest.mark.parametrize("sync", ["fence", "lock", "pscw"])
def test_generated_dumpi_rma(tmp_path, sync):
    assert_same(write_rma_trace(tmp_path / sync, 3, 200, per_epoch=5, sync=sync) / "rma.meta")


@pytest.mark.parametrize("statuses", [False, True])
def test_dumpi_io_user_functions_threads(tmp_path, statuses):
    w = DumpiWriter(start_time=1, statuses=statuses)
    w.function(True, 0x400, S, S + 200)
    w.call("MPI_File_open", S + 1, S + 10, comm=2, filename="out.dat", amode=5, info=0, file=1)
    w.call("MPI_File_write_at", S + 20, S + 30, file=1, offset=64, count=10, datatype=11,
           thread=1)
    w.call("MPI_Send", S + 31, S + 32, count=4, datatype=11, dest=1, tag=9, comm=2)
    w.call("MPI_Barrier", S + 33, S + 34, comm=2)
    w.call("MPI_File_close", S + 40, S + 45, file=1)
    w.call("MPI_File_delete", S + 80, S + 90, filename="tmp.dat", info=0)
    w.function(False, 0x400, S + 199, S + 200)
    (tmp_path / "t-0000.bin").write_bytes(w.finish(functions={0x400: "main"}))
    (tmp_path / "t.meta").write_text("numprocs=1\nfileprefix=t\n")
    assert_same(tmp_path / "t.meta")
    calls = decode(tmp_path / "t.meta", CallTableBuilder())
    assert calls["name"].astype(str).tolist()[:3] == ["main", "MPI_File_open", "MPI_Send"]
    assert calls["end"].tolist()[0] == -1  # a user function's end is its exit record's


def test_small_batches(tmp_path):
    """Batches cut anywhere (DUMPI's batch_records) change nothing."""
    path = write_rma_trace(tmp_path / "b", 2, 300, per_epoch=7) / "rma.meta"
    whole = decode(path, CallTableBuilder())
    for size in (1, 7, 64):
        pd.testing.assert_frame_equal(decode(path, CallTableBuilder(), batch_records=size), whole)
        pd.testing.assert_frame_equal(decode(path, FromEvents(), batch_records=size), whole)
    assert whole["rank"].tolist() == [0] * 344 + [1] * 344
    assert all(np.diff(g["start"].to_numpy()).min() > 0 for _, g in whole.groupby("rank"))


@pytest.mark.parametrize("jobs", [2, 3])
def test_worker_tables_travel_in_shared_files(tmp_path, jobs):
    """Workers' call tables come back through shared-memory files (no file left behind):
    the same table as in one process, for whole calls and for events alike."""
    import glob

    from graphframe.traces.read_many import read_calls
    from graphframe_readers.traces import shared_columns

    rec = write_loop_trace(tmp_path / "loop", 4, 300)
    rma = write_rma_trace(tmp_path / "rma", 4, 300, per_epoch=6) / "rma.meta"
    before = set(glob.glob(os.path.join(shared_columns._DIRECTORY or "/nonexistent",
                                        "graphframe-columns-*")))
    for path in (rec, rma):
        one = decode(path, CallTableBuilder())
        pd.testing.assert_frame_equal(decode(path, CallTableBuilder(), jobs=jobs), one)
        pd.testing.assert_frame_equal(decode(path, FromEvents(), jobs=jobs), one)
        pd.testing.assert_frame_equal(read_calls(path, jobs=jobs)[0], read_calls(path)[0])
    after = set(glob.glob(os.path.join(shared_columns._DIRECTORY or "/nonexistent",
                                       "graphframe-columns-*")))
    assert after - before == set()


def test_a_pickled_builder_keeps_its_calls():
    import pickle

    b = CallTableBuilder()
    b.on_calls(StringTable(["MPI_Put", "/f"]), {
        "rank": 3, "thread": np.array([0, 1]), "name": np.array([0, 0]),
        "start": np.array([5, 6]), "end": np.array([9, 8]), "kind": np.array([10, -1]),
        "file": np.array([-1, 1]), "bytes": np.array([1 << 40, -1]),
        "args": np.array(["a", None], dtype=object)})
    c = pickle.loads(pickle.dumps(b))
    assert len(c.chunks) == 1
    c.on_end()
    b.on_end()
    pd.testing.assert_frame_equal(c.result(), b.result())
    assert c.result()["bytes"].tolist() == [1 << 40, -1]
    assert c.result()["args"].tolist()[0] == "a"


def test_columns_without_values_are_independent(tmp_path):
    """Columns no call has a value for may share their -1s (copy on write): writing one
    changes it alone."""
    calls = decode(write_rma_trace(tmp_path / "r", 2, 50) / "rma.meta", CallTableBuilder())
    assert (calls[["fd", "offset", "tag", "recv_bytes"]] == -1).all().all()
    assert calls["fd"].dtype == np.int64
    calls.loc[0, "fd"] = 5
    calls.iloc[1, calls.columns.get_loc("tag")] = 6
    assert calls["fd"].tolist()[:2] == [5, -1] and calls["tag"].tolist()[:2] == [-1, 6]
    assert (calls[["offset", "recv_bytes"]] == -1).all().all()
