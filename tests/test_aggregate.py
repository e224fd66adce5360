"""drop_index_levels, groupby_aggregate, exclusive columns, subtree sums."""

import numpy as np
import pandas as pd
import pytest


from helpers import by_name, gf_from_edges


def test_drop_index_levels_mean_max_and_attributes():
    gf = gf_from_edges(["main", "f"], [-1, 0], [1.0, 2.0], ranks=4)
    mean = gf.drop_index_levels()
    assert mean.dataframe.index.names == ["node"]
    assert mean.dataframe["time"].tolist() == [16.0, 17.0]
    assert mean.dataframe["name"].tolist() == ["main", "f"]
    assert gf.drop_index_levels(np.max).dataframe["time"].tolist() == [31.0, 32.0]
    assert gf.dataframe.index.names == ["node", "rank"]  # input untouched
    imbalance = gf.drop_index_levels(np.max).dataframe["time"] / mean.dataframe["time"]
    assert imbalance.round(4).tolist() == [1.9375, 1.8824]


def test_drop_index_levels_three_levels_and_noop():
    gf = gf_from_edges(["main"], [-1], [1.0], ranks=2, threads=2)
    assert gf.drop_index_levels(np.sum).dataframe["time"].tolist() == [4 + 20 + 200]
    flat = gf_from_edges(["main"], [-1], [1.0])
    assert flat.drop_index_levels().dataframe.equals(flat.dataframe)


def module_frame():
    gf = gf_from_edges(["main", "solve", "dot", "io", "write"], [-1, 0, 1, 0, 3],
                       [1.0, 2.0, 4.0, 8.0, 16.0])
    df = gf.dataframe.copy()
    modules = {"main": "app", "solve": "libsolver", "dot": "libsolver", "io": None,
               "write": "libc"}
    df["module"] = df["name"].map(modules)
    return gf._replace(dataframe=df)


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
    only_inc = gf._replace(dataframe=gf.dataframe.drop(columns=["time"]), exc_metrics=[],
                           inclusive_of={})
    back = only_inc.generate_exclusive_columns()
    assert back.exc_metrics == ["time"]
    pd.testing.assert_series_equal(back.dataframe["time"], gf.dataframe["time"])
    renamed = gf._replace(dataframe=gf.dataframe.rename(columns={"time (inc)": "cycles"}),
                          inc_metrics=["cycles"], inclusive_of={})
    out = renamed.generate_exclusive_columns(["cycles"])
    assert out.exc_metrics == ["time", "cycles (exc)"]
    assert out.dataframe["cycles (exc)"].tolist() == gf.dataframe["time"].tolist()


def test_subtree_and_subgraph_sums():
    gf = gf_from_edges(["a", "b", "c"], [-1, 0, 1], [1.0, 2.0, 4.0])
    out = gf.subtree_sum(["time"], ["total"])
    assert out.dataframe["total"].tolist() == [7.0, 6.0, 4.0]
    assert "total" not in gf.dataframe.columns
    dag = gf_from_edges(["a", "b", "c", "d"], [-1, 0, 0, 1], extra=[(2, 3)])
    with pytest.raises(ValueError, match="subgraph_sum"):
        dag.subtree_sum(["time"])
    assert dag.subgraph_sum(["time"], ["t"]).dataframe["t"].tolist() == [4.0, 2.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="only summation"):
        gf.subtree_sum(["time"], function=np.max)


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
    out = gf.update_inclusive_columns()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 40 * 2**20
    inc = out.dataframe["time (inc)"].to_numpy()
    assert inc[0] == n
    assert not graph.is_forest
