"""pyinstrument JSON sessions: deep trees, exclusive times, bad input, real files."""

import json

import numpy as np
import pytest

import readers
from graphframe import GraphFrame
from readers.conformance import check_reader
from readers.errors import ReadError
from readers.pyinstrument import parse_pyinstrument, read_pyinstrument


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
    assert gf.metadata["duration"] == 2.0 and gf.metadata["target_description"] == "Program: app.py"
    assert readers.sniff(tmp_path / "session.json") == "pyinstrument"


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
    ({"duration": 1}, "top level", "without 'root_frame'"),
    ({"root_frame": None}, "root_frame", "'root_frame' is null"),
    (session(frame("a", 1.0, [frame("b", "x")])), "root_frame.children[0]", "'time' is 'x'"),
    (session(frame("a", 1.0, [frame("b", 1.0), {"time": 1.0}])), "root_frame.children[1]",
     "no 'function' name"),
    (session(dict(frame("a", 1.0), children={"b": 1})), "root_frame", "'children' is not a list"),
    (session(frame("a", 1.0, [frame("b", 1.0, [frame("c", 1.0, line="7")])])),
     "root_frame.children[0].children[0]", "'line_no' is '7'"),
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
