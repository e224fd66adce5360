"""Graph.union, GraphFrame.unify and arithmetic: exact graphs, values and statuses."""

import numpy as np
import pandas as pd
import pytest

from graphframe import Graph, GraphFrame
from graphframe.errors import GraphMismatchError

from tests.helpers import by_name, gf_from_edges, replaced, tree_text


def names(g):
    return [n.frame["name"] for n in g.traverse()]


def test_union_matches_by_call_path():
    a = Graph.from_lists(("a", "b", ("c", "x")))
    b = Graph.from_lists(("a", "c", ("d", "y")))
    u, ma, mb = a.union(b, return_mappings=True)
    assert names(u) == ["a", "b", "c", "x", "d", "y"]
    assert ma.tolist() == [0, 1, 2, 3] and mb.tolist() == [0, 2, 4, 5]
    assert a.union(b) == u and b.union(a) == u


def test_union_of_different_roots_and_same_name_in_other_context():
    u = Graph.from_lists(("a", "b")).union(Graph.from_lists(("q", "b")))
    assert names(u) == ["a", "b", "q", "b"] and len(u.roots) == 2


def test_union_pairs_duplicate_siblings_one_to_one():
    a = Graph.from_lists(("a", ("x", "p"), ("x", "q")))
    b = Graph.from_lists(("a", ("x", "p")))
    u, ma, mb = a.union(b, return_mappings=True)
    assert u.num_nodes == 5  # both x of a survive; b's x pairs with the first
    assert mb.tolist() == [ma[0], ma[1], ma[2]]


def test_union_keeps_every_edge_of_call_graphs():
    attrs = pd.DataFrame({"name": ["main", "f", "g"]})
    a, _ = Graph.build(attrs, [-1, 0, 0], ([1], [2]))  # main->f, main->g, f->g
    b = Graph.from_lists(("main", ("f", "h")))
    u = a.union(b)
    g = next(n for n in u.traverse() if n.frame["name"] == "g")
    assert sorted(p.frame["name"] for p in g.parents) == ["f", "main"]
    assert names(u) == ["main", "f", "g", "h"]


def test_union_of_ordered_graphs_puts_left_first_then_new_nodes():
    left = gf_from_edges(["main", "zeta", "alpha"], [-1, 0, 0], ordered=True).graph
    right = gf_from_edges(["main", "beta", "zeta"], [-1, 0, 0], ordered=True).graph
    assert names(left.union(right)) == ["main", "zeta", "alpha", "beta"]


def test_unify_returns_new_frames_with_hatchet_rows_and_status():
    g1 = gf_from_edges(["a", "b", "c"], [-1, 0, 0], [1, 2, 3])
    g2 = gf_from_edges(["a", "c", "d"], [-1, 0, 0], [10, 30, 40])
    u1, u2 = g1.unify(g2, inplace=False)
    assert u1.graph is u2.graph and names(u1.graph) == ["a", "b", "c", "d"]
    assert u1.dataframe["_missing_node"].tolist() == [0, 1, 0, 2]
    assert u1.dataframe["name"].tolist() == ["a", "b", "c", "d"]
    assert np.isnan(u1.dataframe["time"].iloc[3])
    assert u2.dataframe.index.tolist() == [0, 2, 3]
    assert "_missing_node" not in g1.dataframe.columns and g1.graph.num_nodes == 3
    same1, same2 = u1.unify(u2, inplace=False)
    assert same1.graph is u1.graph


SPEC_G1 = (["a", "b", "c", "d"], [-1, 0, 1, 0])
SPEC_G2 = (["a", "b", "x", "e"], [-1, 0, 1, 0])


def spec_pair():
    g1 = gf_from_edges(*SPEC_G1)
    g2 = gf_from_edges(*SPEC_G2, times=[10.0] * 4)
    return g1, g2


def test_sub_default_matches_hatchet():
    g1, g2 = spec_pair()
    out = g1 - g2
    t, inc, miss = by_name(out), by_name(out, "time (inc)"), by_name(out, "_missing_node")
    assert (t["a"], inc["a"]) == (-9.0, -36.0)
    assert (t["b"], inc["b"]) == (-9.0, -18.0)
    assert (t["c"], inc["c"], t["d"], inc["d"]) == (1.0, 1.0, 1.0, 1.0)   # left only: unchanged
    assert np.isnan(t["x"]) and np.isnan(inc["e"])                         # right only: NaN
    assert miss == {"a": 0, "b": 0, "c": 1, "d": 1, "x": 2, "e": 2}
    assert tree_text(out).splitlines()[1:4] == ["|- -9.000 b", "|  |- 1.000 c < ",
                                                "|  `- nan x > "]


def test_mul_and_div_match_hatchet():
    g1, g2 = spec_pair()
    prod = g1 * g2
    assert (by_name(prod)["a"], by_name(prod, "time (inc)")["a"]) == (10.0, 160.0)
    assert by_name(prod)["c"] == 1.0 and by_name(prod)["d"] == 1.0
    quot = g1 / g2
    assert by_name(quot)["a"] == pytest.approx(0.1) and by_name(quot, "time (inc)")["a"] == 0.1


def test_sub_with_fill_value_gives_real_deltas_and_recomputes_inclusive():
    g1, g2 = spec_pair()
    out = g2.sub(g1, fill_value=0)
    t, inc = by_name(out), by_name(out, "time (inc)")
    assert t == {"a": 9.0, "b": 9.0, "x": 10.0, "e": 10.0, "c": -1.0, "d": -1.0}
    assert inc["a"] == 36.0 and inc["b"] == 18.0 and inc["c"] == -1.0
    assert out.exc_metrics == ["time"] and out.inc_metrics == ["time (inc)"]
    assert list(out.dataframe.columns) == ["time", "name", "time (inc)", "_missing_node"]


def test_in_place_operators_change_the_object_and_never_write_the_old_frame():
    g1, g2 = spec_pair()
    old_frame = g1.dataframe
    before = old_frame.copy()
    right_before = g2.dataframe.copy()
    keep = g1
    g1 -= g2
    assert g1 is keep and g1.dataframe is not old_frame
    assert len(g1.graph) == 6 and by_name(g1)["a"] == -9.0
    pd.testing.assert_frame_equal(old_frame, before)
    pd.testing.assert_frame_equal(g2.dataframe, right_before)
    g3 = gf_from_edges(*SPEC_G1)
    alias = g3
    g3 /= gf_from_edges(*SPEC_G1, times=[2.0] * 4)
    assert alias is g3 and by_name(g3)["a"] == 0.5


def test_arithmetic_aligns_ranks_and_merges_metric_lists():
    left = gf_from_edges(["main", "f"], [-1, 0], [1.0, 2.0], ranks=2)
    right = gf_from_edges(["main", "g"], [-1, 0], [5.0, 7.0], ranks=2)
    df = right.dataframe.copy()
    df["bytes"] = 100.0
    right = replaced(right, dataframe=df, exc_metrics=["time", "bytes"])
    out = left.add(right, fill_value=0)
    assert out.exc_metrics == ["time", "bytes"]
    assert out.dataframe.loc[(0, 1), "time"] == 1 + 10 + 5 + 10
    assert out.dataframe.loc[(0, 1), "bytes"] == 100.0  # only on the right: 0 + 100
    assert out.dataframe.index.tolist() == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]


def test_arithmetic_needs_the_same_index_levels():
    with pytest.raises(GraphMismatchError, match="indexed by"):
        gf_from_edges(["a"], [-1]) - gf_from_edges(["a"], [-1], ranks=2)


def test_same_graph_arithmetic_skips_unify():
    gf = gf_from_edges(["a", "b"], [-1, 0], [1.0, 2.0])
    out = gf - gf
    assert out.graph is gf.graph
    assert out.dataframe["time"].tolist() == [0.0, 0.0]
    assert out.dataframe["_missing_node"].tolist() == [0, 0]


# ---------------------------------------------------------------- DAG union / unify
def dag_pair():
    """``util`` is shared in both; in ``b`` its first parent is a node ``a`` lacks."""
    a = gf_from_edges(["main", "parse", "solve", "util"], [-1, 0, 0, 1], [1, 2, 3, 10],
                      extra=[(2, 3)])
    b = gf_from_edges(["main", "alpha", "parse", "solve", "util"], [-1, 0, 0, 0, 1],
                      [1, 1, 2, 3, 12], extra=[(2, 4), (3, 4)])
    return a, b


def parents_by_name(g):
    return {n.frame["name"]: sorted(p.frame["name"] for p in n.parents) for n in g.traverse()}


def test_dag_union_matches_shared_nodes_through_every_parent():
    a, b = dag_pair()
    u, mb, ma = b.graph.union(a.graph, return_mappings=True)
    assert names(u) == ["main", "alpha", "util", "parse", "solve"]
    assert parents_by_name(u) == {"main": [], "alpha": ["main"], "util": ["alpha", "parse", "solve"],
                                  "parse": ["main"], "solve": ["main"]}
    assert mb.tolist() == [0, 1, 2, 3, 4] and ma.tolist() == [0, 3, 2, 4]  # a: main parse util solve
    assert a.graph.union(b.graph) == u


def test_dag_sub_gives_one_delta_per_shared_node():
    a, b = dag_pair()
    out = b.sub(a, fill_value=0)
    assert tree_text(out) == ("0.000 main\n"
                              "|- 1.000 alpha < \n"
                              "|  `- 2.000 util\n"
                              "|- 0.000 parse\n"
                              "|  `- 2.000 util\n"
                              "`- 0.000 solve\n"
                              "   `- 2.000 util\n")
    assert by_name(out) == {"main": 0.0, "alpha": 1.0, "util": 2.0, "parse": 0.0, "solve": 0.0}
    assert by_name(out, "_missing_node") == {"main": 0, "alpha": 1, "util": 0, "parse": 0,
                                             "solve": 0}
    # each distinct descendant counted once: main = 1 + 1 + 12 + 2 + 3 - (1 + 2 + 3 + 10)
    assert by_name(out, "time (inc)")["main"] == 3.0


def test_dag_unify_rows_and_status():
    a, b = dag_pair()
    ua, ub = a.unify(b, inplace=False)
    assert ua.graph is ub.graph and ua.graph.num_nodes == 5
    df = ua.dataframe
    assert df["name"].tolist() == ["main", "alpha", "util", "parse", "solve"]
    assert df["_missing_node"].tolist() == [0, 2, 0, 0, 0]
    assert df["time"].tolist()[2:] == [10.0, 2.0, 3.0] and np.isnan(df["time"].iloc[1])
    assert ub.dataframe["time"].tolist() == [1.0, 1.0, 12.0, 2.0, 3.0]


def test_dag_union_merges_cascade_below_a_matched_shared_node():
    # a: main -> p -> u -> w -> z;  b: main -> alpha -> u -> w -> z and p -> u. In b, u is
    # discovered under alpha, so only the edge p -> u matches it; w and z follow.
    a = gf_from_edges(["main", "p", "u", "w", "z"], [-1, 0, 1, 2, 3], [1, 2, 3, 4, 5])
    b = gf_from_edges(["main", "alpha", "p", "u", "w", "z"], [-1, 0, 0, 1, 3, 4],
                      [1, 1, 2, 3, 4, 9], extra=[(2, 3)])
    out = b.sub(a, fill_value=0)
    assert names(out.graph) == ["main", "alpha", "u", "w", "z", "p"]
    assert by_name(out) == {"main": 0.0, "alpha": 1.0, "p": 0.0, "u": 0.0, "w": 0.0, "z": 4.0}
    assert by_name(out, "_missing_node") == {"main": 0, "alpha": 1, "p": 0, "u": 0, "w": 0,
                                             "z": 0}


def test_dag_union_merges_two_nodes_of_one_side_matched_to_one_shared_node():
    # a has two separate u (under p and under q); b shares one u between p and q
    a = gf_from_edges(["main", "p", "q", "u", "u"], [-1, 0, 0, 1, 2], [1, 2, 3, 4, 5])
    b = gf_from_edges(["main", "p", "q", "u"], [-1, 0, 0, 1], [1, 2, 3, 20], extra=[(2, 3)])
    ua, ub = a.unify(b, inplace=False)
    assert ua.graph.num_nodes == 4
    assert parents_by_name(ua.graph)["u"] == ["p", "q"]
    assert by_name(ua) == {"main": 1.0, "p": 2.0, "q": 3.0, "u": 9.0}  # a's two u rows merged
    assert by_name(b - a) == {"main": 0.0, "p": 0.0, "q": 0.0, "u": 11.0}


def test_dag_union_keeps_duplicate_children_of_one_node_apart():
    # two distinct x under main in a (one also under y); b has one x under main
    a = gf_from_edges(["main", "x", "x", "y"], [-1, 0, 0, 0], [1, 2, 3, 4], extra=[(3, 2)])
    b = gf_from_edges(["main", "x", "y"], [-1, 0, 0], [1, 20, 40])
    u, ma, mb = a.graph.union(b.graph, return_mappings=True)
    assert u.num_nodes == 4
    assert mb.tolist() == [ma[0], ma[1], ma[3]]


def test_dag_union_is_deterministic_and_symmetric_in_structure():
    a, b = dag_pair()
    first = a.graph.union(b.graph, return_mappings=True)
    again = a.graph.union(b.graph, return_mappings=True)
    assert first[0] == again[0]
    assert all(np.array_equal(x, y) for x, y in zip(first[1:], again[1:]))
    assert b.graph.union(a.graph) == first[0]


def test_arithmetic_with_rank_and_thread_levels():
    a = gf_from_edges(["main", "f", "g"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=2, threads=2)
    b = gf_from_edges(["main", "g", "h"], [-1, 0, 0], [5.0, 7.0, 9.0], ranks=2, threads=2)
    out = b.sub(a, fill_value=0)
    df = out.dataframe
    assert df.index.names == ["node", "rank", "thread"] and len(df) == 16
    assert out.dataframe.xs((1, 1), level=("rank", "thread"))["time"].tolist() == [
        4.0, -(2.0 + 110), 4.0, 9.0 + 110]
    assert names(out.graph) == ["main", "f", "g", "h"]
    assert df.xs((1, 1), level=("rank", "thread"))["time (inc)"].tolist() == [
        (5 + 7 + 9 + 3 * 110) - (1 + 2 + 3 + 3 * 110), -112.0, 4.0, 119.0]
    ua, ub = a.unify(b, inplace=False)
    assert ua.dataframe.index.names == ["node", "rank", "thread"]
    assert ua.dataframe["_missing_node"].tolist() == [0] * 4 + [1] * 4 + [0] * 4 + [2] * 4
    assert ub.dataframe.index.get_level_values("node").unique().tolist() == [0, 2, 3]


def test_dag_arithmetic_with_ranks():
    a, b = dag_pair()
    a2 = gf_from_edges(["main", "parse", "solve", "util"], [-1, 0, 0, 1], [1, 2, 3, 10],
                       extra=[(2, 3)], ranks=2)
    b2 = gf_from_edges(["main", "alpha", "parse", "solve", "util"], [-1, 0, 0, 0, 1],
                       [1, 1, 2, 3, 12], extra=[(2, 4), (3, 4)], ranks=2)
    out = b2.sub(a2, fill_value=0)
    assert len(out.dataframe) == 10
    assert out.dataframe.xs(1, level="rank")["time"].tolist() == [0.0, 11.0, 2.0, 0.0, 0.0]
    assert out.dataframe.xs(1, level="rank")["time (inc)"].tolist() == [13.0, 13.0, 2.0, 2.0, 2.0]


def test_callgrind_pair_diff_has_no_node_both_added_and_removed(shared_data):
    import graphframe
    folder = shared_data / "gprof2dot" / "generated-callgrind"
    small = graphframe.read(folder / "workload.callgrind.dot")
    full = graphframe.read(folder / "workload.callgrind.full.dot")
    out = full.sub(small, fill_value=0)
    df = out.dataframe
    assert out.graph.num_nodes == full.graph.num_nodes == 310
    assert (df["_missing_node"] == 2).sum() == 0      # every node of the small file is in the full
    assert (df["_missing_node"] == 0).sum() == small.graph.num_nodes
    status = df.groupby("name")["_missing_node"].agg(set)
    assert status["xorshift"] == {0} and status["_IO_setb"] == {0}
    xorshift = df[df["name"] == "xorshift"]
    assert xorshift["time"].tolist() == [0.0]
    assert sorted(p.frame["name"] for p in out.graph.node(int(xorshift.index[0])).parents) == [
        "rand_unit", "sort_phase"]


def test_operands_that_are_not_graphframes():
    from graphframe.errors import OperationError
    gf = gf_from_edges(["a", "b"], [-1, 0], [1.0, 2.0])
    for bad in (lambda: gf + 5, lambda: gf - 1.0, lambda: gf * "x", lambda: gf / None,
                lambda: 5 + gf):
        with pytest.raises(TypeError):
            bad()
    with pytest.raises(OperationError, match="unify needs a GraphFrame.*NoneType"):
        gf.unify(None, inplace=False)
    with pytest.raises(OperationError, match="sub needs a GraphFrame.*int"):
        gf.sub(3, fill_value=0)
    keep = gf
    with pytest.raises(TypeError):
        gf += 5
    assert gf is keep


def test_metric_on_one_side_only_with_identical_rows():
    # both operands have exactly the same rows: the aligned fast path must not write
    # into (read-only or shared) column data of an operand
    a = gf_from_edges(["main", "f"], [-1, 0], [1.0, 2.0], ranks=2)
    df = a.dataframe.copy()
    df["bytes"] = [1.0, 2.0, 3.0, 4.0]
    b = replaced(a, dataframe=df, exc_metrics=["time", "bytes"])
    before = b.dataframe.copy()
    out = a.sub(b, fill_value=0)
    assert out.dataframe["bytes"].tolist() == [-1.0, -2.0, -3.0, -4.0]
    assert out.dataframe["time"].tolist() == [0.0] * 4
    assert b.sub(a, fill_value=0).dataframe["bytes"].tolist() == [1.0, 2.0, 3.0, 4.0]
    pd.testing.assert_frame_equal(b.dataframe, before)


def nan_pair(extra_right_node):
    main = {"frame": {"name": "main"}, "metrics": {"time": 0.0, "time (inc)": 10.0}}
    left = GraphFrame.from_literal([{**main, "children": [
        {"frame": {"name": "solve"}, "metrics": {"time": 4.0, "time (inc)": 5.0}}]}])
    kids = [{"frame": {"name": "solve"}, "metrics": {"time": None, "time (inc)": 0.0}}]
    if extra_right_node:  # the graphs differ: rows are aligned through the union
        kids.append({"frame": {"name": "io"}, "metrics": {"time": 2.0, "time (inc)": 2.0}})
    right = GraphFrame.from_literal([{**main, "children": kids}])
    return left, right


@pytest.mark.parametrize("extra_right_node", [False, True])
def test_a_nan_result_keeps_the_left_value_as_hatchet(extra_right_node):
    # HATCHET_SPEC (arithmetic): the results are written with DataFrame.update,
    # which never writes NaN: 0 / 0 and x - NaN leave the left value; inf is written.
    # (Values checked against Hatchet 2026.2.0 on these two literals.)
    left, right = nan_pair(extra_right_node)
    quot, diff = left / right, left - right
    assert by_name(quot) == {"main": 0.0, "solve": 4.0, **({"io": IS_NAN} if extra_right_node
                                                            else {})}
    assert by_name(quot, "time (inc)") == {"main": 1.0, "solve": np.inf,
                                           **({"io": IS_NAN} if extra_right_node else {})}
    assert by_name(diff)["solve"] == 4.0 and by_name(diff, "time (inc)")["solve"] == 5.0
    inplace = left.copy()
    inplace *= right
    assert (by_name(inplace)["solve"], by_name(inplace, "time (inc)")["main"]) == (4.0, 100.0)
    # with fill_value the values are ours, not Hatchet's: a missing value stays missing
    assert np.isnan(by_name(left.sub(right, fill_value=0))["solve"])


class _IsNan:
    def __eq__(self, other):
        return isinstance(other, float) and np.isnan(other)


IS_NAN = _IsNan()
