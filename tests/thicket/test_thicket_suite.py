"""Thicket's own test cases, run against graphframe.thicket on the same files.

Each test follows one of Thicket's tests (named in its docstring) on the files
Thicket's tests use (``caliper/thicket/``) or the Thicket tutorial's. The
numbers are what Thicket 2026.1.1 gives for the same calls (measured side by side),
except where a comment says Thicket differs (see docs/guide/ensembles.md, "Coming
from Thicket").
"""

import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import graphframe.thicket as th
from graphframe.errors import ArgumentError, MetricError

T = th.Thicket
MPI = "caliper/thicket/mpi_scaling_cali/{}_cores.cali"
QUARTZ_1M = "caliper/thicket/rajaperf/quartz/gcc10.3.1_1048576/O3/1/Base_Seq-default.cali"
TIMESERIES = "caliper/hatchet/caliper-timeseries-cali/timeseries.cali"
ORDERED = "caliper/hatchet/caliper-ordered-cali/230525-151052_1930517_eWbGeyrlBOPT.cali"


def node_names(tk):
    return [tk.graph.frame(i)["name"] for i in range(tk.graph.num_nodes)]


@pytest.fixture(scope="module")
def mpi(shared_data):
    return [str(shared_data / MPI.format(n)) for n in (27, 64, 125, 216, 343)]


@pytest.fixture(scope="module")
def one_trial(shared_data):
    """Thicket's ``rajaperf_cali_1trial``: every variant and tuning of trial 1 (4 files)."""
    return sorted(str(p) for p in (shared_data / "caliper/thicket/rajaperf").glob("**/1/*.cali"))


@pytest.fixture(scope="module")
def lassen(shared_data):
    return T.from_caliperreader(str(shared_data / "ensemble/thicket-tutorial/lassen"),
                                disable_tqdm=True)


@pytest.fixture
def columns_joined(one_trial):
    """Thicket's ``thicket_axis_columns``: groupby("tuning") joined on the problem size."""
    tk = T.from_caliperreader(one_trial, disable_tqdm=True)
    gb = tk.groupby("tuning")
    parts = list(gb.values())
    copies = [t.deepcopy() for t in parts]
    joined = T.concat_thickets(thickets=parts, axis="columns", headers=list(gb.keys()),
                               metadata_key="ProblemSizeRunParam", disable_tqdm=True)
    return parts, copies, joined


def test_from_caliperreader_one_file(shared_data):
    """test_caliperreader.test_from_caliperreader"""
    tk = T.from_caliperreader(str(shared_data / QUARTZ_1M), disable_tqdm=True)
    assert tk.dataframe.shape == (74, 14)
    first = tk.dataframe.index.get_level_values(0)[0]
    assert tk.dataframe.loc[first, "Avg time/rank"].values[0] == 103.47638
    again = T.from_caliperreader(str(shared_data / QUARTZ_1M), intersection=True,
                                 disable_tqdm=True)
    assert again.dataframe.shape == (74, 14)  # Thicket: (74, 25) with "(inc)" sums


def test_node_ordering_follows_calipers_node_order(shared_data):
    """test_caliperreader.test_node_ordering_from_caliper: the order its test expects (Thicket
    2024.2's default); by default the order Caliper recorded, where a file has one."""
    tk = T.from_caliperreader(str(shared_data / ORDERED), disable_tqdm=True)
    assert tk.dataframe["name"].tolist()[:5] == ["main", "lulesh.cycle", "TimeIncrement",
                                                 "LagrangeLeapFrog", "LagrangeNodal"]
    assert tk.dataframe["Total time"].tolist()[:4] == [1.250952, 1.229935, 0.000085, 1.229702]
    assert node_names(tk) == tk.dataframe["name"].tolist()
    assert T.from_caliperreader(str(shared_data / ORDERED), disable_tqdm=True,
                                node_ordering=True).dataframe["name"].tolist() == \
        tk.dataframe["name"].tolist()
    # Thicket 2026.1.1's node_ordering=False: siblings by frame (also this reader's order
    # for files that record none, such as the tutorial's RAJAPerf runs)
    by_frame = T.from_caliperreader(str(shared_data / ORDERED), disable_tqdm=True,
                                    node_ordering=False)
    assert by_frame.dataframe["name"].tolist()[:5] == [
        "main", "lulesh.cycle", "LagrangeLeapFrog", "CalcTimeConstraintsForElems",
        "LagrangeElements"]


def test_concat_thickets_index(mpi):
    """test_concat_thickets.test_concat_thickets_index"""
    a = T.from_caliperreader(mpi[0], disable_tqdm=True)
    b = T.from_caliperreader(mpi[1], disable_tqdm=True)
    tk = T.concat_thickets([a, b], disable_tqdm=True)
    assert tk.dataframe.shape == (90, 7)
    assert tk.profile == [th.profiles.profile_hasher(p) for p in mpi[:2]]
    node = int(tk.get_node("CalcForceForNodes"))
    assert tk.dataframe.loc[node, "Min time/rank"].sum() == pytest.approx(37.21333)
    # a file read twice: its label (the hash of its path) twice
    with pytest.raises(th.utils.DuplicateIndexError):
        T.from_caliperreader([mpi[0], mpi[0]], disable_tqdm=True)


def test_concat_thickets_columns(columns_joined, one_trial):
    """test_concat_thickets.test_concat_thickets_columns"""
    parts, copies, joined = columns_joined
    for part, copy in zip(parts, copies):
        assert part.dataframe.equals(copy.dataframe) and part.metadata.equals(copy.metadata)
    df = joined.dataframe
    assert df.shape == (148, 40)  # 3 headers x 13 columns + one ("name", "")
    assert df.shape[1] == sum(p.dataframe.shape[1] for p in parts) - len(parts) + 1
    assert df.index.names == ["node", "ProblemSizeRunParam"]
    assert joined.metadata.shape == (2, 93)  # the key column is the index
    assert joined.metadata.index.name == "ProblemSizeRunParam"
    assert list(df.columns[-1:]) == [("name", "")]
    row = df.loc[(0, 1048576.0)]
    assert row[("block_128", "Min time/rank")] == 1.780923
    assert np.isnan(df.loc[(0, 2097152.0), ("block_128", "Min time/rank")])
    # (value, header) pairs, in the inputs' order (Thicket 2026.1.1's list)
    # within "default" the profiles in label order: by the hash of their path, which
    # depends on where the corpus lies (as in Thicket)
    default = sorted((p for p in one_trial if p.endswith("default.cali")),
                     key=th.profiles.profile_hasher)
    assert joined.profile == [(1048576.0, "block_128"), (1048576.0, "block_256")] + \
        [(2097152.0 if "_2097152/" in p else 1048576.0, "default") for p in default]
    assert list(joined.profile_mapping) == joined.profile
    nodes = pd.unique(np.asarray(df.index.get_level_values("node")))
    assert (nodes == np.asarray(joined.statsframe.dataframe.index)).all()


def test_filter_query_and_stats_on_columns_joined(columns_joined):
    """test_concat_thickets: filter_metadata, filter_stats, query and filter_profile on a
    column-joined Thicket (tuple column names)."""
    _, _, joined = columns_joined
    f = joined.filter_metadata(lambda row: row[("default", "variant")] == "Base_Seq")
    assert len(f.profile) == 4 and f.dataframe.shape == (148, 40)
    joined.statsframe.dataframe[("test", "num")] = range(74)
    s = joined.filter_stats(lambda row: row[("test", "num")] < 10)
    assert s.dataframe.shape == (20, 40)  # Thicket: (20, 73) with "(inc)" sums
    q = (th.QueryMatcher().match("*").rel(".", lambda row: row["name"].apply(
        lambda x: re.match(r"Algorithm*", x) is not None).all()))
    assert node_names(joined.query(q)) == [
        "RAJAPerf", "Algorithm", "Algorithm_MEMCPY", "Algorithm_MEMSET", "Algorithm_REDUCE_SUM",
        "Algorithm_SCAN", "Algorithm_SORT", "Algorithm_SORTPAIRS"]
    kept = joined.filter_profile([(2097152.0, "default")])
    assert kept.profile == [(2097152.0, "default")]
    assert kept.dataframe.index.get_level_values("ProblemSizeRunParam").unique().tolist() == \
        [2097152.0]
    unique = joined.get_unique_metadata()
    assert [h for h, _ in unique] == ["block_128", "block_256", "default"]
    assert unique[2][1]["variant"] == ["Base_Seq"]


def test_intersection(one_trial):
    """test_intersection.test_intersection"""
    tk = T.from_caliperreader(one_trial, disable_tqdm=True)
    by_method = tk.intersection()
    by_reader = T.from_caliperreader(one_trial, intersection=True, disable_tqdm=True)
    assert (tk.graph.num_nodes, by_method.graph.num_nodes, by_reader.graph.num_nodes) == \
        (74, 64, 64)
    assert by_method.dataframe.shape == by_reader.dataframe.shape == (256, 14)


def test_filter_profile(one_trial):
    """test_filter_profile.test_filter_profile"""
    tk = T.from_caliperreader(one_trial, disable_tqdm=True)
    keep, gone = tk.profile[2:], tk.profile[:2]   # profiles keep their ids (as in Thicket)
    f = tk.filter_profile(keep)
    assert f.profile == keep   # in tk.profile's order; the tables sorted by label
    for component in (list(f.profile_mapping), list(f.metadata.index),
                      list(f.dataframe.index.get_level_values("profile").unique())):
        assert component == sorted(keep) and not set(component) & set(gone)


def test_filter_metadata_and_its_errors(lassen):
    """test_thicket.test_filter / test_filter_metadata"""
    f = lassen.filter_metadata(lambda row: row["tuning"] == "block_128")
    assert f.dataframe.shape == (335, 14) and f.metadata.shape == (5, 32)
    assert f.statsframe.dataframe.shape == (67, 1)
    with pytest.raises(th.InvalidFilter):
        lassen.filter_metadata(123)
    empty = lassen.copy()
    empty.metadata = empty.metadata.iloc[0:0]
    with pytest.raises(th.EmptyMetadataTable):
        empty.filter_metadata(lambda row: True)
    with pytest.raises(th.EmptyMetadataTable):
        empty.groupby(["tuning"])


def test_groupby_and_agg(lassen):
    """test_groupby.check_groupby (string, numeric and single-value columns)"""
    for column, keys, sizes in (
            ("tuning", ["block_1024", "block_128", "block_256", "block_512"], [5] * 4),
            ("ProblemSizeRunParam", [1048576.0, 2097152.0, 4194304.0, 8388608.0], [8, 4, 4, 4]),
            ("cali.channel", ["spot"], [20])):
        groups = lassen.groupby(column)
        assert list(groups) == keys and [len(t.profile) for t in groups.values()] == sizes
        for key, sub in groups.items():
            expected = lassen.metadata.index[lassen.metadata[column] == key].tolist()
            assert sub.profile == expected
            assert sorted(sub.dataframe.index.get_level_values("profile").unique()) == expected
            assert "name" in sub.statsframe.dataframe.columns
    agg = lassen.groupby("tuning").agg([np.mean])
    assert agg.dataframe.index.names == ["node", "tuning"]
    assert agg.profile == ["block_1024", "block_128", "block_256", "block_512"]
    assert agg.dataframe.shape == (268, 14)


def test_filter_stats_query_stats_and_squash(lassen):
    """test_filter_stats, test_query_stats; squash keeps the rows' nodes"""
    tk = lassen.copy()
    tk.statsframe.dataframe["num"] = range(67)
    kept = tk.filter_stats(lambda row: row["num"] % 3 == 0)
    assert kept.dataframe.shape == (460, 14)  # Thicket: (460, 25) with "(inc)" sums
    th.stats.mean(tk, ["Avg time/rank"])
    q = th.QueryMatcher().match(".", lambda row: row["Avg time/rank_mean"] > 0.3).rel("*")
    assert tk.query_stats(q).dataframe.shape == (1340, 14)
    sub = lassen.copy()
    keep = [n for n in sub.dataframe.index.get_level_values(0).unique()
            if sub.graph.frame(int(n))["name"].startswith(("RAJAPerf", "Stream"))]
    sub.dataframe = sub.dataframe.loc[keep]
    squashed = sub.squash()
    assert node_names(squashed) == ["RAJAPerf", "Stream", "Stream_ADD", "Stream_COPY",
                                    "Stream_DOT", "Stream_MUL", "Stream_TRIAD"]
    assert squashed.dataframe.shape == (140, 14)


def test_query_on_filled_rows(lassen):
    """test_query.check_query; Thicket's filled rows have name NaN, which breaks this query
    (TypeError in re.match); here they carry the node's name."""
    q = (th.QueryMatcher().match("*").rel(".", lambda row: row["name"].apply(
        lambda x: re.match(r"Algorithm.*", x) is not None).all()))
    out = lassen.query(q)
    assert node_names(out) == ["RAJAPerf", "Algorithm", "Algorithm_MEMCPY", "Algorithm_MEMSET",
                               "Algorithm_REDUCE_SUM"]
    assert out.profile == lassen.profile


def test_metadata_columns_to_perfdata(lassen):
    tk = lassen.copy()
    tk.metadata_columns_to_perfdata(["variant", "tuning"])
    assert tk.dataframe.columns[-2:].tolist() == ["variant", "tuning"]
    with pytest.warns(UserWarning, match="'variant' is already in the performance data"):
        tk.metadata_columns_to_perfdata("variant")
    tk.metadata_columns_to_perfdata("variant", overwrite=True)
    assert tk.dataframe.columns.tolist().count("variant") == 1
    tk.metadata_columns_to_perfdata("ProblemSizeRunParam", drop=True)
    assert "ProblemSizeRunParam" not in tk.metadata.columns


def test_move_metrics_to_statsframe(lassen):
    first = next(k for k, v in lassen.profile_mapping.items()
                 if v.endswith("1048576/1/Base_CUDA-block_1024.cali"))
    one = lassen.filter_profile([first])
    one.move_metrics_to_statsframe(["Avg time/rank"])
    assert one.statsframe.dataframe["Avg time/rank"].iloc[0] == 2.123946
    with pytest.raises(KeyError):   # as Thicket: already there without override
        one.move_metrics_to_statsframe(["Avg time/rank"])
    one.move_metrics_to_statsframe(["Avg time/rank"], override=True)
    with pytest.raises(ValueError):  # as Thicket: several profiles and none named
        lassen.copy().move_metrics_to_statsframe(["Avg time/rank"])
    with pytest.raises(ValueError, match="profile 'nope' does not exist"):
        lassen.copy().move_metrics_to_statsframe(["Avg time/rank"], profile="nope")
    with pytest.raises(MetricError):
        one.move_metrics_to_statsframe(["no such metric"])


def test_get_unique_metadata(lassen):
    unique = lassen.get_unique_metadata()
    assert list(unique) == sorted(unique, key=str.lower)  # Thicket's order of the keys
    # Thicket's: values in the metadata table's order, that of the profile labels (the
    # hash of each path, so it depends on where the corpus lies: derived from the paths),
    # list-valued columns and graphframe's own `unattributed` columns left out
    paths = [lassen.profile_mapping[label] for label in sorted(lassen.profile_mapping)]
    tunings = [re.search(r"-(block_\d+)\.cali$", p).group(1) for p in paths]
    sizes = [float(re.search(r"_(\d+)/\d+/", p).group(1)) for p in paths]
    assert unique["tuning"] == list(dict.fromkeys(tunings))
    assert unique["ProblemSizeRunParam"] == list(dict.fromkeys(sizes))
    assert sorted(unique["tuning"]) == ["block_1024", "block_128", "block_256", "block_512"]
    assert not {"cmdline", "libraries", "unattributed", "unattributed share"} & set(unique)
    assert len(unique) == 30 and len(unique["launchdate"]) == 5


LITERAL = [
    {"frame": {"name": "A", "type": "function"}, "metrics": {"memory": 3.0, "time": 1.0},
     "children": [{"frame": {"name": "B", "type": "function"},
                   "metrics": {"memory": 2.0, "time": 4.0}, "children": []}]},
    {"frame": {"name": "C", "type": "function"}, "metrics": {"memory": 5.0, "time": 2.0},
     "children": []},
]


def test_add_root_node_and_get_node():
    """test_add_root_node.test_add_root_node, test_get_node.test_get_node"""
    tk = T.from_literal(LITERAL)
    assert tk.graph.num_nodes == 3
    tk.add_root_node({"name": "Test", "type": "function"})
    node = tk.get_node("Test")
    assert tk.graph.num_nodes == 4 and tk.statsframe.graph.num_nodes == 4
    assert node_names(tk) == ["A", "B", "C", "Test"]
    assert int(node) in tk.dataframe.index.get_level_values("node")
    assert tk.dataframe.loc[int(node), "name"].tolist() == ["Test"]
    assert np.isnan(tk.dataframe.loc[int(node), "time"].iloc[0])
    assert tk.statsframe.dataframe.loc[int(node), "name"] == "Test"
    with pytest.raises(KeyError):   # Thicket 2026: KeyError (earlier: ValueError)
        tk.get_node("Foo")
    with pytest.raises(ValueError):
        tk.get_node("Foo")
    a = tk.get_node("A")
    assert (a.frame["name"], a.frame["type"], int(a)) == ("A", "function", 0)


def test_copy_and_deepcopy(shared_data):
    """test_copy.test_copy / test_deepcopy (the shallow copy cannot share writes: pandas'
    copy-on-write makes every table copy independent once written)"""
    tk = T.from_caliperreader(str(shared_data / QUARTZ_1M), disable_tqdm=True)
    tk.exc_metrics.append("value")
    for other, deep in ((tk.copy(), False), (tk.deepcopy(), True)):
        assert other is not tk and (other.graph is tk.graph) is not deep
        assert other.graph == tk.graph
        assert other.dataframe is not tk.dataframe and other.dataframe.equals(tk.dataframe)
        assert other.exc_metrics is not tk.exc_metrics and other.exc_metrics == tk.exc_metrics
        assert other.inc_metrics == tk.inc_metrics and other.default_metric == tk.default_metric
        assert other.metadata is not tk.metadata and other.metadata.equals(tk.metadata)
        assert other.profile == tk.profile and other.profile_mapping == tk.profile_mapping
        assert other.statsframe is not tk.statsframe
        assert other.graph is other.statsframe.graph
        other.dataframe.iloc[0, 2] = -5.0
        assert tk.dataframe.iloc[0, 2] != -5.0


def test_tree_indices(lassen):
    """test_tree: one profile's tree by indices= (a label or a one-element list)"""
    # the default is the first row's profile: the smallest label (1M, trial 2, block 512)
    labels = lassen.metadata.index  # the hash of each path, sorted (so it depends on where
    root = lassen.graph.roots[0]     # the corpus lies, as in Thicket)
    assert list(labels) == sorted(labels)

    def root_value(label):
        return f"{lassen.dataframe.loc[(root, label), 'Avg time/rank']:.3f} RAJAPerf"

    first = lassen.tree("Avg time/rank", render_header=False).splitlines()[0]
    assert first == root_value(labels[0])
    assert lassen.tree("Avg time/rank", indices=labels[1], render_header=False).splitlines()[0] \
        == root_value(labels[1])
    assert lassen.tree("Avg time/rank", indices=[labels[2]],
                       render_header=False).splitlines()[0] == root_value(labels[2])
    block_256 = next(label for label, path in lassen.profile_mapping.items()
                     if path.endswith("4194304/1/Base_CUDA-block_256.cali"))
    assert lassen.tree("Avg time/rank", indices=block_256,
                       render_header=False).splitlines()[0] == "6.768 RAJAPerf"


def test_json_round_trip(mpi):
    """test_json_interface"""
    tk = T.from_caliperreader(mpi[:2], disable_tqdm=True)
    text = tk.to_json()
    assert sorted(json.loads(text)) == ["dataframe", "dataframe_indices", "exclusive_metrics",
                                        "graph", "inclusive_metrics", "metadata", "profile",
                                        "profile_idx_name", "profile_mapping", "stats"]
    back = T.from_json(text)
    assert back.dataframe.shape == (90, 7) and back.graph == tk.graph
    assert back.inc_metrics == tk.inc_metrics and back.exc_metrics == tk.exc_metrics


def test_from_statsframes(mpi):
    """test_from_statsframes"""
    tks = [T.from_caliperreader(mpi[i:i + 2], disable_tqdm=True) for i in (0, 2)]
    for tk in tks:
        th.stats.mean(tk, ["Avg time/rank"])
    plain = T.from_statsframes(tks)
    assert plain.profile == [0, 1] and plain.dataframe.shape == (90, 2)
    keyed = T.from_statsframes(tks, metadata_key="mpi.world.size")
    assert keyed.dataframe.index.names == ["node", "mpi.world.size"]
    # each input's key: its first profile's value, first in label (path hash) order
    sizes = {path: n for path, n in zip(mpi, (27, 64, 125, 216, 343))}
    firsts = [min(mpi[i:i + 2], key=th.profiles.profile_hasher) for i in (0, 2)]
    assert keyed.profile == [sizes[p] for p in firsts] and keyed.metadata.shape == (2, 27)


def test_from_timeseries(shared_data):
    """test_timeseries: one profile per iteration block, an ``iteration`` level"""
    tk = T.from_timeseries(str(shared_data / TIMESERIES))
    assert tk.dataframe.index.names == ["node", "iteration"]
    assert tk.dataframe.shape == (950, 18) and tk.graph.num_nodes == 19
    assert "loop.start_iteration" not in tk.dataframe.columns
    assert tk.profile[:5] == [0, 2, 4, 6, 8] and tk.metadata.shape[0] == 50
    assert tk.metadata.index.name == "iteration"


def test_from_timemory(shared_data):
    tk = T.from_timemory(str(shared_data / "timemory/hatchet/wall.tree.json"), disable_tqdm=True)
    assert tk.graph.num_nodes == 14 and tk.profiles["format"].tolist() == ["timemory"]
    with pytest.raises(ArgumentError, match="the timemory reader has no option 'no_path'"):
        T.from_timemory(str(shared_data / "timemory/hatchet/wall.tree.json"), no_path="drop")
