"""Charm++ Projections decoder: synthetic logs and the two real traces."""

from __future__ import annotations

import gzip

import pytest

import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from tests.trace_collect import located, Collect, calls, events

STS = """PROJECTIONS_ID
VERSION 11.0
PROCESSORS 1
MACHINE "test"
CHARE 5 "Main" -1
CHARE 6 "Worker" 1
ENTRY CHARE 10 "Main(CkArgMsg* m)" 5 0
ENTRY CHARE 11 "work(int n)" 6 4
EVENT 3 phase
END
"""

LOG0 = """PROJECTIONS-RECORD 13
6 100
2 4 10 100 1 0 80 0 0 0 0 0 90
1 4 11 105 2 0 64 0
22 107 1 12 MPI_Send
23 110 1
3 0 10 120 1 0 0 95
14 120 0
15 150 0
2 4 11 150 7 1 64 0 3 140
98 3 152 8 0 0
99 3 158 9 0 0
3 0 11 160 7 1 0 145
7 170
"""


def write(folder, log0=LOG0, compress=True):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "app.sts").write_text(STS)
    data = log0.encode()
    if compress:
        (folder / "app.0.log.gz").write_bytes(gzip.compress(data))
    else:
        (folder / "app.0.log").write_bytes(data)
    return folder


def test_synthetic_log_events(tmp_path):
    folder = write(tmp_path / "p")
    assert rt.sniff_trace(folder) == "projections"
    assert rt.sniff_trace(folder / "app.sts") == "projections"
    df = events(folder)
    assert df[["kind", "time", "name"]].values.tolist() == [
        ["enter", 100_000, "Main::Main(CkArgMsg* m)"],
        ["recv", 100_000, "Main::Main(CkArgMsg* m)"],
        ["send", 105_000, "Worker::work(int n)"],
        ["enter", 107_000, "MPI_Send"],
        ["leave", 110_000, "MPI_Send"],
        ["leave", 120_000, "Main::Main(CkArgMsg* m)"],
        ["enter", 120_000, "Idle"],
        ["leave", 150_000, "Idle"],
        ["enter", 150_000, "Worker::work(int n)"],
        ["recv", 150_000, "Worker::work(int n)"],
        ["enter", 152_000, "phase"],
        ["leave", 158_000, "phase"],
        ["leave", 160_000, "Worker::work(int n)"],
    ]
    recv = df[df.kind == "recv"]
    assert recv[["peer", "bytes"]].values.tolist() == [[0, 80], [1, 64]]
    assert df[df.kind == "send"].bytes.tolist() == [64]
    c = calls(df)
    assert c.groupby("name").duration.sum().to_dict() == {
        "Idle": 30_000, "MPI_Send": 3_000, "Main::Main(CkArgMsg* m)": 20_000,
        "Worker::work(int n)": 10_000, "phase": 6_000}


def test_plain_text_logs_and_definitions(tmp_path):
    folder = write(tmp_path / "p", compress=False)
    h = rt.decode(folder, Collect())
    assert len(h.frame()) == 13
    d = h.definitions
    assert d.metadata["version"] == 11.0 and d.metadata["machine"] == "test"
    assert d.regions["Worker::work(int n)"] == {"kind": "entry", "chare": "Worker"}


@pytest.mark.parametrize("log, match", [
    (LOG0.replace("7 170\n", ""), r"12 records, the header announces 13"),
    (LOG0.replace("PROJECTIONS-RECORD 13", "PROJECTIONS-RECORD 12").replace("7 170\n", ""),
     "no END_COMPUTATION record"),
    (LOG0.replace("3 0 10 120 1 0 0 95", "3 0 x 120"), r"line 7: cannot parse record"),
    ("6 100\n", "does not start with PROJECTIONS-RECORD"),
])
def test_bad_logs_are_read_errors(tmp_path, log, match):
    folder = write(tmp_path / "p", log0=log)
    handler = Collect()
    with pytest.raises(ReadError, match=match) as err:
        rt.decode(folder, handler)
    assert located(err, "app.0.log.gz")[0] == "app.0.log.gz"
    assert handler.batches == []


def test_cut_gzip_stream_is_a_read_error(tmp_path):
    folder = write(tmp_path / "p")
    gz = folder / "app.0.log.gz"
    gz.write_bytes(gz.read_bytes()[:-12])
    with pytest.raises(ReadError, match=r"app\.0\.log\.gz: compressed byte \d+: the gzip stream") as err:
        rt.decode(folder, Collect())
    assert located(err, "app.0.log.gz") == ("app.0.log.gz", "compressed byte 146",
                                               "the rest of the compressed data")


def test_hello_trace(shared_data):
    df = events(shared_data / "traces" / "projections" / "hello-1darray-projections")
    assert df.kind.value_counts().to_dict() == {"enter": 60, "leave": 58, "send": 25,
                                                "recv": 17, "instant": 1}
    c = calls(df)
    per = c.groupby(["rank", "name"]).duration
    assert per.count()[(0, "Hello::SayHi(int hiNo)")] == 3
    assert per.count()[(1, "Hello::SayHi(int hiNo)")] == 2
    assert per.sum()[(1, "Idle")] == 346_000 and per.count()[(1, "Idle")] == 16
    assert per.sum()[(0, "For Bracket Events")] == 162_000


def test_ping_pong_trace(shared_data):
    df = events(shared_data / "projections" / "pipit-ping-pong-projections")
    assert len(df) == 875 + 873 + 307 + 180
    c = calls(df)
    per = c.groupby(["rank", "name"]).duration
    assert per.count()[(0, "Ping1::recv(PingMsg* impl_msg)")] == 20
    assert per.count()[(1, "Ping1::recv_zerocopy(CkNcpyBuffer ncpyBuffer_msg, int size)")] == 20
    assert per.sum()[(1, "Idle")] == 1_426_000


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9])
def test_truncated_sts_is_a_read_error(tmp_path, keep):
    """A cut ``.sts`` used to read silently, naming the missing entries ``entry N``."""
    folder = write(tmp_path / "p")
    sts = folder / "app.sts"
    lines = STS.splitlines()
    sts.write_text("\n".join(lines[:max(3, int(len(lines) * keep))]) + "\n")
    with pytest.raises(ReadError, match="ends before its END line") as err:
        rt.decode(folder, Collect())
    assert located(err, "app.sts")[0] == "app.sts"
    assert err.value.expected == "the declarations up to a last line END"
