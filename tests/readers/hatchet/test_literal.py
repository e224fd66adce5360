"""Hatchet's literal format: reading, writing, round trips, errors."""

import json
import math
import warnings

import numpy as np
import pytest

import graphframe
import graphframe_readers
from graphframe import GraphFrame, ReadError
from graphframe.io.json.export import literal_json
from graphframe_readers.common.jsonfile import loads_json
from graphframe_readers.hatchet import LiteralWarning
from tests.corpus import corpus_inputs
from tests.helpers import compact_literal

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
    # ids are graphframe's pre-order ids, so this literal comes back unchanged (with
    # the keys Hatchet writes besides: name, a frame's type and attributes)
    out = gf.to_literal()
    assert compact_literal(out) == diamond_literal([0, 1, 3, 2])
    assert out[0]["children"][1]["children"][0] == {
        "name": "d", "frame": {"name": "d", "type": "None"},
        "metrics": {"time": 1.0, "_hatchet_nid": 2},
        "attributes": {}}
    # any other id values describe the same graph; they are renumbered
    other = GraphFrame.from_literal(diamond_literal([10, 7, 5, 99]))
    assert other.graph == gf.graph
    assert compact_literal(other.to_literal()) == diamond_literal([0, 1, 3, 2])


def test_deep_literal_reads_and_writes_without_recursion():
    lit = chain(5000)
    gf = GraphFrame.from_literal(lit)
    assert gf.graph.depth.max() == 4999
    assert flatten(compact_literal(gf.to_literal(), nid=False)) == flatten(lit)


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
    assert gf.to_literal() == [{**lit[0], "metrics": {"time": 1.0, "_hatchet_nid": 0},
                                "attributes": {}}]


def test_attributes_round_trip_with_cat_columns():
    lit = [{"frame": {"name": "a"}, "metrics": {"time": 1.0}, "attributes": {"module": "libm"}}]
    gf = GraphFrame.from_literal(lit)
    assert gf.dataframe["module"].tolist() == ["libm"]
    assert gf.to_literal(cat_columns=["module"]) == [{
        "name": "a", "frame": {"name": "a", "type": "None"},
        "metrics": {"time": 1.0, "_hatchet_nid": 0}, "attributes": {"module": "libm"}}]


@pytest.mark.parametrize("bad, where, what", [
    ([{"metrics": {}}], r"\[0\]", "no 'frame'"),
    ([{"frame": {"name": "a"}, "metrics": {}, "children": [{"frame": {"name": "b"}}]}],
     r"\[0\].children\[0\]", "no 'metrics'"),
    ([{"frame": {"name": "a"}, "metrics": {"time": 1.0}, "children": [
        {"frame": {"name": "b"}, "metrics": {"time": [1.0]}}]}], r"\[0\].children\[0\]",
     "'time' is a list: \\[1.0\\] here and a number at \\[0\\]"),
    ([{"frame": {"name": "a"}, "metrics": {"x": 1.0}, "children": [
        {"frame": {"name": "b"}, "metrics": {"x": "text"}}]}], r"\[0\].children\[0\]",
     r"number at one node and text at another \(\[0\]\)"),
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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LiteralWarning)  # the duplicates file (tested above)
        gf = GraphFrame.from_literal(lit)
    out = gf.to_literal()
    if name == "hatchet_graph_literal_duplicates":
        # The file lists node 0 ("a") twice with different metrics: time 0.0 at
        # the root, 5.0 where c refers back to it. A node has one row, the first
        # occurrence defines it (Hatchet shows 0.000 there too), so the
        # reference is written with the node's own values.
        lit[0]["children"][1]["children"][0]["metrics"]["time"] = 0.0
    has_nids = "_hatchet_nid" in json.dumps(lit)
    assert compact_literal(out, nid=has_nids) == lit


@pytest.mark.filterwarnings("ignore::graphframe_readers.hatchet.literal.LiteralWarning")
@pytest.mark.parametrize("name", LITERALS[:4])
def test_real_literal_tree_matches_hatchet(shared_data, name):
    gf = GraphFrame.from_literal(json.loads((shared_data / "literal" / f"{name}.json").read_text()))
    hatchet = (shared_data / "literal" / f"{name}.tree.nocolor.txt").read_text()
    body = hatchet.split("\n\n", 1)[1]  # drop Hatchet's banner
    assert gf.tree(render_header=False) == body


@pytest.mark.filterwarnings("ignore::graphframe_readers.hatchet.literal.LiteralWarning")
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
    # children in the document's order, as Hatchet's from_json (2024.1.3) keeps them
    corge = next(n for n in gf.graph.traverse() if n.frame["name"] == "corge")
    assert [c.frame["name"] for c in corge.children] == ["bar", "grault", "garply"]


def test_hatchet_json_children_and_roots_in_document_order():
    def entry(name, *children):
        return {"data": {"name": name, "type": "function"}, "children": list(children)}
    doc = {"graph": [{"5": entry("z", 7, 6), "7": entry("y", 6), "6": entry("x")},
                     {"9": entry("a", 6)}],
           "dataframe_indices": ["node"],
           "dataframe": [{"node": k, "time": float(k)} for k in (5, 6, 7, 9)],
           "exclusive_metrics": ["time"], "inclusive_metrics": []}
    gf = GraphFrame.from_json(json.dumps(doc))
    by_name = {n.frame["name"]: n for n in gf.graph.traverse()}
    assert [r.frame["name"] for r in gf.graph.roots] == ["z", "a"]
    assert [c.frame["name"] for c in by_name["z"].children] == ["y", "x"]
    assert sorted(p.frame["name"] for p in by_name["x"].parents) == ["a", "y", "z"]
    assert {n.frame["name"]: gf.dataframe.loc[n, "time"] for n in by_name.values()} == \
        {"z": 5.0, "y": 7.0, "x": 6.0, "a": 9.0}
    cycle = {**doc, "graph": [{"5": entry("z"), "7": entry("y", 6), "6": entry("x", 7)}]}
    with pytest.raises(ReadError, match=r"graph: node 7 cannot be reached from any root"):
        GraphFrame.from_json(json.dumps(cycle))
    doc["dataframe"].append({"node": 4, "time": 1.0})
    with pytest.raises(ReadError, match=r"row 4 refers to node 4, which the graph does not "
                                        r"list"):
        GraphFrame.from_json(json.dumps(doc))


@pytest.mark.filterwarnings("ignore::graphframe_readers.hatchet.literal.LiteralWarning")
@pytest.mark.parametrize("name", LITERALS)
def test_literal_reader_conformance(shared_data, tmp_path, name):
    from graphframe_readers.testing import check_reader

    raw = check_reader(shared_data / "literal" / f"{name}.json", "literal", tmp_path)
    assert raw.metadata["format"] == "literal"


def test_hatchet_json_reader_conformance(shared_data, tmp_path):
    from graphframe_readers.testing import check_reader

    check_reader(shared_data / "json" / "hatchet-graph-literal.json", "hatchet-json", tmp_path)


# ------------------------------------------------------- validation (audit 1, 2)
def node(label, nid=None, children=None, **metrics):
    m = dict(metrics)
    if nid is not None:
        m["_hatchet_nid"] = nid
    d = {"frame": {"name": label}, "metrics": m}
    if children:
        d["children"] = children
    return d


@pytest.mark.parametrize("bad, where, what", [
    # a reference whose frame differs from the node it names (would become its own child)
    ([node("a", 0, [node("b", 0)])], "[0].children[0]",
     "_hatchet_nid 0 refers to the node at [0] whose frame is {'name': 'a'}, but this frame "
     "is {'name': 'b'}"),
    ([node("a", "x")], "[0]", "_hatchet_nid is 'x'"),
    ([node("a", 1.5)], "[0]", "_hatchet_nid is 1.5"),
    ([node("a", True)], "[0]", "_hatchet_nid is True"),
    ([node("a", **{"name": 2.0})], "[0]", "a metric is called 'name'"),
    ([node("a", **{"node": 2.0})], "[0]", "a metric is called 'node'"),
    ([{"frame": {"name": {"x": 1}}, "metrics": {}}], "[0]", "frame['name'] is a dict"),
    ([{"frame": {"name": "a", "line": [1]}, "metrics": {}}], "[0]", "frame['line'] is a list"),
    ([{"frame": {"name": "a", "file": None}, "metrics": {}}], "[0]", "frame['file'] is null"),
    ([{"frame": {"name": "a", "node": 3}, "metrics": {}}], "[0]", "frame key 'node' is reserved"),
    ([{"frame": {"name": "a", "parent": 3}, "metrics": {}}], "[0]",
     "frame key 'parent' is reserved"),
    ([{"frame": {"name": "a", 7: "x"}, "metrics": {}}], "[0]", "frame key 7 is not a string"),
    ([{"frame": {"name": "a"}, "metrics": {1: 2.0}}], "[0]", "metric key 1 is not a string"),
    ([{"frame": {"name": "a"}, "metrics": {}, "attributes": {"node": 1}}], "[0]",
     "an attribute is called 'node'"),
    ([{"frame": {"name": "a"}, "metrics": {}, "attributes": {"name": "x"}}], "[0]",
     "an attribute is called 'name'"),
    ([{"frame": {"name": "a"}, "metrics": {"time": 1.0}, "attributes": {"time": 1}}], "[0]",
     "attribute 'time' is also a metric"),
    ([node("a", children=[{"frame": {"name": "b"}, "metrics": {}, "attributes": {"t": 1}},
                          node("c", t=1.0)])], "[0].children[1]", "metric 't' is also an attribute"),
    ([{"frame": {"name": "a"}, "metrics": {}, "attributes": {"m": {"x": 1}}}], "[0]",
     "attribute 'm' is a dict"),
    ([{"frame": {"type": "loop"}, "name": ["x"], "metrics": {}}], "[0]", "name is a list"),
    ([node("a", 0), node("a", 0)], "[1]", "a root repeats _hatchet_nid 0 of the node at [0]"),
    ([dict(node("a"), graphframe={"exc_metrics": ["nope"], "inc_metrics": []})],
     "[0].graphframe", "the declarations name 'nope'"),
    ([dict(node("a"), graphframe=3)], "[0].graphframe", "the metric declarations are malformed"),
])
def test_bad_literals_are_located_read_errors(bad, where, what):
    with pytest.raises(ReadError) as info:
        GraphFrame.from_literal(bad)
    assert info.value.position == where
    assert what in info.value.problem


def test_hatchet_nid_forms_that_are_accepted():
    # integral floats are ids; -1 is Hatchet's "no identity"
    gf = GraphFrame.from_literal([node("a", 0.0, [node("b", -1), node("c", -1)], time=1.0)])
    assert gf.graph.num_nodes == 3 and gf.graph.is_tree()


def test_a_self_reference_with_the_same_frame_is_a_recursive_edge():
    # a root that calls itself: the root keeps no first parent and gets a recursive edge
    gf = GraphFrame.from_literal([node("f", 0, [node("f", 0)], time=1.0)])
    assert gf.graph.num_nodes == 1
    assert [int(p) for p in gf.graph.node(0).parents] == [0]
    assert gf.graph.root_ids.tolist() == [0]


def test_conflicting_values_of_a_shared_node_warn_with_both_positions():
    lit = [node("a", 0, [node("b", 1, [node("x", 2, time=1.0)], time=1.0),
                         node("c", 3, [node("x", 2, time=9.0)], time=1.0)], time=1.0)]
    with pytest.warns(LiteralWarning) as record:
        gf = GraphFrame.from_literal(lit)
    assert len(record) == 1
    assert str(record[0].message) == (
        "<literal>: [0].children[1].children[0]: this occurrence of _hatchet_nid 2 has other "
        "values than the node at [0].children[0].children[0] (metric 'time': 9.0 vs 1.0); the "
        "first occurrence defines the node, these values are not read")
    assert gf.dataframe["time"].tolist() == [1.0, 1.0, 1.0, 1.0]


def test_equal_references_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GraphFrame.from_literal(diamond_literal([0, 1, 3, 2]))


def test_shared_duplicates_file_is_read_with_a_warning(shared_data):
    path = shared_data / "literal" / "hatchet_graph_literal_duplicates.json"
    with pytest.warns(LiteralWarning, match=r"\[0\].children\[1\].children\[0\]: this occurrence "
                      r"of _hatchet_nid 0 .*metric 'time': 5.0 vs 0.0"):
        gf = graphframe.read(path)
    assert gf.graph.num_nodes == 6


# --------------------------------------------------------- child order (audit 3)
N = node


def test_dag_child_order_round_trips():
    lit = [N("a", 0, [N("b", 1, [N("x", 2, time=1.0)], time=1.0),
                      N("c", 3, [N("x", 2, time=1.0), N("y", 4, time=1.0)], time=1.0)], time=1.0)]
    gf = GraphFrame.from_literal(lit)
    assert compact_literal(gf.to_literal()) == lit
    c = 3
    kids = gf.graph.child_idx[gf.graph.child_ptr[c]:gf.graph.child_ptr[c + 1]].tolist()
    assert [gf.graph.frame(k)["name"] for k in kids] == ["x", "y"]


def test_references_keep_their_place_among_children_and_ids_are_renumbered():
    # unsorted children, a reference between two own children, ids in another order
    lit = [N("r", 10, [N("z", 11, [N("s", 12, time=2.0)], time=1.0),
                       N("m", 13, [N("q", 14, time=1.0), N("s", 12, time=2.0),
                                   N("b", 15, time=1.0)], time=1.0)], time=1.0)]
    out = GraphFrame.from_literal(lit).to_literal()
    names = [n["frame"]["name"] for n in out[0]["children"][1]["children"]]
    assert names == ["q", "s", "b"]
    assert [n["frame"]["name"] for n in out[0]["children"]] == ["z", "m"]
    # the ids written are graphframe's pre-order ids (siblings by frame), not the source's
    nids = [[n["metrics"]["_hatchet_nid"] for n in out[0]["children"]],
            [n["metrics"]["_hatchet_nid"] for n in out[0]["children"][1]["children"]]]
    assert nids == [[5, 1], [3, 4, 2]]
    assert GraphFrame.from_literal(out).to_literal() == out  # a second pass is stable


def test_literal_declarations_and_order_survive_a_round_trip():
    raw_lit = [N("main", None, [N("b", None, **{"t": 1.0, "t incl": 2.0}),
                                N("a", None, **{"t": 1.0, "t incl": 1.0})],
                 **{"t": 0.0, "t incl": 3.0})]
    gf = GraphFrame.from_literal(raw_lit)
    gf = gf._replace(exc_metrics=["t"], inc_metrics=["t incl"], inclusive_of={"t": "t incl"},
                     default_metric="t incl")
    lit = gf.to_literal()
    assert lit[0]["graphframe"] == {"exc_metrics": ["t"], "inc_metrics": ["t incl"],
                                    "inclusive_of": {"t": "t incl"},
                                    "default_metric": "t incl"}
    back = GraphFrame.from_literal(lit)
    assert (back.exc_metrics, back.inc_metrics, back.inclusive_of, back.default_metric) == (
        ["t"], ["t incl"], {"t": "t incl"}, "t incl")
    assert back.to_literal() == lit
    # declarations the names already imply are not written (Hatchet literals stay as they are)
    assert "graphframe" not in GraphFrame.from_literal(diamond_literal([0, 1, 3, 2])).to_literal()[0]


def test_ordered_graphs_keep_root_and_sibling_order_through_a_literal():
    from tests.helpers import gf_from_edges

    gf = gf_from_edges(["z", "y", "x", "w"], [-1, 0, 0, -1], ordered=True)
    lit = gf.to_literal()
    assert [r["frame"]["name"] for r in lit] == ["z", "w"]
    assert lit[0]["graphframe"]["ordered"] is True
    back = GraphFrame.from_literal(lit)
    assert back.graph.ordered and back.to_literal() == lit
    assert [n.frame["name"] for n in back.graph.traverse()] == ["z", "y", "x", "w"]


def _literal_corpus():
    return corpus_inputs() + [f"literal/{n}.json" for n in LITERALS]


@pytest.mark.parametrize("rel", _literal_corpus())
def test_to_literal_is_stable_on_a_second_pass(shared_data, rel):
    """to_literal -> from_literal -> to_literal gives the same literal, ids included
    (covers the generated cProfile call graphs with shared nodes and cycles)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LiteralWarning)
        try:
            gf = graphframe.read(shared_data / rel)
        except ReadError as exc:
            pytest.skip(f"the reader refuses this file: {exc}")
        first = gf.to_literal()
        back = GraphFrame.from_literal(first)
    assert same_literal(back.to_literal(), first)
    assert back.graph == gf.graph
    assert (back.exc_metrics, back.inc_metrics, back.default_metric) == (
        [m for m in gf.exc_metrics if m in back.dataframe.columns],
        [m for m in gf.inc_metrics if m in back.dataframe.columns], gf.default_metric)


def same_literal(a, b):
    def norm(lit):
        return [(d, f, {k: "nan" if isinstance(v, float) and math.isnan(v) else v
                        for k, v in m.items()}, c) for d, f, m, c in flatten(lit)]
    return norm(a) == norm(b) and [set(r) for r in a] == [set(r) for r in b]


# ------------------------------------------------------ deep literals (audit 5)
def test_a_100000_deep_chain_through_the_literal_writer_and_to_json():
    lit = chain(100_000)
    gf = GraphFrame.from_literal(lit)
    text = literal_json(gf.to_literal())
    assert text.startswith('[{"name": "f0", "frame": {"name": "f0", "type": "None"}, '
                           '"metrics": {"time": 1.0, "_hatchet_nid": 0}, "attributes": {}, '
                           '"children": [')
    assert text.endswith('{"name": "f99999", "frame": {"name": "f99999", "type": "None"}, '
                         '"metrics": {"time": 1.0, "_hatchet_nid": 99999}, "attributes": {}}'
                         + "]}" * 99999 + "]")
    back = GraphFrame.from_literal(loads_json(text))
    assert back.graph.depth.max() == 99_999
    again = GraphFrame.from_json(gf.to_json())
    assert again.graph.depth.max() == 99_999 and again.graph == gf.graph


def test_literal_json_equals_json_dumps_on_shallow_input():
    lit = [N("a", 0, [N("b", 1, time=float("nan"))], time=np.float64(2.0))]
    assert literal_json(lit) == json.dumps(lit, default=lambda v: v.item())


# ------------------------------------------------------------ sniffing (audit 11)
def test_a_literal_whose_first_metrics_dict_is_big_is_recognised(tmp_path):
    metrics = {f"metric{i}": float(i) for i in range(1000)}
    p = tmp_path / "big.json"
    p.write_text(json.dumps([{"metrics": metrics, "frame": {"name": "main"}}]))
    assert p.stat().st_size > 8192
    assert graphframe_readers.sniff(p) == "literal"
    assert graphframe.read(p).dataframe["metric999"].tolist() == [999.0]


def test_text_in_metrics_becomes_a_text_column_as_in_hatchet():
    lit = [{"frame": {"name": "main"}, "metrics": {"time (inc)": 3.0, "time": 1.0, "module": "app"},
            "children": [{"frame": {"name": "solve"},
                          "metrics": {"time (inc)": 2.0, "time": 2.0, "module": None}},
                         {"frame": {"name": "mpi"},
                          "metrics": {"time (inc)": 0.0, "time": 0.0, "module": "libmpi"}}]}]
    gf = GraphFrame.from_literal(lit)
    assert list(gf.dataframe.columns) == ["name", "time (inc)", "time", "module"]
    assert gf.exc_metrics == ["time"] and gf.inc_metrics == ["time (inc)"]
    assert dict(zip(gf.dataframe["name"], gf.dataframe["module"].astype(object).where(
        gf.dataframe["module"].notna(), None))) == {"main": "app", "mpi": "libmpi", "solve": None}
    gf.update_inclusive_columns()  # the text column is never summed
    assert gf.dataframe["time (inc)"].tolist() == [3.0, 0.0, 2.0]


def test_object_values_are_an_object_column_as_in_hatchet():
    class Dummy:   # Hatchet's test_apply puts such an object into a literal
        x = 5.0

    dummy = Dummy()
    gf = GraphFrame.from_literal([node("a", time=1.0, children=[node("b", time=2.0)])])
    literal = gf.to_literal()
    literal[0]["metrics"]["list"] = dummy
    literal[0]["children"][0]["metrics"]["list"] = [1, 2]
    read = GraphFrame.from_literal(literal)
    assert read.dataframe["list"].dtype == object
    assert read.dataframe["list"].tolist() == [dummy, [1, 2]]
    assert read.exc_metrics == ["time"] and "list" not in read.inc_metrics
    # a node without the key: missing
    literal[0]["children"][0]["metrics"].pop("list")
    assert GraphFrame.from_literal(literal).dataframe["list"].tolist()[0] is dummy


def test_numbers_and_objects_in_one_metric_are_a_read_error():
    for first, second in ((1.0, {"x": 1}), ({"x": 1}, 1.0), ([1], True)):
        literal = [node("a", m=first, children=[node("b", m=second)])]
        with pytest.raises(ReadError) as info:
            GraphFrame.from_literal(literal)
        assert info.value.position == "[0].children[0]"
        assert "numbers in every node, or objects in every node" in str(info.value)
