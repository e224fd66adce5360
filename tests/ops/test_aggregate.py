"""drop_index_levels, groupby_aggregate, exclusive columns, subtree sums."""

import numpy as np
import pandas as pd
import pytest


from graphframe.model.dataframe import level_ids
from tests.helpers import by_name, gf_from_edges, replaced


def test_drop_index_levels_mean_max_and_attributes():
    gf = gf_from_edges(["main", "f"], [-1, 0], [1.0, 2.0], ranks=4)
    mean = gf.drop_index_levels(inplace=False)
    assert mean.dataframe.index.names == ["node"]
    assert mean.dataframe["time"].tolist() == [16.0, 17.0]
    assert mean.dataframe["name"].tolist() == ["main", "f"]
    assert gf.drop_index_levels(np.max, inplace=False).dataframe["time"].tolist() == [31.0, 32.0]
    assert gf.dataframe.index.names == ["node", "rank"]  # input untouched
    imbalance = gf.drop_index_levels(np.max, inplace=False).dataframe["time"] / mean.dataframe["time"]
    assert imbalance.round(4).tolist() == [1.9375, 1.8824]


def test_drop_index_levels_three_levels_and_noop():
    gf = gf_from_edges(["main"], [-1], [1.0], ranks=2, threads=2)
    assert gf.drop_index_levels(np.sum, inplace=False).dataframe["time"].tolist() == [4 + 20 + 200]
    flat = gf_from_edges(["main"], [-1], [1.0])
    assert flat.drop_index_levels(inplace=False).dataframe.equals(flat.dataframe)


def _pandas_first_frame(gf, function="mean"):
    """drop_index_levels as pandas' groupby computes it (the reference; np.mean, the default,
    by its name: pandas 2 warns when given the function)."""
    df = gf.dataframe
    key = pd.Index(level_ids(df.index), name="node")
    metrics = [c for c in df.columns if c in set(gf.exc_metrics) | set(gf.inc_metrics)]
    others = [c for c in df.columns if c not in metrics]
    parts = [df.groupby(key, sort=True)[metrics].agg(function),
             df.groupby(key, sort=True)[others].first()]
    return pd.concat(parts, axis=1)[list(df.columns)]


def test_drop_index_levels_first_values_equal_pandas_first_for_every_dtype():
    # taken by position, except where a node's first row is missing (pandas skips those)
    gf = gf_from_edges(["main", "f", "g"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=3)
    df = gf.dataframe.copy()
    n = len(df)
    df["label"] = pd.Series([None, "x", "y", "a", "b", "c", None, None, None],
                            index=df.index, dtype=object)
    df["flag"] = np.arange(n) % 2 == 0
    df["count"] = pd.array([None, 1, 2, 3, None, 5, 6, 7, 8], dtype="Int64")
    df["kind"] = pd.Categorical(["u", "v", "w"] * 3, categories=["w", "v", "u", "unused"])
    df["text"] = pd.Series(["p", "q", "r"] * 3, index=df.index, dtype="string")
    df["when"] = pd.to_datetime(np.arange(n), unit="s")
    gf = replaced(gf, dataframe=df)
    out = gf.drop_index_levels(inplace=False).dataframe
    assert out["label"].tolist() == ["x", "a", None]  # first non-missing value, None if none
    assert out["count"].tolist() == [1, 3, 6]
    pd.testing.assert_frame_equal(out.set_axis(out.index.astype(np.int64)),
                                  _pandas_first_frame(gf), check_exact=True)
    assert list(out.dtypes) == list(df.dtypes)


def test_drop_index_levels_rows_not_sorted_by_node():
    gf = gf_from_edges(["main", "f", "g"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=2)
    df = gf.dataframe.iloc[[5, 0, 3, 1, 4, 2]]
    df = df.assign(name=[f"{v}-{i}" for i, v in enumerate(df["name"])])
    shuffled = replaced(gf, dataframe=df)
    out = shuffled.drop_index_levels(np.max, inplace=False).dataframe
    assert out["name"].tolist() == ["main-1", "f-2", "g-0"]
    pd.testing.assert_frame_equal(out.set_axis(out.index.astype(np.int64)),
                                  _pandas_first_frame(shuffled, "max"), check_exact=True)
    # a node level whose values are not sorted (groups follow the ids, not the codes)
    index = pd.MultiIndex(levels=[[2, 0, 1], [0, 1]], codes=[[1, 1, 2, 2, 0, 0], [0, 1] * 3],
                          names=["node", "rank"])
    unsorted = replaced(gf, dataframe=gf.dataframe.set_axis(index))
    out = unsorted.drop_index_levels(inplace=False).dataframe
    assert unsorted.dataframe.index.levels[0].tolist() == [2, 0, 1]
    assert out.index.tolist() == [0, 1, 2]
    pd.testing.assert_frame_equal(out.set_axis(out.index.astype(np.int64)),
                                  _pandas_first_frame(unsorted), check_exact=True)


def test_drop_index_levels_extension_dtype_metrics_equal_pandas():
    gf = gf_from_edges(["main", "f", "g"], [-1, 0, 0], [1.0, 2.0, 3.0], ranks=3)
    df = gf.dataframe.copy()
    df["time"] = pd.array([1.5, None, 2, 3, 4, None, 6, 7, 8], dtype="Float64")
    df["calls"] = pd.array([None, 1, 2, 3, None, 5, 6, 7, 8], dtype="Int64")
    gf = replaced(gf, dataframe=df, exc_metrics=["time", "calls"])
    for function in ("mean", "max", "sum"):
        out = gf.drop_index_levels(function, inplace=False).dataframe
        pd.testing.assert_frame_equal(out.set_axis(out.index.astype(np.int64)),
                                      _pandas_first_frame(gf, function), check_exact=True)


def module_frame():
    gf = gf_from_edges(["main", "solve", "dot", "io", "write"], [-1, 0, 1, 0, 3],
                       [1.0, 2.0, 4.0, 8.0, 16.0])
    df = gf.dataframe.copy()
    modules = {"main": "app", "solve": "libsolver", "dot": "libsolver", "io": None,
               "write": "libc"}
    df["module"] = df["name"].map(modules)
    return replaced(gf, dataframe=df)


def test_groupby_module_with_missing_keys_builds_super_nodes():
    out = module_frame().groupby_aggregate("module", "sum")
    assert by_name(out) == {"app": 1.0, "libsolver": 6.0, "<missing>": 8.0, "libc": 16.0}
    g = out.graph
    assert [n.frame["name"] for n in g.roots] == ["app"]
    assert dict(g.node(0).frame) == {"name": "app", "type": "module"}
    kids = {n.frame["name"]: sorted(c.frame["name"] for c in n.children) for n in g.traverse()}
    assert kids == {"app": ["<missing>", "libsolver"], "libsolver": [], "<missing>": ["libc"],
                    "libc": []}


def test_groupby_name_and_dict_of_aggregations():
    gf = gf_from_edges(["main", "f", "f"], [-1, 0, 1], [1.0, 2.0, 3.0], ranks=2)
    out = gf.groupby_aggregate("name", {"time": "max"})
    assert out.dataframe.index.names == ["node", "rank"]
    assert out.dataframe.xs(0, level="rank")["time"].tolist() == [1.0, 3.0]
    assert out.graph.num_nodes == 2  # f -> f recursion is a self-loop, dropped


def test_generate_exclusive_columns_inverts_inclusive():
    gf = gf_from_edges(["a", "b", "c", "d"], [-1, 0, 1, 0], [1.0, 2.0, 3.0, 4.0], ranks=2)
    only_inc = replaced(gf, dataframe=gf.dataframe.drop(columns=["time"]), exc_metrics=[],
                           inclusive_of={})
    back = only_inc.generate_exclusive_columns(inplace=False)
    assert back.exc_metrics == ["time"]
    pd.testing.assert_series_equal(back.dataframe["time"], gf.dataframe["time"])
    renamed = replaced(gf, dataframe=gf.dataframe.rename(columns={"time (inc)": "cycles"}),
                          inc_metrics=["cycles"], inclusive_of={})
    out = renamed.generate_exclusive_columns(["cycles"], inplace=False)
    assert out.exc_metrics == ["time", "cycles (exc)"]
    assert out.dataframe["cycles (exc)"].tolist() == gf.dataframe["time"].tolist()


def test_subtree_and_subgraph_sums():
    gf = gf_from_edges(["a", "b", "c"], [-1, 0, 1], [1.0, 2.0, 4.0])
    out = gf.subtree_sum(["time"], ["total"], inplace=False)
    assert out.dataframe["total"].tolist() == [7.0, 6.0, 4.0]
    assert "total" not in gf.dataframe.columns
    dag = gf_from_edges(["a", "b", "c", "d"], [-1, 0, 0, 1], extra=[(2, 3)])
    with pytest.raises(ValueError, match="subgraph_sum"):
        dag.subtree_sum(["time"], inplace=False)
    assert dag.subgraph_sum(["time"], ["t"], inplace=False).dataframe["t"].tolist() == [4.0, 2.0, 1.0, 2.0]
    assert gf.subtree_sum(["time"], function=np.max, inplace=False
                          ).dataframe["time"].tolist() == [4.0, 4.0, 4.0]


def test_inclusive_sums_on_a_mostly_tree_graph_take_linear_memory():
    # 30,000 nodes, one extra edge: the old all-pairs bitsets needed n^2/8 bytes plus
    # a 2048 x n float block (~600 MB); counting reachability towards the one shared
    # node needs a few arrays of n
    import tracemalloc
    from graphframe import GraphFrame, Graph

    n = 30_000
    rng = np.random.default_rng(1)
    parent = np.r_[-1, [rng.integers(max(0, i - 20), i) for i in range(1, n)]]
    attrs = pd.DataFrame({"name": [f"f{i}" for i in range(n)]})
    graph, _ = Graph.build(attrs, parent, ([5], [n - 1]))
    df = pd.DataFrame({"time": np.ones(n), "name": graph.attrs["name"].to_numpy()},
                      index=pd.Index(np.arange(n), name="node"))
    gf = GraphFrame(graph, df, ["time"], [])
    tracemalloc.start()
    out = gf.update_inclusive_columns(inplace=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 40 * 2**20
    inc = out.dataframe["time (inc)"].to_numpy()
    assert inc[0] == n
    assert not graph.is_forest


# ------------------------------------------------------------------ groupby_aggregate
def test_groupby_several_columns_names_groups_by_tuples():
    gf = module_frame()
    df = gf.dataframe.copy()
    df["kind"] = ["a", "b", "b", "a", "a"]  # node order: main io write solve dot
    out = replaced(gf, dataframe=df).groupby_aggregate(["module", "kind"], "sum")
    assert by_name(out) == {("app", "a"): 1.0, ("<missing>", "b"): 8.0, ("libc", "b"): 16.0,
                            ("libsolver", "a"): 6.0}
    assert dict(out.graph.node(0).frame) == {"name": ("app", "a"), "type": "module, kind"}
    kids = {n.frame["name"]: sorted(c.frame["name"] for c in n.children)
            for n in out.graph.traverse()}
    assert kids[("app", "a")] == [("<missing>", "b"), ("libsolver", "a")]
    assert kids[("<missing>", "b")] == [("libc", "b")]


def test_groupby_callable_gets_each_index_label_with_a_node():
    gf = gf_from_edges(["main", "f", "g", "h"], [-1, 0, 0, 1], [1.0, 2.0, 3.0, 4.0], ranks=2)
    labels = []

    def depth_of(label):
        labels.append(label)
        node, rank = label
        return node.depth

    out = gf.groupby_aggregate(depth_of, "sum")
    assert [(int(n), r) for n, r in labels[:3]] == [(0, 0), (0, 1), (1, 0)]
    assert out.dataframe.xs(0, level="rank")["time"].tolist() == [1.0, 5.0, 4.0]
    assert out.dataframe.xs(0, level="rank")["name"].tolist() == [0, 1, 2]
    assert out.graph.node(0).frame["type"] == "depth_of"
    flat = gf_from_edges(["main", "f", "g"], [-1, 0, 0], [1.0, 2.0, 3.0])
    by_first_letter = flat.groupby_aggregate(lambda node: node.frame["name"][0], "sum")
    assert by_name(by_first_letter) == {"m": 1.0, "f": 2.0, "g": 3.0}


def test_groupby_and_aggregation_errors_are_ours():
    from graphframe.errors import MetricError, OperationError
    gf = module_frame()
    with pytest.raises(MetricError, match="no column 'nope'"):
        gf.groupby_aggregate("nope", "sum")
    with pytest.raises(MetricError, match="no column 'nope'"):
        gf.groupby_aggregate(["module", "nope"], "sum")
    with pytest.raises(MetricError, match="no column 'bytes'"):
        gf.groupby_aggregate("module", {"bytes": "sum"})
    with pytest.raises(OperationError, match="cannot aggregate with 'nonsense'"):
        gf.groupby_aggregate("module", "nonsense")
    with pytest.raises(OperationError, match="cannot aggregate with 'nonsense'"):
        gf_from_edges(["a"], [-1], ranks=2).drop_index_levels("nonsense", inplace=False)
    with pytest.raises(OperationError, match="cannot aggregate"):
        gf.drop_index_levels("nonsense", inplace=False)  # even when there is no level to drop


def test_sum_errors_are_ours():
    from graphframe.errors import MetricError, OperationError
    gf = gf_from_edges(["a", "b"], [-1, 0], [1.0, 2.0])
    with pytest.raises(MetricError, match="no column 'nope'"):
        gf.subtree_sum(["nope"], inplace=False)
    with pytest.raises(OperationError, match="'name' holds"):
        gf.subtree_sum(["name"], inplace=False)
    with pytest.raises(OperationError, match="must be callable or a name"):
        gf.subgraph_sum(["time"], function=[np.max], inplace=False)
    with pytest.raises(OperationError, match="unknown aggregation 'median'"):
        gf.subgraph_sum(["time"], function="median", inplace=False)
    with pytest.raises(OperationError, match="out_columns has 2 names for 1 columns"):
        gf.subtree_sum(["time"], ["x", "y"], inplace=False)
    dag = gf_from_edges(["a", "b", "c", "d"], [-1, 0, 0, 1], extra=[(2, 3)])
    with pytest.raises(OperationError, match="use subgraph_sum"):
        dag.subtree_sum(["time"], inplace=False)


# ------------------------------------------------- Hatchet's cpi examples (spec 2.6-2.8)
@pytest.fixture
def cpi(shared_data):
    import graphframe
    return graphframe.read(shared_data / "hpctoolkit" / "hatchet-cpi-database")


def test_cpi_drop_index_levels_matches_hatchet(cpi):
    out = cpi.drop_index_levels(inplace=False)
    assert (len(cpi.dataframe), len(out.dataframe)) == (136, 34)
    assert out.dataframe.index.names == ["node"]
    assert out.dataframe.loc[0, "time (inc)"] == 999560.5
    assert out.dataframe.loc[0, "name"] == cpi.dataframe.loc[(0, 0), "name"]
    assert out.dataframe["time"].sum() == pytest.approx(3998242.0 / 4)
    worst = cpi.drop_index_levels(np.max, inplace=False).dataframe["time (inc)"] / out.dataframe["time (inc)"]
    assert worst.loc[0] == pytest.approx(1000306.0 / 999560.5)  # max / mean over ranks


def test_cpi_generate_exclusive_columns_reproduces_time(cpi):
    only_inc = replaced(cpi, dataframe=cpi.dataframe.drop(columns=["time"]), exc_metrics=[],
                            inclusive_of={})
    back = only_inc.generate_exclusive_columns(inplace=False)
    assert back.exc_metrics == ["time"]
    pd.testing.assert_series_equal(back.dataframe["time"], cpi.dataframe["time"])


def test_cpi_groupby_module_and_module_type(cpi):
    # Hatchet crashes here: statements have no module
    out = cpi.groupby_aggregate("module", "sum")
    module = cpi.dataframe["module"].fillna("<missing>")
    expected = cpi.dataframe.groupby([module, cpi.dataframe.index.get_level_values("rank")])[
        "time"].sum()
    got = out.dataframe.set_index("name", append=True).reset_index("node", drop=True)["time"]
    got = got.reorder_levels(["name", "rank"]).sort_index()
    assert got.to_dict() == expected.to_dict()
    assert out.graph.num_nodes == 6 and len(out.dataframe) == 24
    assert out.dataframe["time"].sum() == 3998242.0
    pairs = cpi.groupby_aggregate(["module", "type"], "sum")
    pairs_df = cpi.dataframe[["module", "type"]]
    distinct = pairs_df.fillna("<missing>").drop_duplicates()
    assert pairs.graph.num_nodes == len(distinct)
    assert set(pairs.dataframe["name"]) == set(map(tuple, distinct.to_numpy().tolist()))
    assert pairs.dataframe["time"].sum() == 3998242.0
