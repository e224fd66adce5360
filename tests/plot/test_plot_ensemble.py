"""Plots of an Ensemble (ens.plot.<kind>): the numbers behind the artists, and errors."""

import numpy as np
import pandas as pd
import pytest

from graphframe.ensemble import Ensemble
from graphframe.errors import ArgumentError, MetricError
from graphframe.plot import ensemble as eplot
from graphframe.plot.common import resolve_node
from tests.plot.profiles import SOLVER, build, matplotlib_agg

mpl = matplotlib_agg()
plt = pytest.importorskip("matplotlib.pyplot", reason="the plot tests need matplotlib")

BASE = np.array([0.5, 1.0, 8.0, 0.5, 2.0, 0.25])
SKEW = np.array([0.0, 0.0, 0.5, 0.4, 0.0, 0.1])


@pytest.fixture(autouse=True)
def no_figures_left():
    plt.close("all")
    yield
    plt.close("all")


def runs() -> Ensemble:
    """4 runs: ranks 2/4/2/4, times scaled by 1, 0.5, 1.5, 0.25 (rank r adds r * skew)."""
    gfs = []
    for ranks, factor in ((2, 1.0), (4, 0.5), (2, 1.5), (4, 0.25)):
        times = (BASE[:, None] + SKEW[:, None] * np.arange(ranks)[None, :]) * factor
        gfs.append(build(SOLVER, times))
    return Ensemble.from_graphframes(gfs, metadata={"ranks": [2, 4, 2, 4],
                                                    "compiler": ["gcc", "gcc", "clang", "gcc"]})


def cells(ens: Ensemble, metric: str = "time") -> pd.DataFrame:
    """node x profile: mean over ranks (computed with pandas, independently)."""
    return ens.dataframe[metric].groupby(level=["node", "profile"]).mean().unstack("profile")


def test_heatmap_cells_are_node_means_over_ranks_per_profile():
    ens = runs()
    want = cells(ens)
    order = want.max(axis=1).sort_values(ascending=False, kind="stable").index[:3]
    ax = ens.plot.heatmap(top=3)
    got = np.ma.filled(ax.images[0].get_array(), np.nan)
    assert np.allclose(got, want.loc[order].to_numpy())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2", "3"]
    assert [t.get_text() for t in ax.get_yticklabels()][0] == "spmv"
    assert ax.get_xlabel() == "profile" and ax.get_ylabel() == "call paths (top 3 by max)"


def test_heatmap_by_metadata_key_averages_the_profiles_sharing_a_value():
    ens = runs()
    per_key = cells(ens).T.groupby(ens.metadata["ranks"].to_numpy()).mean().T
    m = eplot.profile_matrix(ens, "time", by="ranks", top=None, stat="sum")
    assert m.columns.tolist() == [2.0, 4.0]
    assert np.allclose(m.values, per_key.loc[m.nodes].to_numpy())
    assert m.value_label == "time, mean over ranks, mean over profiles per ranks"
    ax = eplot.heatmap(ens, by="compiler", top=2)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["clang", "gcc"]
    spmv = cells(ens).loc[resolve_node(ens, "spmv")]
    assert np.allclose(ax.images[0].get_array()[0], [spmv[2], spmv[[0, 1, 3]].mean()])


def test_bar_is_stacked_by_profile_and_ranked_by_the_sum():
    ens = runs()
    want = cells(ens).fillna(0.0)
    order = want.sum(axis=1).sort_values(ascending=False, kind="stable").index[:2]
    ax = ens.plot.bar(top=2)
    assert len(ax.containers) == 4
    left = np.zeros(2)
    for profile, container in enumerate(ax.containers):
        widths = np.array([r.get_width() for r in container])
        assert np.allclose(widths, want.loc[order, profile].to_numpy())
        assert np.allclose([r.get_x() for r in container], left)
        left += widths
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["0", "1", "2", "3"]
    assert ax.get_legend().get_title().get_text() == "profile"
    flat = eplot.bar(ens, top=1, stacked=False)
    assert np.isclose(flat.containers[0][0].get_width(), cells(ens).loc[resolve_node(ens, "spmv")].mean())


def test_distributions_are_one_call_paths_values_across_profiles():
    ens = runs()
    spmv = cells(ens).loc[resolve_node(ens, "spmv")].to_numpy()
    s = eplot.ensemble_samples(ens, "spmv")
    assert s.labels == ["spmv"] and np.allclose(s.values[0], spmv)
    ax = ens.plot.hist("spmv", bins=4)
    assert sum(r.get_height() for r in ax.containers[0]) == 4
    assert ax.get_ylabel() == "profiles"
    by = eplot.ensemble_samples(ens, "spmv", by="ranks")
    assert by.labels == ["2", "4"]
    assert np.allclose(by.values[0], spmv[[0, 2]]) and np.allclose(by.values[1], spmv[[1, 3]])
    box = ens.plot.box("spmv", by="ranks")
    assert box.get_xlabel() == "ranks"
    assert [t.get_text() for t in box.get_xticklabels()] == ["2", "4"]
    medians = [line.get_ydata()[0] for line in box.lines if line.get_color() == "C1"]
    assert np.allclose(medians, [np.median(spmv[[0, 2]]), np.median(spmv[[1, 3]])])
    violin = ens.plot.violin(["spmv", "io"])
    assert [t.get_text() for t in violin.get_xticklabels()] == ["spmv", "io"]
    rows = eplot.ensemble_samples(ens, "spmv", aggregate=None)
    assert np.allclose(np.sort(rows.values[0]),
                       np.sort(ens.dataframe["time"].xs(resolve_node(ens, "spmv"), level="node").to_numpy()))


def test_scaling_table_and_panels_of_an_ensemble():
    ens = runs()
    table = eplot.scaling_table(ens, "time (inc)", by="ranks", top=2)
    inc = cells(ens, "time (inc)").T.groupby(ens.metadata["ranks"].to_numpy()).mean()
    assert table.columns.tolist() == ["main", "solve"]
    assert table.index.name == "ranks" and table.index.tolist() == [2.0, 4.0]
    assert np.allclose(table.to_numpy(), inc[[resolve_node(ens, "main"), resolve_node(ens, "solve")]].to_numpy())
    fig = ens.plot.scaling("time (inc)", by="ranks", regions=["solve"])
    time_ax, speedup_ax, eff_ax = fig.axes[:3]
    solve = inc[resolve_node(ens, "solve")].to_numpy()
    assert np.allclose(time_ax.lines[0].get_ydata(), solve)
    assert np.allclose(time_ax.lines[1].get_ydata(), [solve[0], solve[0] / 2])
    assert np.allclose(speedup_ax.lines[0].get_ydata(), solve[0] / solve)
    assert np.allclose(eff_ax.lines[0].get_ydata(), solve[0] / solve / [1, 2])


def test_bad_input_names_the_choices_and_leaves_no_figure_open():
    ens = runs()
    with pytest.raises(ArgumentError, match="by='nodes' is not a metadata column; choose one "
                                            "of path, format, ranks, threads, source, "
                                            "compiler"):
        ens.plot.heatmap(by="nodes")
    with pytest.raises(MetricError, match="available metrics"):
        ens.plot.bar("energy")
    with pytest.raises(ArgumentError, match="needs numeric key values"):
        ens.plot.scaling(by="compiler")
    with pytest.raises(ArgumentError, match="give one node, not 2"):
        ens.plot.box(["spmv", "io"], by="ranks")
    with pytest.raises(ArgumentError, match="not a plot of an Ensemble"):
        ens.plot("flamegraph")
    assert plt.get_fignums() == []


def test_ax_is_used_and_returned():
    ens = runs()
    fig, ax = plt.subplots()
    assert ens.plot.heatmap(ax=ax) is ax
    assert ens.plot.bar(ax=ax) is ax
    fig2, axes = plt.subplots(1, 2)
    assert ens.plot.scaling("time (inc)", by="ranks", panels=("time", "efficiency"),
                            ax=axes) is fig2


def test_real_mpi_scaling_study(shared_data):
    import glob
    paths = sorted(glob.glob(str(shared_data / "ensemble/thicket-tutorial/mpi_scaling_cali/"
                                               "*.cali")))
    ens = Ensemble.read(paths)
    table = eplot.scaling_table(ens, "Avg time/rank", by="mpi.world.size", top=3)
    assert table.index.tolist() == [27.0, 64.0, 125.0, 216.0, 343.0]
    want = ens.dataframe["Avg time/rank"].groupby(level=["node", "profile"]).mean()
    sizes = ens.metadata["mpi.world.size"]
    for label in table.columns:
        node = int(np.flatnonzero(
            np.array(eplot.short_labels(ens, range(ens.graph.num_nodes))) == label)[0])
        per = want.xs(node, level="node")
        expect = [per[sizes[sizes == k].index].mean() for k in table.index]
        assert np.allclose(table[label].to_numpy(), expect, equal_nan=True)
    fig = ens.plot.scaling("Avg time/rank", by="mpi.world.size", top=3)
    assert len(fig.axes) == 3


def test_scaling_takes_its_key_positionally():
    """Issue 33 item 19: the key is the one thing scaling needs; it comes first."""
    ens = runs()
    lines = lambda fig: [line.get_ydata().tolist() for line in fig.axes[0].lines]
    keyword = ens.plot.scaling(by="ranks", metric="time (inc)", top=2)
    assert lines(ens.plot.scaling("ranks", top=2)) == lines(ens.plot.scaling(by="ranks", top=2))
    assert lines(ens.plot.scaling("ranks", "time (inc)", top=2)) == lines(keyword)
    assert lines(ens.plot.scaling("time (inc)", by="ranks", top=2)) == lines(keyword)
    assert lines(ens.plot("scaling", "ranks", "time (inc)", top=2)) == lines(keyword)
    with pytest.raises(ArgumentError, match="scaling needs a key: a metadata column"):
        ens.plot.scaling()
    with pytest.raises(ArgumentError, match="the metric is given twice"):
        ens.plot.scaling("ranks", "time", metric="time")
    with pytest.raises(ArgumentError, match=r"scaling takes the key and the metric \(3 given"):
        ens.plot.scaling("ranks", "time", "x")
    with pytest.raises(ArgumentError, match="by='time' is not a metadata column"):
        ens.plot.scaling("time")
