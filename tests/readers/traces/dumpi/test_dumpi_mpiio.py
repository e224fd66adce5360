"""DUMPI MPI-IO records -> IO events with the file handle -> file name mapping (exact values).

The shipped 4-rank test trace has no MPI-IO call (its callcounts list every
MPI_File_* at 0), so these traces are written by our writer, and one record
is packed by hand from the documented layout to check the writer itself.
"""

import struct

import pytest

import graphframe_readers.traces as rt
from graphframe.traces import read_trace
from graphframe_readers.testing.writers.dumpi import DumpiWriter
from graphframe_readers.traces.dumpi.layouts import LABEL, THREAD, WALL
from graphframe_readers.traces.dumpi.records import iter_records

S = 10**9  # the writers' start_time=1 -> times from 1 s


def _rank0(statuses):
    w = DumpiWriter(start_time=1, statuses=statuses)
    w.call("MPI_File_open", S, S + 10, comm=2, filename="out.dat", amode=5, info=0, file=1)
    w.call("MPI_File_write_at", S + 20, S + 30, file=1, offset=64, count=10, datatype=11)
    w.call("MPI_File_seek", S + 31, S + 32, file=1, offset=8, whence=0)
    w.call("MPI_File_write_all_begin", S + 33, S + 34, file=1, count=2, datatype=9)
    w.call("MPI_File_write_all_end", S + 35, S + 36, file=1)
    w.call("MPI_File_close", S + 40, S + 45, file=1)
    # libdumpi reuses a closed handle: handle 1 now names in.dat
    w.call("MPI_File_open", S + 50, S + 55, comm=4, filename="in.dat", amode=1, info=0, file=1)
    w.call("MPI_File_read", S + 60, S + 70, file=1, count=3, datatype=9)
    w.call("MPI_File_delete", S + 80, S + 90, filename="tmp.dat", info=0)
    return w.finish()


def _rank1():
    w = DumpiWriter(start_time=1)
    w.call("MPI_File_open", S, S + 4, comm=2, filename="out.dat", amode=5, info=0, file=7)
    w.call("MPI_File_iwrite_at", S + 5, S + 6, file=7, offset=0, count=4, datatype=11,
           request=3)
    w.call("MPIO_Wait", S + 7, S + 9, request=3)
    w.call("MPI_File_close", S + 10, S + 11, file=7)
    return w.finish()


@pytest.fixture(params=[False, True], ids=["fixed-records", "with-statuses"])
def trace(tmp_path, request):
    (tmp_path / "io-0000.bin").write_bytes(_rank0(request.param))
    (tmp_path / "io-0001.bin").write_bytes(_rank1())
    (tmp_path / "io.meta").write_text("numprocs=2\nfileprefix=io\n")
    return tmp_path / "io.meta"


def test_io_events_carry_handle_file_bytes_offset(trace):
    tf = read_trace(trace, format="dumpi")
    ev = tf.events
    io = ev[ev["kind"] == "io"]
    got = io[["rank", "time", "name", "fd", "file", "bytes", "offset", "end"]]
    assert [tuple(r) for r in got.astype(object).values.tolist()] == [
        (0, S, "MPI_File_open", 1, "out.dat", -1, -1, S + 10),
        (0, S + 20, "MPI_File_write_at", 1, "out.dat", 80, 64, S + 30),
        (0, S + 31, "MPI_File_seek", 1, "out.dat", -1, 8, S + 32),
        (0, S + 33, "MPI_File_write_all_begin", 1, "out.dat", 8, -1, S + 34),
        (0, S + 35, "MPI_File_write_all_end", 1, "out.dat", -1, -1, S + 36),
        (0, S + 40, "MPI_File_close", 1, "out.dat", -1, -1, S + 45),
        (0, S + 50, "MPI_File_open", 1, "in.dat", -1, -1, S + 55),
        (0, S + 60, "MPI_File_read", 1, "in.dat", 12, -1, S + 70),
        (0, S + 80, "MPI_File_delete", -1, "tmp.dat", -1, -1, S + 90),
        (1, S, "MPI_File_open", 7, "out.dat", -1, -1, S + 4),
        (1, S + 5, "MPI_File_iwrite_at", 7, "out.dat", 32, 0, S + 6),
        (1, S + 10, "MPI_File_close", 7, "out.dat", -1, -1, S + 11)]
    assert io.loc[io["name"] == "MPI_File_iwrite_at", "request"].tolist() == [3]
    assert io.loc[io["name"] == "MPI_File_open", "comm"].tolist() == [2, 4, 2]
    # MPIO_Wait is a call (ENTER/LEAVE), not an IO event
    assert ev.loc[ev["name"] == "MPIO_Wait", "kind"].tolist() == ["enter", "leave"]


def test_io_summaries_and_fd_map(trace):
    tf = read_trace(trace, format="dumpi")
    assert tf.fd_map()[["rank", "fd", "file", "time"]].values.tolist() == [
        [0, 1, "out.dat", S], [0, 1, "in.dat", S + 50], [1, 7, "out.dat", S]]
    per_file = tf.io_summary(per="file")
    assert per_file.loc["out.dat", "bytes"].to_dict() == {
        "MPI_File_close": 0, "MPI_File_iwrite_at": 32, "MPI_File_open": 0,
        "MPI_File_seek": 0, "MPI_File_write_all_begin": 8, "MPI_File_write_all_end": 0,
        "MPI_File_write_at": 80}
    assert per_file.loc[("out.dat", "MPI_File_open"), "count"] == 2
    assert per_file.loc[("in.dat", "MPI_File_read"), ["count", "bytes"]].tolist() == [1, 12]
    per_rank = tf.io_summary(per="rank")
    assert per_rank.loc[(0, "MPI_File_write_at"), "time"] == pytest.approx(10e-9)
    # the data operations by default: MPI_File_delete is not one
    assert per_rank["count"].groupby(level=0).sum().to_dict() == {0: 8, 1: 3}
    every = tf.io_summary(per="rank", calls="all")
    assert every["count"].groupby(level=0).sum().to_dict() == {0: 9, 1: 3}
    assert tf.files_per_rank().to_dict() == {0: ["in.dat", "out.dat"], 1: ["out.dat"]}
    assert tf.files_per_rank(calls="all").to_dict() == {0: ["in.dat", "out.dat", "tmp.dat"],
                                                        1: ["out.dat"]}
    assert tf.shared_files().to_dict() == {"out.dat": 2}


def test_handle_binding_carries_across_batches(tmp_path):
    path = tmp_path / "io-0000.bin"
    path.write_bytes(_rank0(False))
    one = read_trace(path, format="dumpi").events
    small = read_trace(path, format="dumpi", batch_records=2).events
    assert len(small) == len(one) == 27
    cols = ["kind", "time", "name", "fd", "file", "bytes", "offset"]
    assert small[cols].astype(object).values.tolist() == one[cols].astype(object).values.tolist()


def test_hand_packed_file_open_record_matches_the_layout(tmp_path):
    # MPI_File_open per sst-dumpi's writer: label u16, mask u8, thread u16, wall start/stop
    # (u16 s + u32 ns each), comm u16, filename (i32 length + bytes), amode u8, info u16,
    # file handle u16
    name = b"/scratch/run/data.h5"
    rec = struct.pack(">HBH", LABEL["MPI_File_open"], THREAD | WALL, 0)
    rec += struct.pack(">HIHI", 0, 5, 0, 9)
    rec += struct.pack(">H", 2) + struct.pack(">i", len(name)) + name
    rec += struct.pack(">BHH", 9, 0, 4)
    w = DumpiWriter(start_time=1)
    w.call("MPI_File_open", S + 5, S + 9, comm=2, filename=name.decode(), amode=9, info=0,
           file=4)
    written = w.finish()
    assert written[16:16 + len(rec)] == rec  # magic (8) + time biases (8), then the record
    path = tmp_path / "h-0000.bin"
    path.write_bytes(written)
    (r,) = iter_records(rt.FileSource(path))
    assert (r.name, r.wall, r.args) == ("MPI_File_open", (S + 5, S + 9), {
        "comm": 2, "filename": "/scratch/run/data.h5", "amode": 9, "info": 0, "file": 4})


def test_io_record_arguments_as_text(tmp_path):
    path = tmp_path / "io-0000.bin"
    path.write_bytes(_rank0(True))
    ev = read_trace(path, format="dumpi", args=True).events
    first = ev.loc[ev["name"] == "MPI_File_open", "args"].dropna().tolist()
    assert first[0] == "comm=2\nfilename=out.dat\namode=5\ninfo=0\nfile=1"
    seek = ev.loc[ev["name"] == "MPI_File_seek", "args"].dropna().tolist()
    assert seek == ["file=1\noffset=8\nwhence=0"]


def test_fixed_size_table_matches_the_per_record_rule():
    from graphframe_readers.traces.dumpi.layouts import END_OF_STREAM, LAYOUTS, fixed_size, fixed_sizes
    table = fixed_sizes()
    assert len(table) == (END_OF_STREAM + 1) * 256
    expected = [fixed_size(lab, m) if lab in LAYOUTS else 0
                for lab in range(END_OF_STREAM + 1) for m in range(256)]
    assert table == expected
    # MPI_File_write_at with thread + wall times: 3 + 2 + 12 + file 2 + offset 8 + count 4
    # + datatype 2; with statuses stored its length depends on them
    assert table[(LABEL["MPI_File_write_at"] << 8) | THREAD | WALL] == 33
    assert table[(LABEL["MPI_File_write_at"] << 8) | THREAD | WALL | 1] == 0


def test_io_view_on_dumpi(trace):
    io = read_trace(trace, format="dumpi").io
    # out.dat: rank 0 open, write_at, seek, write_all_begin/_end, close; rank 1 open,
    # iwrite_at, close; in.dat: open, read; tmp.dat only deleted (not a data operation)
    assert io.file_accesses().to_dict() == {"in.dat": 2, "out.dat": 9}
    assert io.file_accesses(calls="all").to_dict() == {"in.dat": 2, "out.dat": 9, "tmp.dat": 1}
    assert io.files(per="rank") == {0: ["in.dat", "out.dat"], 1: ["out.dat"]}
    calls = io.calls.set_index("name")
    assert calls.loc["MPI_File_write_at", "bytes"] == 80 and \
        calls.loc["MPI_File_write_at", "duration"] == 10
