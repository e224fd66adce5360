"""Ensemble composition and operations on inputs built here."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from graphframe import Ensemble, GraphFrame
from graphframe.errors import ArgumentError, EmptyFilter, GraphframeError


def gf(*lists, scale=1.0):
    g = GraphFrame.from_lists(*lists)
    df = g.dataframe.copy()
    df["time"] = df["time"] * scale
    return GraphFrame(g.graph, df, ["time"], [], "time").update_inclusive_columns(inplace=False)


@pytest.fixture
def three():
    return Ensemble.from_graphframes(
        [gf(("main", ("solve", "mpi"), "io")), gf(("main", ("solve", "mpi", "blas")), scale=2),
         gf(("main", "io"), scale=3)],
        metadata={"cc": ["gcc", "icc", "gcc"], "size": [1, 2, 4]})


def test_union_ids_in_preorder_and_sparse_rows(three):
    g = three.graph
    names = [g.frame(i)["name"] for i in range(g.num_nodes)]
    assert names == ["main", "io", "solve", "blas", "mpi"]
    assert g.parent.tolist() == [-1, 0, 0, 2, 2]
    rows = three.dataframe.index.tolist()
    assert rows == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (3, 1),
                    (4, 0), (4, 1)]
    assert three.dataframe.loc[(2, 1), "time (inc)"] == 6.0
    assert three.profiles["nodes"].tolist() == [4, 4, 2]


def test_dense_fills_missing_rows_with_nan_and_names(three):
    d = three.dense().dataframe
    assert len(d) == 15
    assert np.isnan(d.loc[(3, 0), "time"]) and d.loc[(3, 0), "name"] == "blas"


def test_filters_renumber_profiles_and_keep_graph(three):
    out = three.filter_metadata(lambda row: row["cc"] == "gcc")
    assert out.profiles.index.tolist() == [0, 1] and out.metadata["size"].tolist() == [1, 4]
    assert out.graph is three.graph
    assert sorted(set(out.dataframe.index.get_level_values("profile"))) == [0, 1]
    assert three.num_profiles == 3  # the input is unchanged
    assert three.filter_profile([2]).dataframe["time"].tolist() == [3.0, 3.0]
    with pytest.raises(EmptyFilter):
        three.filter_metadata("size > 10")
    with pytest.raises(ArgumentError):
        three.filter_profile([7])


def test_intersection_and_squash(three):
    inter = three.intersection()
    assert inter.graph.num_nodes == 1 and len(inter.dataframe) == 3
    # main's inclusive time is recomputed from exclusive time of the kept nodes
    assert inter.dataframe["time (inc)"].tolist() == [1.0, 2.0, 3.0]
    sub = three.filter_profile([0, 2]).squash()
    assert sub.graph.num_nodes == 4


def test_groupby_agg_one_profile_per_group(three):
    groups = three.groupby("cc")
    assert list(groups) == ["gcc", "icc"]
    agg = groups.agg("mean")
    assert agg.metadata.index.tolist() == ["gcc", "icc"]
    assert agg.metadata["size"].tolist() == [(1, 4), 2]
    assert agg.dataframe.loc[(0, "gcc"), "time"] == 2.0
    multi = groups.agg(["min", "max"])
    assert {"time_min", "time_max"} <= set(multi.dataframe.columns)


def test_profile_index_and_metadata_to_perfdata(three):
    out = three.set_profile_index("size")
    assert sorted(set(out.dataframe.index.get_level_values("profile"))) == [1, 2, 4]
    assert out.filter_profile([4]).num_profiles == 1
    with_size = three.metadata_columns_to_perfdata(["size"])
    assert with_size.dataframe.loc[(1, 2), "size"] == 4
    with pytest.raises(ArgumentError):
        three.set_profile_index("cc")


def test_to_graphframe_and_diff(three):
    one = three.to_graphframe(profile=1)
    assert one.dataframe["name"].tolist() == ["main", "solve", "blas", "mpi"]
    mean = three.to_graphframe(agg="mean")
    assert mean.dataframe.loc[0, "time"] == 2.0
    groups = three.groupby("cc")
    d = groups["gcc"].diff(groups["icc"], metric="time")
    assert "time delta" in d.dataframe.columns or any("delta" in c for c in d.dataframe.columns)


def test_query_keeps_matching_paths(three):
    out = three.query([{"name": "solve"}, "*"])
    assert [out.graph.frame(i)["name"] for i in range(out.graph.num_nodes)] == \
        ["solve", "blas", "mpi"]


def test_bad_arguments():
    with pytest.raises(GraphframeError):
        Ensemble.read("/nonexistent/folder/x.cali")
    with pytest.raises(ArgumentError):
        Ensemble.from_graphframes([])
    with pytest.raises(ArgumentError):
        Ensemble.from_graphframes([gf(("a",))], metadata={"x": [1, 2]})


names = st.sampled_from(["a", "b", "c"])
trees = st.recursive(st.tuples(names), lambda kids: st.tuples(names, kids, kids), max_leaves=6)


@settings(max_examples=40, deadline=None)
@given(st.lists(trees, min_size=1, max_size=4))
def test_composition_equals_folded_pairwise_unions(lists):
    gfs = [GraphFrame.from_lists(t) for t in lists]
    assume(all(g.graph.is_forest for g in gfs))
    union = gfs[0].graph
    for g in gfs[1:]:
        union = union.union(g.graph)
    ens = Ensemble.from_graphframes(gfs)
    assert ens.graph == union
    # every profile's rows: one per node of that profile
    per_profile = ens.dataframe.groupby(level="profile").size().tolist()
    assert per_profile == [g.graph.num_nodes for g in gfs]


def write_runs(folder, count):
    import json
    for i in range(count):
        doc = [{"frame": {"name": "main"}, "metrics": {"time": float(i)},
                "children": [{"frame": {"name": f"k{i % 2}"}, "metrics": {"time": 1.0}}]}]
        (folder / f"run{i}.json").write_text(json.dumps(doc))


def test_read_options_progress_and_jobs(tmp_path):
    write_runs(tmp_path, 4)
    (tmp_path / "README.md").write_text("not a profile")
    seen = []
    ens = Ensemble.read(tmp_path, progress=lambda d, t, w: seen.append((d, t, w)))
    assert ens.num_profiles == 4 and seen[0] == (0, 4, "profiles") and seen[-1] == (4, 4, "profiles")
    assert Ensemble.read(str(tmp_path / "run[01].json")).num_profiles == 2
    assert Ensemble.read(tmp_path, format="literal").graph.num_nodes == 3
    assert Ensemble.read(tmp_path, jobs=2).dataframe.equals(ens.dataframe)
    for bad in (0, -2, 1.5, "2"):
        with pytest.raises(ArgumentError):
            Ensemble.read(tmp_path, jobs=bad)
    with pytest.raises(ArgumentError):
        Ensemble.read(tmp_path, on_error="ignore")
    with pytest.raises(ArgumentError):
        Ensemble.read(tmp_path, fill="yes")


def test_metadata_sources(tmp_path):
    write_runs(tmp_path, 2)
    by_function = Ensemble.read(tmp_path, metadata=lambda path: {"trial": path[-6]})
    assert by_function.metadata["trial"].tolist() == ["0", "1"]
    by_frame = Ensemble.read(tmp_path, metadata=pd.DataFrame({"size": [8, 16]}))
    assert by_frame.metadata["size"].tolist() == [8, 16]
    with pytest.raises(ArgumentError):
        Ensemble.read(tmp_path, metadata=pd.DataFrame({"size": [8]}))


def test_ranked_profiles_mix_with_serial_ones():
    from tests.helpers import gf_from_edges
    ranked = gf_from_edges(["main", "solve"], [-1, 0], ranks=2)
    serial = gf_from_edges(["main", "io"], [-1, 0])
    ens = Ensemble.from_graphframes([ranked, serial])
    assert ens.index_levels == ["rank"]
    assert ens.dataframe.index.tolist() == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 1, 0),
                                            (2, 0, 0), (2, 0, 1)]
    assert ens.dataframe.loc[(2, 0, 1), "time"] == 11.0


def test_benchmark_copies_differ_in_content_and_metadata(tmp_path, shared_data):
    from benchmarks.ensemble_bench import make_copies
    files = make_copies(tmp_path, 3)
    ens = Ensemble.read(files)
    assert ens.profiles["hash"].nunique() == 3
    assert ens.metadata["launchdate"].tolist() == [1600000000, 1600000001, 1600000002]


def test_call_graphs_with_shared_nodes_are_refused():
    shared = {"frame": {"name": "c"}, "metrics": {"time": 1.0, "_hatchet_nid": 9}}
    dag = GraphFrame.from_literal([{"frame": {"name": "a"}, "metrics": {"time": 1.0}, "children": [
        {"frame": {"name": "b"}, "metrics": {"time": 1.0}, "children": [shared]},
        {"frame": {"name": "d"}, "metrics": {"time": 1.0}, "children": [dict(shared)]}]}])
    with pytest.raises(ArgumentError, match="several parents"):
        Ensemble.from_graphframes([dag])
