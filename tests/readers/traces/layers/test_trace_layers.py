"""The reader layers on their own: sources, batches, the handler slow path, DUMPI writer/decoder."""

import struct
import threading
import time

import numpy as np
import pytest

import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from tests.trace_collect import located
from graphframe_readers.traces.dumpi.records import iter_records
from graphframe_readers.testing.writers.dumpi import DumpiWriter, interleave
from graphframe_readers.traces.events import stream_pairs


def test_follow_source_reads_a_growing_file(tmp_path):
    path = tmp_path / "live.json"
    path.write_bytes(b'[{"ph": "B", "name": "main", "pid": 0, "tid": 0, "ts": 1},\n')

    def writer():
        time.sleep(0.15)
        with open(path, "ab") as fh:
            fh.write(b'{"ph": "E", "pid": 0, "tid": 0, "ts": 4}]\n')

    thread = threading.Thread(target=writer)
    thread.start()
    src = rt.FollowSource(path, poll_interval=0.02, idle_timeout=2.0)

    class Count(rt.EventHandler):
        def __init__(self):
            super().__init__()
            self.kinds = []

        def on_batch(self, batch):
            self.kinds += batch.kind.tolist()

    handler = rt.decode(src, Count(), format="chrome")
    thread.join()
    assert handler.kinds == [rt.Kind.ENTER, rt.Kind.LEAVE]


def test_follow_source_stops_on_request(tmp_path):
    path = tmp_path / "never.bin"
    path.write_bytes(b"abc")
    stop = threading.Event()
    src = rt.FollowSource(path, poll_interval=0.01, idle_timeout=None, should_stop=stop.is_set)
    stop.set()
    assert b"".join(src.blocks()) == b"abc"


def test_build_checks_columns():
    t = rt.StringTable()
    with pytest.raises(ValueError, match="unknown event attribute 'colour'"):
        rt.EventBatch.build(t, kind=0, time=[1], rank=0, colour=[1])
    with pytest.raises(ValueError, match="'rank' has 2 values for 1 events"):
        rt.EventBatch.build(t, kind=0, time=[1], rank=[0, 1])


def test_slow_path_dispatch_gives_python_values():
    t = rt.StringTable(["MPI_Send", "write", "/data/out.h5"])
    seen = []

    class Record(rt.EventHandler):
        def on_message(self, rank, thread, time, name, attrs):
            seen.append(("message", rank, thread, time, name, attrs))

        def on_io(self, rank, thread, time, name, attrs):
            seen.append(("io", rank, thread, time, name, attrs))

    Record().on_batch(rt.EventBatch.build(
        t, kind=[rt.Kind.SEND, rt.Kind.IO], time=[10, 20], rank=3, thread=1, name=[0, 1],
        peer=[4, -1], bytes=[64, 512], fd=[-1, 7], file=[-1, 2]))
    assert seen == [("message", 3, 1, 10, "MPI_Send", {"peer": 4, "bytes": 64, "kind": "send"}),
                    ("io", 3, 1, 20, "write", {"bytes": 512, "fd": 7, "file": "/data/out.h5"})]


def test_stream_pairs_wide_values():
    pairs, inv = stream_pairs(np.array([2**40, 0, 2**40]), np.array([1, -1, 1]))
    assert pairs == [(0, -1), (2**40, 1)] and inv.tolist() == [1, 0, 1]


def _dumpi_file(tmp_path, rank=0):
    w = DumpiWriter(start_time=100, statuses=True)
    base = 100 * 10**9
    w.call("MPI_Init", base, base + 5, argv=["./a.out", "-x"])
    w.call("MPI_Send", base + 10, base + 20, count=3, datatype=14, dest=1, tag=9, comm=2)
    w.call("MPI_Waitall", base + 30, base + 40, count=2, requests=[4, 5],
           statuses=[{"bytes": 8, "source": 1, "cancelled": 0, "error": 0, "tag": 9}] * 2)
    w.call("MPI_Put", base + 50, base + 55, origincount=4, origintype=9, targetrank=1,
           targetdisp=0, targetcount=4, targettype=9, win=3)
    w.call("MPI_Win_fence", base + 60, base + 61, assertion=0, win=3)
    w.call("MPI_Finalize", base + 70, base + 80)
    path = tmp_path / f"w-{rank:04d}.bin"
    path.write_bytes(w.finish())
    return path


def test_dumpi_writer_round_trip(tmp_path):
    path = _dumpi_file(tmp_path)
    recs = list(iter_records(rt.FileSource(path)))
    assert [r.name for r in recs] == ["MPI_Init", "MPI_Send", "MPI_Waitall", "MPI_Put",
                                      "MPI_Win_fence", "MPI_Finalize"]
    assert recs[0].args == {"argc": 2, "argv": ["./a.out", "-x"]}
    assert recs[2].args["requests"] == [4, 5] and len(recs[2].args["statuses"]) == 2
    assert recs[1].wall == (100 * 10**9 + 10, 100 * 10**9 + 20)


def test_dumpi_events(tmp_path):
    from graphframe.traces import read_trace
    tf = read_trace(_dumpi_file(tmp_path), format="dumpi")
    ev = tf.events
    send = ev[ev["kind"] == "send"].iloc[0]
    assert (send["peer"], send["tag"], send["bytes"], send["comm"]) == (1, 9, 24, 2)
    put = ev[ev["kind"] == "rma"].iloc[0]
    assert (put["peer"], put["bytes"], put["window"], put["end"] - put["time"]) == (1, 16, 3, 5)
    fence = ev[ev["kind"] == "rma_sync"].iloc[0]
    assert (fence["name"], fence["window"]) == ("MPI_Win_fence", 3)


def test_vectorised_writer_matches_the_record_writer(tmp_path):
    start = np.array([10, 30], dtype=np.int64) + 5 * 10**9
    a = DumpiWriter(start_time=5)
    rec = a.calls("MPI_Send", start, start + 5, count=[1, 2], datatype=9, dest=1, tag=0, comm=2)
    a.append(interleave([rec], [len(rec) // 2], np.array([0, 0])))
    b = DumpiWriter(start_time=5)
    for s, c in zip(start, (1, 2)):
        b.call("MPI_Send", int(s), int(s) + 5, count=c, datatype=9, dest=1, tag=0, comm=2)
    assert a.finish() == b.finish()


def test_truncated_dumpi_is_located(tmp_path):
    data = _dumpi_file(tmp_path).read_bytes()
    cut = tmp_path / "cut-0000.bin"
    cut.write_bytes(data[:60])
    with pytest.raises(ReadError, match=r"cut-0000.bin: byte \d+: no DUMPI index") as err:
        rt.decode(cut, rt.EventHandler(), format="dumpi")
    assert located(err, "cut-0000.bin") == (
        "cut-0000.bin", "byte 60", "a DUMPI trace with its index record at the end")
    # index intact, stream cut short: a record ends past the end of the stream
    body = bytearray(data)
    body[16:18] = struct.pack(">H", 7)  # the first label becomes MPI_Buffer_detach... shorter
    bad = tmp_path / "bad-0000.bin"
    bad.write_bytes(bytes(body))
    with pytest.raises(ReadError, match="bad-0000.bin: byte") as err:
        rt.decode(bad, rt.EventHandler(), format="dumpi")
    assert located(err, "bad-0000.bin") == (
        "bad-0000.bin", "byte 56", "a DUMPI function label below 293")


def test_unsupported_dumpi_call_is_named(tmp_path):
    w = DumpiWriter()
    w.append(struct.pack(">HBH", 167, 0x48, 0) + bytes(12))  # MPI_Comm_set_name
    path = tmp_path / "u-0000.bin"
    path.write_bytes(w.finish())
    with pytest.raises(ReadError, match="byte 16: the record layout of MPI_Comm_set_name is not supported"):
        rt.decode(path, rt.EventHandler(), format="dumpi")


def test_dumpi_user_functions_nest_the_mpi_calls(tmp_path):
    from graphframe.traces import read_trace
    w = DumpiWriter(start_time=1)
    t0 = 10**9
    w.function(True, 0x400, t0, t0)
    w.function(True, 0x500, t0 + 1, t0 + 1)
    w.call("MPI_Barrier", t0 + 2, t0 + 5, comm=2)
    w.function(False, 0x500, t0 + 6, t0 + 6)
    w.function(False, 0x400, t0 + 9, t0 + 9)
    path = tmp_path / "f-0000.bin"
    path.write_bytes(w.finish(functions={0x400: "main", 0x500: "solve"}))
    tf = read_trace(path, format="dumpi")
    ev = tf.events
    assert ev["name"].astype(str).tolist() == ["main", "solve", "MPI_Barrier", "MPI_Barrier",
                                              "MPI_Barrier", "solve", "main"]
    assert ev["depth"].tolist() == [0, 1, 2, -1, 2, 1, 0]
    assert ev["duration"].dropna().tolist() == [9.0, 5.0, 3.0]


def test_file_sources_are_sniffed_from_their_file(tmp_path):
    """``read_trace(FollowSource(path))`` needed ``format=`` even when the file has a head."""
    import graphframe

    path = tmp_path / "run.json"
    path.write_bytes(b'[{"ph": "X", "name": "main", "pid": 0, "tid": 0, "ts": 1, "dur": 3}]\n')
    src = rt.FollowSource(path, poll_interval=0.01, idle_timeout=0.05)
    tf = graphframe.read_trace(src)
    assert tf.events["name"].astype(str).tolist() == ["main", "main"]
    assert tf.metadata["format"] == "chrome"
    assert rt.decode([rt.FileSource(path)], rt.EventHandler(), format=None) is not None
    with pytest.raises(ReadError, match="byte sources without a file need format="):
        rt.decode(rt.MemorySource(path.read_bytes()), rt.EventHandler())


def test_every_kind_reaches_its_handler_method():
    t = rt.StringTable(["f", "MPI_Put", "MPI_Win_fence", "rss"])
    K = rt.Kind
    seen = []

    class Record(rt.EventHandler):
        pass

    for method in ("on_enter", "on_leave", "on_instant", "on_message", "on_io", "on_rma",
                   "on_counter"):
        setattr(Record, method, lambda self, r, th, tm, n, a, m=method:
                seen.append((m, tm, n, a.get("kind"))))
    Record().on_batch(rt.EventBatch.build(
        t, rank=0, time=list(range(10)), name=[0, 0, 0, 0, 0, 0, 0, 1, 2, 3],
        kind=[K.ENTER, K.INSTANT, K.SEND, K.RECV, K.COLLECTIVE, K.IO, K.LEAVE, K.RMA,
              K.RMA_SYNC, K.COUNTER], window=[-1] * 7 + [4, 4, -1]))
    assert seen == [("on_enter", 0, "f", None), ("on_instant", 1, "f", None),
                    ("on_message", 2, "f", "send"), ("on_message", 3, "f", "recv"),
                    ("on_message", 4, "f", "collective"), ("on_io", 5, "f", None),
                    ("on_leave", 6, "f", None), ("on_rma", 7, "MPI_Put", "rma"),
                    ("on_rma", 8, "MPI_Win_fence", "rma_sync"), ("on_counter", 9, "rss", None)]
