"""Thicket's display_* names (graphframe.plot.thicket_aliases): data behind the artists."""

import numpy as np
import pytest

from graphframe.errors import ArgumentError, MetricError
from graphframe.plot.common import resolve_node
from graphframe.plot.thicket_aliases import (display_boxplot, display_heatmap,
                                             display_histogram, display_violinplot, row_samples)
from graphframe.thicket import Thicket
from tests.plot.profiles import matplotlib_agg
from tests.plot.test_plot_ensemble import runs

mpl = matplotlib_agg()
plt = pytest.importorskip("matplotlib.pyplot", reason="the plot tests need matplotlib")


@pytest.fixture(autouse=True)
def no_figures_left():
    plt.close("all")
    yield
    plt.close("all")


def rows_of(ens, name, column="time"):
    return ens.dataframe[column].xs(resolve_node(ens, name), level="node").to_numpy()


def test_histogram_counts_every_row_of_the_node():
    ens = runs()
    spmv = rows_of(ens, "spmv")
    assert len(spmv) == 12   # 2 + 4 + 2 + 4 ranks
    ax = display_histogram(ens, resolve_node(ens, "spmv"), "time", bins=5)
    heights = [r.get_height() for r in ax.containers[0]]
    edges = np.histogram_bin_edges(spmv, bins=5)
    assert heights == np.histogram(spmv, bins=edges)[0].tolist()
    assert ax.get_xlabel() == "time" and ax.get_ylabel() == "rows"


def test_boxplot_of_nodes_and_columns_labels_each_pair():
    ens = runs()
    s = row_samples(ens, ["spmv", "io"], ["time", "time (inc)"])
    assert s.labels == ["spmv: time", "spmv: time (inc)", "io: time", "io: time (inc)"]
    assert np.allclose(s.values[2], rows_of(ens, "io"))
    ax = display_boxplot(ens, ["spmv", "io"], ["time", "time (inc)"])
    assert [t.get_text() for t in ax.get_xticklabels()] == s.labels
    medians = [line.get_ydata()[0] for line in ax.lines if line.get_color() == "C1"]
    assert np.allclose(medians, [np.median(v) for v in s.values])


def test_violinplot_draws_percentile_lines_at_the_quantiles():
    ens = runs()
    ax = display_violinplot(ens, ["spmv", "io"], ["time"], [0.25, 0.75],
                            percentile_colors=["red"])
    assert len(ax.collections) >= 2
    lines = ax.collections[-4:]
    got = [seg[0][1] for coll in lines for seg in coll.get_segments()]
    want = [np.quantile(rows_of(ens, n), q) for n in ("spmv", "io") for q in (0.25, 0.75)]
    assert np.allclose(got, want)
    assert mpl.colors.to_hex(lines[0].get_colors()[0]) == "#ff0000"
    with pytest.raises(ArgumentError, match="each must be in"):
        display_violinplot(ens, ["spmv"], ["time"], [25])


def test_heatmap_shows_statsframe_columns_for_every_node():
    ens = runs()
    stats = ens.statsframe.copy()
    per_node = ens.dataframe["time"].groupby(level="node")
    stats["time_mean"] = per_node.mean().reindex(stats.index)
    stats["time_std"] = per_node.std().reindex(stats.index)
    ens = ens.replace(statsframe=stats)
    ax = display_heatmap(ens, ["time_mean", "time_std"])
    assert np.allclose(ax.images[0].get_array(), stats[["time_mean", "time_std"]].to_numpy())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["time_mean", "time_std"]
    with pytest.raises(MetricError, match="choose one of time_mean, time_std"):
        display_heatmap(ens, ["time_max"])
    with pytest.raises(ArgumentError, match="compute statistics first"):
        display_heatmap(runs())
    assert plt.get_fignums() == [ax.figure.number]   # the failed calls left nothing open


def test_a_thicket_works_too_and_bad_columns_name_the_choices():
    tk = Thicket(runs())
    ax = display_histogram(tk, "spmv")
    assert sum(r.get_height() for r in ax.containers[0]) == 12
    plt.close("all")
    with pytest.raises(MetricError, match="choose one of"):
        display_boxplot(tk, ["spmv"], ["name"])
    assert plt.get_fignums() == []


def test_thickets_stats_module_offers_the_display_names():
    # graphframe.thicket.stats offers Thicket's versions (Thicket's arguments, checks and
    # returns: graphframe.thicket.stats.display); these seaborn-free ones stay here
    import graphframe.thicket.stats as stats
    from graphframe.thicket.stats import display

    for name in ("display_histogram", "display_boxplot", "display_violinplot", "display_heatmap",
                 "display_violinplot_thicket"):
        assert getattr(stats, name) is getattr(display, name)
        assert name in stats.__all__
