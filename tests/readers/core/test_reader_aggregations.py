"""What readers declare about how their columns combine, checked through real merges.

Each input is built here; the merge is a squash that makes two sibling rows one (the
two ``leaf`` nodes under ``main`` once ``foo`` and ``bar`` are filtered out).
"""

import json

import pytest

import graphframe
from graphframe import GraphFrame
from graphframe_readers.dot import parse_dot


def _squash_leaves(gf: GraphFrame) -> GraphFrame:
    """Drop the two middle nodes: the two `leaf` rows meet under `main` and merge."""
    keep = ~gf.dataframe["name"].isin(["foo", "bar"]).to_numpy()
    return gf.filter(keep, squash=True)


def test_caliper_min_max_avg_columns_merge_by_their_own_rule(tmp_path):
    nodes = [{"label": "main", "column": "path"},
             {"label": "foo", "column": "path", "parent": 0},
             {"label": "bar", "column": "path", "parent": 0},
             {"label": "leaf", "column": "path", "parent": 1},
             {"label": "leaf", "column": "path", "parent": 2}]
    columns = ["path", "sum#time.duration", "min#time.duration", "max#time.duration",
               "avg#time.duration"]
    meta = [{"is_value": False}] + [{"is_value": True}] * 4
    data = [[0, 1.0, 1.0, 1.0, 1.0], [1, 1.0, 1.0, 1.0, 1.0], [2, 1.0, 1.0, 1.0, 1.0],
            [3, 2.0, 0.5, 1.5, 1.0], [4, 6.0, 2.0, 4.0, 3.0]]
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"data": data, "columns": columns, "column_metadata": meta,
                                "nodes": nodes}))
    gf = graphframe.read(path)
    assert gf.aggregations == {"min#time.duration": "min", "max#time.duration": "max",
                               "avg#time.duration": "mean"}
    out = _squash_leaves(gf)
    leaf = out.dataframe[out.dataframe["name"] == "leaf"]
    assert len(leaf) == 1
    row = leaf.iloc[0]
    assert row["time"] == 8.0                  # summed
    assert row["min#time.duration"] == 0.5     # the smaller minimum, not 2.5
    assert row["max#time.duration"] == 4.0     # the larger maximum, not 5.5
    assert row["avg#time.duration"] == 2.0     # a mean, not 4.0
    # only summed metrics get an inclusive partner
    assert set(out.update_inclusive_columns(inplace=False).inc_metrics) == {"time (inc)"}


def test_dot_call_counts_add_up_when_nodes_merge():
    text = ("digraph {\n"
            '\tmain [label="main\\n100.00%\\n(10.00%)\\n1\\xd7"];\n'
            '\tfoo [label="foo\\n40.00%\\n(10.00%)\\n2\\xd7"];\n'
            '\tbar [label="bar\\n50.00%\\n(10.00%)\\n3\\xd7"];\n'
            '\tleafa [label="leaf\\n30.00%\\n(30.00%)\\n4\\xd7"];\n'
            '\tleafb [label="leaf\\n40.00%\\n(40.00%)\\n5\\xd7"];\n'
            '\tmain -> foo [label="40.00%\\n2\\xd7"];\n'
            '\tmain -> bar [label="50.00%\\n3\\xd7"];\n'
            '\tfoo -> leafa [label="30.00%\\n4\\xd7"];\n'
            '\tbar -> leafb [label="40.00%\\n5\\xd7"];\n'
            "}\n").replace("\\xd7", "\u00d7")
    gf = GraphFrame.from_raw(parse_dot(text, "t.dot"))
    assert gf.aggregations == {"calls": "sum"}
    out = _squash_leaves(gf)
    leaf = out.dataframe[out.dataframe["name"] == "leaf"].iloc[0]
    assert leaf["calls"] == 9
    assert leaf["time"] == pytest.approx(70.0)


def test_cprofile_counts_are_declared_as_sums(tmp_path):
    import cProfile

    def work(n):
        return sum(i * i for i in range(n))

    prof = cProfile.Profile()
    prof.runcall(work, 1000)
    path = tmp_path / "p.pstats"
    prof.dump_stats(str(path))
    gf = graphframe.read(path)
    assert gf.aggregations == {"numcalls": "sum", "nativecalls": "sum"}


def test_tau_counts_are_declared_as_sums(shared_data):
    gf = graphframe.read(shared_data / "tau" / "hatchet-tau-cpi-mpi")
    assert gf.aggregations == {"Calls": "sum", "Subrs": "sum"}


def test_timemory_statistics_merge_by_their_prefix():
    from tests.readers.timemory.test_timemory import doc, dummy, tnode

    tree = [dummy([tnode("main", 10.0, 1.0, hash_=2, children=[
        tnode("foo", 3.0, 1.0, hash_=3, children=[tnode("leaf", 2.0, 2.0, hash_=5)]),
        tnode("bar", 7.0, 1.0, hash_=4, children=[tnode("leaf", 6.0, 6.0, hash_=6)])])])]
    gf = GraphFrame.from_timemory(doc("wall_clock", graph=tree))
    agg = gf.aggregations
    assert agg["count"] == "sum"
    assert {k: agg[k] for k in ("min.wall_clock", "max.wall_clock", "mean.wall_clock",
                                "sqr.wall_clock")} == {
        "min.wall_clock": "min", "max.wall_clock": "max", "mean.wall_clock": "mean",
        "sqr.wall_clock": "sum"}
    assert not any(k.startswith("stddev.") for k in agg)  # no exact rule: first value
    out = _squash_leaves(gf)
    leaf = out.dataframe[out.dataframe["name"] == "leaf"]
    assert len(leaf) == 1
    row = leaf.iloc[0]
    # the two leaves: exclusive 2 and 6 (min = value / 2, sqr = value ** 2, one lap each)
    assert (row["sum.wall_clock"], row["count"]) == (8.0, 2)
    assert (row["min.wall_clock"], row["max.wall_clock"]) == (1.0, 6.0)
    assert (row["sqr.wall_clock"], row["mean.wall_clock"]) == (40.0, 4.0)
