"""timemory tree JSON: call paths, ranks, threads, vector components, errors."""

import io
import json
import warnings

import numpy as np
import pytest

import graphframe_readers
from graphframe import GraphFrame
from graphframe_readers.testing import check_reader
from graphframe_readers import ReadError
from graphframe_readers.timemory import parse_region, parse_timemory, read_timemory


def tnode(prefix, inc, exc, children=(), tid=(0,), pid=(7,), laps=1, hash_=1):
    def stats(v):
        if isinstance(v, list):
            return {"sum": v, "min": v, "max": v, "sqr": v, "mean": v, "stddev": v, "count": laps}
        return {"cereal_class_version": 0, "sum": v, "count": laps, "min": v / 2, "max": v,
                "sqr": v * v, "mean": v / laps, "stddev": 0.0}
    return {"node": {"hash": hash_, "prefix": prefix, "tid": list(tid), "pid": list(pid),
                     "depth": 0, "is_dummy": False,
                     "inclusive": {"entry": {"laps": laps}, "stats": stats(inc)},
                     "exclusive": {"entry": {"laps": laps}, "stats": stats(exc)}},
            "children": list(children)}


def dummy(children):
    return tnode("unknown-hash=0", 0.0, 0.0, children, hash_=0)


def rank_tree(scale, tid=(0,)):
    return [dummy([tnode("main@app.cpp:10", 3.0 * scale, 1.0 * scale, [
        tnode("main@app.cpp:12/loop", 2.0 * scale, 2.0 * scale, tid=tid)], tid=tid)])]


def doc(component, **sections):
    body = {"properties": {"id": component}, "type": component, "unit_repr": "sec",
            "mpi_size": 2}
    body.update(sections)
    return {"timemory": {component.upper(): body}}


def test_mpi_ranks(tmp_path):
    p = tmp_path / "wall.tree.json"
    p.write_text(json.dumps(doc("wall_clock", mpi=[rank_tree(1), rank_tree(2)])))
    assert graphframe_readers.sniff(p) == "timemory"
    gf = GraphFrame.from_timemory(str(p))
    df = gf.dataframe
    assert list(df.index.names) == ["node", "rank"]
    assert list(df.columns[:7]) == ["type", "name", "file", "line", "pid", "count", "thread"]
    assert gf.exc_metrics == ["sum.wall_clock"] and gf.inc_metrics == ["sum.wall_clock (inc)"]
    assert gf.default_metric == "sum.wall_clock"
    assert df["name"].tolist() == ["main", "main", "main/loop", "main/loop"]
    assert df["sum.wall_clock"].tolist() == [1.0, 2.0, 2.0, 4.0]
    assert df["sum.wall_clock (inc)"].tolist() == [3.0, 6.0, 2.0, 4.0]
    assert df["min.wall_clock"].tolist() == [0.5, 1.0, 1.0, 2.0]  # an attribute, not summed
    assert df["file"].tolist() == ["app.cpp"] * 4 and df["line"].tolist() == [10, 10, 12, 12]
    assert gf.graph.num_nodes == 2


def test_aggregated_threads_are_a_column(tmp_path):
    d = doc("wall_clock", mpi=[rank_tree(1, tid=(1, 2)), rank_tree(1, tid=(1, 2))])
    gf = GraphFrame.from_timemory(d)
    assert list(gf.dataframe.index.names) == ["node", "rank"]
    assert gf.dataframe["thread"].tolist()[1:] == ["1,2"] * 3


def test_per_thread_rows_make_a_thread_level():
    trees = [dummy([tnode("main", 3.0, 1.0, tid=(0,))]), dummy([tnode("main", 5.0, 5.0, tid=(1,))])]
    gf = GraphFrame.from_timemory(doc("cpu_clock", graph=[trees]))
    df = gf.dataframe
    assert list(df.index.names) == ["node", "thread"]
    assert df["sum.cpu_clock"].tolist() == [1.0, 5.0]
    assert gf.default_metric == "sum.cpu_clock"


def test_missing_rank_rows_are_zero_for_sums():
    d = doc("wall_clock", mpi=[rank_tree(1), [dummy([tnode("main@app.cpp:10", 1.0, 1.0)])]])
    df = GraphFrame.from_timemory(d).dataframe
    loop = df[df["name"] == "main/loop"]
    assert loop["sum.wall_clock"].tolist() == [2.0, 0.0]
    assert np.isnan(loop["min.wall_clock"].iloc[1]) and loop["count"].tolist() == [1, 0]


def test_vector_component_and_select():
    labels = ["Total cycles", "L2_misses"]
    tree = [dummy([tnode("kernel", [10.0, 3.0], [10.0, 3.0])])]
    d = {"timemory": {"papi_vector": {"type": labels, "graph": [tree]},
                      "wall_clock": {"type": "wall", "graph": [[dummy([tnode("kernel", 1.0, 1.0)])]]}}}
    gf = GraphFrame.from_timemory(d)
    assert gf.exc_metrics == ["sum.Total-cycles", "sum.L2-misses", "sum.wall_clock"]
    assert gf.dataframe["sum.L2-misses (inc)"].tolist() == [3.0]
    only = GraphFrame.from_timemory(d, select=["WALL_CLOCK"])
    assert only.exc_metrics == ["sum.wall_clock"]


def test_stream_and_directory_inputs(tmp_path):
    d = doc("wall_clock", mpi=[rank_tree(1)])
    text = json.dumps(d)
    gf = GraphFrame.from_timemory(io.StringIO(text))
    assert gf.dataframe["sum.wall_clock"].tolist() == [1.0, 2.0]
    (tmp_path / "wall.tree.json").write_text(text)
    (tmp_path / "cpu.tree.json").write_text(json.dumps(doc("cpu_clock", mpi=[rank_tree(3)])))
    both = GraphFrame.read(tmp_path)
    assert both.exc_metrics == ["sum.cpu_clock", "sum.wall_clock"]
    assert both.dataframe["sum.cpu_clock"].tolist() == [3.0, 6.0]


@pytest.mark.parametrize("prefix, expected", [
    ("generate_history@hatchet_tests.cpp:114/outer-loop-0",
     ("generate_history/outer-loop-0", "hatchet_tests.cpp", 114)),
    ("generate_history/do-sleep", ("generate_history/do-sleep", None, None)),
    ("[main][app.py]", ("main", "app.py", None)),
    ("compute   [compute/solver.py:42]", ("compute", "solver.py", 42)),
    ("run:88/tail", ("run/tail", None, 88)),
    ("a/b/c", ("a/c", "b", None)),
])
def test_region_labels(prefix, expected):
    assert parse_region(prefix) == expected


BAD_SUM = tnode("a", 1.0, 1.0)
BAD_SUM["node"]["exclusive"]["stats"]["sum"] = "x"
HUGE_SUM = tnode("a", 1.0, 1.0)
HUGE_SUM["node"]["inclusive"]["stats"]["sum"] = 10**400


@pytest.mark.parametrize("document, position, problem", [
    ([1], "top level", "without a 'timemory' object"),
    ({"timemory": {"wall": 3}}, "timemory.wall", "component 'wall' is a int"),
    ({"timemory": {"wall": {"mpi": {}}}}, "timemory.wall.mpi", "the section is not a list"),
    ({"timemory": {"wall": {"graph": [[{"children": []}]]}}}, "timemory.wall.graph[0][0]",
     "has no 'node' object"),
    ({"timemory": {"wall": {"graph": [[dummy([BAD_SUM])]]}}},
     "timemory.wall.graph[0][0].children[0].node.exclusive.stats", "sum.wall is 'x'"),
    ({"timemory": {"wall": {"graph": [[dummy([tnode("a", 1.0, 1.0, tid=("t",))])]]}}},
     "timemory.wall.graph[0][0].children[0].node.tid", "the id list is ['t']"),
    ({"timemory": {}}, "timemory", "no timed regions"),
    # integers JSON allows but 64 bits cannot hold: errors, not wrapped values
    ({"timemory": {"wall": {"graph": [[dummy([tnode("a", 1.0, 1.0, laps=2**64)])]]}}},
     "timemory.wall.graph[0][0].children[0].node.inclusive.entry",
     "'laps' is 18446744073709551616"),
    ({"timemory": {"wall": {"graph": [[dummy([tnode("a", 1.0, 1.0, pid=(2**64,))])]]}}},
     "timemory.wall.graph[0][0].children[0].node.pid",
     "the id list is [18446744073709551616]"),
    ({"timemory": {"wall": {"graph": [[dummy([tnode("a", 1.0, 1.0, tid=(1, 2**63))])]]}}},
     "timemory.wall.graph[0][0].children[0].node.tid",
     "the id list is [1, 9223372036854775808]"),
    ({"timemory": {"wall": {"graph": [[dummy([HUGE_SUM])]]}}},
     "timemory.wall.graph[0][0].children[0].node.inclusive.stats",
     "sum.wall (1000000"),
    ({"timemory": {"wall": {"mpi_size": "two", "mpi": [rank_tree(1)], "upc": [rank_tree(1)]}}},
     "timemory.wall.mpi_size", "'mpi_size' is 'two'"),
])
def test_wrong_shape(document, position, problem):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning from a silent wrap either
        with pytest.raises(ReadError) as info:
            parse_timemory(document, source="t.json")
    assert info.value.position == position and problem in info.value.problem


def test_largest_laps_and_ids_are_kept_exactly():
    big = 2**63 - 1
    document = {"timemory": {"wall": {"graph": [[dummy([tnode("a", 1.0, 1.0, laps=big,
                                                                 pid=(big,))])]]}}}
    df = GraphFrame.from_timemory(document).dataframe
    assert df["count"].tolist() == [big] and df["pid"].tolist() == [big]


def test_truncated_file(tmp_path):
    p = tmp_path / "wall.tree.json"
    p.write_text(json.dumps(doc("wall_clock", mpi=[rank_tree(1)]))[:200])
    with pytest.raises(ReadError) as info:
        read_timemory(p)
    assert str(p) in str(info.value) and info.value.position.startswith("line 1")


# --------------------------------------------------------------- real data
def test_matches_hatchet(shared_data, reference_facts, tmp_path):
    key = "timemory/hatchet/wall.tree.json"
    facts = reference_facts[key]
    check_reader(shared_data / key, "timemory", tmp_path)
    gf = GraphFrame.from_timemory(str(shared_data / key))
    df = gf.dataframe
    assert gf.graph.num_nodes == facts["graph_nodes"] == 14
    assert len(df) == facts["dataframe_rows"] == 28
    assert int(gf.graph.depth.max()) == facts["max_depth"]
    assert sorted(df.loc[r, "name"].iloc[0] for r in gf.graph.root_ids) == facts["root_names"]
    # Hatchet makes the aggregated thread set "1,2" an index level holding a
    # string (so tree() with the default thread=0 raises KeyError). Each
    # (node, rank) has one row, so we keep rank as the index and "1,2" as the
    # `thread` column.
    assert facts["index_names"] == ["node", "rank", "thread"]
    assert list(df.index.names) == ["node", "rank"]
    assert set(df["thread"]) == set(facts["threads"]["values"]) == {"1,2"}
    # Hatchet declares min/max/mean/stddev/sqr as exclusive/inclusive metrics,
    # so update_inclusive_columns would add up minima; only sums are additive.
    assert gf.exc_metrics == ["sum.wall_clock"] and gf.inc_metrics == ["sum.wall_clock (inc)"]
    assert gf.default_metric == facts["default_metric"]
    for col, value in facts["numeric_sums"].items():
        assert df[col].sum() == pytest.approx(value, rel=1e-12), col
    gf.tree(render_header=False, color=False)  # works with the default rank/thread
