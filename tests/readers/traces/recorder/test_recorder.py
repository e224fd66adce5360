"""Recorder 2.2 decoder: synthetic traces and the two prismio test traces."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from tests.trace_collect import located, Collect, calls, events

FUNCS = ["open", "close", "write", "read", "dup", "fwrite", "MPI_Send", "MPI_Barrier"]


def record(t0, t1, func, args=(), status=0, res=0) -> bytes:
    text = b"".join(b" " + a.encode() for a in args) + b"\n"
    return struct.pack("<BiiiB", status, t0, t1, res, func) + text


def write_trace(folder: Path, itf: bytes, *, records: int, counts=None, start=100.0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "VERSION").write_text("2.2.0")
    (folder / "recorder.mt").write_bytes(struct.pack("<diii4x", 1e-6, 1, 2, 3)
                                         + "".join(f + "\n" for f in FUNCS).encode())
    fc = np.zeros(256, dtype="<i4")
    for f, c in (counts or {}).items():
        fc[FUNCS.index(f)] = c
    name = b"/data/out.bin"
    meta = struct.pack("<ddii16x", start, start + 1, 1, records) + fc.tobytes()
    meta += struct.pack("<iQi", 0, 64, len(name)) + name
    (folder / "0.mt").write_bytes(meta)
    (folder / "0.itf").write_bytes(itf)
    return folder


def simple_itf() -> bytes:
    return (record(1, 5, 0, ["/data/out.bin", "66", "436"], res=7)
            + record(6, 8, 2, ["7", "%p", "16"])
            + record(9, 9, 0, ["8"], status=0x81)       # slot 0 (the write before), fd 8
            + record(10, 11, 4, ["7"], res=9)             # dup(7) -> 9
            + record(12, 14, 1, ["9"], status=0x81)       # slot 1: write(8, %p, 16), fd 9
            + record(5, 20, 7, ["MPI_COMM_WORLD"])        # written last, contains the rest
            + record(21, 22, 1, ["9"]))


def test_synthetic_trace_calls_files_and_nesting(tmp_path):
    counts = {"open": 1, "write": 3, "dup": 1, "MPI_Barrier": 1, "close": 1}
    folder = write_trace(tmp_path / "t", simple_itf(), records=7, counts=counts)
    assert rt.sniff_trace(folder) == "recorder"
    assert rt.sniff_trace(folder / "recorder.mt") == "recorder"
    df = events(folder)
    c = calls(df)
    assert c.name.tolist() == ["open", "MPI_Barrier", "write", "write", "dup", "write", "close"]
    assert (c.time - 100_000_000_000).tolist() == [1000, 5000, 6000, 9000, 10000, 12000, 21000]
    assert c.duration.tolist() == [4000, 15000, 2000, 0, 1000, 2000, 1000]
    assert c.args.tolist() == ["/data/out.bin 66 436", "MPI_COMM_WORLD", "7 %p 16",
                               "8 %p 16", "7", "9 %p 16", "9"]
    io = df[df.kind == "io"]
    assert io.name.tolist() == ["open", "write", "write", "dup", "write", "close"]
    assert io.fd.tolist() == [7, 7, 8, 7, 9, 9]
    assert [f if isinstance(f, str) else None for f in io.file] == [
        "/data/out.bin", "/data/out.bin", None, "/data/out.bin", "/data/out.bin",
        "/data/out.bin"]
    assert io.bytes.tolist() == [-1, 16, 16, -1, 16, -1]
    assert (io.end - io.time).tolist() == [4000, 2000, 0, 1000, 2000, 1000]
    barrier = df[df.kind == "collective"]
    assert barrier.name.tolist() == ["MPI_Barrier"] and barrier.comm.tolist() == [0]
    # MPI_Barrier (5..20) is entered before the write at 6 and left after the one at 12
    order = df[df.kind.isin(["enter", "leave"])][["kind", "name"]].values.tolist()
    assert order[2:4] == [["enter", "MPI_Barrier"], ["enter", "write"]]
    assert order[-3] == ["leave", "MPI_Barrier"]


def test_args_can_be_left_out(tmp_path):
    folder = write_trace(tmp_path / "t", simple_itf(), records=7,
                         counts={"open": 1, "write": 3, "dup": 1, "MPI_Barrier": 1, "close": 1})
    df = events(folder, args=False)
    assert df.args.isna().all()


@pytest.mark.parametrize("cut", [3, 14, 30])
def test_truncated_rank_file_is_a_read_error_and_delivers_nothing(tmp_path, cut):
    data = simple_itf()
    folder = write_trace(tmp_path / "t", data[:cut] if cut != 30 else data[:-1], records=7)
    handler = Collect()
    with pytest.raises(ReadError, match=r"0\.itf") as err:
        rt.decode(folder, handler)
    assert "byte" in str(err.value) and "cut short" in str(err.value)
    assert located(err, "0.itf")[:2] == ("0.itf", {3: "byte 0 (record 0)", 14: "byte 0 (record 0)",
                                                30: "byte 140 (record 6)"}[cut])
    assert handler.batches == []


def test_missing_records_and_wrong_counts_are_read_errors(tmp_path):
    data = simple_itf()
    folder = write_trace(tmp_path / "a", data, records=8)
    with pytest.raises(ReadError, match="7 records, but the rank's .mt file counts 8"):
        rt.decode(folder, Collect())
    counts = {"open": 1, "write": 2, "dup": 1, "MPI_Barrier": 1, "close": 1}
    folder = write_trace(tmp_path / "b", data, records=7, counts=counts)
    with pytest.raises(ReadError, match="3 calls of write, but the rank's .mt file counts 2"):
        rt.decode(folder, Collect())


def test_corrupt_records_are_read_errors(tmp_path):
    bad_slot = record(1, 2, 0, ["x"], status=0x81)
    folder = write_trace(tmp_path / "a", bad_slot, records=1)
    with pytest.raises(ReadError, match="window slot 0 but only 0 records precede it"):
        rt.decode(folder, Collect())
    bad_func = record(1, 2, 99, [])
    folder = write_trace(tmp_path / "b", bad_func, records=1)
    with pytest.raises(ReadError, match=r"byte 0 \(record 0\).*function id 99"):
        rt.decode(folder, Collect())
    folder = write_trace(tmp_path / "c", record(1, 2, 0, []), records=1)
    (folder / "0.mt").write_bytes(b"\0" * 20)
    with pytest.raises(ReadError, match=r"0\.mt.*has 20 bytes"):
        rt.decode(folder, Collect())


# --------------------------------------------------------------- real data
@pytest.fixture(scope="module")
def recorder_dir(shared_data):
    return shared_data / "traces" / "recorder"


def test_simple_trace_one_row_per_call(recorder_dir):
    df = events(recorder_dir / "recorder-simple")
    c = calls(df)
    assert len(c) == 12
    assert c.groupby("rank").size().tolist() == [6, 6]
    # per-rank total call time (µs), as prismio's tests on the same trace
    assert (c.groupby("rank").duration.sum() / 1000).tolist() == [359, 1694]
    fwrite = c[(c["rank"] == 0) & (c.name == "fwrite")]
    assert fwrite.duration.tolist() == [7000] and fwrite.args.tolist() == ["%p 1 1 24"]
    io = df[df.kind == "io"]
    assert sorted(set(zip(io["rank"], io.file))) == [
        (0, "/g/g92/xu23/research/performance-analysis/ior/rank0.txt"),
        (1, "/g/g92/xu23/research/performance-analysis/ior/rank1.txt")]
    msg = df[df.kind.isin(["send", "recv"])]
    assert msg[["kind", "rank", "peer", "tag", "bytes"]].values.tolist() == [
        ["send", 0, 1, 0, 1], ["recv", 1, 0, 0, 4]]


def test_ior_trace_counts_and_times_agree_with_the_metadata(recorder_dir):
    h = rt.decode(recorder_dir / "recorder-ior", Collect())
    df = h.frame()
    c = calls(df)
    assert c.groupby("rank").size().tolist() == [197, 72]
    layer = c.name.map(lambda n: "mpi" if n.startswith("MPI_") else "posix")
    assert c.groupby([c["rank"], layer]).size().to_dict() == {
        (0, "mpi"): 44, (0, "posix"): 153, (1, "mpi"): 43, (1, "posix"): 29}
    per = c.groupby(["rank", "name"])
    assert per.size()[(0, "vfprintf")] == 116 and per.size()[(1, "MPI_Reduce")] == 14
    assert per.duration.sum()[(0, "MPI_Allreduce")] == 82_000
    assert per.duration.sum()[(0, "__xstat")] == 145_000  # prismio: 0.000145 s
    io = df[df.kind == "io"]
    fd_files = io[io.fd >= 0].groupby("rank").file.nunique().tolist()
    assert fd_files == [3, 3]
    assert (io[(io["rank"] == 0)].file == "stdout").sum() == 122
    defs = h.definitions
    assert defs.metadata["format"] == "recorder" and defs.metadata["version"] == "2.2.0"
    assert sorted(defs.ranks[1]["files"]) == [
        "/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master0",
        "/dev/shm/job2443846470-34168-OMPI_COLL_IBM-0-collshm-comm4-master1",
        "/g/g92/xu23/research/performance-analysis/ior/testFile"]
    # calls made inside MPI_Comm_split_type (Open MPI's shared-memory setup) nest in it
    r0 = df[(df["rank"] == 0) & df.kind.isin(["enter", "leave"])]
    assert r0.name.tolist()[2:4] == ["MPI_Comm_split_type", "open"]
