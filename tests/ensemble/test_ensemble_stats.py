"""Ensemble.stats / pivot / speedup: exact values against pandas on real and hand-built data."""

import re

import numpy as np
import pandas as pd
import pytest

from graphframe import Ensemble, GraphFrame
from graphframe.errors import ArgumentError, MetricError

LULESH = "ensemble/hatchet-tutorial/lulesh-scaling"
MPI_SCALING = "ensemble/thicket-tutorial/mpi_scaling_cali"


def _ranks(path):
    return {"ranks": int(re.search(r"-(\d+)core", str(path)).group(1))}


@pytest.fixture(scope="module")
def lulesh(shared_data):
    return Ensemble.read(str(shared_data / LULESH), metadata=_ranks)


def _runs(times, **metadata):
    gfs = [GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": t},
                                     "children": [{"frame": {"name": "solve"},
                                                   "metrics": {"time": 2 * t},
                                                   "children": []}]}])
           for t in times]
    return Ensemble.from_graphframes(gfs, metadata=metadata or None)


def test_stats_over_profile_and_rank_equal_pandas(lulesh):
    ens = lulesh
    frame = ens.stats("time", stats=["mean", "std", "min", "max", "median", "count"],
                      over=("profile", "rank"), percentiles=[90])
    assert frame is ens.statsframe
    g = ens.dataframe["time"].groupby(level="node")
    for stat, expected in (("mean", g.mean()), ("std", g.std(ddof=1)), ("min", g.min()),
                           ("max", g.max()), ("median", g.median()),
                           ("percentiles_90", g.quantile(0.9))):
        np.testing.assert_allclose(frame[f"time_{stat}"].to_numpy(),
                                   expected.reindex(frame.index).to_numpy(), rtol=1e-12)
    assert frame["time_count"].tolist() == g.count().reindex(frame.index, fill_value=0).tolist()
    assert frame.loc[1, "time_count"] == 1296   # 1+8+27+64+125+216+343+512 ranks


def test_stats_over_profile_sums_ranks_first(lulesh):
    frame = lulesh.stats(["time", "time (inc)"], stats=["mean", "var", "sum", "count"])
    per_run = lulesh.dataframe[["time", "time (inc)"]].groupby(level=["node", "profile"]).sum()
    g = per_run.groupby(level="node")
    for c in ("time", "time (inc)"):
        np.testing.assert_allclose(frame[f"{c}_mean"], g[c].mean().reindex(frame.index),
                                   rtol=1e-12)
        np.testing.assert_allclose(frame[f"{c}_var"], g[c].var(ddof=1).reindex(frame.index),
                                   rtol=1e-12)
        np.testing.assert_allclose(frame[f"{c}_sum"], g[c].sum().reindex(frame.index),
                                   rtol=1e-12)
    assert frame["time_count"].max() == 8


def test_stats_defaults_and_missing_nodes():
    gfs = [GraphFrame.from_lists(("main", "a")), GraphFrame.from_lists(("main", "b"))]
    ens = Ensemble.from_graphframes(gfs)
    frame = ens.stats()
    assert list(frame.columns) == ["name"] + [f"{m}_{s}" for m in ("time", "time (inc)")
                                              for s in ("mean", "median", "std", "var", "min",
                                                        "max", "sum")]
    assert frame["time (inc)_mean"].tolist() == [2.0, 1.0, 1.0]
    assert frame["time (inc)_std"].iloc[0] == 0.0
    assert frame["time (inc)_std"].iloc[1:].isna().all()   # one value: no sample std
    assert ens.stats("time", stats=["std"], ddof=0)["time_std"].tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(ArgumentError, match="'profile' first"):
        ens.stats("time", over="rank")
    with pytest.raises(ArgumentError, match="rank"):
        ens.stats("time", over=("profile", "rank"))   # no rank level
    with pytest.raises(MetricError, match="no column 'nope'"):
        ens.stats("nope")


def test_pivot_and_speedup_hand_values():
    ens = _runs([8.0, 6.0, 5.0, 2.0], np=[1, 1, 2, 4])
    table = ens.pivot("np", "time")
    assert table.index.tolist() == [1, 2, 4] and table.columns.tolist() == ["main", "solve"]
    assert table["main"].tolist() == [7.0, 5.0, 2.0]
    assert table["solve"].tolist() == [14.0, 10.0, 4.0]
    assert ens.pivot("np", "time", agg="max")["main"].tolist() == [8.0, 5.0, 2.0]
    assert ens.pivot("np", "time", by="path").columns.tolist() == ["main", "main > solve"]
    s = ens.speedup("np", metric="time")
    assert s["main"].tolist() == [1.0, 1.4, 3.5]
    assert ens.speedup("np", metric="time", efficiency=True)["main"].tolist() == \
        [1.0, 0.7, 0.875]
    weak = ens.speedup("np", metric="time", weak=True, efficiency=True)
    assert weak["main"].tolist() == [1.0, 1.4, 3.5]        # T_b / T_p
    assert ens.speedup("np", metric="time", weak=True)["main"].tolist() == [1.0, 2.8, 14.0]
    assert ens.speedup("np", base=2, metric="time")["main"].tolist() == [5 / 7, 1.0, 2.5]
    with pytest.raises(ArgumentError, match="base=3"):
        ens.speedup("np", base=3, metric="time")
    with pytest.raises(ArgumentError, match="no metadata column 'nodes'"):
        ens.pivot("nodes", "time")
    with pytest.raises(ArgumentError, match="by='tree'"):
        ens.pivot("np", "time", by="tree")


def test_pivot_adds_regions_of_one_name_and_leaves_missing_ones_nan():
    gfs = [GraphFrame.from_lists(("main", ("a", "mpi"), ("b", "mpi"))),
           GraphFrame.from_lists(("main", ("a", "mpi")))]
    ens = Ensemble.from_graphframes(gfs, metadata={"n": [1, 2]})
    table = ens.pivot("n", "time")
    assert table.loc[1, "mpi"] == 2.0 and table.loc[2, "mpi"] == 1.0
    assert table.loc[1, "b"] == 1.0 and np.isnan(table.loc[2, "b"])


def test_pivot_on_lulesh_ranks_equals_pandas(lulesh):
    table = lulesh.pivot("ranks", "time (inc)", by="node", ranks="max")
    per_run = lulesh.dataframe["time (inc)"].groupby(level=["node", "profile"]).max()
    ranks = lulesh.metadata["ranks"]
    assert table.index.tolist() == [1, 8, 27, 64, 125, 216, 343, 512]
    for node in (1, 2, 10):
        series = per_run.loc[node]
        expected = pd.Series(series.to_numpy(), index=ranks.reindex(series.index)).sort_index()
        np.testing.assert_allclose(table[node].dropna().to_numpy(), expected.to_numpy())
    eff = lulesh.speedup("ranks", metric="time (inc)", weak=True, efficiency=True, by="node")
    assert eff.loc[1].dropna().eq(1.0).all()
    main = lulesh.pivot("ranks", "time (inc)", by="node")[1]
    assert eff.loc[512, 1] == pytest.approx(main.loc[1] / main.loc[512], rel=1e-12)


def test_pivot_on_spot_metadata(shared_data):
    ens = Ensemble.read(str(shared_data / MPI_SCALING))
    table = ens.pivot("mpi.world.size", "Avg time/rank")
    assert table.index.tolist() == [27, 64, 125, 216, 343]
    df = ens.dataframe
    main = df[df["name"] == "main"]["Avg time/rank"].droplevel("node")
    sizes = ens.metadata["mpi.world.size"].reindex(main.index)
    expected = pd.Series(main.to_numpy(), index=sizes.to_numpy()).sort_index()
    assert table["main"].tolist() == pytest.approx(expected.tolist(), rel=1e-12)
