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
    files = ior.files_per_rank()  # data operations: testFile is only stat'ed and access'ed
    assert files[0] == ["/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master0",
                        "/g/g92/xu23/research/performance-analysis/ior/testFile", "stdout"]
    assert ior.files_per_rank(calls="all")[0][-1] == "testFile"
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


def test_relative_names_are_flagged_or_resolved_against_the_working_directory(ior, shared_data):
    assert ior.definitions.ranks[0]["relative_files"] == ["testFile"]
    assert "relative_files" not in ior.definitions.ranks[1]
    cwd = "/g/g92/xu23/research/performance-analysis/ior"
    resolved = gf.read_trace(shared_data / "traces" / "recorder" / "recorder-ior", cwd=cwd)
    assert "relative_files" not in resolved.definitions.ranks[0]
    every = resolved.files_per_rank(calls="all")[0]
    assert every == ["/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master0",
                     f"{cwd}/testFile", "stdout"]
    # the same file now: its accesses of every kind add up under one name
    acc = resolved.io.file_accesses(calls="all")
    assert acc[f"{cwd}/testFile"] == ior.io.file_accesses(calls="all")[f"{cwd}/testFile"] + 2


def test_io_view_answers_the_per_run_questions(ior):
    io = ior.io
    assert io.record_count() == 269 and io.record_count(per="rank").tolist() == [197, 72]
    count = io.function_count()
    assert count["vfprintf"] == 116 and count["MPI_Reduce"] == 28
    every = io.function_count(nonzero=False)
    assert len(every) == len(set(ior.metadata["functions"])) and (every == 0).sum() > 100
    assert io.function_count(per="rank").loc[1, "MPI_Reduce"] == 14
    assert io.function_time(per="rank").loc[0, "MPI_Allreduce"] == pytest.approx(82e-6)
    assert io.total_function_time() == pytest.approx(io.function_time().sum())
    data = io.file_accesses()
    # open+close of master0 three times on rank 0 and once on rank 1 (ftruncate/mmap are
    # not data operations); testFile: per rank 2 x (open, 2 x (lseek, write|read), close);
    # stdout: 116 vfprintf + 6 fwrite on rank 0
    assert data.to_dict() == {
        "/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master0": 8,
        "/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master1": 4,
        "/g/g92/xu23/research/performance-analysis/ior/testFile": 24, "stdout": 122}
    assert io.total_file_accesses(per="rank").tolist() == [6 + 12 + 122, 4 + 2 + 12]
    assert io.file_count() == 3 and io.file_count(per="rank").tolist() == [2, 3]
    assert io.files(per="rank")[1] == [
        "/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master0",
        "/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master1",
        "/g/g92/xu23/research/performance-analysis/ior/testFile"]
    writes = io.filter(lambda calls: calls["name"] == "write")
    assert writes.record_count() == 4 and writes.function_count().to_dict() == {"write": 4}
