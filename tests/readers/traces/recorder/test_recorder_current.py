"""Recorder 2.4/2.5 decoding on written traces: grammar, timestamps, threads, user functions,
inter-process compression, and located ReadErrors for every kind of damage."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import graphframe as gf
import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from graphframe_readers.testing.writers.recorder import (FUNCTIONS, RecorderTraceWriter,
                                                         cfg_bytes, cst_bytes, meta_bytes,
                                                         signature_key, ts_bytes,
                                                         write_loop_trace)
from tests.trace_collect import Collect, calls, events, located


def small(tmp_path, ranks=2):
    w = RecorderTraceWriter(ranks=ranks, start=100.0)
    for r in range(ranks):
        w.call(r, "open", [f"/d/{r}.dat", "66", "420"], 10, 20)
        for i in range(3):
            w.call(r, "write", [f"/d/{r}.dat", "%p", "8"], 30 + 10 * i, 35 + 10 * i)
        w.call(r, "MPI_File_open", ["MPI_COMM_WORLD", "/d/shared", "9", "%p", "0-0"], 70, 90)
        w.call(r, "open", ["/d/shared", "66", "420"], 72, 80, level=1)
        w.call(r, "MPI_File_write_at", ["0-0", str(64 * r), "%p", "8", "MPI_INT", "%p"], 95, 99)
        w.call(r, "MPI_File_close", ["0-0"], 100, 101)
    return w.write(tmp_path / "t")


def test_written_trace_reads_with_times_files_and_nesting(tmp_path):
    folder = small(tmp_path)
    assert rt.sniff_trace(folder) == "recorder"
    for name in ("recorder.mt", "0.cst", "1.cfg", "0.ts", "VERSION"):
        assert rt.sniff_trace(folder / name) == "recorder"
    df = events(folder)
    c = calls(df)
    r0 = c[c["rank"] == 0]
    assert r0.name.tolist() == ["open", "write", "write", "write", "MPI_File_open", "open",
                                "MPI_File_write_at", "MPI_File_close"]
    assert ((r0.time - 100_000_000_000) // 100).tolist() == [10, 30, 40, 50, 70, 72, 95, 100]
    assert r0.duration.tolist() == [1000, 500, 500, 500, 2000, 800, 400, 100]
    io = df[(df.kind == "io") & (df["rank"] == 1)]
    assert io.file.tolist() == ["/d/1.dat"] * 4 + ["/d/shared"] * 4
    assert io.bytes.tolist() == [-1, 8, 8, 8, -1, -1, 32, -1]  # 8 MPI_INT
    assert io.offset.tolist()[-2] == 64 and (io.fd == -1).all()
    tf = gf.read_trace(folder)
    e = tf.events[tf.events.kind == "enter"]
    assert e[e.name == "open"].depth.tolist() == [0, 1, 0, 1]  # the open inside MPI_File_open
    assert tf.metadata["version"] == "2.5.0" and tf.metadata["functions"] == FUNCTIONS


def test_threads_user_functions_and_interprocess_compression(tmp_path):
    folder = tmp_path / "ipc"
    folder.mkdir()
    (folder / "VERSION").write_text("2.4.0")
    (folder / "recorder.mt").write_bytes(meta_bytes(2, start=0.0, interprocess=True))
    keys = [signature_key(FUNCTIONS.index("write"), ["/d/x", "%p", "4"], tid=140001),
            signature_key(255, ["0x1", "my_kernel"], tid=140002),
            signature_key(FUNCTIONS.index("close"), ["/d/x"], tid=140001)]
    (folder / "0.cst").write_bytes(cst_bytes(keys, [3, 2, 2]))  # merged counts: not checked
    (folder / "0.cfg").write_bytes(cfg_bytes({-1: [(0, 1), (1, 1), (2, 1)]}))
    (folder / "1.cfg").write_bytes(cfg_bytes({-1: [(0, 2), (2, 1)]}))
    (folder / "ug.mt").write_bytes(np.array([0, 1, 2], dtype="<i4").tobytes())
    (folder / "0.ts").write_bytes(ts_bytes(np.array([1, 2, 3]), np.array([2, 3, 4])))
    (folder / "1.ts").write_bytes(ts_bytes(np.array([1, 5, 9]), np.array([2, 6, 10])))
    tf = gf.read_trace(folder)
    c = tf.events[tf.events.kind == "enter"]
    assert c[["rank", "thread", "name"]].values.tolist() == [  # streams: rank, then thread
        [0, 0, "write"], [0, 0, "close"], [0, 1, "my_kernel"],
        [1, 0, "write"], [1, 0, "write"], [1, 0, "close"]]
    assert tf.definitions.threads[(0, 1)] == {"pthread": 140002}
    assert tf.metadata["interprocess_compression"] is True


def test_relative_names_and_the_working_directory(tmp_path):
    w = RecorderTraceWriter(ranks=1)
    w.call(0, "open", ["out/a.dat", "66", "420"], 1, 2)
    w.call(0, "chdir", ["/scratch/run"], 3, 4)
    w.call(0, "write", ["b.dat", "%p", "8"], 5, 6)
    folder = w.write(tmp_path / "t")
    tf = gf.read_trace(folder)
    assert tf.io.files(calls="all") == ["/scratch/run", "b.dat", "out/a.dat"]
    assert tf.definitions.ranks[0]["relative_files"] == ["b.dat", "out/a.dat"]
    tf = gf.read_trace(folder, cwd="/home/me")
    assert tf.io.files(calls="all") == ["/home/me/b.dat", "/home/me/out/a.dat", "/scratch/run"]


def test_loop_trace_writer_counts(tmp_path):
    folder = write_loop_trace(tmp_path / "loop", ranks=3, records=1002)
    tf = gf.read_trace(folder)
    io = tf.io
    assert io.record_count(per="rank").tolist() == [1002, 1002, 1002]
    assert io.function_count()["write"] == 3 * 125
    one = gf.read_trace(folder, jobs=2)
    assert one.events.equals(tf.events)


# ------------------------------------------------------------------ damage
def _error(folder, match):
    handler = Collect()
    with pytest.raises(ReadError, match=match) as err:
        rt.decode(folder, handler)
    return err, handler


@pytest.mark.parametrize("cut", [2, 10, 40, -1])
def test_truncated_signature_table(tmp_path, cut):
    folder = small(tmp_path)
    data = (folder / "1.cst").read_bytes()
    (folder / "1.cst").write_bytes(data[:cut])
    err, handler = _error(folder, r"1\.cst")
    assert located(err, "1.cst")[0] == "1.cst" and "byte" in str(err.value)
    assert not any(len(b) and int(b.rank[0]) == 1 for b in handler.batches)


@pytest.mark.parametrize("cut", [1, 4, 9, -4])
def test_truncated_grammar(tmp_path, cut):
    folder = small(tmp_path)
    data = (folder / "0.cfg").read_bytes()
    (folder / "0.cfg").write_bytes(data[:cut])
    err, handler = _error(folder, r"0\.cfg")
    assert "byte" in str(err.value) or "calls signature" in str(err.value)
    assert handler.batches == []


@pytest.mark.parametrize("cut", [0, 7, -8])
def test_truncated_timestamps(tmp_path, cut):
    folder = small(tmp_path)
    data = (folder / "0.ts").read_bytes()
    (folder / "0.ts").write_bytes(data[:cut])
    err, handler = _error(folder, r"0\.ts.*bytes of timestamps for 8 records")
    assert "byte" in str(err.value) and handler.batches == []


@pytest.mark.parametrize("name", ["1.cst", "1.cfg", "1.ts", "recorder.mt"])
def test_missing_rank_file(tmp_path, name):
    folder = small(tmp_path)
    (folder / name).unlink()
    # a rank's file: named with the rank it belongs to (issue 34's MissingMembersError)
    expected = (r"recorder[.]mt: cannot open the file" if name == "recorder.mt" else
                rf"2 ranks but rank 1 is missing: no {name.replace('.', '[.]')}")
    with pytest.raises(ReadError, match=expected):
        gf.read_trace(folder, format="recorder")


@pytest.mark.parametrize("rules, match", [
    ({-1: [(-2, 1)], -2: [(-1, 1)]}, "contains itself"),
    ({-1: [(0, 1), (-3, 2)]}, "refers to rule -3, which is not defined"),
    ({-1: [(0, 1 << 30), (-2, 1 << 20)], -2: [(1, 1 << 10)]}, "expands to"),
    ({-1: [(0, 1), (57, 1), (1, 6)]}, "call signature 57"),
    ({-1: [(0, 0)]}, "repeats a symbol 0 times"),
    ({-2: [(0, 1)]}, "no start rule"),
])
def test_corrupted_grammar(tmp_path, rules, match):
    folder = small(tmp_path)
    (folder / "0.cfg").write_bytes(cfg_bytes(rules))
    err, handler = _error(folder, match)
    assert "0.cfg" in str(err.value) and handler.batches == []


def test_grammar_against_signature_counts(tmp_path):
    folder = small(tmp_path)
    (folder / "0.cfg").write_bytes(cfg_bytes({-1: [(0, 1), (1, 2), (2, 1), (3, 1), (4, 1),
                                                   (5, 2)]}))
    _error(folder, "the grammar calls signature 1 2 times, 0.cst counts 3")


def test_corrupted_signature_table_and_header(tmp_path):
    folder = small(tmp_path)
    data = bytearray((folder / "0.cst").read_bytes())
    data[4:8] = struct.pack("<i", 99)  # terminal id out of range
    (folder / "0.cst").write_bytes(bytes(data))
    _error(folder, r"0\.cst.*byte 4 \(signature 0 of 6\).*terminal id 99")
    folder = small(tmp_path / "b")
    (folder / "recorder.mt").write_bytes(b"\0" * 12)
    _error(folder, r"recorder\.mt.*has 12 bytes")
    (folder / "VERSION").write_text("2.3.3")
    _error(folder, r"VERSION.*format '2.3.3' is not supported")


def test_call_table_in_two_processes(tmp_path):
    from graphframe.traces.read_many import read_calls

    folder = write_loop_trace(tmp_path / "loop", ranks=4, records=300)
    one, defs = read_calls(folder)
    two, _ = read_calls(folder, jobs=2)
    assert two.equals(one) and len(one) == 4 * (2 + 8 * 37)  # open, 37 loops of 8, close
    assert defs.metadata["version"] == "2.5.0"
    (folder / "3.ts").write_bytes((folder / "3.ts").read_bytes()[:-8])  # the worker's rank
    with pytest.raises(ReadError, match=r"3\.ts"):
        read_calls(folder, jobs=2)
