"""Node x rank matrices and heatmaps: cells, statistics, imbalance, errors."""

import numpy as np
import pandas as pd
import pytest

from graphframe.errors import ArgumentError, MetricError
from graphframe.plot import heatmap, heatmap_matrix, rank_matrix
from tests.plot.profiles import SOLVER, build, matplotlib_agg, node_of, solver

mpl = matplotlib_agg()
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(autouse=True)
def no_figures_left():
    plt.close("all")
    yield
    plt.close("all")


def pivot(gf, column="time"):
    """node x rank table computed with pandas, for comparison."""
    return gf.dataframe[column].unstack("rank")


def test_cells_are_the_rows_and_rows_are_ranked_by_the_statistic():
    gf = solver()
    m = rank_matrix(gf, top=None)
    table = pivot(gf)
    order = table.max(axis=1).sort_values(ascending=False, kind="stable")
    assert m.nodes.tolist() == order.index.tolist()
    assert np.allclose(m.values, table.loc[m.nodes].to_numpy())
    assert np.allclose(m.stat, order.to_numpy())
    assert m.columns.tolist() == [0, 1, 2, 3] and m.column_label == "rank"
    assert m.row_labels[:2] == ["spmv", "io"]
    assert "solve > MPI_Allreduce" in m.row_labels and "io > MPI_Allreduce" in m.row_labels


@pytest.mark.parametrize("by", ["mean", "sum", "min", "std", "imbalance"])
def test_each_statistic_orders_rows_like_pandas(by):
    gf = solver()
    table = pivot(gf)
    stat = {"mean": table.mean(axis=1), "sum": table.sum(axis=1), "min": table.min(axis=1),
            "std": table.std(axis=1, ddof=0),
            "imbalance": table.max(axis=1) / table.mean(axis=1)}[by]
    m = rank_matrix(gf, by=by, top=3)
    want = pd.DataFrame({"s": stat, "n": stat.index}).sort_values(["s", "n"],
                                                                   ascending=[False, True])
    assert m.nodes.tolist() == want.index[:3].tolist()
    assert np.allclose(m.stat, want["s"].to_numpy()[:3])
    assert m.stat_name == by


def test_imbalance_cells_are_value_over_the_mean_of_ranks():
    gf = solver()
    m = rank_matrix(gf, imbalance=True, top=2)
    table = pivot(gf)
    ratio = table.div(table.mean(axis=1), axis=0)
    assert m.stat_name == "imbalance"
    assert np.allclose(m.values, ratio.loc[m.nodes].to_numpy())
    assert m.value_label == "time / mean over ranks"
    allreduce = node_of(gf, "main > solve > MPI_Allreduce")
    assert m.nodes[0] == allreduce  # 0.5 .. 1.7: the most imbalanced


def test_missing_rows_are_empty_cells_and_threads_are_combined():
    times = np.array([[1.0, 1.0], [2.0, np.nan], [3.0, 5.0], [1.0, 1.0], [1.0, 1.0],
                      [1.0, 1.0]])
    gf = build(SOLVER, times, threads=2)  # thread t holds times * (t + 1)
    m = rank_matrix(gf, top=None, aggregate="mean")
    solve = list(m.nodes).index(node_of(gf, "main > solve"))
    assert np.isnan(m.values[solve, 1]) and m.values[solve, 0] == 3.0  # mean of 2 and 4
    assert m.value_label == "time, mean over threads"
    s = rank_matrix(gf, top=None, aggregate="sum")
    assert s.values[solve, 0] == 6.0
    threads = rank_matrix(gf, over="thread", top=1)
    assert threads.columns.tolist() == [0, 1] and threads.column_label == "thread"
    assert np.allclose(threads.values[0], [4.0, 8.0])  # spmv: mean over ranks of 3,5 and 6,10


def test_the_drawn_image_holds_the_matrix_with_labels_and_a_colour_bar():
    gf = solver()
    m = rank_matrix(gf, top=4)
    ax = heatmap(gf, top=4)
    image = ax.images[0]
    assert np.allclose(image.get_array().filled(np.nan), m.values)
    assert [t.get_text() for t in ax.get_yticklabels()] == m.row_labels
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2", "3"]
    assert ax.get_xlabel() == "rank" and ax.get_ylabel() == "call paths (top 4 by max)"
    bar = [a for a in ax.figure.axes if a is not ax][0]
    assert bar.get_ylabel() == "time"
    assert image.get_cmap().name == "viridis"


def test_imbalance_is_diverging_around_one():
    gf = solver()
    ax = heatmap(gf, imbalance=True, top=3)
    norm = ax.images[0].norm
    m = rank_matrix(gf, imbalance=True, top=3)
    assert norm.vcenter == 1.0 and norm(1.0) == 0.5
    assert (norm.vmin, norm.vmax) == (m.values.min(), m.values.max())
    assert ax.images[0].get_cmap().name.startswith("RdBu_r")


def test_heatmap_matrix_of_plain_data_labels_every_kth_row_when_there_are_many():
    values = np.arange(200.0).reshape(100, 2)
    ax = heatmap_matrix(values, [f"r{i}" for i in range(100)], ["p1", "p2"],
                        value_label="seconds", xlabel="profile", max_row_labels=10)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [f"r{i}" for i in range(0, 100, 10)]
    assert ax.get_xlabel() == "profile"
    assert np.array_equal(ax.images[0].get_array(), values)


@pytest.mark.parametrize("call, error, text", [
    (dict(metric="nope"), MetricError, "available metrics"),
    (dict(over="node"), ArgumentError, "its levels besides node: rank"),
    (dict(by="p99"), ArgumentError, "choose one of max, mean, sum, min, std, imbalance"),
    (dict(top=0), ArgumentError, "1 or more"),
    (dict(cmap="nope"), ArgumentError, "not a matplotlib colormap"),
])
def test_bad_input_names_the_choices_and_leaves_no_figure_open(call, error, text):
    with pytest.raises(error) as info:
        heatmap(solver(), **call)
    assert text in str(info.value)
    assert plt.get_fignums() == []


def test_a_profile_without_ranks_or_values_cannot_be_drawn():
    single = build(SOLVER, np.ones(6))
    with pytest.raises(ArgumentError, match="one row per node"):
        heatmap(single)
    empty = solver().copy()
    empty.dataframe["time"] = np.nan
    with pytest.raises(ArgumentError, match="nothing to draw"):
        heatmap(empty)
    with pytest.raises(ArgumentError, match="row labels"):
        heatmap_matrix(np.ones((2, 2)), ["a"], ["x", "y"])
    assert plt.get_fignums() == []


def test_a_log_colour_scale_spans_the_positive_values():
    gf = solver()
    ax = heatmap(gf, log=True, top=None)
    norm = ax.images[0].norm
    table = gf.dataframe["time"]
    assert isinstance(norm, mpl.colors.LogNorm)
    assert (norm.vmin, norm.vmax) == (table.min(), table.max())
    with pytest.raises(ArgumentError, match="choose one"):
        heatmap(gf, log=True, imbalance=True)
