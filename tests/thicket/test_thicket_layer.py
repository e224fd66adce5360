"""graphframe.thicket: Thicket's names and tables on the Thicket tutorial data."""

import json

import numpy as np
import pandas as pd
import pytest

import graphframe.thicket as th
from graphframe import GraphFrame
from graphframe.errors import ArgumentError, ReadError
from graphframe.thicket.profiles import profile_hasher

LASSEN = "ensemble/thicket-tutorial/lassen"
#: What Thicket 2026.1.1 gives for the 20 lassen files (columns and metadata columns).
THICKET_COLUMNS = ["nid", "spot.channel", "Min time/rank", "Max time/rank", "Avg time/rank",
                   "Total time", "BlockSize", "Bytes/Rep", "Flops/Rep", "Iterations/Rep",
                   "Kernels/Rep", "ProblemSize", "Reps", "name"]
THICKET_PERFORMANCE_COLS = THICKET_COLUMNS[2:-1]


@pytest.fixture(scope="module")
def tk(shared_data):
    return th.Thicket.from_caliperreader(str(shared_data / LASSEN), disable_tqdm=True)


def label_of(tk, ending):
    """The label of the profile read from the file whose path ends with ``ending``."""
    return next(k for k, v in tk.profile_mapping.items() if v.endswith(ending))


FIRST = "1048576/1/Base_CUDA-block_1024.cali"


def test_tables_have_thickets_shape(tk):
    assert tk.dataframe.shape == (1340, 14)
    assert list(tk.dataframe.columns) == THICKET_COLUMNS
    assert tk.dataframe.index.names == ["node", "profile"]
    assert tk.metadata.shape == (20, 32) and tk.metadata.index.name == "profile"
    assert tk.performance_cols == THICKET_PERFORMANCE_COLS
    assert list(tk.statsframe.dataframe.columns) == ["name"]
    assert len(tk.statsframe.dataframe) == 67
    # Thicket's labels: the hash of each path as given, the tables sorted by them
    assert len(tk.profile) == 20
    assert list(tk.profile_mapping) == sorted(profile_hasher(p) for p in tk.profile_mapping.values())
    assert tk.metadata.index.tolist() == list(tk.profile_mapping)
    assert sorted(tk.profile) == list(tk.profile_mapping)


def test_records_without_a_call_path_are_left_out_as_in_thicket(tk, shared_data):
    # graphframe.Ensemble keeps them under "<no path>"; the Thicket layer drops them
    # unless asked (its node counts are Thicket's)
    assert "<no path>" not in set(tk.dataframe["name"])
    kept = th.Thicket.from_caliperreader(str(shared_data / LASSEN), disable_tqdm=True,
                                         no_path="keep")
    assert kept.graph.num_nodes == 68 and kept.dataframe.shape == (1360, 14)
    assert kept.graph.roots[0].frame["name"] == "<no path>"
    mpi = str(shared_data / "ensemble/thicket-tutorial/mpi_scaling_cali")
    assert th.Thicket.from_caliper(mpi, disable_tqdm=True).graph.num_nodes == 45


def test_known_value_and_filled_rows(tk):
    root = tk.dataframe.xs(0, level="node")
    assert root.loc[label_of(tk, FIRST), "Avg time/rank"] == pytest.approx(2.123946, rel=1e-6)
    # Basic_INDEXLIST is missing from some profiles: filled rows are NaN, the name is kept
    node = tk.get_node("Basic_INDEXLIST")
    rows = tk.dataframe.loc[int(node)]
    assert rows["Avg time/rank"].isna().sum() == 15  # as in Thicket: present in 5 profiles
    assert set(rows["name"]) == {"Basic_INDEXLIST"}


def test_intersection_groupby_and_agg(tk, shared_data):
    inter = th.Thicket.from_caliperreader(str(shared_data / LASSEN), intersection=True,
                                          disable_tqdm=True)
    assert inter.graph.num_nodes == 64 and inter.dataframe.shape == (1280, 14)
    assert tk.intersection().graph.num_nodes == 64
    groups = tk.groupby(["ProblemSizeRunParam"])
    assert list(groups) == [(1048576.0,), (2097152.0,), (4194304.0,), (8388608.0,)]
    assert [len(g.profile) for g in groups.values()] == [8, 4, 4, 4]
    agg = groups.agg(["mean"])
    assert "Avg time/rank_mean" in agg.dataframe.columns and len(agg.profile) == 4
    by_tuning = tk.groupby("tuning")
    assert sorted(by_tuning) == ["block_1024", "block_128", "block_256", "block_512"]


def test_in_place_methods(tk):
    t = tk.copy()
    t.metadata_columns_to_perfdata(["variant", "tuning"])
    assert list(t.dataframe.columns[-2:]) == ["variant", "tuning"]
    assert "tuning" not in tk.dataframe.columns  # the copy did not write into tk
    one = t.filter_profile([t.metadata.index[3]])
    one.move_metrics_to_statsframe(["Avg time/rank"])
    assert one.statsframe.dataframe.loc[0, "Avg time/rank"] == \
        one.dataframe.xs(0, level="node")["Avg time/rank"].iloc[0]
    with pytest.raises(ArgumentError):
        t.move_metrics_to_statsframe(["Avg time/rank"])
    t.add_root_node({"name": "Extra", "type": "function"})
    assert t.graph.num_nodes == 68 and t.get_node("Extra").frame["name"] == "Extra"


def test_filters_query_and_tree(tk):
    f = tk.filter_metadata(lambda m: m["tuning"] == "block_128")
    assert len(f.profile) == 5 and f.dataframe.shape == (335, 14)
    q = tk.query([{"name": "Apps_.*"}])
    assert q.graph.num_nodes == 11
    tk.statsframe.dataframe["flag"] = np.arange(67) % 2
    kept = tk.filter_stats(lambda row: row["flag"] == 1)
    assert len(kept.statsframe.dataframe) == kept.graph.num_nodes
    text = tk.tree("Avg time/rank", indices=label_of(tk, FIRST), render_header=False)
    assert text.splitlines()[0].endswith("2.124 RAJAPerf")


def test_json_round_trip_keeps_metric_lists(tk):
    text = tk.to_json()
    doc = json.loads(text)
    assert set(doc) >= {"graph", "dataframe_indices", "dataframe", "metadata", "stats",
                        "inclusive_metrics", "exclusive_metrics", "profile", "profile_mapping"}
    back = th.Thicket.from_json(text)
    assert back.graph == tk.graph
    assert back.inc_metrics == tk.inc_metrics and back.exc_metrics == tk.exc_metrics
    cols = ["Avg time/rank", "BlockSize"]
    assert np.allclose(back.dataframe[cols].to_numpy(), tk.dataframe[cols].to_numpy(),
                       equal_nan=True)


def test_concat_and_statsframes(tk):
    a = tk.filter_metadata(lambda m: m["tuning"] == "block_128")
    b = tk.filter_metadata(lambda m: m["tuning"] == "block_256")
    both = th.Thicket.concat_thickets([a, b])
    assert len(both.profile) == 10 and both.dataframe.shape == (670, 14)
    a2 = a.filter_metadata(lambda m: m["ProblemSizeRunParam"] > 1048576)
    b2 = b.filter_metadata(lambda m: m["ProblemSizeRunParam"] > 1048576)
    wide = th.Thicket.concat_thickets([a2, b2], axis="columns", headers=["128", "256"],
                                      metadata_key="ProblemSizeRunParam")
    assert ("128", "Avg time/rank") in wide.dataframe.columns
    assert sorted(wide.profile) == [(s, h) for s in (2097152.0, 4194304.0, 8388608.0)
                                    for h in ("128", "256")]
    for t in (a, b):
        t.statsframe.dataframe["mean"] = 1.0
    s = th.Thicket.from_statsframes([a, b], metadata_key="tuning")
    assert s.profile == ["block_128", "block_256"]


def test_thicketize_and_literal():
    tk = th.Thicket.thicketize_graphframe(GraphFrame.from_lists(("main", "x")), "p.json")
    assert tk.profile_mapping == {profile_hasher("p.json"): "p.json"}
    assert tk.dataframe.shape[0] == 2
    lit = th.Thicket.from_literal([{"frame": {"name": "a"}, "metrics": {"time": 1.0}}])
    assert lit.dataframe["time"].tolist() == [1.0]
    with pytest.raises(th.EmptyMetadataTable):
        tk.filter_metadata(lambda m: True)


def test_from_caliper_with_a_query_runs_cali_query(shared_data, monkeypatch, tmp_path):
    split = shared_data / "caliper/generated/runtime-profile/rp-json-split-4ranks.json"
    tool = tmp_path / "cali-query"
    tool.write_text(f"#!/bin/sh\n[ \"$1\" = -q ] || exit 3\nexec /bin/cat '{split}'\n")
    tool.chmod(0o755)
    files = [str(shared_data / "caliper/generated/runtime-profile/rp-4ranks.cali"),
             str(shared_data / "caliper/thicket/mpi_scaling_cali/27_cores.cali")]
    monkeypatch.setenv("PATH", str(tmp_path))
    tk = th.Thicket.from_caliper(files, query="format json-split", disable_tqdm=True)
    # both files went through the (fake) tool: two copies of its json-split output
    assert len(tk.profile) == 2 and sorted(tk.profile_mapping.values()) == sorted(files)
    assert tk.dataframe.index.names == ["node", "profile", "rank"]
    assert len(tk.dataframe) == 2 * 52 and "<no path>" not in set(tk.dataframe["name"])
    monkeypatch.setenv("PATH", str(tmp_path / "absent"))
    with pytest.raises(ReadError, match="needs Caliper's cali-query program"):
        th.Thicket.from_caliper(files, query="format json-split", disable_tqdm=True)


def test_siblings_by_frame_as_in_thicket(tk, shared_data):
    # Thicket.from_caliperreader defaults to node_ordering=False (GraphFrame's reader to
    # True): Thicket 2026.1.1 lists these nodes first
    names = [n.frame["name"] for n in tk.graph.traverse()]
    assert names[:5] == ["RAJAPerf", "Algorithm", "Algorithm_MEMCPY", "Algorithm_MEMSET",
                         "Algorithm_REDUCE_SUM"]
    ordered = th.Thicket.from_caliperreader(str(shared_data / LASSEN), disable_tqdm=True,
                                            node_ordering=True)
    assert [n.frame["name"] for n in ordered.graph.traverse()][:3] == \
        ["RAJAPerf", "Apps", "Apps_LTIMES"]
