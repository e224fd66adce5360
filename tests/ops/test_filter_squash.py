"""filter and squash: exact graphs and values (Hatchet's examples from the spec and more)."""

import numpy as np
import pandas as pd
import pytest

from graphframe import EmptyFilter, GraphFrame, InvalidFilter

from tests.helpers import by_name, gf_from_edges, names_preorder, replaced, tree_text


def spec_tree():
    return GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))


@pytest.mark.parametrize("make_filter", [
    lambda gf: gf.dataframe["name"].isin(["a", "c", "f"]),                 # aligned Series
    lambda gf: gf.dataframe["name"].isin(["a", "c", "f"]).to_numpy(),      # ndarray
    lambda gf: list(gf.dataframe["name"].isin(["a", "c", "f"])),           # list of bools
    lambda gf: (lambda row: row["name"] in ("a", "c", "f")),               # per-row callable
    lambda gf: (lambda row: row["node"].frame["name"] in ("a", "c", "f")),  # Node in the row
    lambda gf: (lambda row: row.name in (0, 2, 5)),                       # row position
])
def test_filter_keep_a_c_f_every_form(make_filter):
    gf = spec_tree()
    out = gf.filter(make_filter(gf))
    assert tree_text(out) == "1.000 a\n|- 1.000 c\n`- 1.000 f\n"
    assert by_name(out, "time (inc)") == {"a": 3.0, "c": 1.0, "f": 1.0}
    assert out.dataframe.index.tolist() == [0, 1, 2]
    # the input is untouched
    assert len(gf.dataframe) == 6 and gf.graph.num_nodes == 6


def test_filter_without_squash_keeps_the_graph():
    gf = spec_tree()
    out = gf.filter(gf.dataframe["time"] > 0, squash=False)
    assert out.graph is gf.graph
    out2 = gf.filter(gf.dataframe["name"] == "b", squash=False)
    assert out2.graph is gf.graph and out2.dataframe.index.tolist() == [1]
    assert "nan a" in tree_text(out2)  # nodes without rows print nan


def test_filter_errors():
    gf = spec_tree()
    with pytest.raises(EmptyFilter):
        gf.filter(gf.dataframe["time"] > 100)
    with pytest.raises(EmptyFilter):
        gf.filter(lambda row: False)
    with pytest.raises(InvalidFilter):
        gf.filter(42)
    with pytest.raises(InvalidFilter, match="shape"):
        gf.filter(np.array([True, False]))
    with pytest.raises(InvalidFilter, match="not aligned"):
        gf.filter(pd.Series([True] * 3))


def test_callable_that_only_works_per_row():
    gf = spec_tree()
    out = gf.filter(lambda row: row["time"] > 0 and row["name"] in ("a", "b"))
    assert names_preorder(out) == ["a", "b"]


def test_callable_is_called_once_per_row_with_hatchet_rows():
    gf = gf_from_edges(["main", "x", "y"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=2)
    seen = []

    def keep(row):
        seen.append((row.name, int(row["node"]), row["rank"], row["name"], row["time"],
                     row.get("thread", "-"), "time" in row, row.time))
        return row["rank"] == 1

    out = gf.filter(keep, squash=False)
    assert seen == [(0, 0, 0, "main", 1.0, "-", True, 1.0), (1, 0, 1, "main", 11.0, "-", True, 11.0),
                    (2, 1, 0, "x", 2.0, "-", True, 2.0), (3, 1, 1, "x", 12.0, "-", True, 12.0),
                    (4, 2, 0, "y", 3.0, "-", True, 3.0), (5, 2, 1, "y", 13.0, "-", True, 13.0)]
    assert out.dataframe.index.tolist() == [(0, 1), (1, 1), (2, 1)]
    rows = []
    gf.filter(lambda row: rows.append(row) or True)
    first = rows[0]
    assert type(first["time"]) is float and type(first["rank"]) is int
    assert first["node"].frame["name"] == "main"
    assert first.index.tolist() == ["node", "rank", "time", "name", "time (inc)"]
    assert list(first)[1:] == [0, 1.0, "main", 6.0] and len(first) == 5
    assert first[["rank", "time"]].tolist() == [0, 1.0]


def test_callable_on_a_column_is_not_applied_to_the_whole_frame():
    # Per row, row["time (inc)"] is a number: .max() does not exist (as in Hatchet);
    # evaluating the callable on the whole table first kept only the root instead
    gf = gf_from_edges(["main", "x", "y"], [-1, 0, 0], [1.0, 2.0, 3.0])
    with pytest.raises(InvalidFilter, match=r"row 0 \(node=0\): AttributeError") as info:
        gf.filter(lambda r: r["time (inc)"] == r["time (inc)"].max())
    assert isinstance(info.value.__cause__, AttributeError)
    # an outlier filter written per row, with the threshold computed outside
    limit = gf.dataframe["time"].mean() + 0.5 * gf.dataframe["time"].std()
    out = gf.filter(lambda r: r["time"] > limit, squash=False)
    assert out.dataframe["name"].tolist() == ["y"]


def test_callable_failure_names_the_row_it_failed_on():
    gf = gf_from_edges(["main", "x", "y"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=2)
    called = []

    def fails_late(r):
        called.append(r.name)
        return 1 / 0 if r["name"] == "y" and r["rank"] == 1 else True

    with pytest.raises(InvalidFilter, match=r"row 5 \(node=2, rank=1\): ZeroDivisionError") \
            as info:
        gf.filter(fails_late)
    assert isinstance(info.value.__cause__, ZeroDivisionError) and called == [0, 1, 2, 3, 4, 5]
    # an answer without a single truth value (a Series) names its row too
    with pytest.raises(InvalidFilter, match=r"row 2 \(node=1, rank=0\): ValueError"):
        gf.filter(lambda r: pd.Series([True, False]) if r["name"] == "x" else True)
    # numpy booleans and Python booleans mixed are one mask
    out = gf.filter(lambda r: np.bool_(r["rank"] == 1) if r["name"] == "x" else True,
                    squash=False)
    assert out.dataframe.index.tolist() == [(0, 0), (0, 1), (1, 1), (2, 0), (2, 1)]


def test_callable_answers_keep_rows_by_their_truth():
    gf = gf_from_edges(["main", "x", "y"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=2)
    for answers, kept in (([True, 0, 1, 2, 0.0, np.bool_(True)], [0, 2, 3, 5]),
                          ([1, 0, 0, 1, 1, 0], [0, 3, 4]),
                          ([False, True, "", "x", None, np.nan], [1, 3])):
        out = gf.filter(lambda r, answers=answers: answers[r.name], squash=False)
        assert out.dataframe.index.tolist() == [gf.dataframe.index[i] for i in kept]


def test_callable_answers_none_and_nan_mean_drop():
    gf = gf_from_edges(["main", "x", "y"], [-1, 0, 0], [1.0, 2.0, 3.0])
    out = gf.filter(lambda r: {"main": True, "x": None, "y": float("nan")}[r["name"]])
    assert names_preorder(out) == ["main"]


def test_filter_is_per_row_on_ranks():
    gf = gf_from_edges(["main", "x", "y"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=2)
    out = gf.filter(gf.dataframe["time"] > 11.5)  # rank 1 of x and y only, main dropped
    assert out.dataframe.index.tolist() == [(0, 1), (1, 1)]
    assert [n.frame["name"] for n in out.graph.roots] == ["x", "y"]


def test_squash_merges_siblings_that_become_equal():
    # a -> b -> {x, y}, a -> c -> x ; keep a, x, y
    gf = gf_from_edges(["a", "b", "x", "y", "c", "x"], [-1, 0, 1, 1, 0, 4])
    out = gf.filter(gf.dataframe["name"].isin(["a", "x", "y"]))
    assert tree_text(out, ["time", "time (inc)"]) == "1.000 4.000 a\n|- 2.000 2.000 x\n`- 1.000 1.000 y\n"
    assert out.graph.num_nodes == 3 and out.dataframe.index.tolist() == [0, 1, 2]  # no gaps


def test_squash_dag_keeps_multi_parent_structure():
    # a -> b -> d, a -> c -> d ; remove b
    gf = gf_from_edges(["a", "b", "c", "d"], [-1, 0, 0, 1], extra=[(2, 3)])
    out = gf.filter(gf.dataframe["name"] != "b")
    g = out.graph
    d = next(n for n in g.traverse() if n.frame["name"] == "d")
    assert sorted(p.frame["name"] for p in d.parents) == ["a", "c"]
    assert by_name(out, "time (inc)") == {"a": 3.0, "c": 2.0, "d": 1.0}


def test_squash_removed_root_leaves_two_roots():
    gf = gf_from_edges(["a", "b", "x", "y", "c", "x"], [-1, 0, 1, 1, 0, 4])
    out = gf.filter(gf.dataframe["name"] != "a")
    assert [n.frame["name"] for n in out.graph.roots] == ["b", "c"]
    assert out.graph.is_forest and not out.graph.is_tree()


def test_squash_on_three_level_index_sums_merged_rows_and_keeps_attributes():
    gf = gf_from_edges(["a", "b", "x", "c", "x"], [-1, 0, 1, 0, 3], ranks=2, threads=2)
    df = gf.dataframe.copy()
    df["file"] = "f.c"
    gf = replaced(gf, dataframe=df)
    out = gf.filter(gf.dataframe["name"].isin(["a", "x"]))
    assert out.dataframe.index.names == ["node", "rank", "thread"]
    x = out.dataframe.xs(1, level="node")
    assert x["time"].tolist() == [2.0, 202.0, 22.0, 222.0]   # (r, t) = 00, 01, 10, 11; two x merged
    assert set(x["file"]) == {"f.c"} and set(x["name"]) == {"x"}
    assert out.dataframe.loc[(0, 1, 1), "time (inc)"] == pytest.approx(111 + 2 * 111)


def test_squash_is_idempotent_and_keeps_values_when_nothing_is_removed():
    gf = gf_from_edges(["a", "b", "c"], [-1, 0, 0], [1.0, 2.0, 3.0])
    out = gf.squash()
    assert out.graph == gf.graph
    pd.testing.assert_frame_equal(out.dataframe, gf.dataframe)


def test_squash_merges_equal_roots_and_their_children():
    gf = gf_from_edges(["a", "x", "a", "x", "y"], [-1, 0, -1, 2, 2], [1, 2, 3, 4, 5])
    out = gf.squash()
    assert tree_text(out) == "4.000 a\n|- 6.000 x\n`- 5.000 y\n"  # integers print as in Hatchet


def test_ordered_graph_keeps_source_order_through_squash():
    gf = gf_from_edges(["main", "zeta", "alpha", "mid"], [-1, 0, 0, 0], ordered=True)
    assert names_preorder(gf) == ["main", "zeta", "alpha", "mid"]
    out = gf.filter(gf.dataframe["name"] != "alpha")
    assert names_preorder(out) == ["main", "zeta", "mid"]


def test_squash_cycle_graph():
    # main -> f -> g -> f (recursion), main -> h ; remove g: f gets itself as parent
    gf = gf_from_edges(["main", "f", "g", "h"], [-1, 0, 1, 0], extra=[(2, 1)])
    out = gf.filter(gf.dataframe["name"] != "g")
    f = next(n for n in out.graph.traverse() if n.frame["name"] == "f")
    assert sorted(p.frame["name"] for p in f.parents) == ["f", "main"]
    assert by_name(out, "time (inc)") == {"main": 3.0, "f": 1.0, "h": 1.0}


def test_filtered_frame_shares_no_writable_data_with_the_input():
    gf = gf_from_edges(["main", "x", "y"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=2)
    before = gf.dataframe.copy()
    for out in (gf.filter(lambda r: r["name"] != "x"), gf.filter(gf.dataframe["time"] > 1.5)):
        df = out.dataframe
        for col in df.columns:
            if isinstance(df[col].dtype, np.dtype) and col in gf.dataframe.columns:
                assert not np.shares_memory(df[col].to_numpy(), gf.dataframe[col].to_numpy())
        df.loc[:, "time"] = -1.0
        df.loc[:, "time (inc)"] = -1.0
        assert gf.dataframe.equals(before)
