"""Plots of the real profiles in ../shared/data (skipped when the folder is absent)."""

import re

import numpy as np
import pytest

import graphframe
from graphframe.plot import flame_data, rank_matrix, scaling_data, scaling_table
from graphframe.plot.report import report
from tests.plot.profiles import matplotlib_agg

matplotlib_agg()


@pytest.fixture(scope="module")
def allgather(shared_data):
    return graphframe.read(shared_data / "hpctoolkit" / "hatchet-osu-allgather-database")


def test_flame_graph_of_an_hpctoolkit_database_matches_its_inclusive_times(allgather):
    data = flame_data(allgather, min_fraction=0)
    mean = allgather.dataframe["time (inc)"].groupby(level="node").mean()
    own = data.layout.node >= 0
    assert np.allclose(data.layout.width[own], mean.to_numpy()[data.layout.node[own]])
    assert data.value_label == "time (inc) [\u00b5s], mean over ranks x threads"
    assert data.color_kind == "category" and data.categories[0].endswith("libmpi.so.12.1.1")
    merged = flame_data(allgather)  # default: boxes under 0.1 % are merged
    assert len(merged.layout) < len(data.layout)
    assert np.isclose(merged.layout.total, data.layout.total)


def test_imbalance_matrix_of_ranks_times_threads(allgather):
    m = rank_matrix(allgather, imbalance=True, top=20)
    assert m.values.shape == (20, 10) and m.columns.tolist() == list(range(10))
    per_rank = allgather.dataframe["time"].groupby(level=["node", "rank"]).mean().unstack()
    ratio = per_rank.div(per_rank.mean(axis=1), axis=0).loc[m.nodes]
    assert np.allclose(m.values, ratio.to_numpy(), equal_nan=True)
    assert (np.diff(m.stat) <= 0).all()


def test_lulesh_weak_scaling_keyed_by_rank_count(shared_data):
    folder = shared_data / "ensemble" / "hatchet-tutorial" / "lulesh-scaling"
    runs = [graphframe.read(p) for p in sorted(folder.glob("*.json"))]
    table = scaling_table(runs, top=2)
    assert table.index.tolist() == [1.0, 8.0, 27.0, 64.0, 125.0, 216.0, 343.0, 512.0]
    assert table.columns.tolist() == ["main", "main > lulesh.cycle"]
    one = next(gf for gf in runs if "rank" not in gf.dataframe.index.names
               or len(gf.dataframe.index.unique(level="rank")) == 1)
    main = one.dataframe["time (inc)"].groupby(level="node").mean().max()
    assert np.isclose(table.loc[1.0, "main"], main)
    eff = scaling_data(table, mode="weak")["efficiency"]["main"]
    assert eff.iloc[0] == 1.0 and (eff.iloc[1:] < 1.0).all()


def test_thicket_mpi_scaling_keyed_by_metadata(shared_data):
    folder = shared_data / "ensemble" / "thicket-tutorial" / "mpi_scaling_cali"
    runs = [graphframe.read(p) for p in sorted(folder.glob("*.cali"))]
    table = scaling_table(runs, "Avg time/rank", by="mpi.world.size", top=3)
    assert table.index.tolist() == [27.0, 64.0, 125.0, 216.0, 343.0]
    assert table.index.name == "mpi.world.size"


def test_report_of_two_caliper_runs_with_different_rank_counts(shared_data):
    folder = shared_data / "caliper" / "generated" / "runtime-profile"
    before = graphframe.read(folder / "rp-json-split-1rank.json")
    after = graphframe.read(folder / "rp-json-split-4ranks.json")
    page = report(before, after)
    assert re.findall(r'<section id="([^"]+)">', page) == ["summary", "changes", "plots", "tree"]
    assert page.count("<svg") == 3
