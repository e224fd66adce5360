"""Nsight Systems SQLite decoder: a synthetic export and the CloverLeaf export (vs its CSVs)."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
import pytest

import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from tests.trace_collect import located, Collect, calls, events

PID, TID = 4242, 4243
GTID = (PID << 24) | TID
GPID = PID << 24


def make_db(path):
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
        CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT, end INT, eventClass INT,
            globalTid INT, correlationId INT, nameId INT, returnValue INT, callchainId INT);
        CREATE TABLE OSRT_API (start INT, end INT, eventClass INT, globalTid INT, nameId INT,
            returnValue INT, nestingLevel INT, callchainId INT);
        CREATE TABLE NVTX_EVENTS (start INT, end INT, eventType INT, rangeId INT,
            category INT, color INT, text TEXT, globalTid INT, endGlobalTid INT, textId INT);
        CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, deviceId INT,
            streamId INT, globalPid INT, shortName INT, demangledName INT);
        CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT, end INT, deviceId INT,
            streamId INT, globalPid INT, bytes INT, copyKind INT);
        CREATE TABLE ThreadNames (nameId INT, priority INT, globalTid INT);
    """)
    con.executemany("INSERT INTO StringIds VALUES (?, ?)", [
        (1, "cudaLaunchKernel_v7000"), (2, "ioctl"), (3, "axpy"), (4, "axpy(float*, int)"),
        (5, "main thread"), (6, "solve")])
    con.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,0,?,0,?,0,NULL)",
                    [(100, 150, GTID, 1), (200, 230, GTID, 1)])
    con.execute("INSERT INTO OSRT_API VALUES (110, 120, 0, ?, 2, 0, 0, 0)", (GTID,))
    con.executemany("INSERT INTO NVTX_EVENTS VALUES (?,?,?,0,0,0,?,?,NULL,?)", [
        (90, 300, 59, "step", GTID, None), (95, None, 34, None, GTID, 6)])
    con.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,0,7,?,3,4)",
                    [(160, 190, GPID), (240, 260, GPID)])
    con.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (60, 80, 0, 7, ?, 4096, 1)",
                (GPID,))
    con.execute("INSERT INTO ThreadNames VALUES (5, 10, ?)", (GTID,))
    con.commit()
    con.close()
    return path


def test_synthetic_export(tmp_path):
    path = make_db(tmp_path / "run.sqlite")
    assert rt.sniff_trace(path) == "nsight"
    df = events(path)
    # issue 33 item 11: rank 0 (the one process), thread 0 (its one host thread), and the
    # GPU stream as thread 1, not pid 4242 / tid 4243 / 2**40 + 7
    assert sorted(set(zip(df["rank"], df["thread"]))) == [(0, 0), (0, 1)]
    host = df[df.thread == 0]
    assert host[["kind", "time", "name"]].values.tolist() == [
        ["enter", 90, "step"], ["instant", 95, "solve"],
        ["enter", 100, "cudaLaunchKernel_v7000"], ["enter", 110, "ioctl"],
        ["leave", 120, "ioctl"], ["leave", 150, "cudaLaunchKernel_v7000"],
        ["enter", 200, "cudaLaunchKernel_v7000"], ["leave", 230, "cudaLaunchKernel_v7000"],
        ["leave", 300, "step"]]
    gpu = df[df.thread == 1]
    assert (gpu["rank"] == 0).all()
    assert gpu[gpu.kind == "enter"][["time", "name", "bytes"]].values.tolist() == [
        [60, "CUDA memcpy HtoD", 4096], [160, "axpy", -1], [240, "axpy", -1]]
    demangled = events(path, kernel_names="demangled")
    assert "axpy(float*, int)" in set(demangled.name)
    defs = rt.decode(path, Collect()).definitions
    assert defs.threads[(0, 0)] == {"name": "main thread", "pid": PID, "tid": TID}
    assert defs.threads[(0, 1)] == {"name": "GPU 0 / stream 7", "device": 0, "stream": 7,
                                    "pid": PID}
    assert defs.metadata["processes"] == {0: {"pid": PID, "name": None}}
    assert defs.regions["ioctl"] == {"kind": "os"}


def test_truncated_or_foreign_files_are_read_errors(tmp_path):
    path = make_db(tmp_path / "run.sqlite")
    cut = tmp_path / "cut.sqlite"
    cut.write_bytes(path.read_bytes()[:3000])
    with pytest.raises(ReadError, match=r"cut\.sqlite.*the file ends inside its pages") as err:
        rt.decode(cut, Collect(), format="nsight")
    assert located(err, "cut.sqlite") == ("cut.sqlite", "byte 3000",
                                          "the whole database (truncated file?)")
    garbled = tmp_path / "garbled.sqlite"   # whole pages, a damaged schema
    data = bytearray(path.read_bytes())
    data[100:4096] = bytes(3996)
    garbled.write_bytes(bytes(data))
    with pytest.raises(ReadError, match=r"garbled\.sqlite.*SQLite cannot read") as err:
        rt.decode(garbled, Collect(), format="nsight")
    assert located(err, "garbled.sqlite") == ("garbled.sqlite", "schema",
                                              "an Nsight Systems SQLite export")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x INT)").connection.commit()
    assert rt.decoder_class("nsight").sniff(other, other.read_bytes()[:4096]) is False
    with pytest.raises(ReadError, match="no StringIds table"):
        rt.decode(other, Collect(), format="nsight")


@pytest.fixture(scope="module")
def clover(shared_data):
    return shared_data / "traces" / "nsight" / "cloverleaf-nsys"


def test_cloverleaf_cuda_api_equals_the_csv_export(clover):
    df = events(clover / "perlmutter-cloverleaf-cuda.sqlite")
    csv = pd.read_csv(clover / "cloverleaf-cuda_api_trace.csv")
    enter = csv[csv["Event Type"] == "Enter"]
    want = sorted(zip(enter["Name"], enter["Timestamp (ns)"], enter["_matching_timestamp"]))
    c = calls(df)
    ours = c[c.name.isin(set(enter["Name"]))]
    got = sorted(zip(ours.name, ours.time, ours.end))
    assert len(got) == 3048 and got == [(n, int(s), int(e)) for n, s, e in want]


def test_cloverleaf_gpu_trace_equals_the_csv_export(clover):
    df = events(clover / "perlmutter-cloverleaf-cuda.sqlite")
    gpu = df[(df.thread == 3) & (df.kind == "enter")]   # after the 3 host threads
    csv = pd.read_csv(clover / "cloverleaf_gpu_trace.csv")
    enter = csv[csv["Event Type"] == "Enter"]
    rename = {"CUDA_MEMCPY_KIND_HTOD": "CUDA memcpy HtoD", "CUDA_MEMCPY_KIND_DTOH":
              "CUDA memcpy DtoH"}
    want = sorted((rename.get(n, n), int(t), -1 if np.isnan(b) else int(b))
                  for n, t, b in zip(enter["Name"], enter["Timestamp (ns)"], enter["bytes"]))
    got = sorted(zip(gpu.name, gpu.time.astype(int), gpu.bytes.astype(int)))
    assert len(got) == 1591 and got == want
    c = calls(df)
    per = c.groupby("name").duration
    assert per.count()["ioctl"] == 1253 and per.count()["par_ranged2d_kernel"] == 331


def test_nvtx_csv_synthetic_and_bad_rows(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("Start (ns),End (ns),Duration (ns),Name,PID,TID\n"
                    "10,90,80,\"a, b\",7,8\n20,30,10,step,7,8\n40,45,5,other,7,9\n")
    assert rt.sniff_trace(path) == "nsight-nvtx-csv"
    df = events(path)
    # pid 7 is rank 0; its tids 8 and 9 are threads 0 and 1 (issue 33 item 11)
    assert df[["kind", "time", "name", "rank", "thread"]].values.tolist() == [
        ["enter", 10, "a, b", 0, 0], ["enter", 20, "step", 0, 0], ["leave", 30, "step", 0, 0],
        ["leave", 90, "a, b", 0, 0], ["enter", 40, "other", 0, 1], ["leave", 45, "other", 0, 1]]
    defs = rt.decode(path, Collect()).definitions
    assert defs.threads == {(0, 0): {"pid": 7, "tid": 8}, (0, 1): {"pid": 7, "tid": 9}}
    path.write_text("Start (ns),End (ns),Name,PID,TID\n10,90,a,7,8\n20,x,b,7,8\n")
    with pytest.raises(ReadError, match=r"t\.csv: line 3: cannot read row") as err:
        rt.decode(path, Collect())
    assert located(err, "t.csv") == ("t.csv", "line 3", "integer times, PID and TID and a name")
    path.write_text("Start (ns),End (ns),Name,PID,TID\n10,90,a,7,8\n20,30,b")  # cut short
    with pytest.raises(ReadError, match="a row of 3 fields under a header of 5") as err:
        rt.decode(path, Collect())
    assert located(err, "t.csv") == ("t.csv", "line 3",
                                     "one field per column (a cut or damaged row?)")
    path.write_text("Start (ns),End (ns),Name,PID\n10,90,a,7\n")
    with pytest.raises(ReadError, match="the header lacks TID"):
        rt.decode(path, Collect(), format="nsight-nvtx-csv")


def test_nbody_nvtx_csv_nesting_equals_the_export(shared_data):
    import graphframe as gf

    path = shared_data / "traces" / "nsight" / "nbody-nvtx" / "trace.csv"
    csv = pd.read_csv(path)
    tf = gf.read_trace(path)
    calls_ = tf.events[tf.events.kind == "enter"]
    assert len(calls_) == len(csv) == 131
    assert calls_.depth.tolist() == csv["Lvl"].tolist()
    assert calls_.duration.astype(int).tolist() == csv["Duration (ns)"].tolist()
    assert calls_.exclusive.astype(int).tolist() == csv["DurNonChild (ns)"].tolist()


def test_folder_with_one_export_reads_like_the_export(clover):
    """A user gives the folder nsys wrote into: its one ``.sqlite`` export is read."""
    assert rt.sniff_trace(clover) == "nsight"
    by_folder = rt.decode(clover, Collect()).frame()
    by_file = rt.decode(clover / "perlmutter-cloverleaf-cuda.sqlite", Collect()).frame()
    assert len(by_folder) == len(by_file) > 0
    pd.testing.assert_frame_equal(by_folder, by_file)


def test_folder_without_a_single_export_is_not_sniffed(tmp_path):
    assert rt.decoder_class("nsight").sniff(tmp_path, b"") is False


def test_two_processes_are_ranks_in_pid_order_and_threads_per_process(tmp_path):
    path = make_db(tmp_path / "run.sqlite")
    con = sqlite3.connect(path)
    other = (1000 << 24) | 1001   # a smaller pid: rank 0
    whole = PID << 24             # the process as a whole (tid 0): an instant, no lane
    con.executemany("INSERT INTO OSRT_API VALUES (?, ?, 0, ?, 2, 0, 0, 0)",
                    [(10, 20, other), (5, 5, whole), (30, 40, GTID + 1)])
    con.execute("INSERT INTO ThreadNames VALUES (6, 10, ?)", (other,))
    con.commit()
    con.close()
    df = events(path)
    lanes = sorted(set(zip(df["rank"], df["thread"])))
    assert lanes == [(0, 0), (1, 0), (1, 1), (1, 2)]   # pid 1000; pid 4242: 2 threads + GPU
    assert df[(df["rank"] == 1) & (df["kind"] == "instant")]["time"].tolist() == [5, 95]
    defs = rt.decode(path, Collect()).definitions
    assert defs.threads[(0, 0)] == {"name": "solve", "pid": 1000, "tid": 1001}
    assert defs.threads[(1, 1)] == {"name": "thread 4244", "pid": PID, "tid": TID + 1}
    assert defs.threads[(1, 2)]["name"] == "GPU 0 / stream 7"


def test_cloverleaf_ranks_threads_and_lanes(clover):
    """Issue 33 item 11: ``rank 1701896.1099511627783`` and an empty lane before."""
    from graphframe.traces import read_trace
    from graphframe.plot.timeline import timeline_data
    tf = read_trace(clover / "perlmutter-cloverleaf-cuda.sqlite")
    assert tf.events.groupby(["rank", "thread"]).size().to_dict() == {
        (0, 0): 9693, (0, 1): 4, (0, 2): 58, (0, 3): 3182}
    assert {k: v["name"] for k, v in tf.definitions.threads.items()} == {
        (0, 0): "cuda-cloverleaf", (0, 1): "cuda-EvtHandlr", (0, 2): "cuda-EvtHandlr",
        (0, 3): "GPU 0 / stream 7"}
    assert tf.definitions.metadata["processes"] == {0: {"pid": 1701896,
                                                        "name": "cuda-cloverleaf"}}
    assert tf.flat_profile().index.get_level_values("rank").unique().tolist() == [0]
    d = timeline_data(tf)
    assert d.lanes == [(0, 0), (0, 1), (0, 2), (0, 3)]   # every lane holds calls
    assert d.labels == ["rank 0: cuda-cloverleaf", "rank 0: cuda-EvtHandlr",
                        "rank 0: cuda-EvtHandlr", "rank 0: GPU 0 / stream 7"]


def test_mpi_ranks_table_gives_the_ranks(tmp_path):
    path = make_db(tmp_path / "run.sqlite")
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE MPI_RANKS (rank INT, globalTid INT)")
    con.execute("INSERT INTO MPI_RANKS VALUES (3, ?)", (GTID,))
    con.commit()
    con.close()
    df = events(path)
    assert sorted(set(zip(df["rank"], df["thread"]))) == [(3, 0), (3, 1)]
    defs = rt.decode(path, Collect()).definitions
    assert defs.metadata["processes"] == {3: {"pid": PID, "name": None}}
