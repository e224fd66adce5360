"""GraphFrame.from_perfflowaspect and GraphFrame.from_spotdb, with Hatchet 2026.2.0's results."""

import contextlib
import io
import json
import sys
import types

import numpy as np
import pytest

from graphframe import GraphFrame, ReadError

# PerfFlowAspect's compact form: X events written as calls end, the array left open
COMPACT = """[
{"name": "bar", "cat": "foo.py", "pid": 1000, "tid": 1000, "ts": 20.0, "dur": 30.0, "ph": "X"},
{"name": "baz", "cat": "foo.py", "pid": 1000, "tid": 1000, "ts": 60.0, "dur": 10.0, "ph": "X"},
{"name": "foo", "cat": "foo.py", "pid": 1000, "tid": 1000, "ts": 10.0, "dur": 80.0, "ph": "X"},
{"name": "main", "cat": "foo.py", "pid": 1000, "tid": 1000, "ts": 5.0, "dur": 100.0, "ph": "X"},
"""
# the verbose form: B/E pairs
VERBOSE = "[\n" + ",\n".join(json.dumps(e) for e in [
    {"name": "main", "pid": 1000, "tid": 1000, "ts": 5.0, "ph": "B"},
    {"name": "foo", "pid": 1000, "tid": 1000, "ts": 10.0, "ph": "B"},
    {"name": "bar", "pid": 1000, "tid": 1000, "ts": 20.0, "ph": "B"},
    {"name": "bar", "pid": 1000, "tid": 1000, "ts": 50.0, "ph": "E"},
    {"name": "foo", "pid": 1000, "tid": 1000, "ts": 90.0, "ph": "E"},
    {"name": "main", "pid": 1000, "tid": 1000, "ts": 105.0, "ph": "E"}]) + "\n]\n"
COUNTERS = json.dumps({"traceEvents": [
    {"name": "bar", "pid": 1000, "tid": 1000, "ts": 20.0, "dur": 30.0, "ph": "X"},
    {"name": "usage", "pid": 1000, "tid": 1000, "ts": 20.0, "ph": "C",
     "args": {"memory_usage": 2048, "cpu_usage": 12.5}},
    {"name": "foo", "pid": 1000, "tid": 1000, "ts": 10.0, "dur": 80.0, "ph": "X"},
    {"name": "usage", "pid": 1000, "tid": 1000, "ts": 10.0, "ph": "C",
     "args": {"memory_usage": 1024, "cpu_usage": 0.0}},
    {"name": "usage", "pid": 1000, "tid": 1000, "ts": 11.0, "ph": "C",
     "args": {"memory_usage": 0, "cpu_usage": 0.0}}], "displayTimeUnit": "us"})


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def names(gf):
    return [n.frame["name"] for n in gf.graph.traverse()]


def test_compact_trace(tmp_path):
    gf = GraphFrame.from_perfflowaspect(write(tmp_path, "c.pfw", COMPACT))
    df = gf.dataframe
    # siblings by frame, as in Hatchet: {dur, name, ts, type} compares dur first
    assert names(gf) == ["main", "foo", "baz", "bar"]
    assert list(df.columns) == ["name", "ts", "dur", "pid", "tid", "ph"]
    assert df["name"].tolist() == ["main", "foo", "baz", "bar"]
    assert df["ts"].tolist() == [5.0 * 1e-6, 10.0 * 1e-6, 60.0 * 1e-6, 20.0 * 1e-6]
    assert df["dur"].tolist() == [100.0 * 1e-6, 80.0 * 1e-6, 10.0 * 1e-6, 30.0 * 1e-6]
    assert df["pid"].tolist() == [1000] * 4 and df["ph"].tolist() == ["X"] * 4
    assert dict(gf.graph.node(0).frame) == {"name": "main", "type": "function",
                                            "ts": 5.0 * 1e-6, "dur": 100.0 * 1e-6}
    assert (gf.exc_metrics, gf.inc_metrics, gf.default_metric) == ([], ["dur"], "dur")
    gf.generate_exclusive_columns()  # self time of each call
    assert [round(v * 1e6, 9) for v in gf.dataframe["dur (exc)"]] == [20.0, 40.0, 10.0, 30.0]


def test_verbose_trace_pairs_begin_and_end(tmp_path):
    gf = GraphFrame.from_perfflowaspect(write(tmp_path, "v.pfw", VERBOSE))
    assert names(gf) == ["main", "foo", "bar"]
    assert gf.dataframe["dur"].tolist() == [100.0 * 1e-6, 80.0 * 1e-6, 30.0 * 1e-6]
    assert gf.dataframe["ph"].tolist() == ["X"] * 3


def test_counters(tmp_path):
    path = write(tmp_path, "u.pfw", COUNTERS)
    gf = GraphFrame.from_perfflowaspect(path, scan_cpu_mem=True)
    df = gf.dataframe
    assert list(df.columns) == ["name", "ts", "dur", "pid", "tid", "ph", "usage_memory",
                                "usage_cpu"]
    assert df["usage_memory"].tolist() == [1024, 2048]
    assert df["usage_cpu"].tolist() == [0.0, 12.5]
    assert gf.graph.node(1).frame["usage_memory"] == 2048
    assert "usage_cpu" not in GraphFrame.from_perfflowaspect(path).dataframe.columns
    with pytest.raises(ReadError, match="no counter") as info:
        GraphFrame.from_perfflowaspect(write(tmp_path, "c.pfw", COMPACT), scan_cpu_mem=True)
    assert info.value.source.endswith("c.pfw")


def test_calls_nest_per_thread(tmp_path):
    events = [{"name": "work", "pid": 1, "tid": 2, "ts": 2, "dur": 5, "ph": "X"},
              {"name": "main", "pid": 1, "tid": 1, "ts": 0, "dur": 10, "ph": "X"},
              # starts with its parent: still inside it (Hatchet: a root of its own)
              {"name": "init", "pid": 1, "tid": 1, "ts": 0, "dur": 3, "ph": "X"}]
    gf = GraphFrame.from_perfflowaspect(write(tmp_path, "t.pfw", json.dumps(events)))
    parents = {n.frame["name"]: [p.frame["name"] for p in n.parents]
               for n in gf.graph.traverse()}
    assert parents == {"main": [], "init": ["main"], "work": []}


def test_bad_trace_is_a_located_read_error(tmp_path):
    with pytest.raises(ReadError) as info:
        GraphFrame.from_perfflowaspect(write(tmp_path, "bad.pfw", '[{"name": "a", "ph": "X", '
                                             '"pid": 1, "tid": 1, "ts": "x", "dur": 1}]'))
    assert info.value.source.endswith("bad.pfw") and info.value.position is not None


# ------------------------------------------------------------------ SpotDB
class FakeSpotDB:
    """The four methods Hatchet's reader calls, over two runs."""

    def get_all_run_ids(self):
        return ["r1", "r2"]

    def get_regionprofiles(self, runs):
        profiles = {
            "r1": {"main": {"sum#inclusive#sum#time.duration": "5.5", "region.count": "1",
                            "phase": "all"},
                   "main/solve/kernel": {"sum#inclusive#sum#time.duration": "2.0",
                                         "region.count": "3", "phase": "compute"},
                   "main/io": {"sum#inclusive#sum#time.duration": "1.5",
                               "region.count": "2", "phase": "io"}},
            "r2": {"main": {"sum#inclusive#sum#time.duration": "4.0", "region.count": "1"}}}
        return {r: profiles[r] for r in runs if r in profiles}

    def get_global_data(self, runs):
        return {r: {"launchdate": 1234, "cluster": "quartz"} for r in runs}

    def get_metric_attribute_metadata(self):
        return {"sum#inclusive#sum#time.duration": {"alias": "Total time", "type": "double"},
                "region.count": {"type": "int"}}


def test_spotdb_runs():
    first, second = GraphFrame.from_spotdb(FakeSpotDB())
    df = first.dataframe
    assert names(first) == ["main", "io", "solve", "kernel"]
    assert list(df.columns) == ["name", "Total time (inc)", "region.count", "phase"]
    assert df["Total time (inc)"].tolist() == [5.5, 1.5, 0.0, 2.0]  # solve: no region
    assert df["region.count"].tolist() == [1, 2, 0, 3] and df["region.count"].dtype == np.int64
    assert df["phase"].tolist() == ["all", "io", None, "compute"]
    assert (first.exc_metrics, first.inc_metrics) == (["region.count"], ["Total time (inc)"])
    assert first.default_metric == "Total time (inc)"
    assert first.metadata["cluster"] == "quartz" and first.metadata["launchdate"] == 1234
    assert second.dataframe["Total time (inc)"].tolist() == [4.0]
    only = GraphFrame.from_spotdb(FakeSpotDB(), ["r2", "nope"])
    assert len(only) == 1 and only[0].dataframe["name"].tolist() == ["main"]


def test_spotdb_locator_needs_the_package(tmp_path):
    try:
        import spotdb  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("the spotdb package is installed here")
    with pytest.raises(ReadError, match="needs the optional 'spotdb' package") as info:
        GraphFrame.from_spotdb(str(tmp_path))
    assert "not on PyPI" in str(info.value) and info.value.source == str(tmp_path)
    with pytest.raises(ReadError, match="not a SpotDB locator"):
        GraphFrame.from_spotdb(42)


def test_spotdb_bad_values_are_read_errors():
    class Bad(FakeSpotDB):
        def get_regionprofiles(self, runs):
            return {"r1": {"main": {"region.count": "many"}}}
    with pytest.raises(ReadError, match="'region.count' is 'many'") as info:
        GraphFrame.from_spotdb(Bad(), ["r1"])
    assert info.value.position == "region 'main'"


# ------------------------------------------------------------ side by side
@pytest.fixture(scope="module")
def hatchet():
    return pytest.importorskip("hatchet", reason="the side-by-side checks run Hatchet "
                               "2026.2.0 (the bench extra, pandas 2)")


@pytest.mark.parametrize("text, options", [(COMPACT, {}), (VERBOSE, {}),
                                           (COUNTERS, {"scan_cpu_mem": True})])
def test_perfflowaspect_as_hatchet(hatchet, tmp_path, text, options):
    path = write(tmp_path, "t.pfw", text)
    with contextlib.redirect_stdout(io.StringIO()):  # Hatchet prints a line per call
        theirs = hatchet.GraphFrame.from_perfflowaspect(path, **options)
    ours = GraphFrame.from_perfflowaspect(path, **options)
    assert [n.frame.attrs for n in theirs.graph.traverse()] == \
        [dict(n.frame) for n in ours.graph.traverse()]
    t, o = theirs.dataframe.reset_index(drop=True), ours.dataframe.reset_index(drop=True)
    assert list(o.columns) == list(t.columns)
    for column in t.columns:
        assert o[column].tolist() == t[column].tolist(), column
    assert ours.tree(metric_column="dur", render_header=False) == \
        theirs.tree(metric_column="dur", render_header=False)


def test_spotdb_as_hatchet(hatchet, monkeypatch):
    # Hatchet imports spotdb even for a SpotDB object, which it then uses as is
    monkeypatch.setitem(sys.modules, "spotdb", types.ModuleType("spotdb"))
    theirs = hatchet.GraphFrame.from_spotdb(FakeSpotDB())
    ours = GraphFrame.from_spotdb(FakeSpotDB())
    assert len(theirs) == len(ours) == 2
    for t, o in zip(theirs, ours):
        assert [n.frame.attrs for n in t.graph.traverse()] == \
            [dict(n.frame) for n in o.graph.traverse()]
        assert t.default_metric == o.default_metric and t.metadata == {
            k: v for k, v in o.metadata.items() if k not in ("format", "source")}
        # Hatchet gives a path prefix without a region (solve) no row, here it has one;
        # Hatchet's rows are in the regions' order, ours in node order
        rows = o.dataframe[o.dataframe["name"].isin(t.dataframe["name"])]
        rows = rows.set_index("name").loc[t.dataframe["name"].tolist()]
        assert list(o.dataframe.columns) == list(t.dataframe.columns)
        for column in t.dataframe.columns[1:]:
            assert rows[column].tolist() == t.dataframe[column].tolist(), column
            assert rows[column].dtype == t.dataframe[column].dtype or column == "phase"
