"""HPCToolkit current-layout databases of the real corpus, checked against Hatchet's facts."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from graphframe import GraphFrame
from graphframe_readers import ReadError
from graphframe_readers.testing import check_reader
from graphframe_readers.hpctoolkit import read_hpctoolkit_latest
from graphframe_readers.hpctoolkit.latest.metadb import read_meta_db
from graphframe_readers.hpctoolkit.latest.profiledb import ProfileDb

ROOT = "hpctoolkit/"
# (database, our column holding what Hatchet calls "time", the file's metric name)
HATCHET_READS = [
    ("hatchet-gamess-v4-database", "time", "REALTIME (sec)"),
    # Hatchet renames REALTIME and cycles both to "time"; REALTIME has no values here
    ("hpcviewer-d.x-v4-database", "cycles", "cycles"),
    ("hpcviewer-inline-v4-database", "cycles", "cycles"),
    ("hpcviewer-issue-328-v4-database", "time", "REALTIME (sec)"),
    ("hpcviewer-loop-fork-cycles-v4-database", "cycles", "cycles"),
    ("pipit-ping-pong-v4-database", "time", "CPUTIME (sec)"),
]
ALL = [name for name, _, _ in HATCHET_READS] + ["hpcviewer-derived-metrics-v4-database",
                                                 "hpcviewer-multithread-v4-database"]


@pytest.mark.parametrize("name", ALL)
def test_conformance(shared_data, tmp_path, name):
    # the largest file is sometimes trace.db or cct.db, which this reader does not use:
    # cut meta.db and profile.db instead
    check_reader(shared_data / ROOT / name, "hpctoolkit-latest", tmp_path, truncate=False)
    for victim in ("meta.db", "profile.db"):
        copy = tmp_path / victim
        shutil.copytree(shared_data / ROOT / name, copy)
        data = (copy / victim).read_bytes()
        (copy / victim).write_bytes(data[: len(data) // 2])
        with pytest.raises(ReadError, match=str(copy / victim)):
            read_hpctoolkit_latest(copy)


def _main_thread(gf):
    g = gf.graph
    main = next(r for r in g.root_ids if g.frame(r)["name"] == "main thread")
    later = [r for r in g.root_ids if r > main]
    return main, (min(later) if later else g.num_nodes)


@pytest.mark.parametrize("name,column,file_metric", HATCHET_READS)
def test_summary_matches_hatchet_on_the_main_thread(shared_data, reference_facts, name, column,
                                                    file_metric):
    facts = reference_facts[ROOT + name]
    gf = GraphFrame.from_hpctoolkit_latest(shared_data / ROOT / name)
    df = gf.dataframe
    # Hatchet reads only the "main thread" entry point (one root named "entry"); we keep
    # every entry point (unknown entry, application threads) as a root of its own
    start, end = _main_thread(gf)
    sub = df.loc[start:end - 1]
    assert end - start == facts["graph_nodes"] == facts["dataframe_rows"]
    assert int(gf.graph.depth[start:end].max()) == facts["max_depth"]
    assert sub[f"{column} (inc)"].sum() == pytest.approx(facts["numeric_sums"]["time (inc)"],
                                                         rel=1e-12)
    assert list(df.index.names) == facts["index_names"] == ["node"]
    # Hatchet's "time" is HPCToolkit's "function" scope: a function's cost includes its
    # lines and loops, which are nodes too, so its sum exceeds the total. Ours is each
    # node's own cost: the main thread's column sums to the entry's inclusive value.
    assert sub[column].sum() == pytest.approx(df.loc[start, f"{column} (inc)"], rel=1e-12)
    assert facts["exc_metric_sums"]["time"] > sub[column].sum()
    assert _function_scope_sum(shared_data / ROOT / name, file_metric, sub["ctx_id"]) == \
        pytest.approx(facts["exc_metric_sums"]["time"], rel=1e-12)
    rebuilt = gf.update_inclusive_columns(inplace=False).dataframe
    for exc, inc in gf.inclusive_of.items():
        assert np.allclose(rebuilt[inc], df[inc], rtol=1e-9, atol=1e-9)


def _function_scope_sum(directory, metric, ctx_ids):
    meta = read_meta_db(directory / "meta.db")
    desc = next(m for m in meta.metrics if m.name == metric)
    stat = next(s for scope, combine, s in desc.summaries if scope == "function" and combine == 0)
    ctx, mid, value = ProfileDb(directory / "profile.db").values(0)
    keep = (mid == stat) & np.isin(ctx, ctx_ids.to_numpy())
    return value[keep].sum()


@pytest.mark.parametrize("name", ["hatchet-gamess-v4-database", "pipit-ping-pong-v4-database",
                                  "hpcviewer-multithread-v4-database",
                                  "hpcviewer-issue-328-v4-database",
                                  "hpcviewer-loop-fork-cycles-v4-database"])
def test_per_profile_rows_add_up_to_the_summary(shared_data, reference_facts, name):
    summary = GraphFrame.from_hpctoolkit_latest(shared_data / ROOT / name).dataframe
    gf = GraphFrame.from_hpctoolkit_latest(shared_data / ROOT / name, parallel_profiles_mode=True)
    df = gf.dataframe
    profiles = gf.metadata["profiles"]
    assert len(df) == len(summary) * len(profiles)
    metrics = gf.exc_metrics + gf.inc_metrics
    summed = df[metrics].groupby(level="node").sum()
    assert np.allclose(summed.to_numpy(), summary[metrics].to_numpy(), rtol=1e-9, atol=1e-9)
    entry = reference_facts.get(f"{ROOT}{name}#from_hpctoolkit_latest(parallel_profiles_mode=True)")
    if entry is not None:  # Hatchet's per-profile mode crashes on these (struct.error)
        assert entry["ok"] is False and entry["error"].startswith("error: unpack requires")


def test_per_profile_index_levels(shared_data):
    def levels(name):
        gf = GraphFrame.from_hpctoolkit_latest(shared_data / ROOT / name, parallel_profiles_mode=True)
        return list(gf.dataframe.index.names), sorted(set(
            zip(*[gf.dataframe.index.get_level_values(n) for n in gf.dataframe.index.names[1:]])))
    names, keys = levels("pipit-ping-pong-v4-database")
    assert names == ["node", "rank"] and keys == [(0,), (1,)]
    names, keys = levels("hpcviewer-issue-328-v4-database")  # two CPU threads and a GPU stream
    assert names == ["node", "rank", "thread"] and keys == [(0, 0), (0, 1), (0, 500)]
    # after fork(), two processes are both "thread 0" on node 0: profiles are the only key
    names, keys = levels("hpcviewer-loop-fork-cycles-v4-database")
    assert names == ["node", "profile"] and keys == [(1,), (2,)]
    names, keys = levels("hatchet-gamess-v4-database")
    assert names == ["node", "rank", "thread"] and len(keys) == 64


def test_prerelease_layout_hatchet_cannot_read(shared_data, reference_facts):
    name = "hpcviewer-multithread-v4-database"
    assert reference_facts[ROOT + name]["error"].startswith("KeyError")
    raw = read_hpctoolkit_latest(shared_data / ROOT / name)
    assert raw.metadata["layout"] == "4.0 (2022 pre-release)"
    gf = GraphFrame.from_raw(raw)
    df = gf.dataframe
    assert gf.graph.num_nodes == 220 and len(gf.graph.root_ids) == 4
    assert gf.exc_metrics == ["cycles", "instructions"]
    roots = list(gf.graph.root_ids)
    assert df["cycles"].sum() == df.loc[roots, "cycles (inc)"].sum() == 19185380779.0


def test_derived_metrics_database_hatchet_cannot_read(shared_data, reference_facts):
    name = "hpcviewer-derived-metrics-v4-database"
    assert reference_facts[ROOT + name]["error"] == "KeyError: None"  # no time metric
    gf = GraphFrame.from_hpctoolkit_latest(shared_data / ROOT / name)
    assert gf.graph.num_nodes == 225
    assert len(gf.exc_metrics) == len(gf.inc_metrics) == 78
    # the first metric of hpcviewer's order (metrics/default.yaml) with values: GINS...
    # come first but are all zero here
    assert gf.default_metric == "GPUOP (sec) (inc)"
    roots = list(gf.graph.root_ids)
    df = gf.dataframe
    for exc, inc in gf.inclusive_of.items():
        assert df[exc].sum() == pytest.approx(df.loc[roots, inc].sum(), rel=1e-9, abs=1e-9)
