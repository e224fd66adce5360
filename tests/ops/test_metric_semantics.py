"""Declared aggregations (RawProfile.aggregations / gf.aggregations): how columns combine
when rows merge, which metrics get inclusive partners, and that the declarations travel."""

import numpy as np
import pandas as pd
import pytest

from graphframe import GraphFrame
from graphframe.errors import MetricError, OperationError, ProfileError
from graphframe_readers import ProfileBuilder, RawProfile

from tests.helpers import by_name, names_preorder, replaced

DECLARED = {"max#time": "max", "min#time": "min", "avg#time": "mean", "calls": "sum"}


def profile(aggregations=DECLARED, ranks=0):
    """main -> {p -> x, q -> x}; every x row differs so merges are visible."""
    b = ProfileBuilder("hand-built", index_levels=("rank",) if ranks else ())
    names = ["main", "p", "x", "q", "x"]
    parent = [-1, 0, 1, 0, 3]
    for i, (name, par) in enumerate(zip(names, parent)):
        b.add_node({"name": name, "type": "function"}, parent=par, node_id=i)
    rows = {0: (1.0, 1.0, 1.0, 1.0, 1, 10), 1: (2.0, 2.0, 2.0, 2.0, 1, 20),
            2: (4.0, 4.0, 4.0, 4.0, 3, 30), 3: (8.0, 8.0, 8.0, 8.0, 1, 40),
            4: (16.0, 16.0, 16.0, 16.0, 5, 50)}
    for node, (t, mx, mn, avg, calls, line) in rows.items():
        for r in range(max(ranks, 1)):
            lv = {"rank": r} if ranks else {}
            b.add_row(node, {"time": t + r, "max#time": mx + r, "min#time": mn + r,
                             "avg#time": avg + r, "calls": calls, "line": line + r}, **lv)
    raw = b.build(exc_metrics=["time", "max#time", "min#time", "avg#time", "calls"],
                  default_metric="time", aggregations=aggregations)
    return GraphFrame.from_raw(raw)


def test_declarations_reach_the_graphframe_as_a_fresh_dict():
    gf = profile()
    assert gf.aggregations == DECLARED
    got = gf.aggregations
    got["time"] = "max"
    assert gf.aggregations == DECLARED
    assert gf.aggregations is not gf.aggregations
    assert profile(aggregations=None).aggregations == {}


def test_squash_merges_rows_by_each_columns_aggregation():
    gf = profile().update_inclusive_columns(inplace=False)
    out = gf.filter(gf.dataframe["name"].isin(["main", "x"]))
    assert names_preorder(out) == ["main", "x"]
    x = out.dataframe.loc[1]
    assert x["time"] == 20.0           # default for metrics: sum
    assert x["max#time"] == 16.0 and x["min#time"] == 4.0 and x["avg#time"] == 10.0
    assert x["calls"] == 8             # declared sum, integer kept
    assert x["line"] == 30             # attribute: first value
    assert x["time (inc)"] == 20.0 and out.dataframe.loc[0, "time (inc)"] == 21.0
    assert out.aggregations == DECLARED


def test_only_summed_metrics_get_inclusive_partners():
    gf = profile().update_inclusive_columns(inplace=False)
    assert gf.inc_metrics == ["time (inc)", "calls (inc)"]
    assert gf.inclusive_of == {"time": "time (inc)", "calls": "calls (inc)"}
    assert "max#time (inc)" not in gf.dataframe.columns
    assert by_name(gf.squash(), "calls (inc)")["main"] == 11
    # generate_exclusive_columns skips inclusive metrics that are not summed
    peak = gf.dataframe.rename(columns={"max#time": "peak (inc)"})
    inc_only = replaced(gf, dataframe=peak, exc_metrics=["time", "calls"],
                           inc_metrics=["time (inc)", "calls (inc)", "peak (inc)"],
                           aggregations={"peak (inc)": "max"})
    out = inc_only.generate_exclusive_columns(inplace=False)
    assert "peak" not in out.dataframe.columns and out.exc_metrics == ["time", "calls"]
    out2 = replaced(inc_only, aggregations={}).generate_exclusive_columns(inplace=False)
    assert "peak" in out2.dataframe.columns


def test_unify_merges_rows_of_one_operand_by_the_rules():
    # b shares one x between p and q: a's two x rows merge into it
    left = profile()
    bb = ProfileBuilder("right")
    for i, (name, par) in enumerate(zip(["main", "p", "q", "x"], [-1, 0, 0, 1])):
        bb.add_node({"name": name, "type": "function"}, parent=par, node_id=i)
    bb.add_edge(2, 3)
    for i in range(4):
        bb.add_row(i, {"time": 100.0, "max#time": 100.0})
    right = GraphFrame.from_raw(bb.build(exc_metrics=["time", "max#time"],
                                         aggregations={"max#time": "max"}))
    ul, ur = left.unify(right, inplace=False)
    x = ul.dataframe[ul.dataframe["name"] == "x"].iloc[0]
    assert (x["time"], x["max#time"], x["min#time"], x["avg#time"]) == (20.0, 16.0, 4.0, 10.0)
    assert ul.aggregations == DECLARED and ur.aggregations == {"max#time": "max"}
    diff = right.sub(left, fill_value=0)
    assert by_name(diff, "max#time")["x"] == 100.0 - 16.0
    assert diff.aggregations == {"max#time": "max", "min#time": "min", "avg#time": "mean",
                                 "calls": "sum"}


def test_declarations_travel_through_operations_copies_json_and_archives(tmp_path):
    gf = profile(ranks=2)
    results = [gf.copy(), gf.deepcopy(), gf.filter(np.ones(len(gf.dataframe), dtype=bool)),
               gf.squash(), gf.update_inclusive_columns(inplace=False), gf.generate_exclusive_columns(inplace=False),
               gf.drop_index_levels(inplace=False), gf.unify(gf, inplace=False)[0], gf - gf, gf.sub(gf, fill_value=0),
               gf.subgraph_sum(["time"], ["t"], inplace=False), GraphFrame.from_json(gf.to_json()),
               GraphFrame.load(gf.save(tmp_path / "x.gfz"))]
    for out in results:
        assert out.aggregations == DECLARED
    grouped = gf.groupby_aggregate("name", "max")
    assert grouped.aggregations == DECLARED  # the metric columns survive; line is dropped
    assert "aggregations" not in profile(aggregations=None).to_dict()


@pytest.mark.parametrize("aggregations, match", [
    ({"nope": "max"}, "'nope', which is not a column"),
    ({"rank": "max"}, "'rank', which is not a column"),
    ({"max#time": "median"}, "unknown aggregation 'median'"),
    ({"name": "sum"}, "aggregation 'sum' for the non-numeric column 'name'"),
])
def test_raw_profile_rejects_bad_declarations(aggregations, match):
    b = ProfileBuilder("bad.json", index_levels=("rank",))
    b.add_node({"name": "main"})
    b.add_row(0, {"max#time": 1.0, "name": "main"}, rank=0)
    with pytest.raises(ProfileError, match=match) as info:
        b.build(exc_metrics=["max#time"], aggregations=aggregations)
    assert "bad.json" in str(info.value)


def test_graphframe_rejects_bad_declarations():
    gf = profile()
    parts = dict(graph=gf.graph, dataframe=gf.dataframe, exc_metrics=gf.exc_metrics)
    with pytest.raises(MetricError, match="'nope', which is not a column"):
        GraphFrame(**parts, aggregations={"nope": "sum"})
    with pytest.raises(OperationError, match="unknown aggregation 'median'"):
        GraphFrame(**parts, aggregations={"time": "median"})
    with pytest.raises(OperationError, match="'name', which holds"):
        GraphFrame(**parts, aggregations={"name": "mean"})
    with pytest.raises(OperationError, match="must be a mapping"):
        GraphFrame(**parts, aggregations=["time"])
    assert GraphFrame(**parts, aggregations={"name": "max"}).aggregations == {"name": "max"}


def test_raw_profile_field_defaults_to_no_declarations():
    raw = RawProfile(nodes=pd.DataFrame({"node": [0], "parent": [-1], "name": ["main"]}),
                     metrics=pd.DataFrame({"node": [0], "time": [1.0]}), exc_metrics=("time",))
    assert raw.aggregations == {} and raw.validate("x").validated


def test_generated_exclusive_partner_of_the_default_metric_becomes_the_default():
    # Hatchet's default metric is "time": a literal with inclusive metrics only,
    # after generate_exclusive_columns(), prints time (Hatchet 2024.1.3: 1.000 main,
    # 2.000 solve). We read it with default "time (inc)" (so tree() prints something
    # before), and the generated "time" takes over.
    gf = GraphFrame.from_literal([{"frame": {"name": "main", "type": "function"},
                                   "metrics": {"time (inc)": 3.0, "bytes (inc)": 9.0},
                                   "children": [{"frame": {"name": "solve", "type": "function"},
                                                 "metrics": {"time (inc)": 2.0,
                                                             "bytes (inc)": 4.0}}]}])
    assert gf.default_metric == "time (inc)"
    gf.generate_exclusive_columns()
    assert gf.default_metric == "time" and gf.exc_metrics == ["time", "bytes"]
    assert gf.tree(render_header=False, color=False).splitlines()[:2] == ["1.000 main",
                                                                         "└─ 2.000 solve"]
    chosen = GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {
        "time (inc)": 3.0, "bytes (inc)": 9.0}}])
    chosen.default_metric = "bytes (inc)"
    assert chosen.generate_exclusive_columns(inplace=False).default_metric == "bytes"
    kept = GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {
        "time": 1.0, "time (inc)": 3.0, "bytes (inc)": 9.0}}])
    assert kept.generate_exclusive_columns(inplace=False).default_metric == "time"
