"""HPCToolkit trace.db decoder: the ping-pong database, frame modes, corrupt copies."""

from __future__ import annotations

import shutil
import struct

import numpy as np
import pytest

import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from graphframe_readers.traces.hpctoolkit_trace.frames import frame_paths, sample_events
from tests.trace_collect import located, Collect, calls, events


def test_sample_events_merge_repeated_contexts_and_close_at_the_end():
    parent = np.array([-1, 0, 1, 1])          # f -> g -> (loop h), g -> k
    depth = np.array([0, 1, 2, 2])
    is_frame = np.array([True, True, False, True])
    paths, plen = frame_paths(parent, depth, is_frame)
    assert plen.tolist() == [1, 2, 2, 3]
    kind, time, node = sample_events(np.array([5, 6, 9, 12]), np.array([2, 1, 3, -1]),
                                     paths, plen, 20)
    # samples in h (=g's frames) and g are one stay in g; context -1 (root) leaves all
    assert list(zip(kind.tolist(), time.tolist(), node.tolist())) == [
        (0, 5, 0), (0, 5, 1), (0, 9, 3), (1, 12, 3), (1, 12, 1), (1, 12, 0)]


@pytest.fixture(scope="module")
def pingpong(shared_data):
    return shared_data / "hpctoolkit" / "pipit-ping-pong-v4-database"


def test_ping_pong_function_frames(pingpong):
    assert rt.sniff_trace(pingpong) == "hpctoolkit-trace"
    assert rt.sniff_trace(pingpong / "trace.db") == "hpctoolkit-trace"
    df = events(pingpong)
    assert df.groupby("rank").size().to_dict() == {0: 232, 1: 174}
    c = calls(df)
    main = c[c.name == "main"]
    assert main.duration.tolist() == [125_912_000, 125_994_000]
    per = c.groupby(["rank", "name"]).duration
    assert per.count()[(0, "PMPI_Send [libmpi.so.12.1.1]")] == 7
    assert per.sum()[(1, "PMPI_Send [libmpi.so.12.1.1]")] == 73_153_000
    first = df[df["rank"] == 0].iloc[0]
    assert (first.kind, first.time, first["name"]) == ("enter", 1679027616634215000, "main")
    h = rt.decode(pingpong, Collect())
    assert h.definitions.regions["main"]["file"].endswith("ping-pong.c")
    assert sorted(h.definitions.threads) == [(0, 0), (1, 0)]


def test_all_contexts_as_frames(pingpong):
    df = events(pingpong, frames="all")
    names = set(df.name)
    assert "main thread" in names and any(n.startswith("loop ") for n in names)
    c = calls(df)
    assert c[c.name == "main thread"].duration.tolist() == [125_912_000, 125_994_000]


def test_ranks_are_separate_sources(pingpong):
    assert [s.rank for s in rt.decoder_class("hpctoolkit-trace").sources(pingpong)] == [0, 1]


def copy_db(src, dst):
    shutil.copytree(src, dst)
    (dst / "trace.db").chmod(0o644)
    return dst


def test_truncated_trace_db_is_a_read_error(pingpong, tmp_path):
    db = copy_db(pingpong, tmp_path / "db")
    data = (db / "trace.db").read_bytes()
    (db / "trace.db").write_bytes(data[:300])
    with pytest.raises(ReadError, match=r"trace\.db: byte 292: the file does not end with") as err:
        rt.decode(db, Collect())
    assert located(err, "trace.db") == ("trace.db", "byte 292", "the 8-byte footer 'trace.db'")


def test_unknown_context_and_time_order_are_read_errors(pingpong, tmp_path):
    db = copy_db(pingpong, tmp_path / "a")
    data = bytearray((db / "trace.db").read_bytes())
    struct.pack_into("<I", data, 0x70 + 12 + 8, 99999)  # profile 2, sample 1: ctx 99999
    (db / "trace.db").write_bytes(bytes(data))
    with pytest.raises(ReadError, match=r"byte 132: sample 1 of profile 2 names context 99999"):
        rt.decode(db, Collect())
    db = copy_db(pingpong, tmp_path / "b")
    data = bytearray((db / "trace.db").read_bytes())
    struct.pack_into("<Q", data, 0x70 + 12, 5)  # profile 2, sample 1 at time 5
    (db / "trace.db").write_bytes(bytes(data))
    with pytest.raises(ReadError, match=r"byte 124: sample 1 of profile 2 goes back in time"):
        rt.decode(db, Collect())


def _paths_by_walking(parent, is_frame):
    """Each context's frame path by walking up its parents (the reference)."""
    rows = []
    for c in range(len(parent)):
        path, at = [], c
        while at >= 0:
            if is_frame[at]:
                path.append(at)
            at = parent[at]
        rows.append(path[::-1])
    width = max([len(r) for r in rows] + [1])
    return [r + [-1] * (width - len(r)) for r in rows], [len(r) for r in rows]


@pytest.mark.parametrize("seed", range(40))
def test_frame_paths_are_the_walked_paths(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    parent = np.array([-1] + [int(rng.integers(-1, i)) if rng.random() < 0.1
                              else int(rng.integers(0, i)) for i in range(1, n)])
    depth = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        depth[i] = depth[parent[i]] + 1 if parent[i] >= 0 else 0
    is_frame = rng.random(n) < rng.choice([0.0, 0.3, 0.8, 1.0])
    paths, plen = frame_paths(parent, depth, is_frame)
    want_paths, want_len = _paths_by_walking(parent, is_frame)
    assert paths.tolist() == want_paths
    assert plen.tolist() == want_len
