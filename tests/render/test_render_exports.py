"""to_dot, to_flamegraph and to_speedscope: exact output, Hatchet compatibility, DAGs."""

import json

import numpy as np
import pandas as pd
import pytest

from graphframe import GraphFrame, MetricError
from graphframe.render.dot import reds_hex
from graphframe.render.flamegraph import call_paths, choose_scale
from graphframe.render.weights import ExportNote
from tests.helpers import gf_from_edges


@pytest.fixture
def tree2():
    """main -> (io, solve -> (mpi, spmv)), 2 ranks; rank 1 adds 10 to every time."""
    return gf_from_edges(["main", "io", "solve", "mpi", "spmv"], [-1, 0, 0, 2, 2],
                         times=[1.0, 0.4, 2.0, 3.0, 5.5], ranks=2)


@pytest.fixture
def dag():
    """a -> b -> c -> e and a -> d -> c: c (with its child e) is shared."""
    lit = [{"frame": {"name": "a"}, "metrics": {"time": 1.0, "_hatchet_nid": 0}, "children": [
        {"frame": {"name": "b"}, "metrics": {"time": 2.0, "_hatchet_nid": 1}, "children": [
            {"frame": {"name": "c"}, "metrics": {"time": 4.0, "_hatchet_nid": 2}, "children": [
                {"frame": {"name": "e"}, "metrics": {"time": 8.0, "_hatchet_nid": 3}}]}]},
        {"frame": {"name": "d"}, "metrics": {"time": 3.0, "_hatchet_nid": 4}, "children": [
            {"frame": {"name": "c"}, "metrics": {"time": 4.0, "_hatchet_nid": 2}}]}]}]
    return GraphFrame.from_literal(lit)


HEADER = ("strict digraph {\ngraph [bgcolor=transparent];\nnode [penwidth=4, shape=circle];\n"
          "edge [penwidth=2];\n\n")

# Hatchet 2026.2.0's output on the same inputs (tree2 written with to_json, read with
# from_json; dag read with from_literal), captured with /work/hvenv.
HATCHET_DOT_RANK1 = HEADER + (
    '"0" [color="#d92523", label="main" shape=oval];\n'
    '"1" [color="#e43027", label="io" shape=oval];\n'
    '"2" [color="#c5171c", label="solve" shape=oval];\n'
    '"3" [color="#b11218", label="mpi" shape=oval];\n'
    '"4" [color="#67000d", label="spmv" shape=oval];\n\n'
    '"0" -> "1";\n"0" -> "2";\n"2" -> "3";\n"2" -> "4";\n\n}\n')
HATCHET_DOT_DAG = HEADER + (
    '"0" [color="#fff5f0", label="a" shape=oval];\n'
    '"1" [color="#fedbcc", label="b" shape=oval];\n'
    '"2" [color="#fc8161", label="c" shape=oval];\n'
    '"3" [color="#67000d", label="e" shape=oval];\n'
    '"4" [color="#fcaf93", label="d" shape=oval];\n\n'
    '"0" -> "1";\n"1" -> "2";\n"2" -> "3";\n"0" -> "4";\n"4" -> "2";\n\n}\n')
HATCHET_FOLDED_RANK1 = ("main 11\nmain; io 10\nmain; solve 12\nmain; solve; mpi 13\n"
                        "main; solve; spmv 16\n")
HATCHET_FOLDED_INC = ("main 12\nmain; io 0\nmain; solve 10\nmain; solve; mpi 3\n"
                      "main; solve; spmv 6\n")


def test_dot_matches_hatchet(tree2, dag):
    assert tree2.to_dot(metric="time", rank=1) == HATCHET_DOT_RANK1
    # the threshold is a fraction of the column's maximum over all ranks (61.9 here):
    # nothing of rank 0 reaches 0.3 * 61.9, exactly as in Hatchet
    assert tree2.to_dot(metric="time (inc)", threshold=0.3) == HEADER + "\n\n}\n"
    # DAG: the shared node c is listed once, both edges into it are kept
    assert dag.to_dot() == HATCHET_DOT_DAG


def test_dot_threshold_drops_nodes_and_their_edges(tree2):
    text = tree2.to_dot(metric="time (inc)", rank=1, threshold=0.25)  # >= 15.475
    assert '"0" [' in text and '"2" [' in text and '"3" [' not in text
    assert '"0" -> "2";\n"2" -> "4";\n' in text and '"0" -> "1"' not in text


def test_dot_escapes_labels_and_skips_nodes_without_value():
    gf = GraphFrame.from_literal([{"frame": {"name": 'say "hi"\\'}, "metrics": {"time": 1.0},
                                   "children": [{"frame": {"name": "x"}, "metrics": {}}]}])
    text = gf.to_dot()
    assert 'label="say \\"hi\\"\\\\"' in text
    assert '"1" [' not in text and "->" not in text


def test_dot_aggregate_uses_node_values_for_the_range(tree2):
    text = tree2.to_dot(metric="time", aggregate="max")
    assert '"4" [color="#67000d", label="spmv"' in text      # the maximum
    assert '"1" [color="#fff5f0", label="io"' in text        # the minimum


def test_reds_table_endpoints_and_bad_values():
    assert reds_hex(np.array([0.0, 1.0, np.nan, -0.5, 2.0])) == [
        "#fff5f0", "#67000d", "#000000", "#fff5f0", "#67000d"]


def test_flamegraph_matches_hatchet(tree2):
    # with Hatchet's rounding (scale=1) and an exclusive metric, the same text
    assert tree2.to_flamegraph(rank=1, scale=1) == HATCHET_FOLDED_RANK1
    # Hatchet writes an inclusive metric as it is (HATCHET_FOLDED_INC: main counted in
    # every line below it); we write its exclusive partner and say so
    with pytest.warns(ExportNote, match="'time \\(inc\\)' is inclusive; wrote its exclusive "
                                        "partner 'time'"):
        text = tree2.to_flamegraph(metric="time (inc)", scale=1)
    assert text == tree2.to_flamegraph(metric="time", scale=1) != HATCHET_FOLDED_INC


def test_flamegraph_options(tree2):
    assert tree2.to_flamegraph(separator=";", scale=10).splitlines() == [
        "main 10", "main;io 4", "main;solve 20", "main;solve;mpi 30", "main;solve;spmv 55"]
    # half to even, like Python's round: 0.4 -> 0, 5.5 -> 6
    assert tree2.to_flamegraph(aggregate="mean", scale=1).splitlines() == [
        "main 6", "main; io 5", "main; solve 7", "main; solve; mpi 8", "main; solve; spmv 10"]
    assert tree2.to_flamegraph(aggregate="sum", scale=1).splitlines()[-1] == \
        "main; solve; spmv 21"
    # threshold: lines below 0.5 * max (5.5) are left out; their children stay
    assert tree2.to_flamegraph(threshold=0.5, scale=1).splitlines() == [
        "main; solve; mpi 3", "main; solve; spmv 6"]
    assert tree2.to_flamegraph(name="time", scale=1).splitlines()[1] == "1.0; 0.4 0"


def test_flamegraph_dag_writes_each_node_once(dag):
    # c (and e below it) appear under their first path only: the total is not double counted
    assert dag.to_flamegraph() == "a 1\na; b 2\na; b; c 4\na; b; c; e 8\na; d 3\n"
    total = sum(int(line.rsplit(" ", 1)[1]) for line in dag.to_flamegraph().splitlines())
    assert total == dag.dataframe["time"].sum()


def test_flamegraph_cycle_and_missing_values():
    gf = gf_from_edges(["a", "b", "c"], [-1, 0, 1], times=[1.0, 2.0, 3.0], extra=[(2, 1)])
    assert gf.to_flamegraph() == "a 1\na; b 2\na; b; c 3\n"
    lit = [{"frame": {"name": "a\nb"}, "metrics": {"time": 1.0},
            "children": [{"frame": {"name": "x"}, "metrics": {"time": float("nan")}},
                         {"frame": {"name": "y"}, "metrics": {"time": float("inf")}}]}]
    assert GraphFrame.from_literal(lit).to_flamegraph() == "a b 1\n"


def test_flamegraph_is_linear_in_output():
    # a 3,000-deep chain (far past the recursion limit): each path extends its parent's
    n = 3000
    gf = gf_from_edges([f"f{i}" for i in range(n)], [-1] + list(range(n - 1)))
    lines = gf.to_flamegraph(separator=";").splitlines()
    assert len(lines) == n and lines[-1].startswith("f0;f1;f2;") and lines[-1].endswith(";f2999 1")


def test_call_paths_follow_first_parents():
    paths = call_paths(np.array([-1, 0, 0, -1]), ["r", "x", "y", "s"], "/")
    assert paths == ["r", "r/x", "r/y", "s"]


def test_export_metric_errors(tree2):
    with pytest.raises(MetricError, match="metric='nope' does not exist"):
        tree2.to_flamegraph(metric="nope")
    with pytest.raises(MetricError, match="'name' is not numeric"):
        tree2.to_dot(metric="name")
    with pytest.raises(ValueError, match="unknown aggregate 'median'"):
        tree2.to_flamegraph(aggregate="median")


def test_speedscope_document(tree2):
    doc = json.loads(tree2.to_speedscope(rank=1, unit="seconds", title="run"))
    assert doc["$schema"] == "https://www.speedscope.app/file-format-schema.json"
    assert doc["name"] == "run" and doc["activeProfileIndex"] == 0
    assert doc["shared"]["frames"] == [{"name": n} for n in ["main", "io", "solve", "mpi", "spmv"]]
    (profile,) = doc["profiles"]
    assert profile["type"] == "sampled" and profile["unit"] == "seconds"
    assert profile["samples"] == [[0], [0, 1], [0, 2], [0, 2, 3], [0, 2, 4]]
    assert profile["weights"] == [11.0, 10.4, 12.0, 13.0, 15.5]
    assert profile["startValue"] == 0 and profile["endValue"] == pytest.approx(61.9)


def test_speedscope_all_ranks_frames_and_dag(tree2, dag):
    doc = json.loads(tree2.to_speedscope(all_ranks=True))
    assert [p["name"] for p in doc["profiles"]] == ["rank 0", "rank 1"]
    assert doc["profiles"][0]["weights"] == [1.0, 0.4, 2.0, 3.0, 5.5]
    doc = json.loads(dag.to_speedscope())
    assert doc["profiles"][0]["samples"] == [[0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 4]]
    lit = [{"frame": {"name": "f", "file": "a.c", "line": 3}, "metrics": {"time": 0.0},
            "children": [{"frame": {"name": "f", "file": "b.c", "line": "7"},
                          "metrics": {"time": 2.0}}]}]
    doc = json.loads(GraphFrame.from_literal(lit).to_speedscope())
    assert doc["shared"]["frames"] == [{"name": "f", "file": "a.c", "line": 3},
                                       {"name": "f", "file": "b.c", "line": 7}]
    # zero-valued nodes give no sample
    assert doc["profiles"][0]["samples"] == [[0, 1]]
    with pytest.raises(ValueError, match="unknown unit 'parsecs'"):
        dag.to_speedscope(unit="parsecs")


def test_exports_do_not_change_the_graphframe(tree2):
    before = tree2.dataframe.copy()
    tree2.to_dot()
    with pytest.warns(ExportNote, match="folded stacks: weights are time x"):
        tree2.to_flamegraph()
    tree2.to_speedscope(all_ranks=True)
    assert tree2.dataframe.equals(before)


def test_json_and_literal_stay_lossless():
    dag = gf_from_edges(list("abcde"), [-1, 0, 0, 1, 2], extra=[(2, 3)], ranks=2, threads=2)
    back = GraphFrame.from_json(dag.to_json())
    assert back.graph == dag.graph and not back.graph.is_forest
    pd.testing.assert_frame_equal(back.dataframe, dag.dataframe, check_exact=True)
    assert (back.exc_metrics, back.inc_metrics, back.default_metric) == (
        dag.exc_metrics, dag.inc_metrics, dag.default_metric)
    one = gf_from_edges(list("abcde"), [-1, 0, 0, 1, 2], extra=[(2, 3)])
    again = GraphFrame.from_literal(one.to_literal())
    assert again.graph == one.graph
    pd.testing.assert_frame_equal(again.dataframe[one.dataframe.columns], one.dataframe,
                                  check_exact=True)


def test_flamegraph_keeps_names_with_the_separator_in_one_frame():
    gf = GraphFrame.from_lists(("main", ("a; b", "c\nd")))
    assert gf.to_flamegraph() == "main 1\nmain; a_ b 1\nmain; a_ b; c d 1\n"
    # any separator: its non-blank part is what cannot appear inside a name
    assert gf.to_flamegraph(separator="|").splitlines()[1] == "main|a; b 1"
    odd = GraphFrame.from_lists(("x|y", "z"))
    assert odd.to_flamegraph(separator=" | ") == "x_y 1\nx_y | z 1\n"
    for bad in ("", "\n"):
        with pytest.raises(ValueError, match="separator="):
            gf.to_flamegraph(separator=bad)


def test_flamegraph_leaves_out_negative_values_with_a_warning():
    from graphframe import diff
    from graphframe.render.flamegraph import FlameGraphWarning
    before = GraphFrame.from_lists(("main", "a", "b"))
    after = GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": 1.0},
                                      "children": [{"frame": {"name": "a"},
                                                    "metrics": {"time": 3.0}},
                                                   {"frame": {"name": "b"},
                                                    "metrics": {"time": -1.0}}]}])
    d = diff(before, after)
    with pytest.warns(FlameGraphWarning, match=r"left out 1 node\(s\) whose time delta value "
                                               r"is negative"):
        text = d.to_flamegraph()
    assert text == "main 0\nmain; a 2\n"  # zero is written (as Hatchet does), -2 is not
    with pytest.warns(FlameGraphWarning, match="left out 1 node"):
        assert after.to_flamegraph() == "main 1\nmain; a 3\n"


def test_convert_prints_the_note_on_stderr(tmp_path):
    import io

    from graphframe.cli import main
    gf = GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": 1.0},
                                   "children": [{"frame": {"name": "b"},
                                                 "metrics": {"time": -1.0}}]}])
    path = gf.save(tmp_path / "neg.gfz")
    out, err = io.StringIO(), io.StringIO()
    assert main(["convert", str(path), "-", "--to", "folded"], stdout=out, stderr=err) == 0
    assert out.getvalue() == "main 1\n"
    assert err.getvalue() == ("graphframe: note: to_flamegraph left out 1 node(s) whose time "
                              "value is negative: flame graph tools cannot draw negative "
                              "weights\n")


def test_exports_default_to_the_lowest_rank_the_data_has():
    """A profile holding rank 1 alone is exported (not an error, not empty)."""
    import pandas as pd
    from graphframe import GraphFrame

    gf = GraphFrame.from_lists(("main", "solve"))
    df = gf.dataframe.copy()
    df["rank"] = 1
    df = df.set_index("rank", append=True)
    only1 = GraphFrame(gf.graph, df, gf.exc_metrics, gf.inc_metrics, default_metric="time")
    folded = only1.to_flamegraph().splitlines()
    assert len(folded) == 2 and folded[0].startswith("main ")
    assert only1.to_dot().count("label=") == 2
    assert '"startValue"' in only1.to_speedscope()
    assert only1.to_flamegraph() == only1.to_flamegraph(rank=1)
