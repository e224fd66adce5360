"""Round trip on every format: read -> ``to_chrome()`` -> read gives the same events table.

Message, I/O, one-sided and counter events keep their kind and attribute
columns (written as ``i`` events whose ``args`` carry ``gf.kind`` and the
attributes); enter/leave pairs keep their order at equal times.
"""

from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

import graphframe
from graphframe_readers.traces import EventBatch, Kind, StringTable
from graphframe.traces import TraceFrame
from graphframe_readers.traces.table import TableBuilder

REAL = {
    "chrome": "chrome-trace/generated/workload.viztracer.json",
    "otf2": "otf2/pipit-ping-pong-otf2",
    "projections": "projections/pipit-ping-pong-projections",
    "projections-hello": "traces/projections/hello-1darray-projections",
    "hpctoolkit-trace": "hpctoolkit/pipit-ping-pong-v4-database",
    "dumpi": "traces/dumpi/sst-dumpi-testtrace-4ranks",
    "recorder-simple": "traces/recorder/recorder-simple",
    "recorder-ior": "traces/recorder/recorder-ior",
    "nsight": "traces/nsight/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite",
}


def _read(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return graphframe.read_trace(path)


def _round_trip(tf, tmp_path):
    back = _read(tf.to_chrome(tmp_path / "back.json"))
    pd.testing.assert_frame_equal(tf.events, back.events)
    return back


@pytest.mark.parametrize("key", sorted(REAL))
def test_real_trace_round_trip(shared_data, tmp_path, key):
    if key == "otf2":
        pytest.importorskip("otf2", reason="the otf2 package (optional extra) reads OTF2")
    tf = _read(shared_data / REAL[key])
    assert len(tf.events) > 0
    _round_trip(tf, tmp_path)


def _typed_frame():
    t = StringTable(["main", "MPI_Send", "write", "/tmp/a", "MPI_Put", "MPI_Win_fence", "rss"])
    E, L = Kind.ENTER, Kind.LEAVE
    h = TableBuilder()
    h.on_batch(EventBatch.build(
        t, rank=0,
        kind=[E, E, Kind.SEND, L, E, Kind.IO, L, E, Kind.RMA_SYNC, L, E, Kind.RMA, L,
              Kind.COUNTER, L],
        time=[0, 2, 2, 5, 5, 5, 5, 6, 6, 7, 7, 7, 9, 9, 9],
        name=[0, 1, 1, 1, 2, 2, 2, 5, 5, 5, 4, 4, 4, 6, 0],
        peer=[-1, -1, 1, -1, -1, -1, -1, -1, -1, -1, -1, 1, -1, -1, -1],
        bytes=[-1, -1, 64, -1, -1, 10, -1, -1, -1, -1, -1, 8, -1, -1, -1],
        end=[-1, -1, 5, -1, -1, 5, -1, -1, 7, -1, -1, 9, -1, -1, -1],
        fd=[-1, -1, -1, -1, -1, 3, -1, -1, -1, -1, -1, -1, -1, -1, -1],
        file=[-1, -1, -1, -1, -1, 3, -1, -1, -1, -1, -1, -1, -1, -1, -1],
        window=[-1, -1, -1, -1, -1, -1, -1, -1, 1, -1, -1, 1, -1, -1, -1],
        value=[float("nan")] * 13 + [42.0, float("nan")]))
    h.on_end()
    return TraceFrame(h.result(), h.definitions)


def test_typed_events_round_trip(tmp_path):
    tf = _typed_frame()
    assert tf.events["kind"].astype(str).tolist()[:6] == [
        "enter", "enter", "send", "leave", "enter", "io"]
    back = _round_trip(tf, tmp_path)
    assert int(back.comm_matrix().loc[0, 1]) == 64
    assert back.io_summary(per="file")["bytes"].tolist() == [10]


def test_zero_length_begin_end_nest_at_equal_times(tmp_path):
    """``B`` b at 5, ``E`` at 5: b is a zero-length call inside a, not a's end."""
    p = tmp_path / "be.json"
    p.write_text(json.dumps([
        {"ph": "B", "name": "a", "pid": 0, "tid": 0, "ts": 0},
        {"ph": "B", "name": "b", "pid": 0, "tid": 0, "ts": 5},
        {"ph": "E", "pid": 0, "tid": 0, "ts": 5},
        {"ph": "E", "pid": 0, "tid": 0, "ts": 10}]))
    ev = graphframe.read_trace(p).events
    assert ev["name"].astype(str).tolist() == ["a", "b", "b", "a"]
    assert ev["depth"].tolist() == [0, 1, 1, 0]
    assert ev["duration"].tolist()[:2] == [10000.0, 0.0]


def test_text_args_round_trip_as_valid_json(shared_data, tmp_path):
    """DUMPI's ``name=value`` argument text is not JSON: the file stays valid JSON."""
    tf = graphframe.read_trace(shared_data / REAL["dumpi"], args=True)
    assert tf.events["args"].iloc[0] == "argc=1\nargv=['./mpi']"
    path = tf.to_chrome(tmp_path / "d.json")
    assert isinstance(json.loads(open(path).read()), list)
    back = _round_trip(tf, tmp_path)
    assert back.events["args"].iloc[0] == "argc=1\nargv=['./mpi']"


@pytest.mark.parametrize("event, problem", [
    ({"ph": "i", "args": {"gf.kind": "enter"}}, "'gf.kind' 'enter' does not fit"),
    ({"ph": "i", "args": {"gf.kind": "rank"}}, "'gf.kind' 'rank' does not fit"),
    ({"ph": "B", "args": {"gf.kind": "leave"}}, "does not fit a 'B' event"),
    ({"ph": "i", "args": {"gf.kind": "send", "peer": "one"}}, "member 'peer'"),
    ({"ph": "i", "args": {"gf.kind": "send", "colour": 1}}, "member 'colour'"),
    ({"ph": "i", "args": {"gf.kind": "io", "file": 3}}, "member 'file'"),
])
def test_bad_typed_events_are_read_errors(tmp_path, event, problem):
    from graphframe_readers import ReadError
    p = tmp_path / "bad.json"
    p.write_text(json.dumps([{"name": "f", "pid": 0, "tid": 0, "ts": 1, **event}]))
    with pytest.raises(ReadError, match=problem) as err:
        graphframe.read_trace(p)
    assert err.value.position == "byte 1"
