"""HPCToolkit current layout (meta.db + profile.db): unit tests on databases written by our writer."""

from __future__ import annotations

import pandas as pd
import pytest

import graphframe_readers
from graphframe_readers.testing import write_hpctoolkit_latest
from graphframe import GraphFrame
from graphframe_readers import ProfileBuilder, ReadError
from graphframe_readers.hpctoolkit import read_hpctoolkit_latest
from tests.readers.hpctoolkit.hpctoolkit_helpers import TREE, expected_inclusive, own_value, sample_profile

PROFILES = [(r, t) for r in (0, 1) for t in (0, 1)]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return write_hpctoolkit_latest(sample_profile(), tmp_path_factory.mktemp("v4") / "db")


def test_summary_profile(db):
    gf = GraphFrame.from_hpctoolkit_latest(db)
    df = gf.dataframe
    assert list(df.index.names) == ["node"]
    assert list(df.columns) == ["time (inc)", "time", "ctx_id", "name", "type", "file", "line", "module"]
    assert gf.exc_metrics == ["time"] and gf.inc_metrics == ["time (inc)"]
    assert gf.default_metric == "time (inc)"
    assert gf.graph.num_nodes == len(TREE) + 1  # + the "main thread" entry point
    assert df["name"].tolist() == [
        "main thread", "function: main", "function: helper", "line c.h:3", "line a.c:9",
        "loop a.c:5", "function: solve", "function: solve", "line b.c:22", "line b.c:21",
        "line a.c:6"]
    assert df["type"].tolist()[:6] == ["entry", "function", "function", "line", "line", "loop"]
    assert gf.graph.frame_dict(5) == {"type": "loop", "name": "loop a.c:5"}
    # ctx ids are 1..n in the writer's node order; values are summed over the 4 profiles
    for node, row in enumerate(TREE):
        r = df[df["ctx_id"] == node + 1].iloc[0]
        assert r["time"] == sum(own_value(node, *p) for p in PROFILES)
        assert r["time (inc)"] == sum(expected_inclusive(node, *p) for p in PROFILES)
        assert (r["file"], r["line"]) == (row[2], row[3])
    entry = df.loc[0]
    assert (entry["time"], entry["time (inc)"]) == (0.0, df.loc[1, "time (inc)"])
    rebuilt = gf.update_inclusive_columns(inplace=False).dataframe["time (inc)"]
    pd.testing.assert_series_equal(rebuilt, df["time (inc)"])


def test_per_profile_rows(db):
    gf = GraphFrame.from_hpctoolkit_latest(db, parallel_profiles_mode=True)
    df = gf.dataframe
    assert list(df.index.names) == ["node", "rank", "thread"]
    assert len(df) == (len(TREE) + 1) * 4
    by_ctx = df.reset_index().set_index(["ctx_id", "rank", "thread"])
    for node in range(len(TREE)):
        for r, t in PROFILES:
            row = by_ctx.loc[(node + 1, r, t)]
            assert row["time"] == own_value(node, r, t)
            assert row["time (inc)"] == expected_inclusive(node, r, t)
    profiles = gf.metadata["profiles"]
    assert [(p["rank"], p["thread"]) for p in profiles] == PROFILES
    only = GraphFrame.from_hpctoolkit_latest(db, parallel_profiles_mode=True, profile_ranks=[1])
    assert sorted(set(only.dataframe.index.get_level_values("rank"))) == [1]
    with pytest.raises(ReadError, match=r"rank\(s\) \[5\] not in the database"):
        read_hpctoolkit_latest(db, parallel_profiles_mode=True, profile_ranks=[5])


def test_names_metrics_and_progress(tmp_path):
    b = ProfileBuilder("x", index_levels=("rank",))
    main = b.add_node({"type": "function", "name": "main"})
    omp = b.add_node({"type": "function", "name": "f._omp_fn.0"}, main)
    b.add_row(main, {"time": 1.0, "cycles": 10.0}, rank=0)
    b.add_row(omp, {"time": 2.0, "cycles": 20.0}, rank=0)
    db = write_hpctoolkit_latest(b.build(exc_metrics=["time", "cycles"]), tmp_path / "db")
    seen = []
    raw = read_hpctoolkit_latest(db, label_function_nodes=False, progress=lambda *a: seen.append(a))
    # outlined OpenMP regions keep their whole name (Hatchet cuts at the first '.': "f")
    assert raw.node_columns["name"].tolist() == ["main thread", "main", "f._omp_fn.0"]
    assert list(raw.metric_columns) == ["time", "cycles", "time (inc)", "cycles (inc)"]
    assert seen == [(1, 1, "profiles")]
    only = read_hpctoolkit_latest(db, metric_names=["cycles"])
    assert list(only.metric_columns) == ["cycles"]
    assert only.metrics["cycles"].tolist() == [0.0, 10.0, 20.0]
    both = read_hpctoolkit_latest(db, metric_names=["CPUTIME (sec)"])
    assert list(both.metric_columns) == ["time", "time (inc)"]
    with pytest.raises(ReadError, match=r"no metric named 'bogus'"):
        read_hpctoolkit_latest(db, metric_names=["bogus"])


def test_sniffing_picks_the_layout(db, tmp_path):
    assert graphframe_readers.sniff(db) == "hpctoolkit-latest"
    assert graphframe_readers.read(db).num_nodes == len(TREE) + 1
    assert GraphFrame.read(db).graph.num_nodes == len(TREE) + 1
