"""OTF2 decoder (optional dependency ``otf2``): generated traces and the Score-P ping-pong."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from tests.trace_collect import located, Collect, calls, events

pytest.importorskip("otf2", reason="the OTF2 decoder needs the optional otf2 package")
sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "benchmarks" / "traces"))
from gen_otf2 import write_trace  # noqa: E402


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return write_trace(str(tmp_path_factory.mktemp("otf2") / "t"), ranks=3, iterations=4)


def test_generated_trace_regions_messages_and_collectives(generated):
    assert rt.sniff_trace(generated) == "otf2"
    assert rt.sniff_trace(Path(generated).parent) == "otf2"
    df = events(generated)
    assert df.groupby("rank").size().tolist() == [2 + 4 * 13] * 3
    c = calls(df)
    r1 = c[c["rank"] == 1]
    assert r1.name.tolist()[:6] == ["main", "solve", "compute", "MPI_Send", "MPI_Recv",
                                    "MPI_Allreduce"]
    assert r1[r1.name == "compute"].duration.tolist() == [110] * 4
    sends = df[df.kind == "send"]
    assert sends[sends["rank"] == 2][["time", "peer", "tag", "bytes", "comm"]].values.tolist()[:2] \
        == [[3000 + 150 + 2, 0, 0, 1024, 0], [3000 + 230 + 150 + 2, 0, 1, 2048, 0]]
    assert (sends.name == "MPI_Send").all()
    recvs = df[df.kind == "recv"]
    assert recvs[recvs["rank"] == 0].peer.unique().tolist() == [2]
    coll = df[df.kind == "collective"]
    assert len(coll) == 12 and (coll.name == "MPI_Allreduce").all()
    first = coll.iloc[0]
    assert (first.time, first.end, first.bytes, first.recv_bytes, first.peer) == (
        1000 + 130 + 56, 1000 + 130 + 70, 8, 24, -1)


def test_generated_trace_definitions(generated):
    h = rt.decode(generated, Collect())
    d = h.definitions
    assert d.communicators == {0: {"name": "MPI_COMM_WORLD", "ranks": [0, 1, 2]}}
    assert d.ranks[2] == {"name": "MPI Rank 2"}
    assert d.regions["MPI_Send"]["kind"] == "mpi"
    assert d.regions["compute"]["file"] == "synthetic.c"
    assert d.metadata["timer_resolution"] == 1_000_000_000


class CountPerRank(rt.EventHandler):
    def __init__(self):
        super().__init__()
        self.counts = {}

    def on_batch(self, batch):
        for rank in batch.rank.tolist():
            self.counts[rank] = self.counts.get(rank, 0) + 1

    def fork(self):
        return CountPerRank()

    def join(self, others):
        for other in others:
            for rank, n in other.counts.items():
                self.counts[rank] = self.counts.get(rank, 0) + n


def test_ranks_read_in_worker_processes(generated):
    assert [s.rank for s in rt.decoder_class("otf2").sources(generated)] == [0, 1, 2]
    assert rt.decode(generated, CountPerRank(), jobs=2).counts == {0: 54, 1: 54, 2: 54}


def test_truncated_event_file_is_a_read_error(generated, tmp_path):
    copy = tmp_path / "t"
    shutil.copytree(Path(generated).parent, copy)
    evt = copy / "traces" / "1.evt"
    evt.write_bytes(evt.read_bytes()[:-40])
    with pytest.raises(ReadError, match=r"traces/1\.evt: byte \d+: the file does not end") as err:
        rt.decode(copy / "traces.otf2", Collect())
    # The otf2 library either failed on the cut chunk or stopped early without an error
    # (it varied from run to run); the file's missing end mark is found before it reads.
    assert located(err, "1.evt") == ("1.evt", f"byte {evt.stat().st_size}",
                                     "the bytes 02 01 that end every OTF2 file")


def test_event_count_below_the_definition_is_a_read_error(generated, tmp_path):
    """Records cut out of the middle of an event file (its end mark kept)."""
    copy = tmp_path / "t"
    shutil.copytree(Path(generated).parent, copy)
    evt = copy / "traces" / "1.evt"
    data = evt.read_bytes()
    evt.write_bytes(data[:len(data) // 2] + data[-2:])
    with pytest.raises(ReadError, match=r"traces\.otf2.*location 1") as err:
        rt.decode(copy / "traces.otf2", Collect())
    name, position, expected = located(err, "traces.otf2")
    assert name == "traces.otf2" and "1.evt" in str(err.value)
    assert (position, expected) == ("location 1, after 0 decoded events",
                                    "readable event records") or (
        re.fullmatch(r"location 1, event \d+", position)
        and expected == "all announced events (truncated .evt file?)"), (position, expected)


@pytest.mark.parametrize("keep", [0.5, 0.9])
def test_truncated_local_definitions_are_a_read_error(shared_data, tmp_path, keep):
    """A cut ``traces/0.def`` was the OTF2 library's own ``Error``, not a ReadError."""
    copy = tmp_path / "t"
    shutil.copytree(shared_data / "otf2" / "pipit-ping-pong-otf2", copy)
    local = copy / "traces" / "0.def"
    data = local.read_bytes()
    local.write_bytes(data[:int(len(data) * keep)])
    with pytest.raises(ReadError, match=r"traces/0\.def: .*end-of-file mark") as err:
        rt.decode(copy / "traces.otf2", Collect())
    assert located(err, "0.def") == ("0.def", f"byte {int(len(data) * keep)}",
                                     "the bytes 02 01 that end every OTF2 file")


def test_not_an_anchor_file_is_a_read_error(tmp_path):
    bad = tmp_path / "x.otf2"
    bad.write_bytes(b"\x03BOTF2 garbage")
    with pytest.raises(ReadError, match="cannot open the trace"):
        rt.decode(bad, Collect())


def test_ping_pong_trace(shared_data):
    path = shared_data / "otf2" / "pipit-ping-pong-otf2"
    df = events(path)
    assert df.kind.value_counts().to_dict() == {"enter": 42, "leave": 42, "send": 16,
                                                "recv": 16}
    c = calls(df)
    counts = c.groupby(["rank", "name"]).size()
    assert counts[(0, "MPI_Send")] == 8 and counts[(1, "MPI_Recv")] == 8
    assert counts[(0, "int main(int, char**)")] == 1
    msgs = df[df.kind == "send"]
    assert msgs[msgs["rank"] == 0].bytes.tolist() == [16384 << i for i in range(8)]
    assert msgs[msgs["rank"] == 0].tag.unique().tolist() == [10]
    assert (df[df.kind == "recv"].groupby("rank").peer.first()).tolist() == [1, 0]
    # ticks at 2.095197216 GHz -> ns: MPI_Init on rank 0 lasts 193.297 ms
    init = c[(c["rank"] == 0) & (c.name == "MPI_Init")].duration.item()
    assert init == 193_297_083


def test_ping_pong_definitions(shared_data):
    defs = rt.decode(shared_data / "otf2" / "pipit-ping-pong-otf2", Collect()).definitions
    # MPI_COMM_WORLD is a COMM_GROUP group: indices into the COMM_LOCATIONS group
    assert defs.communicators[1] == {"name": "MPI_COMM_WORLD", "ranks": [0, 1]}
    assert defs.ranks == {0: {"name": "MPI Rank 0"}, 1: {"name": "MPI Rank 1"}}
    assert defs.regions["int main(int, char**)"] == {
        "file": "/g/g92/bhatele1/umd/traces/score-p/ping-pong.c", "line": 5,
        "kind": "compiler", "role": "function"}
    assert defs.metadata["timer_resolution"] == 2095197216
