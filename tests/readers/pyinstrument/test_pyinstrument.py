"""pyinstrument JSON sessions: deep trees, exclusive times, bad input, real files."""

import json

import numpy as np
import pandas as pd
import pytest

import graphframe_readers
from graphframe import GraphFrame
from graphframe_readers.testing import check_reader
from graphframe_readers import ReadError
from graphframe_readers.pyinstrument import parse_pyinstrument, read_pyinstrument


def frame(function, time, children=(), line=1, **extra):
    out = {"function": function, "file_path_short": "app.py", "file_path": "/src/app.py",
           "line_no": line, "time": time, "await_time": 0.0, "is_application_code": True,
           "children": list(children)}
    out.update(extra)
    return out


def session(root):
    return {"start_time": 1.0, "duration": 2.0, "sample_count": 10,
            "target_description": "Program: app.py", "cpu_time": 1.5, "root_frame": root}


def write(tmp_path, doc, name="session.json"):
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def test_small_session(tmp_path):
    root = frame("<module>", 2.0, [frame("main", 1.5, [frame("work", 1.0, line=9),
                                                        frame("[self]", 0.25, line=0)],
                                         line=5, class_name="App"),
                                   frame("setup", 0.25, line=3)])
    gf = GraphFrame.read(write(tmp_path, session(root)))
    df = gf.dataframe
    assert list(df.columns) == ["name", "file", "line", "time", "time (inc)",
                                "is_application_code", "file_path", "class_name",
                                "await time", "await time (inc)"]
    assert gf.exc_metrics == ["time", "await time"]
    assert gf.default_metric == "time"
    assert df["name"].tolist() == ["<module>", "main", "[self]", "work", "setup"]
    assert df["time (inc)"].tolist() == [2.0, 1.5, 0.25, 1.0, 0.25]
    assert df["time"].tolist() == [0.25, 0.25, 0.25, 1.0, 0.25]
    assert df["line"].tolist() == [1, 5, 0, 9, 3]
    assert df["is_application_code"].dtype == bool  # as Hatchet's (a bool column)
    assert gf.metadata["duration"] == 2.0 and gf.metadata["target_description"] == "Program: app.py"
    assert graphframe_readers.sniff(tmp_path / "session.json") == "pyinstrument"


def test_older_session_without_await_and_class(tmp_path):
    leaf = {"function": "f", "file_path_short": "a.py", "file_path": "a.py", "line_no": 2,
            "time": 0.5, "is_application_code": False}
    root = {"function": "<module>", "file_path_short": "a.py", "file_path": "a.py",
            "line_no": 1, "time": 0.5, "is_application_code": True, "children": [leaf]}
    gf = GraphFrame.read(write(tmp_path, {"program": "a.py", "root_frame": root}))
    assert list(gf.dataframe.columns) == ["name", "file", "line", "time", "time (inc)",
                                          "is_application_code", "file_path"]
    assert gf.dataframe["time"].tolist() == [0.0, 0.5]


def test_two_thousand_frames_deep(tmp_path):
    depth = 2000
    p = tmp_path / "deep.json"
    # json.dumps recurses too: write the nesting as text, frame by frame
    text = json.dumps(session({"__placeholder__": 0}))
    inner = []
    for k in range(1, depth):
        flat = json.dumps(frame(f"f{k}", 1.0 + (depth - k) * 0.001, line=k))
        assert flat.endswith('"children": []}')
        inner.append(flat[: -len('[]}')] + "[")
    leaf = json.dumps(frame("leaf", 1.0, line=depth))
    body = "".join(inner) + leaf + "]}" * (depth - 1)
    p.write_text(text.replace('{"__placeholder__": 0}', body))
    gf = GraphFrame.from_pyinstrument(p)
    assert gf.graph.num_nodes == depth
    assert int(gf.graph.depth.max()) == depth - 1
    assert gf.dataframe["name"].iloc[-1] == "leaf"
    assert gf.dataframe["time"].iloc[-1] == 1.0
    assert gf.dataframe["time"].iloc[0] == pytest.approx(0.001)


@pytest.mark.parametrize("doc, position, problem", [
    ([1, 2], "top level", "the document is a list"),
    ({"duration": 1}, "top level", "with neither 'root_frame' nor 'frame_records'"),
    ({"root_frame": None}, "root_frame", "'root_frame' is null"),
    (session(frame("a", 1.0, [frame("b", "x")])), "root_frame.children[0]", "'time' is 'x'"),
    (session(frame("a", 1.0, [frame("b", 1.0), {"time": 1.0}])), "root_frame.children[1]",
     "no 'function' name"),
    (session(dict(frame("a", 1.0), children={"b": 1})), "root_frame", "'children' is not a list"),
    (session(frame("a", 1.0, [frame("b", 1.0, [frame("c", 1.0, line="7")])])),
     "root_frame.children[0].children[0]", "'line_no' is '7'"),
    # numbers JSON allows but a 64-bit line or a float cannot hold
    (session(frame("a", 1.0, [frame("b", 1.0, line=2**63)])), "root_frame.children[0]",
     "'line_no' is 9223372036854775808"),
    (session(frame("a", 1.0, [frame("b", 1.0, line=-1)])), "root_frame.children[0]",
     "'line_no' is -1"),
    (session(frame("a", 10**400)), "root_frame", "'time' (1000000"),
    (session(frame("a", 1.0, await_time=10**400)), "root_frame", "'await_time' (1000000"),
])
def test_wrong_shape(doc, position, problem):
    with pytest.raises(ReadError) as info:
        parse_pyinstrument(doc, source="s.json")
    assert info.value.position == position
    assert problem in info.value.problem


def test_truncated_json(tmp_path):
    p = write(tmp_path, session(frame("a", 1.0, [frame("b", 1.0)])))
    p.write_text(p.read_text()[:120])
    with pytest.raises(ReadError) as info:
        read_pyinstrument(p)
    assert str(p) in str(info.value) and info.value.position.startswith("line 1, column ")


# --------------------------------------------------------------- real data
@pytest.mark.parametrize("key", ["pyinstrument/hatchet/pyinstrument-hatchet-profile.json",
                                 "pyinstrument/generated/workload.pyinstrument5.json"])
def test_matches_hatchet(shared_data, reference_facts, key, tmp_path):
    facts = reference_facts[key]
    check_reader(shared_data / key, "pyinstrument", tmp_path)
    gf = GraphFrame.from_pyinstrument(shared_data / key)
    df = gf.dataframe
    assert gf.graph.num_nodes == facts["graph_nodes"] == len(df)
    assert len(gf.graph.root_ids) == facts["num_roots"]
    assert [df.loc[r, "name"] for r in gf.graph.root_ids] == facts["root_names"]
    assert int(gf.graph.depth.max()) == facts["max_depth"]
    assert list(df.columns[:6]) == facts["columns"]
    for col, value in facts["numeric_sums"].items():
        assert df[col].sum() == pytest.approx(value, rel=1e-9), col
    # exclusive + children's inclusive = inclusive, at every node
    g = gf.graph
    child_sum = np.zeros(len(df))
    np.add.at(child_sum, g.parent[1:], df["time (inc)"].to_numpy()[1:])
    assert np.allclose(df["time"] + child_sum, df["time (inc)"])


# ------------------------------------------------------------ saved sessions
# pyinstrument -r session (Session.save): raw samples, no tree. Frames are
# "function\x00file\x00first line" plus "\x01"-separated attributes.
THREAD = "MainThread\x00<thread>\x00140299787754368"
MODULE = "<module>\x00app.py\x001\x01l20"
OUTER = "outer\x00app.py\x0010\x01l11"


def meth(line):
    return f"meth\x00app.py\x003\x01cWorker\x01l{line}"


def session_v5(records, pad=0):
    """The key order of pyinstrument 5 (frame_records last); pad: sys_path length."""
    return {"start_time": 1795471880.2, "duration": 0.012, "min_interval": 0.001,
            "max_interval": 0.001, "sample_count": len(records),
            "start_call_stack": [THREAD, MODULE],
            "target_description": "Program: app.py", "cpu_time": 0.01,
            "sys_path": ["/usr/lib/python3.11"] + [f"/opt/site-{k}" for k in range(pad)],
            "sys_prefixes": ["/usr"], "frame_records": records}


RECORDS = [
    [[THREAD, MODULE, OUTER, meth(4)], 0.002],
    [[THREAD, MODULE, OUTER, meth(5), "perf_counter\x00<built-in>\x000"], 0.001],
    [[THREAD, MODULE, OUTER], 0.001],
    [[THREAD, MODULE, "work\x00app.py\x0020\x01l22"], 0.004],
    [[THREAD, MODULE, OUTER, meth(4)], 0.003],  # the same path again, later
    [[THREAD, MODULE, "sleeper\x00app.py\x0030\x01l31", "[await]"], 0.001],
]


def test_session_v5_builds_the_call_tree(tmp_path):
    p = tmp_path / "run.pyisession"
    # frame_records beyond the first 4 KB: sniffed by "start_call_stack"
    p.write_text(json.dumps(session_v5(RECORDS, pad=300)))
    assert p.read_text().index('"frame_records"') > 4096
    assert graphframe_readers.sniff(p) == "pyinstrument"
    (tmp_path / "conformance").mkdir()
    check_reader(p, "pyinstrument", tmp_path / "conformance")
    gf = GraphFrame.read(p)
    df = gf.dataframe
    assert list(df.columns) == ["name", "file", "line", "time", "time (inc)", "class_name"]
    assert gf.exc_metrics == ["time"] and gf.default_metric == "time"
    rows = {name: row for name, row in zip(df["name"], df.to_dict("records"))}
    assert rows["meth"]["time"] == pytest.approx(0.005)  # two separate samples, one node
    assert rows["meth"]["time (inc)"] == pytest.approx(0.006)
    assert rows["meth"]["class_name"] == "Worker"
    assert (rows["outer"]["time"], rows["outer"]["time (inc)"]) == pytest.approx((0.001, 0.007))
    assert rows["MainThread"]["time (inc)"] == pytest.approx(0.012)
    assert pd.isna(rows["[await]"]["file"]) and np.isnan(rows["[await]"]["line"])
    assert (rows["<module>"]["file"], rows["<module>"]["line"]) == ("app.py", 1)
    assert [df.loc[r, "name"] for r in gf.graph.root_ids] == ["MainThread"]
    assert gf.graph.num_nodes == 8 and int(gf.graph.depth.max()) == 4
    assert gf.metadata["format"] == "pyinstrument-session"
    assert gf.metadata["sample_count"] == 6 and gf.metadata["min_interval"] == 0.001
    # exclusive + children's inclusive = inclusive at every node
    child_sum = np.zeros(len(df))
    np.add.at(child_sum, gf.graph.parent[1:], df["time (inc)"].to_numpy()[1:])
    assert np.allclose(df["time"] + child_sum, df["time (inc)"])


def test_session_v4_and_two_threads(tmp_path):
    # pyinstrument 4 writes frame_records first and has no intervals or sys_path
    other = "Thread-1\x00<thread>\x00140299700000000"
    doc = {"frame_records": RECORDS[:3] + [[[other, "run\x00t.py\x005"], 0.004]],
           "start_time": 1.0, "duration": 0.008, "sample_count": 4,
           "start_call_stack": [THREAD], "target_description": "Program: app.py",
           "cpu_time": 0.0}
    p = tmp_path / "v4.pyisession"
    p.write_text(json.dumps(doc))
    gf = GraphFrame.from_pyinstrument(p)
    df = gf.dataframe
    assert [df.loc[r, "name"] for r in gf.graph.root_ids] == ["MainThread", "Thread-1"]
    assert df.set_index("name").loc["run", "time"] == 0.004
    assert "min_interval" not in gf.metadata


def test_session_two_thousand_frames_deep():
    stack = [f"f{k}\x00deep.py\x00{k}" for k in range(2000)]
    gf = GraphFrame.from_raw(parse_pyinstrument(
        {"frame_records": [[stack, 0.5], [stack[:1000], 0.25]]}, source="deep"))
    df = gf.dataframe
    assert gf.graph.num_nodes == 2000 and int(gf.graph.depth.max()) == 1999
    assert df["time (inc)"].iloc[0] == 0.75 and df["time"].iloc[999] == 0.25
    assert df["line"].iloc[-1] == 1999


@pytest.mark.parametrize("doc, position, problem", [
    ({"frame_records": {}}, "frame_records", "'frame_records' is a dict"),
    ({"frame_records": []}, "frame_records", "the session has no samples"),
    ({"frame_records": [[["a\x00f.py\x001"], 0.1], ["x"]]}, "frame_records[1]",
     "the sample is ['x']"),
    ({"frame_records": [[["a\x00f.py\x001"], "0.1"]]}, "frame_records[0][1]",
     "the sample's time is '0.1'"),
    ({"frame_records": [[["a\x00f.py\x001"], 10**400]]}, "frame_records[0][1]",
     "the sample's time (1000000"),
    ({"frame_records": [[[], 0.1]]}, "frame_records[0][0]", "the sample has an empty stack"),
    ({"frame_records": [[["a\x00f.py\x001", 7], 0.1]]}, "frame_records[0][0][1]",
     "a frame is 7"),
    ({"frame_records": [[["a\x00f.py\x001", "b\x00f.py\x00x9"], 0.1]]}, "call path a > b",
     "the line number 'x9' of frame 'b' is not valid"),
    ({"frame_records": [[["a\x00f.py\x00" + str(2**63)], 0.1]]}, "call path a",
     "the line number '9223372036854775808' of frame 'a' is not valid"),
])
def test_session_errors(doc, position, problem):
    with pytest.raises(ReadError) as info:
        parse_pyinstrument(doc, source="s.pyisession")
    assert info.value.source == "s.pyisession"
    assert info.value.position == position
    assert problem in info.value.problem
