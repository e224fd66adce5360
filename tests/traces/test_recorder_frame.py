"""Recorder traces as a TraceFrame: one row per call, per-rank counts and times, I/O analyses."""

from __future__ import annotations

import numpy as np
import pytest

import graphframe as gf


@pytest.fixture(scope="module")
def simple(shared_data):
    return gf.read_trace(shared_data / "traces" / "recorder" / "recorder-simple")


@pytest.fixture(scope="module")
def ior(shared_data):
    return gf.read_trace(shared_data / "traces" / "recorder" / "recorder-ior")


def test_one_row_per_call(simple):
    calls = simple.events[simple.events.kind == "enter"]
    rank0 = calls[calls["rank"] == 0]
    assert rank0[["name", "duration", "fd", "args"]].values.tolist() == [
        ["MPI_Comm_rank", 0.0, -1, "MPI_COMM_WORLD 0"],
        ["MPI_Comm_size", 0.0, -1, "MPI_COMM_WORLD 2"],
        ["fopen", 333000.0, 24, "/g/g92/xu23/research/performance-analysis/ior/rank0.txt w+"],
        ["fread", 16000.0, 24, "%p 1 1 24"],
        ["MPI_Send", 3000.0, -1, "%p 1 MPI_CHAR 1 0 MPI_COMM_WORLD"],
        ["fwrite", 7000.0, 24, "%p 1 1 24"]]
    path = "/g/g92/xu23/research/performance-analysis/ior/rank0.txt"
    assert rank0.file.tolist()[2:4] == [path, path]
    assert (rank0.time + rank0.duration.astype(np.int64)).tolist()[2] == 1615135173130001832


def test_per_rank_counts_and_times_match_the_records(ior, shared_data):
    import struct

    calls = ior.events[ior.events.kind == "enter"]
    folder = shared_data / "traces" / "recorder" / "recorder-ior"
    for rank in (0, 1):
        meta = (folder / f"{rank}.mt").read_bytes()
        total = struct.unpack_from("<ddii", meta)[3]
        counts = np.frombuffer(meta, dtype="<i4", count=256, offset=40)
        mine = calls[calls["rank"] == rank]
        assert len(mine) == total
        assert int(counts.sum()) == total
    flat = ior.flat_profile(by="name")
    assert flat.loc[(0, "MPI_Allreduce"), "count"] == 8
    assert flat.loc[(0, "MPI_Allreduce"), "time (inc)"] == pytest.approx(82e-6)


def test_io_analyses(ior):
    files = ior.files_per_rank()
    assert files[0] == ["/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master0",
                        "/g/g92/xu23/research/performance-analysis/ior/testFile", "stdout",
                        "testFile"]
    summary = ior.io_summary(per="file")
    assert summary.loc[("stdout", "vfprintf"), "count"] == 116
    assert summary.loc[("/g/g92/xu23/research/performance-analysis/ior/testFile", "write"),
                       "bytes"] == 32  # 2 ranks x 2 writes x 8 bytes
    assert ior.shared_files().to_dict() == {
        "/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master0": 2,
        "/g/g92/xu23/research/performance-analysis/ior/testFile": 2}


@pytest.mark.parametrize("rel", [
    "traces/recorder/recorder-ior",
    "projections/pipit-ping-pong-projections",
    "hpctoolkit/pipit-ping-pong-v4-database",
])
def test_ranks_read_in_parallel_give_the_same_table(shared_data, rel):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = gf.read_trace(shared_data / rel)
        two = gf.read_trace(shared_data / rel, jobs=2)
    assert len(one.events) > 100 and two.events.equals(one.events)
