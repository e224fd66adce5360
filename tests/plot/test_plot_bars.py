"""Top-N bars and distributions (hist, box, violin): data, artists, errors."""

import numpy as np
import pytest

from graphframe.errors import ArgumentError, MetricError
from graphframe.plot import (bar, bar_chart, box, distribution, hist, node_samples,
                             top_values, violin)
from tests.plot.profiles import SOLVER, build, matplotlib_agg, node_of, solver

mpl = matplotlib_agg()
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(autouse=True)
def no_figures_left():
    plt.close("all")
    yield
    plt.close("all")


def test_top_values_are_the_largest_means_over_ranks():
    gf = solver()
    mean = gf.dataframe["time"].groupby(level="node").mean().sort_values(ascending=False,
                                                                        kind="stable")
    t = top_values(gf, top=3)
    assert t.nodes.tolist() == mean.index[:3].tolist()
    assert np.allclose(t.values, mean.to_numpy()[:3])
    assert t.labels == ["spmv", "io", "solve > MPI_Allreduce"]
    inc = top_values(gf, inclusive=True, top=2, aggregate="max")
    assert inc.labels == ["main", "solve"] and inc.value_label == "time (inc), max over ranks"
    assert np.isclose(inc.values[0], gf.dataframe["time (inc)"].max())


def test_bars_are_drawn_largest_on_top_with_their_values():
    gf = solver()
    t = top_values(gf, top=4)
    ax = bar(gf, top=4)
    bars = ax.containers[0]
    assert np.allclose([r.get_width() for r in bars], t.values)
    assert [lbl.get_text() for lbl in ax.get_yticklabels()] == t.labels
    assert ax.yaxis_inverted() and ax.get_xlabel() == "time, mean over ranks"


def test_stacked_bars_have_one_segment_per_rank_and_a_legend():
    gf = solver()
    ax = bar(gf, top=2, stacked="rank")
    table = gf.dataframe["time"].unstack("rank")
    spmv, io = node_of(gf, "main > solve > spmv"), node_of(gf, "main > io")
    assert len(ax.containers) == 4
    for rank, container in enumerate(ax.containers):
        widths = [r.get_width() for r in container]
        lefts = [r.get_x() for r in container]
        assert np.allclose(widths, [table.loc[spmv, rank], table.loc[io, rank]])
        assert np.allclose(lefts, [table.loc[spmv, :rank - 1].sum() if rank else 0.0,
                                   table.loc[io, :rank - 1].sum() if rank else 0.0])
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["0", "1", "2", "3"]
    assert legend.get_title().get_text() == "rank"


def test_bar_chart_of_plain_values_with_colours_per_bar():
    ax = bar_chart(["a", "b"], [2.0, -1.0], colors=["red", "blue"], value_label="delta")
    rects = list(ax.containers[0])
    assert [r.get_width() for r in rects] == [2.0, -1.0]
    assert rects[0].get_facecolor() == mpl.colors.to_rgba("red")
    with pytest.raises(ArgumentError, match="2 labels for 3 bars"):
        bar_chart(["a", "b"], [1.0, 2.0, 3.0])


def test_samples_are_the_node_rows_and_hist_heights_are_their_counts():
    gf = solver(ranks=8)
    s = node_samples(gf, "solve > MPI_Allreduce")
    rows = gf.dataframe.loc[node_of(gf, "main > solve > MPI_Allreduce"), "time"]
    assert s.labels == ["solve > MPI_Allreduce"]
    assert np.allclose(s.values[0], rows.to_numpy())
    ax = hist(gf, "solve > MPI_Allreduce", bins=4)
    counts, edges = np.histogram(rows.to_numpy(), bins=4)
    bars = ax.containers[0]
    assert [r.get_height() for r in bars] == counts.tolist()
    assert np.allclose([r.get_x() for r in bars], edges[:-1])
    assert ax.get_xlabel() == "time" and ax.get_ylabel() == "ranks"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["solve > MPI_Allreduce"]


def test_the_default_is_the_call_path_with_the_largest_mean():
    s = node_samples(solver(), None, inclusive=True)
    assert s.labels == ["main"] and s.value_label == "time (inc)"


def test_box_and_violin_draw_one_shape_per_call_path():
    gf = solver(ranks=6)
    ax = box(gf, ["spmv", "io"])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["spmv", "io"]
    # per box: 2 whiskers, 2 caps, the box, the median, the fliers
    assert len(ax.lines) == 14
    medians = [ax.lines[7 * i + 5].get_ydata()[0] for i in range(2)]
    spmv = gf.dataframe.loc[node_of(gf, "main > solve > spmv"), "time"]
    io = gf.dataframe.loc[node_of(gf, "main > io"), "time"]
    assert np.allclose(medians, [spmv.median(), io.median()])
    ax = violin(gf, top=3)
    samples = node_samples(gf, None, top=3)
    bodies = ax.collections[:3]  # one body per call path, then extrema, bars and medians
    assert all(type(b).__name__ == "FillBetweenPolyCollection" or
               type(b).__name__ == "PolyCollection" for b in bodies)
    medians = [seg[0][1] for seg in ax.collections[-1].get_segments()]
    assert np.allclose(medians, [np.median(v) for v in samples.values])
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == top_values(gf, top=3).labels == samples.labels
    assert ax.get_ylabel() == "time"


def test_distribution_of_plain_samples():
    ax = distribution({"run a": [1.0, 2.0, np.nan], "run b": [2.0, 3.0]}, "box",
                      value_label="seconds")
    assert ax.get_ylabel() == "seconds"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["run a", "run b"]


def test_errors_name_what_exists():
    gf = solver()
    with pytest.raises(ArgumentError) as info:
        hist(gf, "MPI_Allreduce")
    assert str(info.value) == (
        "'MPI_Allreduce' names 2 call paths: main > io > MPI_Allreduce (node 2), "
        "main > solve > MPI_Allreduce (node 4); give one of them or a node id")
    with pytest.raises(ArgumentError, match="no call path matches 'nope'; names include main"):
        box(gf, ["spmv", "nope"])
    with pytest.raises(ArgumentError, match="node 99 does not exist; node ids are 0..5"):
        violin(gf, [99])
    with pytest.raises(MetricError, match="available metrics"):
        bar(gf, "nope")
    with pytest.raises(ArgumentError, match="choose one of hist, box, violin"):
        distribution({"a": [1.0]}, "pie")
    with pytest.raises(ArgumentError, match="nothing to draw"):
        distribution({"a": [np.nan]}, "hist")
    with pytest.raises(ArgumentError, match="rank=5 does not exist"):
        bar(gf, rank=5)
    gone = build(SOLVER, np.array([[1.0, 1.0]] * 5 + [[np.nan, np.nan]]))
    with pytest.raises(ArgumentError, match="has no time value on any rank"):
        hist(gone, "io > MPI_Allreduce")
    assert plt.get_fignums() == []
