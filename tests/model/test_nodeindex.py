"""The node index level: int64 ids inside, Node objects out (pandas 2.3 and 3.x).

These tests pin what :mod:`graphframe.model.nodeindex` relies on in pandas'
private masked ``IntegerArray``: if a pandas release changes it, they fail
here first, by name.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pandas.core.arrays import IntegerArray

from graphframe import GraphFrame, Node
from graphframe.model.nodeindex import NodeArray, NodeIndex, node_array, with_node_values


@pytest.fixture
def gf():
    g = GraphFrame.from_lists(("main", ("solve", "mpi"), "io"))
    rows = pd.MultiIndex.from_product([range(4), range(2)], names=["node", "rank"])
    df = pd.DataFrame({"time": np.arange(8.0), "name": np.repeat(
        g.graph.attr_values("name"), 2)}, index=rows)
    return GraphFrame(g.graph, df, ["time"], [])


def is_node(value, gf, i):
    return type(value) is Node and value.graph is gf.graph and int(value) == i


def test_pandas_private_masked_array_is_what_the_node_level_builds_on():
    # the private API used: IntegerArray(values, mask), ._data, ._mask, the masked
    # engine chosen by dtype name "Int64", ExtensionDtype.index_class
    arr = IntegerArray(np.array([2, 5], dtype=np.int64), np.zeros(2, dtype=bool))
    assert arr.dtype.name == "Int64" and arr._data.dtype == np.int64 and arr._mask.dtype == bool
    assert pd.Int64Dtype().index_class is pd.Index
    idx = pd.Index(arr)
    assert type(idx._engine).__name__ == "MaskedInt64Engine"


def test_levels_store_int64_and_hand_out_nodes(gf):
    df = gf.dataframe
    level = df.index.levels[0]
    assert type(level) is NodeIndex and isinstance(level.array, NodeArray)
    assert level.array._data.dtype == np.int64 and type(df.index._engine).__name__ != "ObjectEngine"
    values = df.index.get_level_values("node")
    assert is_node(values[0], gf, 0) and is_node(values[-1], gf, 3)
    assert [int(n) for n in values] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert values[2].frame["name"] == "io" and [c.frame["name"] for c in values[0].children] == \
        ["solve", "io"]  # the source's order (Hatchet's children list)
    # numpy conversions hand out Node objects (object arrays), the ids on request
    assert np.asarray(level).dtype == object and is_node(level.to_numpy()[2], gf, 2)
    assert level.to_numpy(dtype=np.int64).tolist() == [0, 1, 2, 3]
    assert all(is_node(n, gf, i) for i, n in zip([0, 0, 1], values.tolist()[:3]))


def test_node_values_survive_pandas_operations(gf):
    df = gf.dataframe
    flat = df.reset_index()
    assert is_node(flat["node"].iloc[4], gf, 2) and flat["node"].dtype.name == "Int64"
    assert is_node(df.groupby(level="node")["time"].sum().index[3], gf, 3)
    assert is_node(flat.groupby("node")["time"].sum().index[1], gf, 1)
    key, rows = next(iter(df.groupby(level="node")))
    assert is_node(key, gf, 0) and len(rows) == 2
    assert is_node(df.xs(1, level="rank").index[2], gf, 2)
    assert is_node(df[df["time"] > 5].index[0][0], gf, 3)
    assert is_node(pd.concat([df, df]).index[9][0], gf, 0)
    assert is_node(df.sort_values("time", ascending=False).index[0][0], gf, 3)
    assert is_node(df.query("time > 6").index[0][0], gf, 3)
    kinds = flat.apply(lambda row: type(row["node"]).__name__, axis=1)
    assert set(kinds) == {"Node"}
    assert is_node(flat["node"].to_numpy(dtype=object)[2], gf, 1)


def test_lookups_by_node_int_and_hand_node_agree(gf):
    df = gf.dataframe
    node = gf.graph.node(2)
    assert df.loc[node, "time"].tolist() == df.loc[2, "time"].tolist() == [4.0, 5.0]
    assert df.loc[(node, 1), "time"] == 5.0
    assert df.loc[[gf.graph.node(3), gf.graph.node(0)], "time"].tolist() == [6.0, 7.0, 0.0, 1.0]
    level = df.index.get_level_values("node")
    assert int(level.isin({gf.graph.node(1)}).sum()) == 2
    assert node in set(level) and len(set(level)) == 4


def test_wrapping_costs_no_row_copy_and_is_idempotent(gf):
    df = gf.dataframe
    assert with_node_values(df, gf.graph) is df
    plain = pd.DataFrame({"time": [1.0, 2.0]}, index=pd.Index([0, 3], name="node"))
    out = with_node_values(plain, gf.graph)
    assert is_node(out.index[1], gf, 3) and plain.index.dtype == np.int64
    other = with_node_values(df, GraphFrame.from_lists(("a", "b", "c", "d")).graph)
    assert other.index[0][0].frame["name"] == "a" and df.index[0][0].frame["name"] == "main"


def test_equality_falls_back_to_plain_ids_and_pickle_keeps_the_graph(gf):
    import pickle
    copy = GraphFrame(gf.graph.copy(), gf.dataframe.copy())
    assert copy.dataframe.equals(gf.dataframe)
    plain = gf.dataframe.set_axis(pd.MultiIndex.from_product(
        [range(4), range(2)], names=["node", "rank"]))
    assert gf.dataframe.equals(plain)
    back = pickle.loads(pickle.dumps(gf.dataframe.index.levels[0].array))
    assert isinstance(back, NodeArray) and back.dtype.graph == gf.graph
    assert back.dtype.graph is not gf.graph and [n.frame["name"] for n in back] == \
        ["main", "io", "solve", "mpi"]


def test_node_array_keeps_missing_values_missing(gf):
    arr = node_array([0, 1], gf.graph)
    arr[1] = pd.NA
    assert is_node(arr[0], gf, 0) and arr[1] is pd.NA and list(arr)[1] is pd.NA


def test_plain_int_index_equals_node_index_both_ways(gf):
    plain = gf.dataframe.set_axis(pd.MultiIndex.from_product(
        [range(4), range(2)], names=["node", "rank"]))
    assert plain.equals(gf.dataframe) and gf.dataframe.equals(plain)
    flat = GraphFrame.from_lists(("a", "b")).dataframe
    assert flat.equals(flat.set_axis(pd.Index([0, 1], name="node")))
    assert flat.set_axis(pd.Index([0, 1], name="node")).equals(flat)
    assert not flat.equals(flat.set_axis(pd.Index([1, 0], name="node")))
