"""GraphFrame construction, copies, JSON, values semantics, from_raw."""

import json
import math

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import Graph, GraphFrame
from graphframe.errors import GraphMismatchError
from graphframe_readers import ProfileBuilder
from tests.helpers import replaced


def ranked_raw():
    b = ProfileBuilder("mem", index_levels=("rank", "thread"))
    main = b.add_node({"name": "main"})
    solve = b.add_node({"name": "solve"}, parent=main)
    io = b.add_node({"name": "io"}, parent=main)
    for rank in (1, 0):
        for thread in (1, 0):
            for node, t in ((main, 1.0), (solve, 4.0), (io, 2.0)):
                b.add_row(node, {"time": t + rank + thread / 10, "label": f"r{rank}"},
                          rank=rank, thread=thread)
    return b.build(exc_metrics=["time"], default_metric="time", metadata={"app": "x"})


def test_from_lists_matches_hatchet():
    gf = GraphFrame.from_lists(("a", ("b", "c", "d"), ("e", "f")))
    assert list(gf.dataframe.columns) == ["time", "name", "time (inc)"]
    assert gf.dataframe["time (inc)"].tolist() == [6.0, 3.0, 1.0, 1.0, 2.0, 1.0]
    assert gf.exc_metrics == ["time"] and gf.inc_metrics == ["time (inc)"]


def test_from_raw_sorts_rows_and_builds_levels():
    gf = GraphFrame.from_raw(ranked_raw())
    df = gf.dataframe
    assert df.index.names == ["node", "rank", "thread"]
    assert df.index.tolist()[:4] == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]
    assert gf.graph.node(1).frame["name"] == "io"  # siblings in frame order
    assert df.loc[(1, 1, 1), "time"] == pytest.approx(3.1)
    assert list(df.columns) == ["time", "label", "name"]
    assert df.index.is_monotonic_increasing
    assert gf.metadata["app"] == "x" and gf.metadata["source"] == "mem"


def test_inclusive_on_three_level_index_works():
    gf = GraphFrame.from_raw(ranked_raw()).update_inclusive_columns(inplace=False)
    assert gf.dataframe.loc[(0, 1, 1), "time (inc)"] == pytest.approx(2.1 + 5.1 + 3.1)
    assert gf.inc_metrics == ["time (inc)"]


def test_metadata_is_never_shared():
    g = Graph.from_lists(("a",))
    df = pd.DataFrame({"time": [1.0]}, index=pd.Index([0], name="node"))
    one, two = GraphFrame(g, df), GraphFrame(g, df)
    one.metadata["x"] = 1
    assert two.metadata == {}
    meta = {"k": [1]}
    three = GraphFrame(g, df, metadata=meta)
    three.metadata["k2"] = 2
    assert meta == {"k": [1]}


def test_constructor_validates():
    g = Graph.from_lists(("a",))
    with pytest.raises(ValueError):
        GraphFrame(None, pd.DataFrame())
    with pytest.raises(GraphMismatchError, match="no 'node' level"):
        GraphFrame(g, pd.DataFrame({"time": [1.0]}))
    with pytest.raises(GraphMismatchError, match="node id 5"):
        GraphFrame(g, pd.DataFrame({"time": [1.0]}, index=pd.Index([5], name="node")))


def test_copy_and_deepcopy_do_not_share_frames_or_lists():
    gf = GraphFrame.from_lists(("a", "b"))
    c = gf.copy()
    c.dataframe.loc[0, "time"] = 99.0
    c.exc_metrics.append("x")
    assert gf.dataframe.loc[0, "time"] == 1.0 and gf.exc_metrics == ["time"]
    d = gf.deepcopy()
    assert d.graph == gf.graph and d.dataframe.equals(gf.dataframe)


def test_update_inclusive_does_not_touch_input():
    gf = GraphFrame.from_lists(("a", "b"))
    df = gf.dataframe.copy()
    df["time"] = [2.0, 3.0]
    base = replaced(gf, dataframe=df)
    new = base.update_inclusive_columns(inplace=False)
    assert new.dataframe["time (inc)"].tolist() == [5.0, 3.0]
    assert base.dataframe["time (inc)"].tolist() == [2.0, 1.0]


def test_inclusive_nan_semantics():
    g = Graph.from_lists(("a", ("b", "c")))
    df = pd.DataFrame({"time": [np.nan, np.nan, np.nan]}, index=pd.Index([0, 1, 2], name="node"))
    gf = GraphFrame(g, df, ["time"], []).update_inclusive_columns(inplace=False)
    assert gf.dataframe["time (inc)"].isna().all()
    df2 = pd.DataFrame({"time": [np.nan, np.nan, 2.0]}, index=pd.Index([0, 1, 2], name="node"))
    gf2 = GraphFrame(g, df2, ["time"], []).update_inclusive_columns(inplace=False)
    assert gf2.dataframe["time (inc)"].tolist() == [2.0, 2.0, 2.0]


def test_dag_inclusive_counts_shared_descendants_once():
    attrs = pd.DataFrame({"name": ["a", "b", "c", "d"]})
    g, _ = Graph.build(attrs, [-1, 0, 0, 1], ([2], [3]))  # diamond
    df = pd.DataFrame({"time": [1.0] * 4}, index=pd.Index(range(4), name="node"))
    gf = GraphFrame(g, df, ["time"], []).update_inclusive_columns(inplace=False)
    by_name = dict(zip(g.attrs["name"], gf.dataframe["time (inc)"]))
    assert by_name == {"a": 4.0, "b": 2.0, "c": 2.0, "d": 1.0}


def test_cycle_inclusive_terminates():
    attrs = pd.DataFrame({"name": ["a", "b", "c"]})
    g, _ = Graph.build(attrs, [-1, 0, 1], ([2], [1]))  # b <-> c
    df = pd.DataFrame({"time": [1.0, 2.0, 4.0]}, index=pd.Index(range(3), name="node"))
    gf = GraphFrame(g, df, ["time"], []).update_inclusive_columns(inplace=False)
    assert gf.dataframe["time (inc)"].tolist() == [7.0, 6.0, 6.0]


def test_json_round_trip_is_lossless():
    gf = GraphFrame.from_raw(ranked_raw()).update_inclusive_columns(inplace=False)
    text = gf.to_json()
    back = GraphFrame.from_json(text)
    assert back.graph == gf.graph
    pd.testing.assert_frame_equal(back.dataframe, gf.dataframe, check_dtype=False)
    assert back.exc_metrics == gf.exc_metrics and back.inc_metrics == gf.inc_metrics
    assert back.metadata == gf.metadata
    doc = json.loads(text)
    assert doc["dataframe_indices"] == ["node", "rank", "thread"]
    assert set(doc["graph"][0]) == {"0", "1", "2"}


def test_json_writes_nan_as_null():
    gf = GraphFrame.from_literal([{"frame": {"name": "a"}, "metrics": {"time": None}}])
    doc = json.loads(gf.to_json())
    assert doc["dataframe"][0]["time"] is None
    back = GraphFrame.from_json(gf.to_json())
    assert math.isnan(back.dataframe["time"].iloc[0])


def test_show_metric_columns_and_repr():
    gf = GraphFrame.from_lists(("a", "b"))
    assert gf.show_metric_columns() == ["time", "time (inc)"]
    assert repr(gf) == "<GraphFrame: 2 nodes (tree), 2 rows; metrics: time, time (inc) [default time]>"


def test_read_function_and_formats():
    assert "literal" in graphframe.formats()
    with pytest.raises(graphframe.ReadError):
        graphframe.read("/definitely/not/here.json")
