"""Graph.union, GraphFrame.unify and arithmetic: exact graphs, values and statuses."""

import numpy as np
import pandas as pd
import pytest

from graphframe import Graph
from graphframe.errors import GraphMismatchError

from helpers import by_name, gf_from_edges, tree_text


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
    u1, u2 = g1.unify(g2)
    assert u1.graph is u2.graph and names(u1.graph) == ["a", "b", "c", "d"]
    assert u1.dataframe["_missing_node"].tolist() == [0, 1, 0, 2]
    assert u1.dataframe["name"].tolist() == ["a", "b", "c", "d"]
    assert np.isnan(u1.dataframe["time"].iloc[3])
    assert u2.dataframe.index.tolist() == [0, 2, 3]
    assert "_missing_node" not in g1.dataframe.columns and g1.graph.num_nodes == 3
    same1, same2 = u1.unify(u2)
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


def test_in_place_operators_rebind_and_leave_the_old_object_alone():
    g1, g2 = spec_pair()
    before = g1.dataframe.copy()
    keep = g1
    g1 -= g2
    assert g1 is not keep
    pd.testing.assert_frame_equal(keep.dataframe, before)
    g3 = gf_from_edges(*SPEC_G1)
    g3 /= gf_from_edges(*SPEC_G1, times=[2.0] * 4)
    assert by_name(g3)["a"] == 0.5


def test_arithmetic_aligns_ranks_and_merges_metric_lists():
    left = gf_from_edges(["main", "f"], [-1, 0], [1.0, 2.0], ranks=2)
    right = gf_from_edges(["main", "g"], [-1, 0], [5.0, 7.0], ranks=2)
    df = right.dataframe.copy()
    df["bytes"] = 100.0
    right = right._replace(dataframe=df, exc_metrics=["time", "bytes"])
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
