"""Hatchet's literal format: reading, writing, round trips, errors."""

import json
import math

import pytest

import graphframe
from graphframe import GraphFrame, ReadError

LITERALS = ["hatchet_graph_literal", "hatchet_dag_literal1", "hatchet_dag_literal2",
            "hatchet_graph_literal_duplicates", "hatchet_graph_inc_metric_only"]


def chain(depth):
    node = {"frame": {"name": f"f{depth - 1}"}, "metrics": {"time": 1.0}}
    for i in range(depth - 2, -1, -1):
        node = {"frame": {"name": f"f{i}"}, "metrics": {"time": 1.0}, "children": [node]}
    return [node]


def flatten(lit):
    """Iterative pre-order listing of a literal (deep literals cannot use ==)."""
    out, stack = [], [(node, 0) for node in reversed(lit)]
    while stack:
        node, depth = stack.pop()
        out.append((depth, node["frame"], node["metrics"], len(node.get("children", []))))
        stack.extend((c, depth + 1) for c in reversed(node.get("children", [])))
    return out


def test_columns_metrics_and_ids():
    lit = [{"frame": {"name": "a", "type": "function"}, "metrics": {"time (inc)": 3.0, "time": 1.0},
            "children": [{"frame": {"name": "b"}, "metrics": {"time (inc)": 2.0, "time": 2.0}}]}]
    gf = GraphFrame.from_literal(lit)
    assert list(gf.dataframe.columns) == ["name", "time (inc)", "time"]
    assert gf.exc_metrics == ["time"] and gf.inc_metrics == ["time (inc)"]
    assert gf.inclusive_of == {"time": "time (inc)"}
    assert gf.default_metric == "time"
    assert gf.dataframe.index.name == "node"
    assert gf.dataframe.index.tolist() == [0, 1]
    assert "_hatchet_nid" not in gf.dataframe.columns


def diamond_literal(nids):
    a, b, c, d = nids
    return [{"frame": {"name": "a"}, "metrics": {"time": 1.0, "_hatchet_nid": a}, "children": [
        {"frame": {"name": "b"}, "metrics": {"time": 1.0, "_hatchet_nid": b},
         "children": [{"frame": {"name": "d"}, "metrics": {"time": 1.0, "_hatchet_nid": d}}]},
        {"frame": {"name": "c"}, "metrics": {"time": 1.0, "_hatchet_nid": c},
         "children": [{"frame": {"name": "d"}, "metrics": {"time": 1.0, "_hatchet_nid": d}}]}]}]


def test_shared_nodes_get_every_parent():
    gf = GraphFrame.from_literal(diamond_literal([0, 1, 3, 2]))
    d = gf.graph.node(2)
    assert d.frame["name"] == "d"
    assert [p.frame["name"] for p in d.parents] == ["b", "c"]  # Hatchet records only b
    assert len(gf.dataframe) == 4
    # ids are graphframe's pre-order ids, so this literal comes back unchanged
    assert gf.to_literal() == diamond_literal([0, 1, 3, 2])
    # any other id values describe the same graph; they are renumbered
    other = GraphFrame.from_literal(diamond_literal([10, 7, 5, 99]))
    assert other.graph == gf.graph
    assert other.to_literal() == diamond_literal([0, 1, 3, 2])


def test_deep_literal_reads_and_writes_without_recursion():
    lit = chain(5000)
    gf = GraphFrame.from_literal(lit)
    assert gf.graph.depth.max() == 4999
    assert flatten(gf.to_literal()) == flatten(lit)


def test_deep_literal_file(tmp_path):
    depth = 3000
    text = "".join('{"frame": {"name": "f%d"}, "metrics": {"time": 1.0}, "children": [' % i
                   for i in range(depth)) + "]}" * depth
    p = tmp_path / "deep.json"
    p.write_text("[" + text + "]")
    gf = graphframe.read(p)
    assert gf.graph.num_nodes == 3000 and gf.graph.depth.max() == 2999


def test_nan_and_null_metrics():
    lit = [{"frame": {"name": "a"}, "metrics": {"time": None}}]
    gf = GraphFrame.from_literal(lit)
    assert math.isnan(gf.dataframe["time"].iloc[0])
    out = gf.to_literal()
    assert math.isnan(out[0]["metrics"]["time"])


def test_name_key_used_when_frame_has_no_name():
    lit = [{"name": "Loop@a.c:3", "frame": {"type": "loop", "file": "a.c", "line": 3},
            "metrics": {"time": 1.0}}]
    gf = GraphFrame.from_literal(lit)
    assert gf.dataframe["name"].tolist() == ["Loop@a.c:3"]
    assert gf.graph.node(0).frame["line"] == 3
    assert gf.to_literal() == lit


def test_attributes_round_trip_with_cat_columns():
    lit = [{"frame": {"name": "a"}, "metrics": {"time": 1.0}, "attributes": {"module": "libm"}}]
    gf = GraphFrame.from_literal(lit)
    assert gf.dataframe["module"].tolist() == ["libm"]
    assert gf.to_literal(cat_columns=["module"]) == lit


@pytest.mark.parametrize("bad, where, what", [
    ([{"metrics": {}}], r"\[0\]", "no 'frame'"),
    ([{"frame": {"name": "a"}, "metrics": {}, "children": [{"frame": {"name": "b"}}]}],
     r"\[0\].children\[0\]", "no 'metrics'"),
    ([{"frame": {"name": "a"}, "metrics": {"time": "fast"}}], r"\[0\]", "not a number"),
    ([{"frame": {"name": "a"}, "metrics": {}, "children": {"x": 1}}], r"\[0\]", "not a list"),
    ([{"frame": {}, "metrics": {}}], r"\[0\]", "non-empty dict"),
    ([{"frame": {"type": "loop"}, "metrics": {}}], r"\[0\]", "no name"),
    ({"frame": {"name": "a"}}, "top level", "literal is a dict"),
    (["node"], r"\[0\]", "a node is a str"),
])
def test_bad_literals_name_what_and_where(bad, where, what):
    with pytest.raises(ReadError, match=what) as info:
        GraphFrame.from_literal(bad)
    assert info.value.position is not None
    assert __import__("re").search(where, info.value.position)


def test_truncated_literal_file_is_a_located_read_error(tmp_path):
    p = tmp_path / "cut.json"
    p.write_text(json.dumps(chain(3))[:-7])
    with pytest.raises(ReadError, match="invalid JSON") as info:
        graphframe.read(p)
    assert str(p) in str(info.value) and "line 1" in str(info.value)


# ---------------------------------------------------------------- real data
@pytest.mark.parametrize("name", LITERALS)
def test_real_literals_round_trip(shared_data, name):
    lit = json.loads((shared_data / "literal" / f"{name}.json").read_text())
    gf = GraphFrame.from_literal(lit)
    out = gf.to_literal()
    if name == "hatchet_graph_literal_duplicates":
        # The file lists node 0 ("a") twice with different metrics: time 0.0 at
        # the root, 5.0 where c refers back to it. A node has one row, the first
        # occurrence defines it (Hatchet shows 0.000 there too), so the
        # reference is written with the node's own values.
        lit[0]["children"][1]["children"][0]["metrics"]["time"] = 0.0
    assert out == lit


@pytest.mark.parametrize("name", LITERALS[:4])
def test_real_literal_tree_matches_hatchet(shared_data, name):
    gf = GraphFrame.from_literal(json.loads((shared_data / "literal" / f"{name}.json").read_text()))
    hatchet = (shared_data / "literal" / f"{name}.tree.nocolor.txt").read_text()
    body = hatchet.split("\n\n", 1)[1]  # drop Hatchet's banner
    assert gf.tree(render_header=False) == body


def test_real_literal_facts(shared_data):
    gf = graphframe.read(shared_data / "literal" / "hatchet_graph_literal.json")
    assert gf.graph.num_nodes == 24 and len(gf.graph.roots) == 2
    assert gf.dataframe["time"].sum() == 165.0
    dag = graphframe.read(shared_data / "literal" / "hatchet_graph_literal_duplicates.json")
    assert dag.graph.num_nodes == 6 and not dag.graph.is_forest
    assert [p.frame["name"] for p in dag.graph.node(0).parents] == ["c"]


def test_hatchet_to_json_file_reads(shared_data):
    gf = graphframe.read(shared_data / "json" / "hatchet-graph-literal.json")
    lit = GraphFrame.from_literal(
        json.loads((shared_data / "literal" / "hatchet_graph_literal.json").read_text()))
    assert gf.graph == lit.graph
    assert gf.dataframe["time"].tolist() == lit.dataframe["time"].tolist()


@pytest.mark.parametrize("name", LITERALS)
def test_literal_reader_conformance(shared_data, tmp_path, name):
    from readers.conformance import check_reader

    raw = check_reader(shared_data / "literal" / f"{name}.json", "literal", tmp_path)
    assert raw.metadata["format"] == "literal"


def test_hatchet_json_reader_conformance(shared_data, tmp_path):
    from readers.conformance import check_reader

    check_reader(shared_data / "json" / "hatchet-graph-literal.json", "hatchet-json", tmp_path)
