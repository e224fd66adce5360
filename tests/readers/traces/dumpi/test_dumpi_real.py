"""SST DUMPI test trace: every record of rank 0 against dumpi2ascii's text dump, call counts
against callcounts-*.txt."""

import ast
import re
from collections import Counter

import pytest

import graphframe
from graphframe_readers.traces.dumpi.records import iter_records, read_trailer
from graphframe_readers.traces.dumpi.layouts import FUNCTIONS
from graphframe_readers.traces.sources import FileSource

DIR = "traces/dumpi/sst-dumpi-testtrace-4ranks"
_ENTER = re.compile(r"(\w+) entering at walltime (\d+)\.(\d{9}), cputime (\d+)\.(\d{9}) "
                    r"seconds in thread (\d+)\.")
_LEAVE = re.compile(r"(\w+) returning at walltime (\d+)\.(\d{9}), cputime (\d+)\.(\d{9}) "
                    r"seconds in thread (\d+)\.")


def _value(text):
    """dumpi2ascii's rendering of one argument -> the value our decoder gives."""
    if text == "<IGNORED>":
        return []
    if text.startswith("[{"):
        items = re.findall(r"\{([^}]*)\}", text)
        return [{k: int(v) for k, v in (kv.split("=") for kv in item.split(", "))}
                for item in items]
    if text.startswith("["):
        inner = ast.literal_eval(text)
        return inner[0] if len(inner) == 1 and isinstance(inner[0], int) else inner
    return int(text.split(" ")[0])


def _text_records(path):
    records, current = [], None
    for line in path.read_text().splitlines():
        m = _ENTER.match(line)
        if m:
            name, ws, wns, cs, cns, thread = m.groups()
            current = {"name": name, "wall": [int(ws) * 10**9 + int(wns)],
                       "cpu": [int(cs) * 10**9 + int(cns)], "thread": int(thread), "args": {}}
            continue
        m = _LEAVE.match(line)
        if m:
            name, ws, wns, cs, cns, thread = m.groups()
            assert name == current["name"]
            current["wall"].append(int(ws) * 10**9 + int(wns))
            current["cpu"].append(int(cs) * 10**9 + int(cns))
            records.append(current)
            current = None
            continue
        if current is not None:
            decl, value = line.split("=", 1)
            arg = decl.split(" ")[-1].split("[")[0]
            current["args"][arg] = _value(value)
    return records


def test_rank0_records_equal_the_text_dump(shared_data):
    src = FileSource(shared_data / DIR / "testtrace-0000.bin", rank=0)
    ours = [{"name": r.name, "wall": list(r.wall), "cpu": list(r.cpu), "thread": r.thread,
             "args": r.args} for r in iter_records(src)]
    expected = _text_records(shared_data / DIR / "testtrace-0000.txt")
    assert len(ours) == len(expected) == 9
    for a, b in zip(ours, expected):
        assert a == b


def _callcounts(path):
    out = {}
    for line in path.read_text().splitlines():
        name, _, called, _, _, _, ignored, _ = line.split()
        out[name] = (int(called), int(ignored))
    return out


@pytest.mark.parametrize("rank", [0, 1, 2, 3])
def test_call_counts(shared_data, rank):
    src = FileSource(shared_data / DIR / f"testtrace-{rank:04d}.bin", rank=rank)
    trailer = read_trailer(src)
    expected = _callcounts(shared_data / DIR / "callcounts-single.txt")
    ours = dict(zip(FUNCTIONS, trailer.call_counts))
    # the footer's last counter (MPI_ALL_FUNCTIONS) holds the total, 9, as the rank-0 text
    # dump prints it; callcounts-*.txt print 0 there (written by another tool run)
    assert trailer.call_counts[-1] == 9 and expected.pop("MPI_ALL_FUNCTIONS") == (0, 0)
    assert {k: v[0] for k, v in expected.items()} == ours
    # the records of the stream are the calls the footer counts
    recorded = Counter(r.name for r in iter_records(src, trailer))
    assert recorded == Counter({k: v for k, v in ours.items() if v})
    assert sum(recorded.values()) == 9


def test_trace_frame_of_the_four_ranks(shared_data):
    tf = graphframe.read_trace(shared_data / DIR / "testtrace.meta")
    ev = tf.events
    assert sorted(ev["rank"].unique().tolist()) == [0, 1, 2, 3]
    assert (ev["kind"] == "enter").sum() == 36
    assert (ev[ev["kind"].isin(["enter", "leave"])]["match"] >= 0).all()
    # the ring: every rank sends one MPI_INT (4 bytes) to rank + 1
    mat = tf.comm_matrix()
    assert mat.to_numpy().tolist() == [[0, 4, 0, 0], [0, 0, 4, 0], [0, 0, 0, 4], [4, 0, 0, 0]]
    prof = tf.flat_profile(per=None)
    assert prof["count"].to_dict() == {n: 4 for n in (
        "MPI_Allreduce", "MPI_Barrier", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize",
        "MPI_Init", "MPI_Isend", "MPI_Recv", "MPI_Wait")}
    first = ev[(ev["rank"] == 0) & (ev["kind"] == "enter")].iloc[0]
    assert (first["name"], first["time"], first["duration"]) == (
        "MPI_Init", 1296777956737669000, 1000.0)
    assert tf.definitions.ranks[0]["host"] == "hadalst-mbp.ca.sandia.gov"


def test_parallel_read_gives_the_same_table(shared_data):
    one = graphframe.read_trace(shared_data / DIR / "testtrace.meta")
    two = graphframe.read_trace(shared_data / DIR / "testtrace.meta", jobs=2)
    assert one.events.equals(two.events)
    gf1 = graphframe.traces.read_tree(shared_data / DIR / "testtrace.meta")
    gf2 = graphframe.traces.read_tree(shared_data / DIR / "testtrace.meta", jobs=2)
    assert gf1.dataframe.equals(gf2.dataframe)
    assert len(gf1.graph) == 9
